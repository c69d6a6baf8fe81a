"""Benchmarks of the card-play solver and of the pimc/expert decision times.

Run as a script (figures and ratios, nothing asserted)::

    uv run python benchmarks/bench_bots.py                 # solver + bots
    uv run python benchmarks/bench_bots.py --deals 400 --reference-deals 40
    uv run python benchmarks/bench_bots.py --only solver

or through pytest-benchmark::

    uv run pytest benchmarks/bench_bots.py --benchmark-only -p no:cacheprovider

**Solver.** The exact solve of fresh 4-player deals (4 tricks, all 16 cards known,
follow suit, settlement by the last trick), from the first leader's side, median
over ``--deals`` random deals; the plain reference search (no memo, no card merging,
no cut-offs) is timed on the first ``--reference-deals`` of the same deals and the
ratio of the medians is printed.

**Bots.** Decision times of ``pimc`` and ``expert`` at 4- and 8-player tables over
whole hands of self-play (rulebook and classic), median and 95th percentile.

**Against another checkout** (``--against DIR``): the same lines for this tree's bot and
for DIR's, each tree in a fresh process of its own (this script run by this interpreter
with ``PYTHONPATH=TREE/src``, so that tree's ``toepen`` is imported: neither tree runs in
the parent, whose heap and imports would differ), interleaved: ``--rounds`` rounds, each
of ``--hands / --rounds`` hands (the same seeds in both trees), this tree first in odd
rounds and DIR first in even ones; the percentiles are over all the rounds together::

    nice -n 5 uv run python benchmarks/bench_bots.py --only bots --bot expert \
        --preset rulebook --players 4 8 --hands 48 --rounds 4 --against /tmp/v2

``--clock cpu`` times each decision by the process's CPU time (``time.process_time``)
instead of the wall clock: on a shared machine a decision's wall time also counts the
moments another process had the core. A copy of the same tree as DIR, 4 players
``classic``, 48 hands: p95 ratio 0.87 and 1.14 in two runs when this tree still ran in
the parent process, 0.99 (wall clock) and 1.00 (CPU time) with both in processes of
their own (docs/expert.md, "Speed").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from toepen.bots import make_bot
from toepen.bots.solver import Solver, reference_solve
from toepen.engine import Game
from toepen.view import observe


def fresh_deals(count: int, players: int = 4, seed: int = 0) -> list[list[int]]:
    """``count`` random fresh deals of 4 cards to each of ``players`` seats."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = list(range(32))
        rng.shuffle(deck)
        out.append([sum(1 << c for c in deck[4 * j:4 * j + 4]) for j in range(players)])
    return out


def _times(fn: Callable[[list[int]], Any], deals: list[list[int]], progress: Progress,
           label: str) -> list[float]:
    task = progress.add_task(label, total=len(deals))
    out = []
    for hands in deals:
        t = time.perf_counter()
        fn(hands)
        out.append(time.perf_counter() - t)
        progress.advance(task)
    return out


def bench_solver(deals: int, reference_deals: int, console: Console) -> None:
    ds = fresh_deals(deals)
    table = Table(title=f"exact solve of a fresh 4-player deal ({deals} deals)")
    for col in ("settlement", "fast median", "fast p95", "reference median", "ratio"):
        table.add_column(col, justify="right")
    with Progress(console=console, transient=True) as progress:
        for want, label in ((False, "loses"), (True, "wins")):
            fast = _times(lambda h, w=want: Solver(4, 1, w).solve(h, 0), ds, progress,
                          f"fast solver ({label})")
            ref = _times(lambda h, w=want: reference_solve(h, 4, 0, (), 1, w),
                         ds[:reference_deals], progress, f"reference ({label})")
            fm = statistics.median(fast)
            rm = statistics.median(ref)
            fast.sort()
            p95 = fast[int(0.95 * len(fast))]
            table.add_row(label, f"{fm * 1e3:.3f} ms", f"{p95 * 1e3:.2f} ms",
                          f"{rm * 1e3:.1f} ms ({len(ref)} deals)", f"{rm / fm:.0f}x")
    console.print(table)


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter,
                                          "cpu": time.process_time}
"""What a decision is timed by (``--clock``)."""
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
"""This checkout (the tree whose ``benchmarks/`` holds this script)."""


def decision_times(bot_name: str, preset: str, players: int, hands: int,
                   progress: Progress | None, first: int = 0, clock: str = "wall"
                   ) -> list[float]:
    """Seconds per decision of ``bot_name`` seated everywhere, over ``hands`` hands
    (seeds ``100 + first`` on), by ``clock`` (one of :data:`CLOCKS`)."""
    now = CLOCKS[clock]
    out: list[float] = []
    task = (progress.add_task(f"{bot_name} {preset} {players}p", total=hands)
            if progress is not None else None)
    for h in range(first, first + hands):
        game = Game.new(preset, players, seed=100 + h)
        bots = [make_bot(bot_name, seed=s) for s in range(players)]
        start = game.hand_no
        while game.hand_no == start and not game.is_over and game.turn >= 0:
            seat = game.turn
            view = observe(game, seat)
            t = now()
            action = bots[seat].act(view)
            if len(view.legal) > 1:
                out.append(now() - t)
            game.apply(seat, action)
        if progress is not None and task is not None:
            progress.advance(task)
    return out


