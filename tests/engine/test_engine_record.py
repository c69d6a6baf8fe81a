"""record.md: the example record, refusals naming the action or field, and the replay CLI."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from toepen.cli import app
from toepen.engine import Game, Phase
from toepen.record import RecordError, dumps, load, loads, replay, save, summary, to_record
from toepen.rules import Rules

from .helpers import snapshot

EXAMPLE: dict[str, Any] = {
    "format": "toepen-record/1",
    "rules": {"preset": "rulebook", "lives": 3},
    "players": ["Ann", "Bas", "Cor", "Dirk"],
    "dealer": 0,
    "decks": [
        ["Th", "9h", "8h", "7h", "Ah", "Kh", "Qh", "Jh", "Tc", "9c", "8c", "7c", "Ac", "Kc", "Qc",
         "Jc", "Td", "9d", "8d", "7d", "Ad", "Kd", "Qd", "Jd", "Ts", "9s", "8s", "7s", "As", "Ks",
         "Qs", "Js"]
    ],
    "actions": ["1 pass", "2 pass", "3 pass", "0 pass", "1 knock", "2 stay", "3 fold", "0 stay",
                "1 play Th"],
}
EXPECTED = {"lives": [3, 3, 3, 2], "eliminated": [], "winner": None, "hand": 1, "stake": 2,
            "to_act": [2], "legal": ["knock", "play 9h", "play Kh"]}


def with_(**changes: Any) -> dict[str, Any]:
    rec = copy.deepcopy(EXAMPLE)
    rec.update(changes)
    return rec


def test_the_example_record_replays_to_the_position_of_the_spec() -> None:
    g = replay(EXAMPLE)
    info = summary(g)
    assert {k: info[k] for k in EXPECTED} == EXPECTED
    assert g.accepted == [2, 2, 2, 1]  # Dirk folded for 1, Ann stayed at 2


def test_the_example_game_writes_back_the_same_record() -> None:
    rules = Rules.preset("rulebook", lives=3)
    g = Game(rules, ["Ann", "Bas", "Cor", "Dirk"], decks=EXAMPLE["decks"], dealer=0)
    for move in EXAMPLE["actions"]:
        seat, _, verb = move.partition(" ")
        g.apply(int(seat), verb)
    assert to_record(g) == EXAMPLE
    assert json.loads(dumps(to_record(g))) == EXAMPLE


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save(EXAMPLE, path)
    assert load(path) == EXAMPLE
    assert not list(tmp_path.glob("*.tmp"))


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (with_(actions=[*EXAMPLE["actions"], "2 play 9c"]),
         "action 10: seat 2 must follow suit (holds hearts)"),
        (with_(rules={"preset": "rulebook", "lives": 1, "armoede": False}, dealer=1,
               actions=["2 knock", "3 stay", "0 stay", "1 knock"]),
         "action 4: seat 1 may not knock (lives 1 below stake 2)"),
        (with_(actions=["1 pass", "3 pass"]), "action 2: seat 3 is not to act (awaiting seat 2)"),
        (with_(actions=["1 pass", "2 pass", "3 pass", "0 pass", "1 play 9c"]),
         "action 5: seat 1 does not hold 9c"),
        (with_(actions=["1 pass", "2 dance"]), "action 2: unknown verb 'dance'"),
        (with_(actions=["1 pass", "2 pass", "3 pass", "0 pass", "1 play Xh"]),
         "action 5: unknown card 'Xh'"),
        (with_(actions=["one pass"]), "action 1: 'one pass' does not start with a seat number"),
        (with_(actions=[7]), "action 1: an action must be text, not 7"),
        (with_(actions="1 pass"), "actions: must be a list"),
        (with_(rules="poker"), "rules: option preset: unknown preset 'poker'"),
        (with_(rules={"preset": "rulebook", "colour": "red"}),
         "rules: option colour: unknown option"),
        (with_(rules={"preset": "rulebook", "lives": 0}),
         "rules: option lives: must be an integer"),
        (with_(decks=[EXAMPLE["decks"][0][:31]]),
         "decks[0]: not the 32 cards (31 cards; lacks Js)"),
        (with_(decks=[[*EXAMPLE["decks"][0][:31], "Th"]]),
         "decks[0]: not the 32 cards (repeats Th; lacks Js)"),
        (with_(decks=[[*EXAMPLE["decks"][0][:31], "Zz"]]), "decks[0]: unknown card 'Zz'"),
        (with_(decks="Th 9h"), "decks: must be a list of decks"),
        (with_(format="pgn"), "format: must be 'toepen-record/1', not 'pgn'"),
        (with_(players=["Ann"]), "players: must be a list of 2 to 8 names"),
        (with_(players=["A", "B", "C", "D", "E"], rules="teams"),
         "players: option teams: needs 4 or 6 players, not 5"),
        (with_(dealer=4), "dealer: must be a seat from 0 to 3, not 4"),
        (with_(seed=3), "decks: a record has either decks or a seed"),
        (with_(meta="today"), "meta: must be an object"),
    ],
)
def test_a_bad_record_is_refused_naming_the_action_or_field(
    record: dict[str, Any], message: str
) -> None:
    with pytest.raises(RecordError) as info:
        replay(record)
    assert str(info.value).startswith(message), str(info.value)
    assert "\n" not in str(info.value)


def test_not_json_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match=r"^file: not JSON \("):
        load(path)
    with pytest.raises(RecordError, match="^file: a record is a JSON object$"):
        loads("[1, 2]")


def test_a_file_that_is_not_utf8_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('{"players": ["Jos\u00e9"]}'.encode("latin-1"))
    with pytest.raises(RecordError, match=r"^file: not UTF-8 text \(byte 17\)$"):
        load(path)


def test_a_record_may_stop_where_a_deck_is_missing_but_not_go_on() -> None:
    stopped = with_(actions=["1 claim", "2 pass", "3 pass", "0 pass"])
    g = replay(stopped)
    assert g.phase is Phase.DEAL and g.to_act == ()
    info = summary(g)
    assert info["stopped"] == "a new deal needs a deck that is not in the record"
    assert info["to_act"] == [] and info["legal"] == []
    with pytest.raises(RecordError, match="^action 5: a new deal needs a deck that is not in"):
        replay(with_(actions=[*stopped["actions"], "2 pass"]))


def test_a_seed_record_replays_and_can_continue_past_its_last_deal() -> None:
    g = Game(Rules.preset("rulebook"), 4, seed=99)
    g.apply(1, "claim")
    for s in (2, 3, 0):
        g.apply(s, "pass")
    rec = to_record(g, use_seed=True)
    assert rec["seed"] == 99 and "decks" not in rec
    g2 = replay(rec)
    assert snapshot(g2) == snapshot(g)
    with pytest.raises(ValueError, match="use_seed: this game was not dealt from a seed"):
        to_record(replay(EXAMPLE), use_seed=True)


# -- the CLI --------------------------------------------------------------------------------


def run_cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def test_cli_replay_json_prints_the_position(tmp_path: Path) -> None:
    path = tmp_path / "example.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    result = run_cli("replay", "--json", str(path))
    assert result.exit_code == 0, result.stderr
    info = json.loads(result.stdout)
    assert {k: info[k] for k in EXPECTED} == EXPECTED
    table = run_cli("replay", str(path))
    assert table.exit_code == 0 and "seat 2 to act: knock, play 9h, play Kh" in table.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (json.dumps(with_(actions=[*EXAMPLE["actions"], "2 play 9c"])),
         "action 10: seat 2 must follow suit (holds hearts)"),
        ("{not json", "file: not JSON"),
        (json.dumps(with_(rules="poker")), "rules: option preset: unknown preset 'poker'"),
        (json.dumps(with_(decks=[EXAMPLE["decks"][0][:30]])), "decks[0]: not the 32 cards"),
        (json.dumps(with_(actions=["1 hop"])), "action 1: unknown verb 'hop'"),
    ],
)
def test_cli_replay_refuses_with_exit_code_2_and_one_line(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run_cli("replay", "--json", str(path))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), result.stderr
    assert result.stdout == ""


def test_cli_replay_as_a_real_process(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(with_(actions=["1 pass", "3 pass"])), encoding="utf-8")
    code = "from toepen.cli import main; main()"
    proc = subprocess.run(
        [sys.executable, "-c", code, "replay", str(bad)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr == "action 2: seat 3 is not to act (awaiting seat 2)\n"
    good = tmp_path / "good.json"
    good.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", code, "replay", "--json", str(good)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["legal"] == EXPECTED["legal"]


def test_a_record_that_goes_on_after_the_session_is_over_is_refused() -> None:
    deck = ["Th", "Ah", "9h", "Kh", "8h", "Qh", "7h", "Jh", *EXAMPLE["decks"][0][8:]]
    rec = with_(rules={"preset": "rulebook", "lives": 1, "armoede": False},
                players=["Ann", "Bas"], decks=[deck],
                actions=["1 play Th", "0 play Ah", "1 play 9h", "0 play Kh", "1 play 8h",
                         "0 play Qh", "1 play 7h", "0 play Jh"])
    g = replay(rec)
    assert g.is_over and g.winner == 0 and summary(g)["winner"] == 0
    assert summary(g)["eliminated"] == [1] and summary(g)["lives"] == [1, 0]
    with pytest.raises(RecordError, match=r"^action 9: seat 0 may not pass: the session is over$"):
        replay(with_(**{**rec, "actions": [*rec["actions"], "0 pass"]}))


def test_record_notation_is_read_leniently_and_written_canonically() -> None:
    actions = ["1 PASS", "2 pass", "3 pass", "0 pass", "1 play 10h"]
    deck = [c.lower() if i % 2 else c for i, c in enumerate(EXAMPLE["decks"][0])]
    g = replay(with_(actions=actions, decks=[deck]))
    rec = to_record(g)
    assert rec["actions"][0] == "1 pass" and rec["actions"][-1] == "1 play Th"
    assert rec["decks"] == EXAMPLE["decks"]


def test_cli_replay_reports_a_stop_where_a_deck_is_missing(tmp_path: Path) -> None:
    path = tmp_path / "stopped.json"
    path.write_text(json.dumps(with_(actions=["1 claim", "2 pass", "3 pass", "0 pass"])))
    result = run_cli("replay", "--json", str(path))
    assert result.exit_code == 0
    info = json.loads(result.stdout)
    assert info["stopped"] == "a new deal needs a deck that is not in the record"
    assert info["to_act"] == [] and info["hand"] == 1
    text = run_cli("replay", str(path))
    assert "stopped: a new deal needs a deck that is not in the record" in text.stdout


def test_cli_replay_of_a_teams_game_shows_pools_and_the_lower_seat_as_winner(
    tmp_path: Path,
) -> None:
    rec = with_(rules={"preset": "teams", "lives": 1, "armoede": False}, dealer=3,
                actions=["0 knock", "1 stay", "2 fold"])
    path = tmp_path / "teams.json"
    path.write_text(json.dumps(rec))
    info = json.loads(run_cli("replay", "--json", str(path)).stdout)
    assert info["lives"] == [0, 1, 0, 1] and info["winner"] == 1
    assert info["eliminated"] == [0, 2] and info["phase"] == "over"
