"""The arena: bootstrap intervals that cover known truths, duplicate matches, the command."""

from __future__ import annotations

import csv
import io
import json
import random
import re
import sys
from math import comb
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from toepen.bots.base import make_bot, register_bot
from toepen.cli import app
from toepen.engine.actions import CHALLENGE, CLAIM, PASS, Action
from toepen.engine.state import Game
from toepen.match import play_game
from toepen.rules import Rules
from toepen.seeds import derive_seed
from toepen.tools.arena import (
    Arena,
    PlotUnavailable,
    bootstrap_mean,
    bot_seed,
    deal_seed,
    play_session,
    plot,
    rotate,
    run_arena,
    run_match,
    session_seed,
)
from toepen.view import View

# -- the statistics ---------------------------------------------------------------------------


def test_paired_bootstrap_intervals_cover_a_known_difference_about_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(3)
    true = 0.3
    covered = 0
    reps = 200
    for i in range(reps):
        deal_luck = rng.normal(0.0, 2.0, size=80)  # shared by both bots: cancels when paired
        a = deal_luck + rng.normal(true, 1.0, size=80)
        b = deal_luck + rng.normal(0.0, 1.0, size=80)
        iv = bootstrap_mean(a - b, resamples=1000, seed=i)
        covered += iv.low <= true <= iv.high
    assert 0.9 <= covered / reps <= 0.99


def test_bootstrap_interval_shape_and_bad_input() -> None:
    iv = bootstrap_mean(np.full(50, 0.25) + np.linspace(-0.1, 0.1, 50), seed=1)
    assert iv.low < iv.mean < iv.high and abs(iv.mean - 0.25) < 1e-12
    assert iv.excludes_zero() and iv.n == 50
    assert not bootstrap_mean([-1.0, 1.0, -1.0, 1.0]).excludes_zero()
    one = bootstrap_mean([2.0])
    assert (one.mean, one.low, one.high) == (2.0, 2.0, 2.0)
    assert bootstrap_mean([]).n == 0
    with pytest.raises(ValueError, match="level"):
        bootstrap_mean([1.0, 2.0], level=1.5)


def test_rotations_put_every_bot_in_every_seat() -> None:
    lineup = ["cand", "base", "base", "base"]
    seats = {rotate(lineup, r).index("cand") for r in range(4)}
    assert seats == {0, 1, 2, 3}


# -- a planted edge of known size --------------------------------------------------------------


@register_bot("test-claimer")
class Claimer:
    """Random play, but always claims armoede: a false claim, challenged, costs 1 life."""

    name = "test-claimer"

    def __init__(self, seed: int | None = None, time_budget: float | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, view: View) -> Action:
        return CLAIM if view.phase == "claim" else self._rng.choice(view.legal)


@register_bot("test-challenger")
class Challenger:
    """Random play, but never claims and always challenges."""

    name = "test-challenger"

    def __init__(self, seed: int | None = None, time_budget: float | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, view: View) -> Action:
        if view.phase == "claim":
            return PASS
        if view.phase == "claim_challenge":
            return CHALLENGE
        return self._rng.choice(view.legal)


@register_bot("test-twin")
class Twin(Challenger):
    """The random bot under another name (it draws exactly as ``random`` does)."""

    name = "test-twin"

    def act(self, view: View) -> Action:
        return self._rng.choice(view.legal)


def test_a_planted_handicap_of_known_size_is_measured() -> None:
    # No knocking: the play after the claim round costs every seat alike (1 life for the
    # taker of the last trick). The claimer claims once per hand and is challenged by the
    # seat on its left: it pays 1 unless its hand is genuine armoede (probability pg),
    # when the challenger pays 1. Per hand the claimer pays (1 - pg) more, each of the 3
    # challengers pg/3 more on average: a true difference of 1 - 4 pg / 3 (about 0.93;
    # the play after a kept hand shifts it by well under 0.01).
    pg = comb(16, 4) / comb(32, 4)
    true = 1.0 - 4.0 * pg / 3.0
    # Ten matches of 150 deals: the intervals cover it about 95% of the time (the shift
    # of the play after a kept hand makes "true" approximate, so at least 7 of 10), their
    # mean is close to it, and each is narrow (the seats' random streams are the same in
    # every rotation, so only the claim differs between the rotations of a deal).
    diffs = []
    for seed in range(2, 12):
        result = run_match("test-claimer", "test-challenger", Rules.preset("no-knock"),
                           players=4, deals=150, seed=seed, jobs=1)
        diff = result.row("test-claimer").diff
        assert diff is not None and diff.high - diff.low < 0.1, diff
        diffs.append(diff)
    assert sum(d.low <= true <= d.high for d in diffs) >= 7, diffs
    assert abs(sum(d.mean for d in diffs) / len(diffs) - true) < 0.015, diffs
    # And with no edge at all (a twin of the baseline under another name) zero is inside.
    same = run_match("test-twin", "random", Rules.preset("no-knock"), players=4, deals=60,
                     seed=2, jobs=1)
    twin = same.row("test-twin").diff
    assert twin is not None and twin.low <= 0.0 <= twin.high


