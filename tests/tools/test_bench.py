"""The benchmark harness measures what it says (figures are reported, never asserted)."""

from __future__ import annotations

import random

import pytest

from toepen import Event, EventKind, Game, Rules
from toepen.tools.bench import (
    engine_actions,
    engine_hands,
    reference_hands,
    run_benchmarks,
    steps,
    table,
    to_json,
)


def test_run_benchmarks_reports_every_figure_against_the_reference() -> None:
    ref, results = run_benchmarks(seconds=0.05, rounds=1, presets=("rulebook",), sizes=(4,))
    assert ref > 0
    names = [r.name for r in results]
    assert names == [
        "rulebook 4 players: complete random hands",
        "rulebook 4 players: legal actions + apply",
    ]
    for r in results:
        assert r.per_second > 0
        assert abs(r.ratio - r.per_second / ref) < 1e-9


def test_engine_hands_plays_exactly_the_hands_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    results: list[Event] = []
    original = Game.apply

    def counting(self: Game, seat: int, act: object) -> list[Event]:
        events = original(self, seat, act)  # type: ignore[arg-type]
        results.extend(e for e in events if e.kind is EventKind.HAND_RESULT)
        return events

    monkeypatch.setattr(Game, "apply", counting)
    engine_hands(50, random.Random(1), Rules.preset("rulebook"), 4)
    assert len(results) == 50


def test_reference_and_action_loops_run() -> None:
    reference_hands(10, random.Random(2))
    engine_actions(100, random.Random(3), Rules.preset("classic"), 6)


def test_progress_counts_every_step_and_the_figures_render() -> None:
    calls: list[int] = []
    ref, results = run_benchmarks(seconds=0.05, rounds=2, presets=("rulebook",), sizes=(3,),
                                  progress=calls.append)
    assert sum(calls) == steps(2, ("rulebook",), (3,)) == 4
    data = to_json(ref, results)
    assert data["reference_hands_per_second"] == ref
    assert [r["name"] for r in data["results"]] == [r.name for r in results]
    assert table(ref, results).row_count == 1 + len(results)
