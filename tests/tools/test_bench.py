"""The benchmark harness measures what it says (figures are reported, never asserted)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import toepen
from toepen import Event, EventKind, Game, Rules
from toepen.cli import app
from toepen.tools.bench import (
    AgainstError,
    against_json,
    against_table,
    engine_actions,
    engine_hands,
    reference_hands,
    run_against,
    run_benchmarks,
    source_folder,
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


def test_server_bench_reports_cpu_per_action_against_the_other_tree() -> None:
    from server_bench import ServerBenchResult, against_ratios
    from server_bench import table as server_table

    def run(cpu: float, other: bool = False, tables: int = 50) -> ServerBenchResult:
        return ServerBenchResult(tables=tables, actions=2000, seconds=4.0, server_cpu=cpu,
                                 label="/tmp/old" if other else "this tree", other=other)

    old, new = run(2.0, other=True), run(1.0)
    assert old.cpu_ms_per_action == 1.0 and new.cpu_ms_per_action == 0.5
    assert new.to_json()["server_cpu_ms_per_action"] == 0.5
    assert new.to_json()["other"] is False and old.to_json()["label"] == "/tmp/old"
    # pairs in turn (the other tree first, then this one first): each of this tree's runs
    # over the other tree's run of its own pair, not over the latest one
    runs = [old, new, run(0.6), run(3.0, other=True), run(1.0, tables=10)]
    assert against_ratios(runs) == pytest.approx({1: 0.5, 2: 0.2})
    rendered = server_table(runs)
    assert rendered.row_count == 5
    ratio_column = [c for c in rendered.columns if c.header == "vs other"][0]
    assert list(ratio_column.cells) == ["", "0.50", "0.20", "", ""]


def test_server_bench_against_runs_the_other_trees_server(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--against DIR``: the server that plays is DIR's (its package imported from DIR),
    every game to its end, reported as the other tree's."""
    from server_bench import run_server_bench

    mark = tmp_path / "imported"
    monkeypatch.setenv("TOEPEN_TEST_MARK", str(mark))
    src = Path(toepen.__file__).resolve().parent
    other = tmp_path / "other"
    shutil.copytree(src, other / "src" / "toepen", ignore=shutil.ignore_patterns("__pycache__"))
    init = other / "src" / "toepen" / "server" / "__init__.py"
    init.write_text(init.read_text() + "\nimport os\nopen(os.environ['TOEPEN_TEST_MARK'], "
                    "'a').write(__file__ + '\\n')\n")
    result = run_server_bench(1, lives=1, tree=other)
    imported = mark.read_text().split()
    assert imported and all(p.startswith(str(other)) for p in imported)
    assert result.other and result.label == str(other)
    assert result.tables == 1 and result.actions > 0 and result.errors == 0
    assert result.latencies and result.server_cpu > 0


def test_paced_search_holds_the_largest_step_under_the_bound() -> None:
    from paced_bench import PacedResult, PacedStep
    from paced_bench import table as paced_table

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
    # fast answers but fewer actions than the pace asks (a client behind): not held
    behind = PacedStep(300, actions=1200, latencies=[0.01] * 100, seconds=5.0)
    assert behind.percentile(99) == 10.0 and not behind.kept(1.0)
    assert PacedResult(3, 100.0, [fast, behind]).held == 100
    assert PacedResult(3, 100.0, [fast, behind], pace=2.0).held == 300
    assert PacedResult(3, 100.0, [behind]).to_json()["steps"][0]["kept_pace"] is False
    # ... unless the tables it lacks are over: a finished game acts no more
    over = PacedStep(300, actions=1200, latencies=[0.01] * 100, seconds=5.0, ended=60)
    assert over.kept(1.0) and PacedResult(3, 100.0, [over]).to_json()["steps"][0]["ended"] == 60
    assert paced_table([result]).row_count == 2


def _tree_copy(tmp_path: Path, tail: str) -> Path:
    """A copy of this tree's engine sources (server assets left out) whose
    ``toepen/engine/__init__.py`` ends with ``tail``."""
    src = Path(toepen.__file__).resolve().parent
    dest = tmp_path / "other" / "src" / "toepen"
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("static", "__pycache__"))
    init = dest / "engine" / "__init__.py"
    init.write_text(init.read_text() + "\n" + tail + "\n")
    return tmp_path / "other"


def test_against_runs_the_same_loops_on_the_other_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = tmp_path / "imported"
    monkeypatch.setenv("TOEPEN_TEST_MARK", str(mark))
    other = _tree_copy(tmp_path, "import os\nopen(os.environ['TOEPEN_TEST_MARK'], 'a')"
                                 ".write(__file__ + '\\n')")
    calls: list[int] = []
    reference, results = run_against(other, seconds=0.05, rounds=2, presets=("classic",),
                                     sizes=(3,), progress=calls.append)
    # The other worker imported the other tree's engine (this tree's never writes a mark).
    imported = mark.read_text().split()
    assert imported and all(p.startswith(str(other)) for p in imported)
    assert sum(calls) == steps(2, ("classic",), (3,))
    assert [r.name for r in results] == [
        "classic 3 players: complete random hands", "rulebook 4 players: legal actions + apply",
    ]
    for r in (reference, *results):
        assert r.this > 0 and r.other > 0
        assert abs(r.ratio - r.this / r.other) < 1e-9
    data = against_json(other, reference, results)
    assert [r["name"] for r in data["results"]] == [reference.name] + [r.name for r in results]
    assert against_table(other, reference, results).row_count == 3


def test_against_refuses_what_is_not_a_toepen_tree(tmp_path: Path) -> None:
    with pytest.raises(AgainstError, match="not a toepen source tree"):
        source_folder(tmp_path)
    result = CliRunner().invoke(app, ["bench", "--against", str(tmp_path)])
    assert result.exit_code == 2
    assert "not a toepen source tree" in result.output
    assert "Traceback" not in result.output


def test_against_names_the_other_trees_failure(tmp_path: Path) -> None:
    other = _tree_copy(tmp_path, "raise ImportError('this engine is broken')")
    with pytest.raises(AgainstError, match="this engine is broken"):
        run_against(other, seconds=0.05, rounds=1, presets=("rulebook",), sizes=(4,))


def test_the_server_benchmarks_refuse_bad_options_before_starting_anything(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the server's benchmarks run from benchmarks/ (no longer ``toepen bench --server``):
    # a wrong option is named, with usage, and no server is started
    import paced_bench
    import server_bench

    for main, argv, said in (
            (server_bench.main, ["--tables", "0"], "--tables: at least 1"),
            (server_bench.main, ["--against", str(tmp_path)], "not a toepen source tree"),
            (paced_bench.main, ["--route", "nowhere"], "invalid choice: 'nowhere'"),
            (paced_bench.main, ["--processes", "17"], "--processes: 1 to 16"),
            (paced_bench.main, ["--pace", "0"], "--pace: 0.05 to 60 seconds"),
            (paced_bench.main, ["--cpu-share", "100"], "--cpu-share: 0.01 to 64")):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        assert exit_.value.code == 2
        assert said in capsys.readouterr().err
