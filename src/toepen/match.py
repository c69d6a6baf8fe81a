"""The match driver: the one way any venue asks a bot for its decision.

Every venue (the arena, the server's scheduler and stand-ins, the terminal, the RL
adapters) asks its bots through the same three steps, so that the same seeded table
with the same bots makes the same decisions everywhere:

* **Who is asked** (:func:`asked`): the seat to act, except that under
  ``knock_anytime`` during the play every seat that may knock out of turn is first
  offered a *knock window*, one at a time in the engine's order
  (``Game.knockers()``), with the legal actions ``knock`` and ``pass``
  (:data:`KNOCK_OR_PASS`, :func:`window_view`). The first knock interrupts; a pass is
  not an engine action (nothing happened at the table), so the venue keeps the passes
  of the decision point until the next action.
* **Asking** (:func:`ask`): the bot sees the seat's view only. An answer that cannot
  be played (the bot raised, timed out or chose an action that is not legal) is handled
  one way everywhere: the registry's fallback bot (:func:`fallback_for`, from
  :func:`toepen.bots.base.fallback_chain`) decides in its place, seeded alike, and the
  :class:`Incident` is logged (logger ``toepen.match``) and handed to the venue's
  ``report`` (the server counts it in its metrics, the terminal shows a notice, the
  arena lists it in its report).
* **Seeds** (:func:`seat_seed`): a bot's decisions are a function of its seed and the
  view, so a venue may build a bot once per game (the arena) or for every decision (the
  server's worker processes, the terminal); the server and the terminal seed seat
  ``s``'s bot with ``seat_seed(game seed, s)``.

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
import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from .bots.base import (
    LAST_RESORT,
    Bot,
    BotError,
    end_game,
    fallback_chain,
    make_bot,
    start_game,
)
from .engine.actions import KNOCK, PASS, Action
from .engine.events import Event
from .engine.phase import Phase
from .engine.state import Game
from .seeds import derive_seed
from .view import View, observe

__all__ = [
    "BotError", "INCIDENT_KINDS", "Incident", "KNOCK_OR_PASS", "Report", "apply_answer", "ask",
    "asked", "decide", "fall_back", "fallback_for", "hand_over", "knock_window", "play_game",
    "seat_seed", "view_for", "window_view",
]

log = logging.getLogger("toepen.match")

KNOCK_OR_PASS = (KNOCK, PASS)
"""What a bot is offered in a ``knock_anytime`` window: knock now, or let the play go on."""

INCIDENT_KINDS = ("error", "illegal", "timeout")
"""Why a bot's answer was not played: it raised, chose an action that is not legal, or
did not answer in time."""


@dataclass(frozen=True, slots=True)
class Incident:
    """A bot's answer that could not be played, and what the fallback played instead."""

    seat: int
    bot: str
    """The bot asked (its registry name)."""
    kind: str
    """One of :data:`INCIDENT_KINDS`."""
    detail: str
    """What went wrong, in English (for logs; may name the bot's own action)."""
    fallback: str
    """The bot that decided instead."""
    action: Action
    """What the fallback decided (the action played)."""
    window: bool
    """Whether the bot was asked in a knock window."""

    def __str__(self) -> str:
        where = " in a knock window" if self.window else ""
        return (f"bot {self.bot} at seat {self.seat}{where}: {self.kind}: {self.detail}; "
                f"{self.fallback} played {self.action}")


