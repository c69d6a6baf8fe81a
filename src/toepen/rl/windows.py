"""``knock_anytime`` for the one-seat-at-a-time APIs (PettingZoo, OpenSpiel).

Under ``knock_anytime`` the engine awaits several seats at once during the play
(``Game.to_act``: the player to play, then every seat that may knock out of turn). An AEC
environment or an OpenSpiel state asks exactly one seat at a time, so the decision point
before each card is split into knock windows, as every venue does
(:func:`toepen.match.asked`): each seat of ``Game.knockers()``, in that order, is
asked alone with the legal actions ``knock`` and ``pass`` (:data:`toepen.match.KNOCK_OR_PASS`);
the first knock interrupts (the engine then asks the answers), and when every one of
them has passed the player to play decides. After every decision the windows open again
while the play goes on, so a window comes before every card. Without the option
``knockers()`` is empty and nothing changes: the seat asked is ``Game.turn``.

A pass is the wrapper's: the engine does not record it (nothing happened at the table),
so :attr:`KnockWindows.passes` keeps them for serialisation.

>>> from toepen.engine import KNOCK, Game
>>> from toepen.rules import Rules
>>> g = Game.new(Rules.preset("rulebook", armoede=False, knock_anytime=True), 4, seed=1)
>>> w = KnockWindows(g)
>>> g.turn, w.pending, w.seat, [str(a) for a in w.legal(w.seat)], w.legal(g.turn)
(1, [2, 3, 0], 2, ['knock', 'pass'], ())
>>> w.apply(2, PASS), w.seat
([], 3)
>>> _ = w.apply(3, KNOCK)  # seat 3 knocks while seat 1 is to play
>>> str(g.phase), w.seat, w.pending
('answer', 0, [])
"""

from __future__ import annotations

import dataclasses

from ..engine.actions import KNOCK, PASS, Action
from ..engine.events import Event
from ..engine.state import Game
from ..match import KNOCK_OR_PASS, window_view
from ..view import View, observe

__all__ = ["KNOCK_OR_PASS", "KnockWindows"]

_NONE: tuple[Action, ...] = ()


class KnockWindows:
    """The seat asked now, its legal actions and view, and applying its decision."""

    __slots__ = ("game", "anytime", "pending", "passes")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.anytime = game.rules.knock_anytime
        self.pending: list[int] = []
        """The seats still to be offered a knock before the next card (the first is asked)."""
        self.passes: list[tuple[int, int]] = []
        """Each window pass as (the number of engine actions before it, the seat)."""
        self.reopen()

    def reopen(self) -> None:
        """Open the windows of the decision point now (after a deal or a decision)."""
        if self.anytime:
            self.pending = list(self.game.knockers())

    def copy(self, game: Game) -> KnockWindows:
        """The same windows over ``game`` (a clone of this one's game)."""
        w = KnockWindows.__new__(KnockWindows)
        w.game = game
        w.anytime = self.anytime
        w.pending = list(self.pending)
        w.passes = list(self.passes)
        return w

    @property
    def in_window(self) -> bool:
        """True while a seat other than the player to play is offered a knock."""
        return bool(self.pending)

    @property
    def seat(self) -> int:
        """The one seat asked now (-1 when the engine awaits nobody: dealing or over)."""
        return self.pending[0] if self.pending else self.game.turn

    def legal(self, seat: int) -> tuple[Action, ...]:
        """``seat``'s legal actions: those of the seat asked now, nothing for the others."""
        if self.pending:
            return KNOCK_OR_PASS if seat == self.pending[0] else _NONE
        game = self.game
        return game.legal_actions() if seat == game.turn >= 0 else _NONE

    def view(self, seat: int | None) -> View:
        """``observe(game, seat)`` with ``legal`` as :meth:`legal` says (what a bot sees in
        a knock window: :func:`toepen.match.window_view`)."""
        if seat is not None and self.pending and seat == self.pending[0]:
            return window_view(self.game, seat)
        v = observe(self.game, seat)
        if seat is None:
            return v
        legal = self.legal(seat)
        return v if v.legal == legal else dataclasses.replace(v, legal=legal)

    def apply(self, seat: int, act: Action) -> list[Event]:
        """Apply ``seat``'s decision (ValueError, nothing changed, when it is not the seat
        asked or, in a window, not knock or pass; the engine's IllegalAction otherwise)."""
        if seat != self.seat:
            raise ValueError(f"seat {seat} is not to act: seat {self.seat} is")
        pending = self.pending
        if pending:
            if act == PASS:
                self.passes.append((len(self.game.actions), seat))
                pending.pop(0)
                return []
            if act != KNOCK:
                raise ValueError(f"seat {seat} is offered a knock out of turn: knock or "
                                 f"pass, not {act}")
        events = self.game.apply(seat, act)
        self.reopen()
        return events
