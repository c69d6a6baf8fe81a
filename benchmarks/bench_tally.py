"""Benchmarks of the score sheet: what a sheet costs against the engine's own game.

Run as a script (figures and ratios against a baseline measured in the same run,
nothing asserted)::

    uv run python benchmarks/bench_tally.py
    uv run python benchmarks/bench_tally.py --games 40

or through pytest-benchmark::

    uv run pytest benchmarks/bench_tally.py --benchmark-only -p no:cacheprovider

**A whole session.** Entering every entry of a session one by one (each entry applied to
a copy, as :meth:`Sheet.add` does) and rebuilding the sheet from its record, against
replaying the same session's record through the engine (``toepen.record.replay``).

**One state for a client.** ``Sheet.to_json`` (with ``legal_entries``: every candidate
entry tried on a copy) against one ``observe`` of the game for a spectator.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from toepen.bots import make_bot
from toepen.engine import Game, redact
from toepen.match import decide
from toepen.record import replay, to_record
from toepen.rules import Rules
from toepen.tally import Sheet, entries_from_events
from toepen.view import observe


def median_time(f: Callable[[], Any], n: int) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def a_session(preset: str, seed: int, lives: int = 6) -> tuple[Game, list[str]]:
    """A whole session by heuristic bots and the entries a table would make of it."""
    rules = Rules.preset(preset, lives=lives)
    game = Game(rules, 4, seed=seed)
    bots = [make_bot("heuristic", seed=seed * 10 + s) for s in range(4)]
    events = redact(game.opening_events(None), None)
    while game.turn >= 0:
        events += redact(game.apply(game.turn, decide(bots[game.turn], game, game.turn)), None)
    return game, entries_from_events(events, rules)


def enter(game: Game, entries: list[str]) -> Sheet:
    sheet = Sheet(game.rules, game.players, dealer=game.first_dealer)
    for e in entries:
        sheet.add(e)
    return sheet


def measure(games: int, preset: str) -> list[tuple[str, float, str, float]]:
    sessions = []
    with Progress(transient=True) as progress:
        task = progress.add_task(f"playing {preset} sessions", total=games)
        for seed in range(games):
            sessions.append(a_session(preset, seed))
            progress.advance(task)
    rows = []
    enter_t = [median_time(partial(enter, g, e), 3) for g, e in sessions]
    replay_t = [median_time(partial(replay, to_record(g)), 3) for g, _ in sessions]
    records = [enter(g, e).to_record() for g, e in sessions]
    rebuild_t = [median_time(partial(Sheet.from_record, r), 3) for r in records]
    rows.append((f"{preset}: a session entered entry by entry", statistics.median(enter_t),
                 "the engine replaying its record", statistics.median(replay_t)))
    rows.append((f"{preset}: a sheet rebuilt from its record", statistics.median(rebuild_t),
                 "the engine replaying its record", statistics.median(replay_t)))
    mid = [(enter(g, e[: len(e) // 2]), replay(to_record(g), upto=len(g.actions) // 2))
           for g, e in sessions]
    json_t = [median_time(s.to_json, 5) for s, _ in mid]
    view_t = [median_time(partial(observe, g, None), 5) for _, g in mid]
    rows.append((f"{preset}: one state for a client (to_json)", statistics.median(json_t),
                 "observe for a spectator", statistics.median(view_t)))
    entries = statistics.median(len(e) for _, e in sessions)
    actions = statistics.median(len(g.actions) for g, _ in sessions)
    Console().print(f"{preset}: median {entries:.0f} entries for {actions:.0f} actions a session")
    return rows


def test_enter_a_session(benchmark: Any) -> None:
    game, entries = a_session("classic", 1)
    benchmark(enter, game, entries)


def test_state_for_a_client(benchmark: Any) -> None:
    game, entries = a_session("rulebook", 1)
    benchmark(enter(game, entries[: len(entries) // 2]).to_json)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="sessions per preset")
    args = parser.parse_args()
    table = Table(title="score sheet: median times and ratios to a baseline of the same run")
    for col in ("what", "time", "baseline", "baseline time", "ratio"):
        table.add_column(col, justify="right" if "time" in col or col == "ratio" else "left")
    for preset in ("rulebook", "classic"):
        for what, t, base, b in measure(args.games, preset):
            table.add_row(what, f"{t * 1e3:.3f} ms", base, f"{b * 1e3:.3f} ms", f"{t / b:.2f}x")
    Console().print(table)


if __name__ == "__main__":
    main()
