"""Engine benchmarks, each reported as a ratio to a bare reference loop run alongside.

The reference loop only shuffles, deals and plays random legal cards for 4 tricks at 4
players: no knocks, no phases, no events, no validation. It is the floor for any Python
engine, so the ratios compare across machines where raw figures do not.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.table import Table

from ..engine import Game
from ..rules import Rules
from . import bench_loops as loops
from .bench_loops import reference_hands

__all__ = [
    "AgainstError", "AgainstResult", "BenchResult", "against_json", "against_table",
    "engine_actions", "engine_hands", "reference_hands", "run_against", "run_benchmarks",
    "source_folder", "steps", "table", "to_json",
]


def engine_hands(count: int, rng: random.Random, rules: Rules, players: int) -> None:
    """``count`` complete random hands through the public engine API (sessions restart)."""
    loops.engine_hands(count, rng, rules, players, Game)


def engine_actions(count: int, rng: random.Random, rules: Rules, players: int) -> None:
    """``count`` legal-actions-plus-apply steps of random play."""
    loops.engine_actions(count, rng, rules, players, Game)


def _hands_job(rng: random.Random, rules: Rules, players: int) -> Callable[[int], None]:
    return lambda k: engine_hands(k, rng, rules, players)


BATCH_GAMES = 2048
"""Games the batched environment steps together in :func:`batch_steps_job`."""
AEC_NAME = "rulebook 4 players: PettingZoo AEC env, random legal actions"
BATCH_NAME = f"rulebook 4 players: batched env ({BATCH_GAMES} games), random legal actions"


def aec_steps_job(seed: int = 1) -> Callable[[int], None]:
    """``k`` steps of the PettingZoo AEC environment (rulebook, 4 players): observe the
    agent to act (``last()``), a random action of its mask, ``step``; sessions restart."""
    import numpy as np

    from ..rl.pettingzoo import env

    e = env("rulebook", 4)
    e.reset(seed=seed)
    gen = np.random.default_rng(seed)

    def run(k: int) -> None:
        done = 0
        while done < k:
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                if not e.agents:
                    e.reset()
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[gen.integers(len(legal))]))
            done += 1

    return run


def batch_steps_job(seed: int = 1, games: int = BATCH_GAMES) -> Callable[[int], None]:
    """``k`` decisions of the batched environment (rulebook, 4 players; ``k`` a multiple
    of ``games``): each step observes every game's seat to act, draws a random legal
    action per game and applies them all (a step counts one decision per game)."""
    import numpy as np

    from ..rl.batch import ToepenBatch

    batch = ToepenBatch("rulebook", 4, num_games=games, seed=seed)
    gen = np.random.default_rng(seed)

    def run(k: int) -> None:
        if k % games:
            raise ValueError(f"k: {k} is not a multiple of the {games} games")
        for _ in range(k // games):
            _, mask = batch.observe()
            batch.step(batch.random_actions(gen, mask))

    return run


@dataclass
class BenchResult:
    name: str
    unit: str
    per_second: float
    ratio: float
    """per_second relative to the reference loop's hands per second."""


PRESETS = ("rulebook", "classic")
SIZES = (3, 4, 6)
"""The presets and table sizes :func:`run_benchmarks` measures by default."""


def steps(rounds: int, presets: tuple[str, ...] = PRESETS, sizes: tuple[int, ...] = SIZES,
          rl: bool = False) -> int:
    """How many times :func:`run_benchmarks` calls ``progress``: once per benchmark and round.

    >>> steps(5), steps(5, rl=True)
    (35, 45)
    """
    return rounds * (len(presets) * len(sizes) + 1 + (2 if rl else 0))


