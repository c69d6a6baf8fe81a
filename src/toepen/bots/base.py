"""The bot protocol and the one registry of bots by name.

A bot sees only a :class:`~toepen.view.View` (``observe(game, seat)``: its own cards
and everything public) and returns one of ``view.legal``. Three optional hooks let a
bot follow a whole game: ``start_game(seat, rules, players, seed)`` before its first
decision, ``end_game(view)`` with the final view, and ``close()`` to release what it
holds (an external bot's process). The match driver :func:`toepen.match.play_game`
calls them where a bot has them.

Every built-in bot is described once, by a :class:`BotSpec` in :data:`BUILTIN`: its
name, its class (imported plainly: the bots import :mod:`toepen.bots.protocol`, never
this module), its place in the strength order and the bot that stands in when it fails.
The server, the accounts, the terminal and the tools read the names, the default bot
(:data:`DEFAULT`) and the fallbacks from here.

>>> [s.name for s in by_strength()]
['expert', 'pimc', 'heuristic', 'random']
>>> fallback_chain("expert")
('expert', 'heuristic', 'random')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules import Rules
from ..view import View
from . import external
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .pimc import PimcBot
from .protocol import Bot, BotError, BotFactory
from .random import RandomBot

__all__ = [
    "Bot", "BotError", "BotFactory", "BotSpec", "BOTS", "BUILTIN", "CMD_PREFIX", "DEFAULT",
    "DEFAULT_WORD", "EXTERNAL", "EXTERNAL_FALLBACK", "LAST_RESORT", "RESERVED", "by_strength",
    "bot_factory", "bot_names", "bot_spec", "check_bot_name", "close_bot", "end_game",
    "fallback_chain", "make_bot", "register_bot", "start_game",
]


# -- the registry ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One bot as the registry knows it."""

    name: str
    factory: BotFactory
    """The bot's class (``factory(seed=..., time_budget=...)``)."""
    strength: int
    """Place in the strength order: higher plays better."""
    fallback: str | None
    """The bot that plays instead when this one fails (None: none)."""


BUILTIN: tuple[BotSpec, ...] = (
    BotSpec("random", RandomBot, 0, None),
    BotSpec("heuristic", HeuristicBot, 1, "random"),
    BotSpec("pimc", PimcBot, 2, "heuristic"),
    BotSpec("expert", ExpertBot, 3, "heuristic"),
)
"""The built-in bots."""

EXTERNAL_FALLBACK: str = external.DEFAULT_FALLBACK.name
"""The built-in bot that plays a seat whose external bot failed or is not registered."""
EXTERNAL = BotSpec("cmd:COMMAND", external.ExternalBot, -1, EXTERNAL_FALLBACK)
"""An external program speaking the JSON-lines protocol (``cmd:COMMAND``)."""

DEFAULT = "expert"
"""The default opponent (the terminal's bots and hints, the server's ``default``); where
it fails, its fallbacks in turn."""
DEFAULT_WORD = "default"
"""What a table or a request names the default bot by (the server resolves it)."""

CMD_PREFIX = "cmd:"
"""A bot name ``cmd:COMMAND`` is an external program speaking the JSON-lines protocol."""

_SPECS = {s.name: s for s in BUILTIN}
BOTS: dict[str, BotFactory] = {s.name: s.factory for s in BUILTIN}
"""Bot factories by name (the built-in ones and any :func:`register_bot` added); call as
``factory(seed=..., time_budget=...)``."""


def bot_spec(name: str) -> BotSpec | None:
    """The registry's entry for ``name`` (:data:`EXTERNAL` for ``cmd:...``), else None."""
    if name.startswith(CMD_PREFIX):
        return EXTERNAL
    return _SPECS.get(name)


def by_strength() -> tuple[BotSpec, ...]:
    """The built-in bots, strongest first."""
    return tuple(sorted(BUILTIN, key=lambda s: -s.strength))


def fallback_chain(name: str) -> tuple[str, ...]:
    """``name`` and the bots that stand in for it in turn (``name`` first)."""
    out = [name]
    spec = bot_spec(name)
    while spec is not None and spec.fallback is not None and spec.fallback not in out:
        out.append(spec.fallback)
        spec = bot_spec(spec.fallback)
    return tuple(out)


LAST_RESORT: str = fallback_chain(DEFAULT)[-1]
"""The bot at the end of every fallback chain (``random``): it cannot fail."""
RESERVED: tuple[str, ...] = (*(s.name for s in BUILTIN), DEFAULT_WORD)
"""Bot names that only the built-in bots have: no external bot nor account may take them."""


def register_bot(name: str) -> Callable[[BotFactory], BotFactory]:
    """Class decorator: make a bot of your own available to :func:`make_bot` by ``name``."""

    def deco(factory: BotFactory) -> BotFactory:
        BOTS[name] = factory
        return factory

    return deco


def bot_factory(name: str) -> BotFactory:
    """The factory of bot ``name``, or ValueError naming the known ones."""
    if name not in BOTS:
        known = ", ".join(["cmd:COMMAND", *bot_names()])
        raise ValueError(f"unknown bot {name!r} (known: {known})")
    return BOTS[name]


def make_bot(
    name: str,
    *,
    seed: int | None = None,
    time_budget: float | None = None,
    timeout: float | None = None,
) -> Bot:
    """A new bot by registered name (``random``, ``heuristic``, ``pimc``, ``expert``).

    A name ``cmd:COMMAND`` starts ``COMMAND`` as an external bot (see ``docs/bots.md``),
    with the registry's fallback (:data:`EXTERNAL`) to stand in if it fails; ``timeout``
    is its per-decision limit in seconds (other bots ignore it).

    >>> make_bot("nobody")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'nobody' (known: cmd:COMMAND, ...heuristic, ...random...)
    """
    if name.startswith(CMD_PREFIX):
        return external.ExternalBot(name[len(CMD_PREFIX):], seed=seed,
                                    time_budget=time_budget, timeout=timeout,
                                    fallback=bot_factory(EXTERNAL_FALLBACK),
                                    fallback_name=EXTERNAL_FALLBACK)
    return bot_factory(name)(seed=seed, time_budget=time_budget)


def bot_names() -> list[str]:
    """Names :func:`make_bot` accepts (besides ``cmd:COMMAND``)."""
    return sorted(BOTS)


def check_bot_name(name: str) -> None:
    """Raise ValueError naming the problem if :func:`make_bot` cannot build ``name``."""
    if name.startswith(CMD_PREFIX):
        if not name[len(CMD_PREFIX):].strip():
            raise ValueError(f"bot {name!r}: 'cmd:' needs a command after it")
        return
    make_bot(name, seed=0)


# -- optional hooks ------------------------------------------------------------------------


def start_game(bot: Bot, seat: int, rules: Rules, players: Sequence[str],
               seed: int | None = None) -> None:
    """Tell ``bot`` a game begins and which seat it has (if it listens)."""
    hook: Any = getattr(bot, "start_game", None)
    if callable(hook):
        hook(seat, rules, tuple(players), seed)


def end_game(bot: Bot, view: View) -> None:
    """Give ``bot`` the final view of its game (if it listens)."""
    hook: Any = getattr(bot, "end_game", None)
    if callable(hook):
        hook(view)


def close_bot(bot: Bot) -> None:
    """Release what ``bot`` holds (an external process), if anything."""
    hook: Any = getattr(bot, "close", None)
    if callable(hook):
        hook()
