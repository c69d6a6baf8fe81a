"""The training example of docs/research.md runs (with a tiny budget) and reports progress."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_train_mccfr_example_runs_and_prints_progress() -> None:
    script = ROOT / "examples" / "rl" / "train_mccfr.py"
    out = subprocess.run(
        [sys.executable, str(script), "--iterations", "30", "--eval-every", "10",
         "--eval-games", "10"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    rows = [line.split() for line in out.splitlines() if re.match(r"\s+\d+\s", line)]
    assert [int(r[0]) for r in rows] == [10, 20, 30]
    seen = [int(r[1]) for r in rows]
    assert seen[0] > 0 and seen == sorted(seen)  # the solver's table grows
    assert all(-5.0 <= float(r[2]) <= 5.0 for r in rows)


def test_train_mccfr_example_refuses_a_bad_budget() -> None:
    script = ROOT / "examples" / "rl" / "train_mccfr.py"
    run = subprocess.run(
        [sys.executable, str(script), "--iterations", "0"],
        capture_output=True, text=True, timeout=60,
    )
    assert run.returncode == 2 and "--iterations" in run.stderr


def test_docs_snippets_run() -> None:
    """Every ```python block of docs/research.md runs as written."""
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 3
    for block in blocks:
        exec(compile(block, "docs/research.md", "exec"), {"__name__": "docs"})


def test_train_batch_pg_example_runs_and_measures_the_agent() -> None:
    script = ROOT / "examples" / "rl" / "train_batch_pg.py"
    out = subprocess.run(
        [sys.executable, str(script), "--seconds", "1", "--checkpoints", "1", "--envs", "64",
         "--random-hands", "64", "--heuristic-hands", "2"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    assert out.count("baseline:") == 3
    rows = re.findall(r"([\d,]+) decisions\s+lives lost per hand: vs random ([\d.]+), "
                      r"vs heuristic ([\d.]+)", out)
    assert len(rows) == 2 and rows[0][0] == "0" and int(rows[1][0].replace(",", "")) > 0


def test_train_batch_pg_example_refuses_a_bad_budget() -> None:
    script = ROOT / "examples" / "rl" / "train_batch_pg.py"
    run = subprocess.run([sys.executable, str(script), "--seconds", "0"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--seconds" in run.stderr