def run_benchmarks(
    seconds: float = 0.5,
    rounds: int = 5,
    presets: tuple[str, ...] = PRESETS,
    sizes: tuple[int, ...] = SIZES,
    progress: Callable[[int], None] | None = None,
    rl: bool = False,
) -> tuple[float, list[BenchResult]]:
    """Run every benchmark ``rounds`` times, interleaved with the reference, keeping the best.

    Returns the reference's hands per second and a result per benchmark. Interleaving
    and best-of-rounds keep a busy machine from skewing one figure against another.
    ``rl`` (needs the ``rl`` extra) adds the PettingZoo AEC environment's and the batched
    environment's steps a second (:data:`AEC_NAME`, :data:`BATCH_NAME`).
    """
    rng = random.Random(12345)
    jobs: list[tuple[str, str, Callable[[int], None]]] = []
    for preset in presets:
        rules = Rules.preset(preset)
        for n in sizes:
            jobs.append((f"{preset} {n} players: complete random hands", "hands",
                         _hands_job(rng, rules, n)))
    rules = Rules.preset("rulebook")
    jobs.append((
        "rulebook 4 players: legal actions + apply",
        "actions",
        lambda k: engine_actions(k, rng, rules, 4),
    ))
    if rl:
        jobs.append((AEC_NAME, "steps", aec_steps_job()))
        jobs.append((BATCH_NAME, "steps", batch_steps_job()))

    def calibrate(fn: Callable[[int], None], grain: int = 1) -> int:
        """A count that takes about ``seconds``, a multiple of ``grain`` (the batched
        environment decides ``grain`` games at a time)."""
        k = max(16, grain)
        while True:
            t = time.perf_counter()
            fn(k)
            if time.perf_counter() - t > seconds / 4:
                k = max(1, int(k * seconds / (4 * (time.perf_counter() - t))) * 4)
                return max(grain, k // grain * grain)
            k *= 4

    ref_fn: Callable[[int], None] = lambda k: reference_hands(k, rng)  # noqa: E731
    sizes_of = {name: calibrate(fn, BATCH_GAMES if name == BATCH_NAME else 1)
                for name, _, fn in jobs}
    ref_k = calibrate(ref_fn)
    best: dict[str, float] = {}
    ref_best = 0.0
    for _ in range(rounds):
        for name, _, fn in jobs:
            t = time.perf_counter()
            ref_fn(ref_k)
            ref_best = max(ref_best, ref_k / (time.perf_counter() - t))
            k = sizes_of[name]
            t = time.perf_counter()
            fn(k)
            best[name] = max(best.get(name, 0.0), k / (time.perf_counter() - t))
            if progress is not None:
                progress(1)
    results = [
        BenchResult(name, unit, best[name], best[name] / ref_best) for name, unit, _ in jobs
    ]
    return ref_best, results


def batch_over_aec(results: list[BenchResult]) -> float | None:
    """The batched environment's steps a second over the AEC environment's (None when
    the run measured neither)."""
    by = {r.name: r.per_second for r in results}
    if AEC_NAME in by and BATCH_NAME in by:
        return by[BATCH_NAME] / by[AEC_NAME]
    return None


def to_json(reference: float, results: list[BenchResult]) -> dict[str, Any]:
    """The figures of :func:`run_benchmarks` as JSON."""
    out: dict[str, Any] = {
        "reference_hands_per_second": reference,
        "results": [
            {"name": r.name, "unit": r.unit, "per_second": r.per_second, "ratio": r.ratio}
            for r in results
        ],
    }
    speedup = batch_over_aec(results)
    if speedup is not None:
        out["batch_over_aec"] = speedup
    return out


def table(reference: float, results: list[BenchResult]) -> Table:
    """The figures of :func:`run_benchmarks` as a terminal table."""
    out = Table(title="toepen bench (best of interleaved rounds, one core)")
    out.add_column("benchmark")
    out.add_column("per second", justify="right")
    out.add_column("ratio to reference", justify="right")
    out.add_row("reference: shuffle, deal, 4 tricks (4 players)", f"{reference:,.0f} hands",
                "1.000")
    for r in results:
        out.add_row(r.name, f"{r.per_second:,.0f} {r.unit}", f"{r.ratio:.3f}")
    speedup = batch_over_aec(results)
    if speedup is not None:
        out.caption = f"batched env / AEC env: {speedup:,.0f} times the steps a second"
    return out


@dataclass
class AgainstResult:
    """One benchmark of :func:`run_against`: this tree's and the other tree's best."""

    name: str
    unit: str
    this: float
    """Per second, this tree."""
    other: float
    """Per second, the other tree."""

    @property
    def ratio(self) -> float:
        """This tree's speed over the other's: above 1, this tree is faster."""
        return self.this / self.other


class AgainstError(ValueError):
    """The other tree cannot be benchmarked (not a toepen source tree, or its worker died)."""


def source_folder(tree: str | Path) -> Path:
    """The folder holding ``toepen/`` in ``tree`` (a checkout's root or its ``src``)."""
    root = Path(tree).expanduser()
    for candidate in (root / "src", root):
        if (candidate / "toepen" / "engine").is_dir():
            return candidate.resolve()
    raise AgainstError(f"{tree}: not a toepen source tree (no src/toepen/engine in it)")


class _Worker:
    """A :mod:`bench_loops` worker process on one source tree."""

    def __init__(self, src: Path) -> None:
        self.src = src
        env = dict(os.environ, PYTHONHASHSEED="0")  # the same string hashing in both
        self.proc = subprocess.Popen(
            [sys.executable, loops.__file__, str(src)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )

    def time(self, request: str) -> float:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(request + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
            return float(line)
        except (BrokenPipeError, ValueError):
            self.proc.kill()
            _, err = self.proc.communicate()
            last = (err.strip().splitlines() or ["it exited"])[-1]
            raise AgainstError(f"{self.src}: the benchmark worker failed: {last}") from None

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate()


def run_against(
    other: str | Path,
    seconds: float = 0.5,
    rounds: int = 5,
    presets: tuple[str, ...] = PRESETS,
    sizes: tuple[int, ...] = SIZES,
    progress: Callable[[int], None] | None = None,
) -> tuple[AgainstResult, list[AgainstResult]]:
    """The benchmarks of this tree against another toepen tree, in the same run.

    Two worker processes, one per tree, run the same loops (:mod:`bench_loops`) with
    the same counts and seeds, taking turns (which one goes first alternates), and the
    best of ``rounds`` counts for each. The first result is the reference loop, the same
    code in both: its ratio shows what the two processes differ by when the engines are
    not involved (about 1; read the other ratios against it).
    """
    this_src = Path(__file__).resolve().parents[2]
    other_src = source_folder(other)
    jobs = [(f"{p} {n} players: complete random hands", "hands", f"hands {p} {n}")
            for p in presets for n in sizes]
    jobs.append(("rulebook 4 players: legal actions + apply", "actions",
                 "actions rulebook 4"))
    workers = (_Worker(this_src), _Worker(other_src))
    try:
        def count_for(request: str) -> int:
            k = 16
            while True:
                took = workers[0].time(f"{request} {k} 0" if request != "reference"
                                       else f"reference {k} 0")
                if took > seconds / 4:
                    return max(1, int(k * seconds / (4 * took)) * 4)
                k *= 4

        counts = {req: count_for(req) for _, _, req in jobs}
        ref_k = count_for("reference")
        best: dict[str, list[float]] = {req: [0.0, 0.0] for _, _, req in jobs}
        ref_best = [0.0, 0.0]
        for r in range(rounds):
            for _, _, req in jobs:
                for i in ((0, 1) if r % 2 == 0 else (1, 0)):
                    ref_best[i] = max(ref_best[i], ref_k / workers[i].time(
                        f"reference {ref_k} {r}"))
                    best[req][i] = max(best[req][i], counts[req] / workers[i].time(
                        f"{req} {counts[req]} {r}"))
                if progress is not None:
                    progress(1)
    finally:
        for w in workers:
            w.close()
    reference = AgainstResult("reference loop (the same code in both)", "hands", *ref_best)
    return reference, [AgainstResult(name, unit, *best[req]) for name, unit, req in jobs]


def against_json(other: str | Path, reference: AgainstResult,
                 results: list[AgainstResult]) -> dict[str, Any]:
    """The figures of :func:`run_against` as JSON."""
    return {
        "against": str(other),
        "results": [
            {"name": r.name, "unit": r.unit, "this_per_second": r.this,
             "other_per_second": r.other, "ratio": r.ratio}
            for r in (reference, *results)
        ],
    }


def against_table(other: str | Path, reference: AgainstResult,
                  results: list[AgainstResult]) -> Table:
    """The figures of :func:`run_against` as a terminal table."""
    out = Table(title=f"toepen bench: this tree against {other} (best of interleaved rounds)")
    out.add_column("benchmark")
    out.add_column("this tree", justify="right")
    out.add_column("the other", justify="right")
    out.add_column("ratio", justify="right")
    out.caption = "per second; ratio above 1: this tree is faster"
    for r in (reference, *results):
        out.add_row(r.name, f"{r.this:,.0f} {r.unit}", f"{r.other:,.0f} {r.unit}",
                    f"{r.ratio:.3f}")
    return out