def test_heuristic_beats_random_in_a_duplicate_match() -> None:
    for preset in ("rulebook", "classic"):
        result = run_match("heuristic", "random", Rules.preset(preset), players=4, deals=120,
                           seed=1, jobs=1)
        diff = result.row("heuristic").diff
        assert diff is not None and diff.high < 0, (preset, diff)
        assert result.row("heuristic").hands == 120 * 4
        assert result.row("random").hands == 120 * 12


def test_a_bot_against_itself_under_another_name_ties_every_deal() -> None:
    # A seat's bot has the same seed in every rotation (common random numbers), so two
    # bots that decide alike play the same game in every rotation of a deal: the paired
    # difference is exactly 0, not a draw of seat luck. (With a seed per rotation and
    # seat, heuristic against its level `good` drew a difference on most deals.)
    result = run_match("heuristic", "good", Rules.preset("rulebook"), players=4, deals=40,
                       seed=273, jobs=1)
    diff = result.row("heuristic").diff
    assert diff is not None and diff.n == 40
    assert (diff.mean, diff.low, diff.high) == (0.0, 0.0, 0.0)
    # and a real difference still shows: random under the same seeds loses more
    other = run_match("random", "good", Rules.preset("rulebook"), players=4, deals=40,
                      seed=273, jobs=1)
    worse = other.row("random").diff
    assert worse is not None and worse.low > 0


# -- the machinery ------------------------------------------------------------------------------


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    kwargs = dict(deals=12, seed=4, sessions=2, format="mixed", baseline="random")
    one = run_arena(["heuristic", "random", "random"], Rules.preset("classic", lives=3), 3,
                    jobs=1, **kwargs)  # type: ignore[arg-type]
    two = run_arena(["heuristic", "random", "random"], Rules.preset("classic", lives=3), 3,
                    jobs=2, **kwargs)  # type: ignore[arg-type]
    assert one.to_json() == two.to_json()


def test_until_significant_adds_batches_only_while_needed() -> None:
    quick = run_match("heuristic", "random", Rules.preset("rulebook"), players=4, deals=30,
                      seed=3, jobs=1, until_significant=True, max_deals=300)
    assert quick.deals == 30 and quick.significant()
    calls: list[tuple[str, int, int]] = []
    slow = run_match("random", "heuristic", Rules.preset("no-knock"), players=3, deals=5,
                     seed=3, jobs=1, until_significant=True, max_deals=15,
                     progress=lambda *a: calls.append(a))
    assert 5 <= slow.deals <= 15
    assert slow.significant() or slow.deals == 15
    # One bar across batches: counts only grow and end at the deals played.
    dones = [d for k, d, _ in calls if k == "deal"]
    assert dones == sorted(dones) and dones[-1] == slow.deals == calls[-1][2]
    with pytest.raises(ValueError, match="needs a baseline"):
        run_arena(["random"], Rules.preset("rulebook"), 4, 5, until_significant=True)


def test_sessions_won_and_openskill_reward_the_stronger_bot() -> None:
    result = run_match("heuristic", "random", Rules.preset("rulebook", lives=3), players=4,
                       deals=4, sessions=6, seed=5, jobs=1)
    h, r = result.row("heuristic"), result.row("random")
    assert h.sessions == r.sessions == 24
    assert h.sessions_won + r.sessions_won == 24
    assert h.sessions_won > 6  # more than its fair share of a quarter
    assert h.mu > r.mu


def test_session_places_follow_the_elimination_order() -> None:
    rules = Rules.preset("rulebook", lives=2)
    out = play_session(rules, [make_bot("random", seed=s) for s in range(4)], seed=8)
    assert out.finished and len(out.winners) == 1
    assert sorted(out.places) == [1.0, 2.0, 3.0, 4.0]
    assert out.places[out.winners[0]] == 1.0


def test_sessions_with_buy_ins_are_played_and_placed() -> None:
    """Pot toepen (issue 39): the arena's sessions play the rebuy round (every bot
    decides it) and still end with one winner and every place."""
    rules = Rules.preset("rulebook", lives=2, rebuy="any", pot=1)
    for seed in range(6):
        out = play_session(rules, [make_bot(b, seed=s) for s, b in
                                   enumerate(("heuristic", "random", "heuristic", "random"))],
                           seed=seed)
        assert out.finished and len(out.winners) == 1
        assert sorted(out.places) == [1.0, 2.0, 3.0, 4.0]
    bought = 0
    for seed in range(6):  # the same sessions do have buy-ins
        game = Game(rules, 4, seed=seed, dealer=0)
        play_game(game, [make_bot(b, seed=s) for s, b in
                         enumerate(("heuristic", "random", "heuristic", "random"))])
        bought += sum(game.rebuys)
    assert bought
    result = run_match("heuristic", "random", rules, players=4, deals=4, sessions=2, seed=3,
                       jobs=1)
    assert result.row("heuristic").sessions == result.row("random").sessions == 8


