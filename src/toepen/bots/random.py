"""``random``: uniform over the legal actions."""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..view import View


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None, time_budget: float | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, view: View) -> Action:
        return self._rng.choice(view.legal)