Report = Callable[[Incident], None]
"""What a venue does with an incident besides the log (count it, show it)."""


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` of a game dealt from ``seed`` (53 bits, so that
    any program reads it): the server and the terminal seed their bots with it.

    >>> seat_seed(5, 1) == seat_seed(5, 1) != seat_seed(5, 2)
    True
    """
    return derive_seed(seed, "bot", seat) >> 11


def hand_over(game: Game) -> Callable[[Game], bool]:
    """A ``stop`` condition for :func:`play_game`: the hand in progress has ended."""
    hand_no = game.hand_no
    return lambda g: g.hand_no != hand_no or g.is_over


# -- who is asked ---------------------------------------------------------------------


def asked(game: Game, passed: Collection[int] = (), skip: Collection[int] = ()) -> tuple[int, bool]:
    """The seat asked now and whether it is a knock window: the first seat of
    ``game.knockers()`` neither in ``passed`` (it passed at this decision point) nor in
    ``skip`` (a person, who knocks when they like), else the seat to act (-1 while the
    engine awaits nobody).

    >>> from toepen.rules import Rules
    >>> g = Game.new(Rules.preset("rulebook", armoede=False, knock_anytime=True), 4, seed=1)
    >>> g.turn, asked(g), asked(g, passed={2}), asked(g, passed={2}, skip={3})
    (1, (2, True), (3, True), (0, True))
    >>> asked(g, passed={0, 2, 3})
    (1, False)
    """
    if game.phase is Phase.PLAY:
        for s in game.knockers():
            if s not in passed and s not in skip:
                return s, True
    return game.turn, False


def window_view(game: Game, seat: int) -> View:
    """``seat``'s view in a knock window: its own view with ``legal`` knock or pass."""
    return dataclasses.replace(observe(game, seat), legal=KNOCK_OR_PASS)


def view_for(game: Game, seat: int, window: bool) -> View:
    """What the seat asked sees (:func:`asked`): its view, or its knock window's."""
    return window_view(game, seat) if window else observe(game, seat)


def apply_answer(game: Game, seat: int, act: Action, window: bool,
                 passed: set[int]) -> list[Event] | None:
    """Play the answer of the seat asked (:func:`asked`): a window's pass goes into
    ``passed`` (None: the game did not change); anything else is applied (its events;
    the engine's IllegalAction, nothing changed, for an action it refuses) and empties
    ``passed``, for a new decision point."""
    if window and act is PASS:
        passed.add(seat)
        return None
    events = game.apply(seat, act)
    passed.clear()
    return events


# -- asking -------------------------------------------------------------------------------


def fallback_for(name: str) -> str:
    """The bot that decides when ``name``'s answer cannot be played: the next bot of its
    fallback chain (:func:`~toepen.bots.base.fallback_chain`), else the last resort
    (:data:`~toepen.bots.base.LAST_RESORT`).

    >>> fallback_for("expert"), fallback_for("pimc"), fallback_for("random")
    ('heuristic', 'heuristic', 'random')
    >>> fallback_for("cmd:./mybot")
    'heuristic'
    """
    chain = fallback_chain(name)
    return chain[1] if len(chain) > 1 else LAST_RESORT


def ask(
    bot: Bot,
    view: View,
    seed: int | None = None,
    report: Report | None = None,
    name: str | None = None,
) -> Action:
    """THE driver step: ``bot``'s decision on ``view``, always one of ``view.legal``.

    An answer that cannot be played (an exception, an action not in ``view.legal``, or
    anything that is not an action) is replaced by the decision of the registry's
    fallback bot (:func:`fallback_for` of ``name``, the bot's registry name, by default
    ``bot.name``), built with ``seed``; the :class:`Incident` is logged and handed to
    ``report``.

    >>> from toepen.bots import make_bot
    >>> g = Game.new("rulebook", 4, seed=2)
    >>> class Broken:
    ...     name = "heuristic"
    ...     def act(self, view): raise RuntimeError("no idea")
    >>> seen = []
    >>> act = ask(Broken(), observe(g, g.turn), seed=1, report=seen.append)
    >>> act in g.legal_actions(), seen[0].kind, seen[0].fallback
    (True, 'error', 'random')
    """
    try:
        act = bot.act(view)
    except Exception as e:  # noqa: BLE001 - any failure of a bot is an incident, not a crash
        incident = fall_back(view, name or _name(bot), "error", f"{type(e).__name__}: {e}",
                             seed)
    else:
        if isinstance(act, Action) and act in view.legal:
            return act
        legal = ", ".join(str(a) for a in view.legal)
        incident = fall_back(view, name or _name(bot), "illegal",
                             f"chose {act!r}, not one of {legal}", seed)
    if report is not None:
        report(incident)
    return incident.action


def fall_back(view: View, name: str, kind: str, detail: str,
              seed: int | None = None) -> Incident:
    """The incident of bot ``name`` whose answer on ``view`` failed (``kind``, one of
    :data:`INCIDENT_KINDS`), with the fallback's decision (:func:`fallback_for`, built
    with ``seed``); logged. :func:`ask` calls it; so does a venue that learns of a
    failure itself (the server's bots that raise in its pool or time out)."""
    legal = view.legal
    seat = -1 if view.seat is None else view.seat
    if seed is None:  # a fallback decides as deterministically as the bot would have
        seed = derive_seed("fallback", name, seat, view.action_count) >> 11
    used = fallback_for(name)
    choice: Action | None = None
    for candidate in dict.fromkeys((used, LAST_RESORT)):
        try:
            got = make_bot(candidate, seed=seed).act(view)
        except Exception:  # noqa: BLE001 - a fallback that fails too: the next one
            log.exception("fallback bot %s failed at seat %d", candidate, seat)
            continue
        if isinstance(got, Action) and got in legal:
            used, choice = candidate, got
            break
    if choice is None:  # pragma: no cover - the random bot always answers
        choice = legal[0]
    incident = Incident(seat, name, kind, detail, used, choice, legal == KNOCK_OR_PASS)
    log.warning("%s", incident)
    return incident


def _name(bot: Bot) -> str:
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) else type(bot).__name__


def decide(bot: Bot, game: Game, seat: int, seed: int | None = None,
           report: Report | None = None) -> Action:
    """``bot``'s decision for ``seat``, from the seat's view only (:func:`ask`)."""
    return ask(bot, observe(game, seat), seed, report)


def knock_window(bot: Bot, game: Game, seat: int, seed: int | None = None,
                 report: Report | None = None) -> bool:
    """``knock_anytime``: offer ``seat`` a knock out of turn (:func:`window_view`); True
    when it knocks (an answer that is not knock or pass: the fallback's, :func:`ask`)."""
    return ask(bot, window_view(game, seat), seed, report) is KNOCK


def play_game(
    game: Game,
    bots: Sequence[Bot],
    *,
    stop: Callable[[Game], bool] | None = None,
    seeds: Sequence[int | None] | None = None,
    max_actions: int = 1_000_000,
    report: Report | None = None,
) -> None:
    """Let ``bots[seat]`` decide for every seat until the game ends or ``stop(game)``.

    Each bot sees only its own view and is asked by :func:`ask` (``seeds[seat]`` seeds
    its fallback), with the knock windows of :func:`asked`. ``start_game``/``end_game``
    hooks are called (``end_game`` with the seat's view at the end). An answer that
    cannot be played is the fallback's, and ``report`` is told (see :func:`ask`).
    """
    if len(bots) != game.n:
        raise ValueError(f"{len(bots)} bots for a table of {game.n}")
    for seat, bot in enumerate(bots):
        start_game(bot, seat, game.rules, game.players, seeds[seat] if seeds else None)
    count = 0
    anytime = game.rules.knock_anytime
    while game.turn >= 0 and not (stop is not None and stop(game)):
        if anytime:  # before each card, the others are offered a knock in seat order
            knocker = -1
            for s in game.knockers():
                if ask(bots[s], window_view(game, s), seeds[s] if seeds else None,
                       report) is KNOCK:
                    knocker = s
                    break
            if knocker >= 0:
                game.apply(knocker, KNOCK)
                count += 1
                continue
        seat = game.turn
        game.apply(seat, ask(bots[seat], observe(game, seat), seeds[seat] if seeds else None,
                             report))
        count += 1
        if count >= max_actions:
            raise RuntimeError(f"no end after {max_actions} actions")
    for seat, bot in enumerate(bots):
        end_game(bot, observe(game, seat))
