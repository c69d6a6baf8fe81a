"""The bot protocol, the registry of bots by name, and a driver that plays bots out.

A bot sees only a :class:`~toepen.view.View` (``observe(game, seat)``: its own cards
and everything public) and returns one of ``view.legal``. Three optional hooks let a
bot follow a whole game: ``start_game(seat, rules, players, seed)`` before its first
decision, ``end_game(view)`` with the final view, and ``close()`` to release what it
holds (an external bot's process). :func:`play_game` calls them where a bot has them.

>>> from toepen.engine import Game
>>> g = Game.new("rulebook", 4, seed=5)
>>> bots = [make_bot("random", seed=s) for s in range(4)]
>>> play_game(g, bots, stop=hand_over(g))
>>> g.hand_no > 1 or g.is_over
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..engine.actions import Action
from ..engine.state import Game
from ..rules import Rules
from ..view import View, observe


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
BOTS: dict[str, BotFactory] = {}
"""Registered bot factories by name; call as ``factory(seed=..., time_budget=...)``."""

# Bots that live in their own module and register themselves on import.
_MODULES = {
    "random": ".random",
    "heuristic": ".heuristic",
    "pimc": ".pimc",
    "expert": ".expert",
}

CMD_PREFIX = "cmd:"
"""A bot name ``cmd:COMMAND`` is an external program speaking the JSON-lines protocol."""


def register_bot(name: str) -> Callable[[BotFactory], BotFactory]:
    """Class decorator: make a bot available to :func:`make_bot` by ``name``."""

    def deco(factory: BotFactory) -> BotFactory:
        BOTS[name] = factory
        return factory

    return deco


def make_bot(
    name: str,
    *,
    seed: int | None = None,
    time_budget: float | None = None,
    timeout: float | None = None,
) -> Bot:
    """A new bot by registered name (``random``, ``heuristic``, ``pimc``, ``expert``).

    A name ``cmd:COMMAND`` starts ``COMMAND`` as an external bot (see ``docs/bots.md``);
    ``timeout`` is its per-decision limit in seconds (other bots ignore it).

    >>> make_bot("nobody")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'nobody' (known: cmd:COMMAND, ...heuristic, ...random...)
    """
    if name.startswith(CMD_PREFIX):
        from .external import ExternalBot

        return ExternalBot(name[len(CMD_PREFIX):], seed=seed, time_budget=time_budget,
                           timeout=timeout)
    if name not in BOTS and name in _MODULES:
        try:
            importlib.import_module(_MODULES[name], __package__)
        except ModuleNotFoundError as e:
            if e.name != f"{__package__}{_MODULES[name]}":
                raise
    if name not in BOTS:
        known = ", ".join(["cmd:COMMAND", *bot_names()])
        raise ValueError(f"unknown bot {name!r} (known: {known})")
    return BOTS[name](seed=seed, time_budget=time_budget)


def bot_names() -> list[str]:
    """Names :func:`make_bot` accepts (besides ``cmd:COMMAND``)."""
    return sorted(set(BOTS) | set(_MODULES))


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


# -- a driver ------------------------------------------------------------------------------


def hand_over(game: Game) -> Callable[[Game], bool]:
    """A ``stop`` condition for :func:`play_game`: the hand in progress has ended."""
    hand_no = game.hand_no
    return lambda g: g.hand_no != hand_no or g.is_over


def decide(bot: Bot, game: Game, seat: int) -> Action:
    """``bot``'s decision for ``seat``, from the seat's view only; BotError if not legal."""
    view = observe(game, seat)
    act = bot.act(view)
    if act not in view.legal:
        raise BotError(
            f"bot {bot.name!r} at seat {seat} chose {act!r}, not one of "
            f"{', '.join(str(a) for a in view.legal)}"
        )
    return act


def play_game(
    game: Game,
    bots: Sequence[Bot],
    *,
    stop: Callable[[Game], bool] | None = None,
    seeds: Sequence[int | None] | None = None,
    max_actions: int = 1_000_000,
) -> None:
    """Let ``bots[seat]`` decide for every seat until the game ends or ``stop(game)``.

    Each bot sees only its own view. ``start_game``/``end_game`` hooks are called
    (``end_game`` with the seat's view at the end). A bot returning an illegal action
    raises :class:`BotError`; the game is left as it was before that decision.
    """
    if len(bots) != game.n:
        raise ValueError(f"{len(bots)} bots for a table of {game.n}")
    for seat, bot in enumerate(bots):
        start_game(bot, seat, game.rules, game.players, seeds[seat] if seeds else None)
    count = 0
    while game.turn >= 0 and not (stop is not None and stop(game)):
        seat = game.turn
        game.apply(seat, decide(bots[seat], game, seat))
        count += 1
        if count >= max_actions:
            raise RuntimeError(f"no end after {max_actions} actions")
    for seat, bot in enumerate(bots):
        end_game(bot, observe(game, seat))
