"""The match driver: bots play a game out, each from its own view.

>>> from toepen.bots import make_bot
>>> from toepen.engine import Game
>>> g = Game.new("rulebook", 4, seed=5)
>>> bots = [make_bot("random", seed=s) for s in range(4)]
>>> play_game(g, bots, stop=hand_over(g))
>>> g.hand_no > 1 or g.is_over
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from .bots.base import Bot, BotError, end_game, start_game
from .engine.actions import KNOCK, PASS, Action
from .engine.state import Game
from .view import observe

__all__ = ["BotError", "decide", "hand_over", "knock_window", "play_game"]

KNOCK_OR_PASS = (KNOCK, PASS)
"""What a bot is offered in a ``knock_anytime`` window: knock now, or let the play go on."""


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


def knock_window(bot: Bot, game: Game, seat: int) -> bool:
    """``knock_anytime``: offer ``seat`` a knock out of turn (its view, with ``legal``
    knock or pass); True when it knocks (BotError for anything else)."""
    view = dataclasses.replace(observe(game, seat), legal=KNOCK_OR_PASS)
    act = bot.act(view)
    if act not in KNOCK_OR_PASS:
        raise BotError(f"bot {bot.name!r} at seat {seat} chose {act!r} in a knock window, "
                       "not knock or pass")
    return act is KNOCK


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
    raises :class:`~toepen.bots.base.BotError`; the game is left as it was before that
    decision.
    """
    if len(bots) != game.n:
        raise ValueError(f"{len(bots)} bots for a table of {game.n}")
    for seat, bot in enumerate(bots):
        start_game(bot, seat, game.rules, game.players, seeds[seat] if seeds else None)
    count = 0
    anytime = game.rules.knock_anytime
    while game.turn >= 0 and not (stop is not None and stop(game)):
        if anytime:  # before each card, the others are offered a knock in seat order
            knocker = next((s for s in game.knockers() if knock_window(bots[s], game, s)), -1)
            if knocker >= 0:
                game.apply(knocker, KNOCK)
                count += 1
                continue
        seat = game.turn
        game.apply(seat, decide(bots[seat], game, seat))
        count += 1
        if count >= max_actions:
            raise RuntimeError(f"no end after {max_actions} actions")
    for seat, bot in enumerate(bots):
        end_game(bot, observe(game, seat))
