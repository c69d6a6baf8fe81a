"""The bot protocol and the registry of bots by name."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..engine.actions import Action
from ..view import View


@runtime_checkable
class Bot(Protocol):
    """A player that sees only a view (its own cards and everything public).

    ``act`` is called only when ``view.legal`` is not empty and must return one of
    ``view.legal``. Bots are seeded at construction (same seed, same decisions) and
    may be given a time budget per decision in seconds.
    """

    name: str

    def act(self, view: View) -> Action: ...


BotFactory = Callable[..., Bot]
BOTS: dict[str, BotFactory] = {}
"""Registered bot factories by name; call as ``factory(seed=..., time_budget=...)``."""

# Bots that live in their own module and register themselves on import.
_MODULES = {"random": ".random"}


def register_bot(name: str) -> Callable[[BotFactory], BotFactory]:
    """Class decorator: make a bot available to :func:`make_bot` by ``name``."""

    def deco(factory: BotFactory) -> BotFactory:
        BOTS[name] = factory
        return factory

    return deco


def make_bot(name: str, *, seed: int | None = None, time_budget: float | None = None) -> Bot:
    """A new bot by registered name (``random``, ``heuristic``, ``pimc``, ``expert``)."""
    if name not in BOTS and name in _MODULES:
        importlib.import_module(_MODULES[name], __package__)
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(sorted(bot_names()))})")
    return BOTS[name](seed=seed, time_budget=time_budget)


def bot_names() -> list[str]:
    """Names :func:`make_bot` accepts."""
    return sorted(set(BOTS) | set(_MODULES))
