"""``random``: uniform over the legal actions.

A decision is a function of the bot's seed and the view (the seat and the number of
actions so far), never of the decisions before it, so that a bot built once per game
and one built for every decision (the server, the terminal) play alike
(:mod:`toepen.match`).
"""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..view import View

_M64 = (1 << 64) - 1


def mix(seed: int, seat: int, count: int) -> int:
    """A 64-bit number from ``seed``, ``seat`` and ``count`` (SplitMix64's finaliser):
    the random bot's draw for one decision, cheap and one-way enough for a choice.

    >>> mix(1, 0, 0) != mix(1, 1, 0) != mix(1, 0, 1)
    True
    """
    z = (seed + (count * 8 + seat + 1) * 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


class RandomBot:
    """Picks uniformly among the legal actions, by a draw from its seed and the view."""

    name = "random"

    def __init__(self, seed: int | None = None, time_budget: float | None = None) -> None:
        self._seed = (random.getrandbits(64) if seed is None else seed) & _M64

    def act(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        return legal[mix(self._seed, view.seat or 0, view.action_count) % len(legal)]
