"""``toepen simulate``: every preset at every table size it allows, and records that replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toepen.cli import app
from toepen.record import load, replay
from toepen.rules import Rules
from toepen.tools.simulate import play_random_session

CONFIGS = [
    (name, n) for name in Rules.preset_names() for n in Rules.preset(name).allowed_table_sizes()
]


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_simulate_runs_every_preset_and_size(preset: str, players: int) -> None:
    result = CliRunner().invoke(
        app, ["simulate", "--games", "30", "-p", preset, "-n", str(players), "--json"]
    )
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout.strip().splitlines()[-1])
    assert stats["preset"] == preset and stats["players"] == players
    assert stats["sessions"] == "30"
    assert float(stats["hands per session"]) >= 1


@pytest.mark.parametrize(
    ("preset", "players", "message"),
    [
        ("teams", 5, "--players: teams is played by 4 or 6 players, not 5"),
        ("gezinstoepen", 7, "--players: gezinstoepen is played by 3 or 4 players, not 7"),
    ],
)
def test_simulate_refuses_a_table_the_preset_does_not_allow(
    preset: str, players: int, message: str
) -> None:
    result = CliRunner().invoke(app, ["simulate", "-g", "2", "-p", preset, "-n", str(players)])
    assert result.exit_code == 2
    assert message in " ".join(re.sub("[\u2500-\u257f]", " ", result.stderr).split())


def test_simulate_records_replay_to_the_same_result(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["simulate", "-g", "6", "-p", "classic", "-n", "5", "--seed", "40",
         "--record-dir", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    for i, path in enumerate(files):
        rec = load(path)
        game = replay(rec)
        original, _ = play_random_session(Rules.preset("classic"), 5, 40 + i)
        assert game.is_over and game.winner == original.winner
        assert game.actions == original.actions and game.drinks == original.drinks
        assert rec["meta"]["seed"] == 40 + i


def test_simulate_is_deterministic_for_a_seed() -> None:
    args = ["simulate", "-g", "5", "-p", "classic", "-n", "4", "--seed", "9", "--json"]
    first = CliRunner().invoke(app, args)
    second = CliRunner().invoke(app, args)
    assert first.exit_code == second.exit_code == 0
    assert json.loads(first.stdout.splitlines()[-1]) == json.loads(second.stdout.splitlines()[-1])


HOUSE_COMBOS = [
    ("kroeg-huisregels", 4, ["laundry_caught=plays_open", "dealer=highest_loser"],
     ["deals by the highest loser", "double knocks", "laundry claims", "laundry checks",
      "hands played open", "kans draws"]),
    ("rulebook", 3, ["armoede=false", "blind_knock=true", "edge=plays_dead", "lives=3"],
     ["blind knocks", "payments capped (plays dead)"]),
    ("classic", 4, ["jack_last_trick=others_pay_more", "edge=no_fold", "lives=3"],
     ["last tricks won with a jack", "folds refused on the edge"]),
    ("classic", 2, ["jack_last_trick=winner_gains", "four_of_a_kind=true", "lives=4"],
     ["last tricks won with a jack", "lives won back"]),
    ("rulebook", 5, ["knock_anytime=true", "lives=3"], ["knocks out of turn"]),
]


@pytest.mark.parametrize(("preset", "players", "options", "fired"), HOUSE_COMBOS)
def test_simulate_counts_how_often_each_house_rule_fired(
    preset: str, players: int, options: list[str], fired: list[str]
) -> None:
    args = ["simulate", "--games", "60", "-p", preset, "-n", str(players), "--json"]
    for item in options:
        args += ["-o", item]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout.strip().splitlines()[-1])
    for name in fired:
        assert int(stats[name].split()[0]) > 0, (name, stats)
    assert "blind knocks" not in stats or "blind_knock=true" in options
