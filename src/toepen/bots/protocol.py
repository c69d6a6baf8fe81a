"""What a bot is: the :class:`Bot` protocol, :class:`BotError` and a factory's type.

The bots themselves (``random``, ``heuristic``, ``pimc``, ``expert``, ``external``) import
this module, never the registry (:mod:`toepen.bots.base`), which imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..engine.actions import Action
from ..view import View

__all__ = ["Bot", "BotError", "BotFactory"]


@runtime_checkable
class Bot(Protocol):
    """A player that sees only a view (its own cards and everything public).

    ``act`` is called only when ``view.legal`` is not empty and must return one of
    ``view.legal``. Bots are seeded at construction (same seed, same decisions) and
    may be given a time budget per decision in seconds.
    """

    name: str

    def act(self, view: View) -> Action: ...


class BotError(RuntimeError):
    """A bot broke the protocol (returned an action that is not legal)."""


BotFactory = Callable[..., Bot]
"""A bot's constructor: ``factory(seed=..., time_budget=...)``."""
