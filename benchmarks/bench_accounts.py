"""Benchmarks of the accounts: password hashing and what a finished game costs.

Run as a script (figures and ratios against a baseline measured in the same run,
nothing asserted)::

    uv run python benchmarks/bench_accounts.py
    uv run python benchmarks/bench_accounts.py --games 40

or through pytest-benchmark::

    uv run pytest benchmarks/bench_accounts.py --benchmark-only -p no:cacheprovider

**Passwords.** argon2id hashing and verifying (``argon2-cffi`` defaults), against the
SHA-256 of a session token (what every request with a cookie costs); the verify of an
unknown user (the dummy hash) against a known one (should be 1.0: the timing does not
tell whether a name exists).

**A finished game.** Its places and figures per seat (:func:`seat_results`) against one
replay of its events (``master.history``), and storing its results with the ratings of
a rated game (:meth:`AccountStore.record`, SQLite in memory) against storing one action.
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
from toepen.engine import Game
from toepen.rules import Rules
from toepen.server.db.store import ActionRow, SeatRow, Store, TableRow
from toepen.server.site.accounts.results import seat_results
from toepen.server.site.accounts.security import hash_password, token_hash, verify_password
from toepen.server.site.accounts.service import AccountStore, SeatEntry
from toepen.server.tables.master import history
from toepen.view import observe


def median_time(f: Callable[[], Any], n: int) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def a_game(seed: int, players: int = 4) -> Game:
    g = Game(Rules.preset("rulebook"), [f"P{i}" for i in range(players)], seed=seed)
    bots = [make_bot("random", seed=seed * 10 + s) for s in range(players)]
    while not g.is_over:
        g.apply(g.turn, bots[g.turn].act(observe(g, g.turn)))
    return g


def a_store(tables: int) -> tuple[Store, AccountStore]:
    store = Store.open("sqlite://")
    for i in range(tables):
        store.create_table(TableRow(id=f"{i:012x}", code=f"C{i:05d}"[:6], preset="rulebook",
                                    rules={"preset": "rulebook"}, size=4, seed=i, dealer=0,
                                    idle_seconds=60.0, autostart=False, creator="b",
                                    host_hash="h"), [SeatRow(s, "bot", bot="random")
                                                     for s in range(4)])
    return store, AccountStore(store.engine)


def measure(games: int) -> list[tuple[str, float, str, float]]:
    """(what, seconds, baseline, baseline seconds) rows."""
    rows = []
    token = "x" * 43
    stored = hash_password("correct horse battery")
    rows.append(("argon2id hash", median_time(lambda: hash_password("correct horse battery"), 7),
                 "sha256 of a session token", median_time(lambda: token_hash(token), 2000)))
    rows.append(("argon2id verify, unknown user",
                 median_time(lambda: verify_password(None, "correct horse battery"), 7),
                 "argon2id verify, known user",
                 median_time(lambda: verify_password(stored, "correct horse battery"), 7)))
    finished = []
    with Progress(transient=True) as progress:
        task = progress.add_task("playing games", total=games)
        for seed in range(games):
            finished.append(a_game(seed))
            progress.advance(task)
    rows.append(("places and figures (seat_results)",
                 statistics.median(median_time(partial(seat_results, g), 3) for g in finished),
                 "one replay of the game's events",
                 statistics.median(median_time(partial(history, g), 3) for g in finished)))
    store, accounts = a_store(games)
    results = [[SeatEntry(r, False) for r in seat_results(g)] for g in finished]
    bots = {s: "random" for s in range(4)}
    record_t = [median_time(partial(accounts.record, f"{i:012x}", "rulebook", 4, True,
                                    results[i], bots), 1) for i in range(games)]
    action_t = [median_time(partial(store.append_actions,
                                    [ActionRow(f"{i:012x}", 0, 0, "pass", "bot")]), 1)
                for i in range(games)]
    rows.append(("storing a rated game's results and ratings", statistics.median(record_t),
                 "storing one action", statistics.median(action_t)))
    store.close()
    return rows


def test_hash(benchmark: Any) -> None:
    benchmark(hash_password, "correct horse battery")


def test_seat_results(benchmark: Any) -> None:
    benchmark(seat_results, a_game(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="finished games to measure")
    args = parser.parse_args()
    table = Table(title="accounts: median times and ratios to a baseline of the same run")
    for col in ("what", "time", "baseline", "baseline time", "ratio"):
        table.add_column(col, justify="right" if "time" in col or col == "ratio" else "left")
    for what, t, base, b in measure(args.games):
        table.add_row(what, f"{t * 1e3:.3f} ms", base, f"{b * 1e3:.3f} ms", f"{t / b:.2f}x")
    Console().print(table)


if __name__ == "__main__":
    main()
