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
['expert', 'pimc', 'heuristic', 'casual', 'beginner', 'random']
>>> fallback_chain("expert")
('expert', 'heuristic', 'random')

People pick bots by *level* (:data:`LEVELS`: ``beginner``, ``casual``, ``good``,
``strong``, ``expert``, weakest first), each played by one registered bot; a level's
name is accepted wherever a bot's name is (:func:`make_bot`, :func:`resolve_name`), and
what is stored (a table's seat, a save, a record) is the bot's name.

>>> [(lv.name, lv.bot) for lv in LEVELS][2:]
[('good', 'heuristic'), ('strong', 'pimc'), ('expert', 'expert')]
>>> level_of("pimc").name, resolve_name("good")
('strong', 'heuristic')
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
from .noisy import BeginnerBot, CasualBot
from .pimc import PimcBot
from .protocol import Bot, BotError, BotFactory
from .random import RandomBot

__all__ = [
    "Bot", "BotError", "BotFactory", "BotSpec", "BOTS", "BUILTIN", "CMD_PREFIX", "DEFAULT",
    "DEFAULT_WORD", "EXTERNAL", "EXTERNAL_FALLBACK", "LAST_RESORT", "LEVELS", "Level",
    "RESERVED", "STANDIN_LEVEL", "by_strength", "bot_factory", "bot_names", "bot_spec",
    "check_bot_name", "close_bot", "end_game", "fallback_chain", "level", "level_names",
    "level_of", "make_bot", "register_bot", "resolve_name", "standin_level", "start_game",
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
    BotSpec("beginner", BeginnerBot, 1, "random"),
    BotSpec("casual", CasualBot, 2, "random"),
    BotSpec("heuristic", HeuristicBot, 3, "random"),
    BotSpec("pimc", PimcBot, 4, "heuristic"),
    BotSpec("expert", ExpertBot, 5, "heuristic"),
)
"""The built-in bots."""


@dataclass(frozen=True, slots=True)
class Level:
    """A level people pick a bot by; its words are the catalogs' ``level.NAME`` (the
    name) and ``level.NAME.about`` (one line on how it plays)."""

    name: str
    bot: str
    """The registered bot that plays at this level (the one bot of the level)."""


LEVELS: tuple[Level, ...] = (
    Level("beginner", "beginner"),
    Level("casual", "casual"),
    Level("good", "heuristic"),
    Level("strong", "pimc"),
    Level("expert", "expert"),
)
"""The levels, weakest first (ordered by arena ratings: docs/bots.md, "Levels")."""
STANDIN_LEVEL = "good"
"""The level of the stand-in for an absent person at a table with no levelled bot."""

_LEVELS = {lv.name: lv for lv in LEVELS}
_LEVEL_OF = {lv.bot: lv for lv in LEVELS}


def level(name: str) -> Level | None:
    """The level called ``name``, else None."""
    return _LEVELS.get(name)


def level_of(bot: str) -> Level | None:
    """The level that bot ``bot`` plays at (a level's name counts as its bot), else None
    (``random``, an external program)."""
    lv = _LEVELS.get(bot)
    return lv if lv is not None else _LEVEL_OF.get(bot)


def level_names() -> list[str]:
    """The levels' names, weakest first."""
    return [lv.name for lv in LEVELS]


def resolve_name(name: str) -> str:
    """The bot's name for ``name``: a level's bot, any other name as it is."""
    lv = _LEVELS.get(name)
    return lv.bot if lv is not None else name


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
    """The registry's entry for ``name`` (a level's name: its bot's; :data:`EXTERNAL` for
    ``cmd:...``), else None."""
    if name.startswith(CMD_PREFIX):
        return EXTERNAL
    return _SPECS.get(resolve_name(name))


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
RESERVED: tuple[str, ...] = tuple(dict.fromkeys(
    (*(s.name for s in BUILTIN), *(lv.name for lv in LEVELS), DEFAULT_WORD)))
"""Bot and level names that only the built-in bots have: no external bot nor account may
take them."""


def standin_level(bots: Sequence[str]) -> Level:
    """The level of the stand-in for an absent person at a table whose bots are ``bots``
    (bot or level names): the level most of them play at (of as many, the stronger);
    :data:`STANDIN_LEVEL` when none of them has a level.

    >>> standin_level(["pimc", "heuristic", "strong"]).name, standin_level(["random"]).name
    ('strong', 'good')
    """
    count: dict[str, int] = {}
    for b in bots:
        lv = level_of(b)
        if lv is not None:
            count[lv.name] = count.get(lv.name, 0) + 1
    if not count:
        return _LEVELS[STANDIN_LEVEL]
    order = level_names()
    return _LEVELS[max(count, key=lambda n: (count[n], order.index(n)))]


def register_bot(name: str) -> Callable[[BotFactory], BotFactory]:
    """Class decorator: make a bot of your own available to :func:`make_bot` by ``name``."""

    def deco(factory: BotFactory) -> BotFactory:
        BOTS[name] = factory
        return factory

    return deco


def bot_factory(name: str) -> BotFactory:
    """The factory of bot ``name`` (or of a level's bot), or ValueError naming the known
    ones."""
    bot = resolve_name(name)
    if bot not in BOTS:
        known = ", ".join(dict.fromkeys(["cmd:COMMAND", *level_names(), *bot_names()]))
        raise ValueError(f"unknown bot {name!r} (known: {known})")
    return BOTS[bot]


def make_bot(
    name: str,
    *,
    seed: int | None = None,
    time_budget: float | None = None,
    timeout: float | None = None,
) -> Bot:
    """A new bot by registered name (``random``, ``beginner``, ``casual``, ``heuristic``,
    ``pimc``, ``expert``) or by level (``beginner``, ``casual``, ``good``, ``strong``,
    ``expert``: the level's bot).

    A name ``cmd:COMMAND`` starts ``COMMAND`` as an external bot (see ``docs/bots.md``),
    with the registry's fallback (:data:`EXTERNAL`) to stand in if it fails; ``timeout``
    is its per-decision limit in seconds (other bots ignore it).

    >>> make_bot("nobody")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'nobody' (known: cmd:COMMAND, beginner, ...good...heuristic, ...)
    """
    if name.startswith(CMD_PREFIX):
        return external.ExternalBot(name[len(CMD_PREFIX):], seed=seed,
                                    time_budget=time_budget, timeout=timeout,
                                    fallback=bot_factory(EXTERNAL_FALLBACK),
                                    fallback_name=EXTERNAL_FALLBACK)
    return bot_factory(name)(seed=seed, time_budget=time_budget)


def bot_names() -> list[str]:
    """Bot names :func:`make_bot` accepts (besides ``cmd:COMMAND`` and the levels'
    names, :func:`level_names`)."""
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
