"""Shared by the search-bot tests: decision points reached by random legal play."""

from __future__ import annotations

import random

from toepen.engine import Game
from toepen.rules import Rules

PRESETS = Rules.preset_names()


def random_positions(preset: str, players: int, seed: int, count: int) -> list[Game]:
    """Games advanced by random legal actions to ``count`` random decision points."""
    rng = random.Random(seed)
    out: list[Game] = []
    game = Game.new(preset, players, seed=seed)
    while len(out) < count and not game.is_over:
        if rng.random() < 0.3:
            out.append(game.clone())
        game.apply(game.turn, rng.choice(game.legal_actions()))
    return out