def test_more_bots_than_seats_spreads_the_deals() -> None:
    result = run_arena(["heuristic", "random", "test-claimer", "test-challenger"],
                       Rules.preset("rulebook"), 3, 8, seed=1, jobs=1, baseline="random")
    names = [r.name for r in result.rows]
    assert names == ["heuristic", "random", "test-claimer", "test-challenger"]
    assert sum(r.hands for r in result.rows) == 8 * 3 * 3
    assert all(r.diff is not None for r in result.rows if r.name != "random")


def test_arena_refuses_bad_setups() -> None:
    with pytest.raises(ValueError, match="needs a baseline"):
        Arena(["heuristic"], Rules.preset("rulebook"), 4, format="versus")
    with pytest.raises(ValueError, match="format"):
        Arena(["heuristic"], Rules.preset("rulebook"), 4, format="swiss")
    with pytest.raises(ValueError, match="teams"):
        Arena(["heuristic"], Rules.preset("teams"), 5)
    with pytest.raises(ValueError, match="deals"):
        run_arena(["heuristic"], Rules.preset("rulebook"), 4, 0)


# -- the command ---------------------------------------------------------------------------------


def test_arena_command_writes_table_json_csv_and_plot(tmp_path: Path) -> None:
    runner = CliRunner()
    png = tmp_path / "arena.png"
    table_csv = tmp_path / "arena.csv"
    res = runner.invoke(app, [
        "arena", "--bots", "heuristic,random", "--baseline", "random", "--format", "versus",
        "--preset", "classic", "--players", "4", "--deals", "20", "--seed", "1",
        "--sessions", "1", "--lives", "3", "--jobs", "2", "--json", "-", "--csv",
        str(table_csv), "--plot", str(png),
    ])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout[res.stdout.index("{"):])
    assert data["deals"] == 20 and data["players"] == 4 and data["format"] == "versus"
    assert data["rules"] == {"preset": "classic", "lives": 3}
    bots = {b["bot"]: b for b in data["bots"]}
    assert bots["heuristic"]["diff_to_baseline"]["high"] < 0
    assert bots["heuristic"]["sessions"] == 4
    rows = list(csv.DictReader(io.StringIO(table_csv.read_text())))
    assert [r["bot"] for r in rows] == ["heuristic", "random"]
    assert float(rows[0]["lives_per_hand"]) == pytest.approx(
        bots["heuristic"]["lives_per_hand"]["mean"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_arena_command_prints_a_table() -> None:
    res = CliRunner().invoke(app, ["arena", "--bots", "heuristic,random", "--baseline",
                                   "random", "--deals", "6", "--sessions", "0", "--jobs", "1",
                                   "--players", "3"])
    assert res.exit_code == 0, res.output
    assert "lives/hand" in res.output and "heuristic" in res.output


@pytest.mark.parametrize("args,message", [
    (["--bots", "heuristic,nobody"], "unknown bot 'nobody'"),
    (["--bots", "heuristic", "--players", "9"], "players"),
    (["--bots", "heuristic", "--option", "lives=0"], "option lives"),
    (["--bots", "heuristic", "--format", "versus"], "needs --baseline"),
    (["--bots", "heuristic", "--until-significant"], "needs --baseline"),
    (["--bots", "heuristic", "--plot", "x.pdf"], "png"),
    ([], "name the bots"),
])
def test_arena_command_refuses_bad_input_with_a_clear_message(
    args: list[str], message: str
) -> None:
    res = CliRunner().invoke(app, ["arena", "--deals", "2", *args])
    assert res.exit_code == 2
    assert message in res.output


def test_the_plot_without_matplotlib_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the extra were not installed
    res = CliRunner().invoke(app, ["arena", "--bots", "heuristic,random", "--deals", "2",
                                   "--plot", str(tmp_path / "x.png")])
    assert res.exit_code == 2
    assert "pip install 'toepen[plot]'" in " ".join(re.sub("[\u2500-\u257f]", " ",
                                                            res.output).split())
    result = run_arena(["random"], Rules.preset("rulebook"), 3, 2, jobs=1)
    with pytest.raises(PlotUnavailable, match="plot"):
        plot(result, tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


def test_arena_seeds_come_from_the_one_seed_function() -> None:
    assert deal_seed(7, 3) == derive_seed("arena", 7, "deal", 3, bits=48)
    assert session_seed(7, 3) == derive_seed("arena", 7, "session", 3, bits=48)
    assert bot_seed(7, "deal", 3, 2) == derive_seed("arena", 7, "bot", "deal", 3, 2, bits=48)
    assert len({deal_seed(7, 3), session_seed(7, 3), deal_seed(8, 3), deal_seed(7, 4)}) == 4
