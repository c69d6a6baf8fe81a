"""Benchmark of the review of a game (issue 26): a whole 4-player rulebook session, one seat.

Run as a script (figures and ratios, nothing asserted)::

    uv run python benchmarks/bench_review.py                # seat 0 of session seed 1
    uv run python benchmarks/bench_review.py --workers 1 --workers 2 --samples 16

or through pytest-benchmark::

    uv run pytest benchmarks/bench_review.py --benchmark-only -p no:cacheprovider

The session is played by ``heuristic`` bots (seeded). Timed, interleaved, best of
``--rounds``:

* **baseline**: the ``expert`` bot (the server's default, its own sample counts) making
  the reviewed seat's decisions of that session, one :func:`toepen.match.ask` each: what
  playing the seat costs;
* **review**: :func:`toepen.review.review` of the seat in this process (``--samples``
  deals per decision), and its ratio to the baseline;
* **pool N**: the same review valued in the server's bot pool (``BotPool(N)``, worker
  processes), every decision submitted at once as the server's ``/review`` does when it
  may use all N workers (it uses half of them, so that the tables' bots keep the rest).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from toepen.bots import make_bot
from toepen.engine import Game
from toepen.match import ask, play_game
from toepen.record import to_record
from toepen.review import DEFAULT_SAMPLES, judge, points, review


def session(seed: int = 1) -> dict[str, Any]:
    g = Game.new("rulebook", 4, seed=seed)
    play_game(g, [make_bot("heuristic", seed=s) for s in range(4)])
    return to_record(g)


def baseline(rec: dict[str, Any], seat: int) -> None:
    pts, _, _ = points(rec, seat)
    for p in pts:
        ask(make_bot("expert", seed=p.index), p.view)


def in_pool(pool: Any, rec: dict[str, Any], seat: int, samples: int) -> int:
    pts, _, _ = points(rec, seat)

    async def run() -> list[Any]:
        got = await asyncio.gather(*(pool.review_values(p.view, samples, 0, None) for p in pts))
        return [judge(p, v, samples) for p, v in zip(pts, got, strict=True)]

    return len(asyncio.run(run()))


def best_of(fn: Any, rounds: int) -> float:
    out = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return min(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seat", type=int, default=0)
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, action="append")
    args = ap.parse_args()
    from toepen.server.tables.botpool import BotPool

    rec = session(args.seed)
    pts, _, _ = points(rec, args.seat)
    print(f"session: rulebook, 4 players, {len(rec['actions'])} actions; seat {args.seat}: "
          f"{len(pts)} decisions; {args.samples} samples per decision")
    pools = {w: BotPool(w, "process") for w in args.workers or [1, 2]}
    for pool in pools.values():  # start the workers (and their imports) before timing
        in_pool(pool, rec, args.seat, 1)
    base = review_t = 1e9
    pool_t = {w: 1e9 for w in pools}
    for _ in range(args.rounds):  # interleaved: each round times everything once
        base = min(base, best_of(lambda: baseline(rec, args.seat), 1))
        review_t = min(review_t, best_of(
            lambda: review(rec, args.seat, samples=args.samples), 1))
        for w, pool in pools.items():
            pool_t[w] = min(pool_t[w], best_of(
                lambda pool=pool: in_pool(pool, rec, args.seat, args.samples), 1))
    print(f"baseline (expert plays the seat's decisions): {base:.2f} s")
    print(f"review, in process: {review_t:.2f} s  ({review_t / base:.2f} x the baseline, "
          f"{1000 * review_t / max(1, len(pts)):.1f} ms per decision)")
    for w, t in pool_t.items():
        print(f"review, bot pool of {w} worker process(es): {t:.2f} s  "
              f"({t / base:.2f} x the baseline)")
    for pool in pools.values():
        pool.close()


def test_review_a_session(benchmark: Any) -> None:
    rec = session(1)
    base = best_of(lambda: baseline(rec, 0), 1)
    got = benchmark.pedantic(lambda: review(rec, 0), rounds=3, iterations=1)
    benchmark.extra_info["baseline_s"] = base
    benchmark.extra_info["decisions"] = len(got.decisions)


if __name__ == "__main__":
    main()
