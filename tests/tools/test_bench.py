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


def test_server_bench_reports_cpu_per_action_against_its_baseline() -> None:
    from toepen.tools.server_bench import ServerBenchResult
    from toepen.tools.server_bench import table as server_table

    base = ServerBenchResult(tables=50, actions=2000, seconds=4.0, server_cpu=2.0,
                             label="baseline")
    new = ServerBenchResult(tables=50, actions=2500, seconds=4.0, server_cpu=1.25)
    assert base.cpu_ms_per_action == 1.0 and new.cpu_ms_per_action == 0.5
    assert new.to_json()["server_cpu_ms_per_action"] == 0.5
    rendered = server_table([base, new])
    assert rendered.row_count == 2
    ratio_column = [c for c in rendered.columns if c.header == "vs baseline"][0]
    assert list(ratio_column.cells) == ["1.00", "0.50"]


def test_paced_search_holds_the_largest_step_under_the_bound() -> None:
    from toepen.tools.paced_bench import PacedResult, PacedStep
    from toepen.tools.paced_bench import table as paced_table

    fast = PacedStep(100, actions=500, latencies=[0.01] * 98 + [0.05] * 2, seconds=5.0,
                     server_cpu=0.25)
    slow = PacedStep(200, actions=900, latencies=[0.01] * 90 + [0.2] * 10, seconds=5.0)
    result = PacedResult(processes=2, bound_ms=100.0, steps=[fast, slow])
    assert fast.percentile(99) == 50.0 and slow.percentile(99) == 200.0
    assert result.held == 100
    data = result.to_json()
    assert data["tables_held_per_process"] == 50.0
    assert data["steps"][0]["server_cpu_ms_per_action"] == 0.5
    assert data["steps"][1]["actions_per_second"] == 180.0
    assert PacedResult(1, 100.0, [slow]).held == 0
    assert paced_table([result]).row_count == 2