def _elsewhere(tree: str, bot: str, preset: str, players: int, hands: int, first: int,
               clock: str = "wall") -> list[float]:
    """:func:`decision_times` of the checkout ``tree`` (its ``src`` first on the path),
    in a process of its own."""
    env = dict(os.environ, PYTHONPATH=os.path.join(tree, "src"))
    out = subprocess.run(
        [sys.executable, __file__, "--times", bot, preset, str(players), str(hands),
         str(first), clock], env=env, cwd=tree, check=True, capture_output=True,
        text=True)
    return [float(x) for x in json.loads(out.stdout)]


def _cells(ts: list[float]) -> list[str]:
    ts = sorted(ts)
    return [str(len(ts)), f"{statistics.median(ts) * 1e3:.0f} ms",
            f"{ts[int(0.95 * len(ts))] * 1e3:.0f} ms", f"{ts[-1] * 1e3:.0f} ms"]


def bench_bots(hands: int, console: Console, bots: tuple[str, ...] = ("pimc", "expert"),
               presets: tuple[str, ...] = ("rulebook", "classic"),
               sizes: tuple[int, ...] = (4, 8), against: str | None = None,
               rounds: int = 1, clock: str = "wall") -> None:
    if against is None:
        table = Table(title=f"decision time ({hands} self-play hands each; forced moves "
                      f"excluded; {clock} clock)")
        for col in ("bot", "preset", "players", "decisions", "median", "p95", "max"):
            table.add_column(col, justify="right")
        with Progress(console=console, transient=True) as progress:
            for name in bots:
                for preset in presets:
                    for players in sizes:
                        ts = decision_times(name, preset, players, hands, progress,
                                            clock=clock)
                        table.add_row(name, preset, str(players), *_cells(ts))
        console.print(table)
        return
    table = Table(title=f"decision time, this tree against {against} ({hands} hands each "
                  f"in {rounds} interleaved rounds; forced moves excluded; {clock} clock)")
    for col in ("bot", "preset", "players", "tree", "decisions", "median", "p95", "max",
                "p95 / other"):
        table.add_column(col, justify="right")
    per = max(1, hands // rounds)
    for name in bots:
        for preset in presets:
            for players in sizes:
                here: list[float] = []
                there: list[float] = []
                for r in range(rounds):
                    first = r * per
                    order = (0, 1) if r % 2 == 0 else (1, 0)
                    for which in order:
                        if which == 0:
                            here += _elsewhere(HERE, name, preset, players, per, first, clock)
                        else:
                            there += _elsewhere(against, name, preset, players, per, first,
                                                clock)
                    console.print(f"{name} {preset} {players}p round {r + 1}/{rounds} done",
                                  style="dim")
                p95 = [sorted(t)[int(0.95 * len(t))] for t in (here, there)]
                table.add_row(name, preset, str(players), "this", *_cells(here),
                              f"{p95[0] / p95[1]:.2f}")
                table.add_row("", "", "", "other", *_cells(there), "1")
    console.print(table)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--reference-deals", type=int, default=30)
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--only", choices=("solver", "bots"))
    ap.add_argument("--bot", nargs="+", default=["pimc", "expert"])
    ap.add_argument("--preset", nargs="+", default=["rulebook", "classic"])
    ap.add_argument("--players", type=int, nargs="+", default=[4, 8])
    ap.add_argument("--against", metavar="DIR",
                    help="another checkout: its bots' times beside these, interleaved")
    ap.add_argument("--rounds", type=int, default=4,
                    help="with --against: rounds the hands are split into")
    ap.add_argument("--clock", choices=tuple(CLOCKS), default="wall",
                    help="time decisions by the wall clock or by the process's CPU time")
    ap.add_argument("--times", nargs=6, metavar=("BOT", "PRESET", "PLAYERS", "HANDS",
                                                 "FIRST", "CLOCK"),
                    help=argparse.SUPPRESS)  # --against's child: times as JSON
    args = ap.parse_args()
    if args.times:
        bot, preset, players, hands, first, clock = args.times
        print(json.dumps(decision_times(bot, preset, int(players), int(hands), None,
                                        int(first), clock)))
        return
    console = Console(width=140) if args.against else Console()
    if args.only != "bots":
        bench_solver(args.deals, args.reference_deals, console)
    if args.only != "solver":
        bench_bots(args.hands, console, tuple(args.bot), tuple(args.preset),
                   tuple(args.players), args.against, args.rounds, args.clock)


# -- pytest-benchmark entry points ---------------------------------------------------------

_DEALS = fresh_deals(200, seed=1)


def _solve_all(want: bool) -> None:
    for hands in _DEALS:
        Solver(4, 1, want).solve(hands, 0)


def test_bench_solver_loses(benchmark: Any) -> None:
    """200 fresh 4-player deals, last trick loses (divide the time by 200)."""
    benchmark(_solve_all, False)


def test_bench_solver_wins(benchmark: Any) -> None:
    """200 fresh 4-player deals, last trick wins (divide the time by 200)."""
    benchmark(_solve_all, True)


def test_bench_reference_loses(benchmark: Any) -> None:
    """The plain reference search on 5 of the same deals (divide by 5)."""
    benchmark.pedantic(lambda: [reference_solve(h, 4, 0, (), 1, False) for h in _DEALS[:5]],
                       rounds=1, iterations=1)


if __name__ == "__main__":
    main()
