"""The loops ``toepen bench`` times, written against the engine's oldest public API only.

``Game(rules, players, seed=...)``, ``turn``, ``legal_actions()``, ``apply`` and
``hands_played`` have meant the same since the first wave, and this module imports
nothing of toepen itself: the game class comes in as an argument. So the very same
loops can drive another toepen tree (an older commit, checked out beside this one):
run as a script, this file is a worker that imports ``toepen`` from the source folder
it is given and times the loops on request. ``toepen bench --against DIR`` starts two
such workers, one on this tree and one on ``DIR``, and interleaves their rounds; see
:func:`toepen.tools.bench.run_against`.

The worker's protocol, one line each way: ``hands|actions PRESET PLAYERS COUNT SEED``
in, the seconds the loop took (``time.perf_counter``) out; ``reference COUNT SEED``
times the bare reference loop.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any


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


def engine_hands(count: int, rng: random.Random, rules: Any, players: int,
                 game_cls: Any) -> None:
    """``count`` complete random hands through the public engine API (sessions restart)."""
    choice = rng.choice
    done = 0
    while done < count:
        game = game_cls(rules, players, seed=rng.getrandbits(32))
        start = done
        while game.turn >= 0 and done < count:
            game.apply(game.turn, choice(game.legal_actions()))
            done = start + game.hands_played


def engine_actions(count: int, rng: random.Random, rules: Any, players: int,
                   game_cls: Any) -> None:
    """``count`` legal-actions-plus-apply steps of random play."""
    choice = rng.choice
    done = 0
    while done < count:
        game = game_cls(rules, players, seed=rng.getrandbits(32))
        while game.turn >= 0 and done < count:
            game.apply(game.turn, choice(game.legal_actions()))
            done += 1


def _serve(src: str) -> None:
    """The worker: toepen from ``src``, requests from stdin, seconds to stdout."""
    sys.path[0] = src  # in place of this script's own folder
    from toepen.engine import Game
    from toepen.rules import Rules

    rules: dict[str, Any] = {}
    for line in sys.stdin:
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "reference":
            count, seed = int(parts[1]), int(parts[2])
            t = time.perf_counter()
            reference_hands(count, random.Random(seed))
        else:
            kind, preset, players, count, seed = (
                parts[0], parts[1], int(parts[2]), int(parts[3]), int(parts[4])
            )
            if preset not in rules:
                rules[preset] = Rules.preset(preset)
            loop = engine_hands if kind == "hands" else engine_actions
            t = time.perf_counter()
            loop(count, random.Random(seed), rules[preset], players, Game)
        print(time.perf_counter() - t, flush=True)


if __name__ == "__main__":
    _serve(sys.argv[1])
