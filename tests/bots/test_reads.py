"""expert's reading table: measured, seeded, validated, and used to read knocks."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toepen.bots.expert import ExpertBot
from toepen.bots.pimc import Knowledge, PimcBot, next_to_play
from toepen.bots.reads import (
    FORMAT,
    RATIO_MAX,
    RATIO_MIN,
    Reads,
    load_reads,
    read_key,
)
from toepen.bots.solver import Solver
from toepen.cli import app
from toepen.engine import Game
from toepen.engine.actions import KNOCK
from toepen.tools.reads import measure
from toepen.view import observe


def test_shipped_table_loads_and_reads_a_knock_as_a_safe_position() -> None:
    reads = load_reads()
    assert reads.hands >= 500 and reads.bot == "pimc"
    modes = {k.split("|")[0] for k in reads.counts}
    assert modes == {"L", "W"}
    for key in reads.counts:
        mode, kind, stake, action = key.split("|")
        assert RATIO_MIN <= reads.ratio(mode, kind, int(stake), action) <= RATIO_MAX
    # Under rulebook, search players knock first almost only when the solve says they
    # cannot take the last trick: a deal where the knocker could is worth far less.
    assert reads.ratio("L", "knock", 1, "knock") <= 0.2
    assert reads.ratio("L", "answer", 2, "knock") <= 0.2
    # A fold says the opposite.
    assert reads.ratio("L", "answer", 3, "fold") > 1.5
    # A context never measured reads as nothing.
    assert reads.ratio("L", "answer", 2, "claim") == 1.0


def test_table_refuses_bad_documents() -> None:
    good = load_reads().to_json()
    assert Reads.from_json(json.loads(json.dumps(good))).counts == load_reads().counts
    with pytest.raises(ValueError, match=FORMAT):
        Reads.from_json({"format": "something else"})
    with pytest.raises(ValueError, match="counts"):
        Reads.from_json({"format": FORMAT, "counts": []})
    with pytest.raises(ValueError, match=re.escape("bad key 'L|knock|1'")):
        Reads.from_json({"format": FORMAT, "counts": {"L|knock|1": [1, 2]}})
    with pytest.raises(ValueError, match=re.escape("bad key 'X|knock|1|knock'")):
        Reads.from_json({"format": FORMAT, "counts": {"X|knock|1|knock": [1, 2]}})
    with pytest.raises(ValueError, match="two counts"):
        Reads.from_json({"format": FORMAT, "counts": {"L|knock|1|knock": [1, -2]}})


def test_ratios_follow_the_counts() -> None:
    reads = Reads({read_key("L", "knock", 1, "knock"): [0, 98],
                   read_key("L", "knock", 1, "play"): [100, 2]})
    # (0+1)/(100+2) / ((98+1)/(100+2)) = 1/99, clipped to RATIO_MIN.
    assert reads.ratio("L", "knock", 1, "knock") == RATIO_MIN
    assert reads.ratio("L", "knock", 1, "play") == RATIO_MAX
    even = Reads({read_key("W", "answer", 9, "stay"): [5, 5],
                  read_key("W", "answer", 9, "fold"): [5, 5]})
    assert even.ratio("W", "answer", 4, "stay") == pytest.approx(1.0)


def test_measuring_is_seeded_and_does_not_depend_on_workers() -> None:
    a = measure(hands=3, seed=4, presets=("rulebook",), jobs=1)
    b = measure(hands=3, seed=4, presets=("rulebook",), jobs=2)
    assert a.counts == b.counts and a.hands == b.hands == 3
    assert sum(x + y for x, y in a.counts.values()) > 0


def test_train_reads_command(tmp_path: Path) -> None:
    out = tmp_path / "reads.json"
    runner = CliRunner()
    result = runner.invoke(app, ["train", "reads", "--hands", "2", "--seed", "1", "--jobs", "1",
                                 "--preset", "classic", "--out", str(out)])
    assert result.exit_code == 0, result.output
    reads = load_reads(out)
    assert reads.hands == 2 and reads.seed == 1
    assert {k.split("|")[0] for k in reads.counts} == {"W"}
    bot = ExpertBot(seed=1, samples=2, reads=out)
    game = Game.new("classic", 4, seed=1)
    assert bot.act(observe(game, game.turn)) in game.legal_actions()
    bad = runner.invoke(app, ["train", "reads", "--hands", "1", "--preset", "nonsense",
                              "--out", str(tmp_path / "x.json")])
    assert bad.exit_code == 2 and "nonsense" in bad.output
    bad = runner.invoke(app, ["train", "reads", "--hands", "1", "--bot", "cmd:true",
                              "--out", str(tmp_path / "x.json")])
    assert bad.exit_code == 2 and "external" in bad.output
    assert not (tmp_path / "x.json").exists()


def _knock_to_answer(seed: int) -> Game | None:
    """A rulebook 4-player game where someone knocked on the first trick and the next
    seat must answer."""
    game = Game.new("rulebook", 4, seed=seed)
    rng = random.Random(seed)
    while game.phase.name in ("CLAIM", "CLAIM_CHALLENGE"):
        game.apply(game.turn, game.legal_actions()[-1])  # pass
    for _ in range(rng.randrange(3)):  # a card or two first
        if game.phase.name != "PLAY":
            return None
        cards = [a for a in game.legal_actions() if a < 32]
        game.apply(game.turn, rng.choice(cards))
    if game.phase.name != "PLAY" or KNOCK not in game.legal_actions():
        return None
    game.apply(game.turn, KNOCK)
    return game


def _safe_share(worlds_hands: list[list[int]], view_seat_game: Game, knocker: int) -> float:
    view = observe(view_seat_game, view_seat_game.turn)
    leader, trick = next_to_play(view)
    led = view.led_suit if (view.trick or view.led_suit >= 0) else -1
    solver = Solver(4, 1 << knocker, False)
    return sum(solver.solve(h, leader, trick, led) for h in worlds_hands) / len(worlds_hands)


def test_expert_gives_a_knocker_safe_cards_more_often_than_pimc() -> None:
    """A knock read through the solve: in expert's sampled deals the knocker cannot be
    made to take the last trick far more often than in pimc's or in uniform ones."""
    expert_share, pimc_share, uniform_share = [], [], []
    for seed in range(60):
        game = _knock_to_answer(seed)
        if game is None:
            continue
        knocker = game.actions[-1][0]
        view = observe(game, game.turn)
        know = Knowledge.from_view(view)
        rng = random.Random(seed)
        uniform = [know.sample(rng) for _ in range(40)]
        ex = [w.hands for w in ExpertBot(seed=seed).worlds(view, know, random.Random(seed), 40)]
        pi = [w.hands for w in PimcBot(seed=seed).worlds(view, know, random.Random(seed), 40)]
        uniform_share.append(_safe_share(uniform, game, knocker))
        expert_share.append(_safe_share(ex, game, knocker))
        pimc_share.append(_safe_share(pi, game, knocker))
        if len(expert_share) == 12:
            break
    assert len(expert_share) >= 8
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    assert mean(expert_share) > mean(pimc_share) + 0.1
    assert mean(expert_share) > mean(uniform_share) + 0.2
    assert mean(expert_share) > 0.6
