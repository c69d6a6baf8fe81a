"""Engine benchmarks, each reported as a ratio to a bare reference loop run alongside.

The reference loop only shuffles, deals and plays random legal cards for 4 tricks at 4
players: no knocks, no phases, no events, no validation. It is the floor for any Python
engine, so the ratios compare across machines where raw figures do not.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.table import Table

from ..engine import Game
from ..rules import Rules


def reference_hands(count: int, rng: random.Random) -> None:
    """The bare loop: ``count`` random 4-player hands of 4 tricks, following suit."""
    choice = rng.choice
    shuffle = rng.shuffle
    for _ in range(count):
        deck = list(range(32))
        shuffle(deck)
        hands = [deck[0:4], deck[4:8], deck[8:12], deck[12:16]]
        leader = 0
        for _trick in range(4):
            hand = hands[leader]
            card = choice(hand)
            hand.remove(card)
            led = card >> 3
            best, best_seat = card, leader
            for i in (1, 2, 3):
                seat = (leader + i) & 3
                hand = hands[seat]
                follow = [c for c in hand if c >> 3 == led]
                if follow:
                    card = choice(follow)
                    if card < best:
                        best, best_seat = card, seat
                else:
                    card = choice(hand)
                hand.remove(card)
            leader = best_seat


def engine_hands(count: int, rng: random.Random, rules: Rules, players: int) -> None:
    """``count`` complete random hands through the public engine API (sessions restart)."""
    choice = rng.choice
    done = 0
    while done < count:
        game = Game(rules, players, seed=rng.getrandbits(32))
        start = done
        while game.turn >= 0 and done < count:
            game.apply(game.turn, choice(game.legal_actions()))
            done = start + game.hands_played


def engine_actions(count: int, rng: random.Random, rules: Rules, players: int) -> None:
    """``count`` legal-actions-plus-apply steps of random play."""
    choice = rng.choice
    done = 0
    while done < count:
        game = Game(rules, players, seed=rng.getrandbits(32))
        while game.turn >= 0 and done < count:
            game.apply(game.turn, choice(game.legal_actions()))
            done += 1


def _hands_job(rng: random.Random, rules: Rules, players: int) -> Callable[[int], None]:
    return lambda k: engine_hands(k, rng, rules, players)


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


def steps(rounds: int, presets: tuple[str, ...] = PRESETS, sizes: tuple[int, ...] = SIZES) -> int:
    """How many times :func:`run_benchmarks` calls ``progress``: once per benchmark and round.

    >>> steps(5)
    35
    """
    return rounds * (len(presets) * len(sizes) + 1)


def run_benchmarks(
    seconds: float = 0.5,
    rounds: int = 5,
    presets: tuple[str, ...] = PRESETS,
    sizes: tuple[int, ...] = SIZES,
    progress: Callable[[int], None] | None = None,
) -> tuple[float, list[BenchResult]]:
    """Run every benchmark ``rounds`` times, interleaved with the reference, keeping the best.

    Returns the reference's hands per second and a result per benchmark. Interleaving
    and best-of-rounds keep a busy machine from skewing one figure against another.
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

    def calibrate(fn: Callable[[int], None]) -> int:
        k = 16
        while True:
            t = time.perf_counter()
            fn(k)
            if time.perf_counter() - t > seconds / 4:
                return max(1, int(k * seconds / (4 * (time.perf_counter() - t))) * 4)
            k *= 4

    ref_fn: Callable[[int], None] = lambda k: reference_hands(k, rng)  # noqa: E731
    sizes_of = {name: calibrate(fn) for name, _, fn in jobs}
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


def to_json(reference: float, results: list[BenchResult]) -> dict[str, Any]:
    """The figures of :func:`run_benchmarks` as JSON."""
    return {
        "reference_hands_per_second": reference,
        "results": [
            {"name": r.name, "unit": r.unit, "per_second": r.per_second, "ratio": r.ratio}
            for r in results
        ],
    }


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
    return out
