"""Benchmark of the server's two hot storage calls: a group commit of actions
(:meth:`Store.append_actions`) and a finished game's results (:meth:`AccountStore.record`).

A temp SQLite file (WAL, synchronous=NORMAL, as ``toepen serve``), CPU time
(``time.process_time``) per call, the best of several repeats. With ``--before REV`` the
same loops also run on that revision's code (a ``git worktree`` in a temp folder, in a
subprocess) and the ratios are printed; nothing is asserted::

    uv run python benchmarks/bench_storage.py
    uv run python benchmarks/bench_storage.py --before HEAD --calls 400 --repeats 7
    uv run python benchmarks/bench_storage.py --before HEAD --postgresql

The loops: ``append_actions`` of 11 rows (one action of each of 11 tables, about one
game ending every fifth call, as the load benchmark's 4-seat games of ~54 actions do);
``record`` of an unrated game of 4 guests (the load benchmark's games), and of a rated
game of 3 accounts and a bot.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

GROUP = 11
"""Rows per ``append_actions`` call (what the load benchmark measured per group)."""


def best(block: Callable[[int], Callable[[], None]], calls: int, repeats: int) -> float:
    """CPU seconds per call: ``block(r)`` prepares repeat ``r`` and gives its loop."""
    out = float("inf")
    for r in range(repeats):
        loop = block(r)
        t = time.process_time()
        loop()
        out = min(out, (time.process_time() - t) / calls)
    return out


def measure(calls: int, repeats: int, url: str | None = None) -> dict[str, float]:
    """Seconds per call of each loop, on the ``toepen`` that Python imports (``url``:
    that database instead of a temp SQLite file)."""
    from toepen.server.db.store import ActionRow, SeatRow, Store, TableRow
    from toepen.server.site.accounts.results import SeatResult
    from toepen.server.site.accounts.service import AccountStore, SeatEntry

    folder = tempfile.mkdtemp(prefix="toepen-bench-storage-")
    store = Store.open(url or f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
    accounts = AccountStore(store.engine)
    made = random.randrange(1 << 40)  # runs may share a database: fresh ids and names

    def table(seats: list[SeatRow]) -> str:
        nonlocal made
        made += 1
        tid = f"{made:012x}"
        store.create_table(TableRow(
            id=tid, code=f"{made:06X}"[-6:], preset="rulebook", rules={"preset": "rulebook"},
            size=4, seed=made, dealer=0, idle_seconds=60.0, autostart=False, creator="b",
            host_hash="h"), seats)
        store.start(tid, ["A", "B", "C", "D"])
        return tid

    guests = [SeatRow(s, "human", name=f"G{s}", token_hash=f"t{s}") for s in range(4)]

    def actions(_r: int) -> Callable[[], None]:
        tids = [table(guests) for _ in range(GROUP)]
        groups = [[ActionRow(t, n, n % 4, "pass", "player",
                             winner=0 if n % 5 == 4 and i == n // 5 % GROUP else None)
                   for i, t in enumerate(tids)] for n in range(calls)]

        def loop() -> None:
            for g in groups:
                store.append_actions(g)
        return loop

    def seat(s: int, place: int) -> SeatResult:
        return SeatResult(seat=s, place=place, won=place == 1, hands=9, hands_won=2 + s,
                          lives_lost=3, knocks=4, bluffs=1)

    seats = [seat(s, p) for s, p in enumerate((2, 1, 4, 3))]

    def unrated(_r: int) -> Callable[[], None]:
        tids = [table(guests) for _ in range(calls)]
        entries = [SeatEntry(r, True) for r in seats]

        def loop() -> None:
            for t in tids:
                accounts.record(t, "rulebook", 4, False, entries, {})
        return loop

    users = []
    for i in range(3):
        u = accounts.register(f"Player{i}-{made}", "x")
        assert u is not None
        users.append(u)

    def rated(_r: int) -> Callable[[], None]:
        tids = []
        for _ in range(calls):
            tid = table([SeatRow(s, "human", name=f"Player{s}", token_hash=f"t{s}")
                         for s in range(3)] + [SeatRow(3, "bot", name="Bot", bot="random")])
            for s, u in enumerate(users):
                accounts.link_seat(tid, s, u.id, False)
            accounts.set_rated(tid)
            tids.append(tid)
        entries = [SeatEntry(r, r.seat < 3) for r in seats]

        def loop() -> None:
            for t in tids:
                accounts.record(t, "rulebook", 4, True, entries, {3: "random"})
        return loop

    def again(_r: int) -> Callable[[], None]:
        tids = [table(guests) for _ in range(calls)]
        entries = [SeatEntry(r, True) for r in seats]
        for t in tids:
            accounts.record(t, "rulebook", 4, False, entries, {})

        def loop() -> None:
            for t in tids:
                accounts.record(t, "rulebook", 4, False, entries, {})
        return loop

    out = {
        "append_actions": best(actions, calls, repeats),
        "record unrated": best(unrated, calls, repeats),
        "record rated": best(rated, calls, repeats),
        "record again": best(again, calls, repeats),
    }
    store.close()
    return out


def worktree(rev: str) -> Path:
    """A checkout of ``rev`` in a temp folder."""
    root = Path(__file__).resolve().parents[1]
    where = Path(tempfile.mkdtemp(prefix="toepen-before-")) / "tree"
    subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", str(where), rev],
                   check=True, capture_output=True)
    return where


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300, help="calls per repeat")
    parser.add_argument("--repeats", type=int, default=5, help="repeats (the best counts)")
    parser.add_argument("--before", metavar="REV", help="also measure this revision")
    parser.add_argument("--postgresql", action="store_true",
                        help="on a throwaway PostgreSQL (benchmarks/services.py) instead of SQLite")
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.calls, args.repeats, args.url)))
        return
    if args.postgresql:
        from services import throwaway_postgres

        with throwaway_postgres() as url:
            compare(args.calls, args.repeats, args.before, url)
    else:
        compare(args.calls, args.repeats, args.before, None)


def compare(calls: int, repeats: int, rev: str | None, url: str | None) -> None:
    """Measure (and ``rev`` too, alternating) in subprocesses; print the table."""
    before: dict[str, float] = {}
    tree = worktree(rev) if rev else None
    now: dict[str, float] = {}
    for turn in range(2):  # alternate, so that both see the machine alike
        for which in (("before", "now") if turn == 0 else ("now", "before")):
            if which == "before" and tree is None:
                continue
            env = dict(os.environ)
            if which == "before" and tree is not None:
                env["PYTHONPATH"] = str(tree / "src")
            got = json.loads(subprocess.run(
                [sys.executable, __file__, "--json", "--calls", str(calls),
                 "--repeats", str(repeats), *(["--url", url] if url else [])], env=env,
                check=True, capture_output=True, text=True).stdout)
            into = before if which == "before" else now
            for k, v in got.items():
                into[k] = min(into.get(k, v), v)
    if tree is not None:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], check=False,
                       capture_output=True)
    per = {"append_actions": GROUP, "record unrated": 54, "record rated": 54,
           "record again": 54}
    print(f"{'':16} {'now/call':>10} {'now/action':>11}", end="")
    print(f" {'before/call':>12} {'before/action':>14} {'ratio':>6}" if before else "")
    for k, v in now.items():
        line = f"{k:16} {v * 1e6:8.1f}us {v / per[k] * 1e6:9.1f}us"
        if k in before:
            b = before[k]
            line += f" {b * 1e6:10.1f}us {b / per[k] * 1e6:12.1f}us {v / b:6.2f}"
        print(line)
    print("(per action: append_actions / 11 rows; record / 54 actions of a game)")


if __name__ == "__main__":
    main()
