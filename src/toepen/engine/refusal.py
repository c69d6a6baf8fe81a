"""Why an action is refused: a code and its parameters, and the English of it.

The engine decides once why an action is illegal; every consumer (the server's error,
the terminal, the browser) shows :attr:`Refusal.code` through its own catalog
(``refusal.<code>``) or :meth:`Refusal.english`, and re-derives nothing. The checks
themselves (:class:`Refusals`, a mixin of ``Game``) are the slow path, kept apart from
the hot one in :mod:`.state`: ``legal_actions`` inlines the knock test that
:meth:`Refusals._knock_refusal` spells out, and a property test holds the two equal.

>>> r = Refusal("must_follow_suit", {"seat": 2, "card": "9c", "suit": "h"})
>>> r.english()
'seat 2 must follow suit (holds hearts)'
>>> r.to_json()
{'code': 'must_follow_suit', 'params': {'seat': 2, 'card': '9c', 'suit': 'h'}}
>>> str(IllegalAction(r))
'seat 2 must follow suit (holds hearts)'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import SUIT_MASKS, SUIT_NAMES, SUITS, card_str
from .actions import ACTIONS, FOLD, KNOCK, Action, ActionError, action
from .core import GameCore
from .phase import Phase

__all__ = ["PHASE_TASKS", "REFUSAL_CODES", "IllegalAction", "Refusal", "Refusals", "bad_action"]

_KNOCK = "seat {seat} may not knock "
_TEXT: dict[str, str] = {
    "not_a_seat": "seat {seat} is not a seat number",
    "bad_action": "seat {seat}: {error}",
    "session_over": "seat {seat} may not {action}: the session is over",
    "deal_awaited": "seat {seat} may not {action}: a new deal awaits a deck",
    "no_such_seat": "no seat {seat} at this table of {players}",
    "out_of_session": "seat {seat} is out of the session",
    "folded": "seat {seat} has folded this hand",
    "not_your_turn": "seat {seat} is not to act (awaiting seat {turn})",
    "knock_own_latest": _KNOCK + "(made the latest knock)",
    "knock_stake_capped": _KNOCK + "(stake is capped at {max_stake})",
    "knock_lives_below_stake": _KNOCK + "(lives {lives} below stake {stake})",
    "knock_exceeds_lives": _KNOCK + "(new stake {new_stake} exceeds lives {lives})",
    "knock_before_first_card": _KNOCK + "(the first player may not knock before the first card)",
    "blind_knock_lives": "seat {seat} may not knock blind (lives {lives}: a blind knock "
    "raises the stake to 3)",
    "fold_on_edge": "seat {seat} may not fold: paying {paid} of {lives} lives would put them "
    "out (edge: no_fold)",
    "not_now": "seat {seat} may not {action} now ({task})",
    "card_not_now": "seat {seat} may not play {card} now ({task})",
    "card_not_held": "seat {seat} does not hold {card}",
    "must_follow_suit": "seat {seat} must follow suit (holds {suit_name})",
    "no_deal_awaited": "no deal is awaited (phase {phase})",
}

REFUSAL_CODES: tuple[str, ...] = tuple(_TEXT)
"""Every code a :class:`Refusal` can carry (catalog ids ``refusal.<code>``)."""

PHASE_TASKS: dict[str, str] = {
    Phase.CLAIM: "armoede: claim or pass",
    Phase.CLAIM_CHALLENGE: "an armoede claim: challenge or pass",
    Phase.EXCHANGE: "exchange or pass",
    Phase.EXCHANGE_CHALLENGE: "an exchange: challenge or pass",
    Phase.ANSWER: "answer the knock: stay, fold or knock",
    Phase.PLAY: "play a card or knock",
    Phase.BLIND: "knock blind or pass",
    Phase.BLIND_ANSWER: "answer the blind knock: stay or fold",
    Phase.KANS: "draw for four of a kind or pass",
    Phase.LAUNDRY: "laundry: exchange or pass",
    Phase.LAUNDRY_CHALLENGE: "a laundry claim: check or pass",
    Phase.REBUY: "buy back in (stay) or stay out (pass)",
}
"""The decision each phase asks for, in English (the ``{task}`` of ``not_now``)."""


@dataclass(frozen=True)
class Refusal:
    """Why an action is not allowed: a code of :data:`REFUSAL_CODES` and its parameters.

    ``params`` hold ints and strings only (cards in notation like ``"7s"``, suits as
    their letter, phases as their word), so a refusal travels as JSON unchanged.
    """

    code: str
    params: dict[str, Any]

    def english(self) -> str:
        """The refusal in English (the text of :class:`IllegalAction`)."""
        params = self.params
        if self.code in ("not_now", "card_not_now"):
            params = {**params, "task": PHASE_TASKS[params["phase"]]}
        elif self.code == "must_follow_suit":
            params = {**params, "suit_name": SUIT_NAMES[SUITS.index(params["suit"])]}
        return _TEXT[self.code].format(**params)

    def to_json(self) -> dict[str, Any]:
        """``{"code": ..., "params": {...}}``."""
        return {"code": self.code, "params": dict(self.params)}


class IllegalAction(ValueError):
    """An action the rules do not allow now; the game is unchanged.

    ``refusal`` says why; ``str()`` is its English.
    """

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.english())
        self.refusal = refusal

    def __reduce__(self) -> tuple[type[IllegalAction], tuple[Refusal]]:
        return IllegalAction, (self.refusal,)


def bad_action(seat: Any, error: str) -> Refusal:
    """The refusal of something that is not an action (``error`` says why)."""
    return Refusal("bad_action", {"seat": seat if type(seat) is int else str(seat), "error": error})


_PLAY, _ANSWER, _OVER, _DEAL = Phase.PLAY, Phase.ANSWER, Phase.OVER, Phase.DEAL
_BLIND, _BLIND_ANSWER = Phase.BLIND, Phase.BLIND_ANSWER


class Refusals(GameCore):
    """Why an action is illegal: the slow path, apart from the hot one (a mixin of ``Game``)."""

    __slots__ = ()

    def refusal(self, seat: int, act: Action | int | str) -> Refusal | None:
        """Why ``seat`` may not take ``act`` now, or None if it may."""
        if type(act) is not Action:
            try:
                act = action(act)
            except ActionError as e:
                return bad_action(seat, str(e))
        if seat == self._turn and act in self.legal_actions():
            return None
        if act is KNOCK and type(seat) is int and act in self.legal(seat):
            return None  # knock_anytime: a knock out of turn
        return self._refuse(seat, act)

    def explain(self, seat: int, act: Action | int | str) -> str:
        """Why ``act`` by ``seat`` is not allowed now, in English (:meth:`refusal`'s text).

        For an action that is legal it names the decision awaited.
        """
        if type(act) is not Action:
            try:
                act = action(act)
            except ActionError as e:
                return bad_action(seat, str(e)).english()
        return self._refuse(seat, act).english()

    def _refuse(self, seat: Any, act: Action) -> Refusal:
        """The refusal of ``act`` by ``seat`` (the slow path; the action may be legal)."""
        act = ACTIONS[act]  # an equal Action built elsewhere is refused as the action it is
        if isinstance(seat, bool) or not isinstance(seat, int):
            return Refusal("not_a_seat", {"seat": repr(seat)})
        phase = self._phase
        if phase is _OVER:
            return Refusal("session_over", {"seat": seat, "action": str(act)})
        if phase is _DEAL:
            return Refusal("deal_awaited", {"seat": seat, "action": str(act)})
        if not 0 <= seat < self._n:
            return Refusal("no_such_seat", {"seat": seat, "players": self._n})
        if seat != self._turn:
            if not self._in_session >> seat & 1:
                return Refusal("out_of_session", {"seat": seat})
            if not self._active >> seat & 1:
                return Refusal("folded", {"seat": seat})
            if act is KNOCK and phase is _PLAY and self._rules.knock_anytime:
                reason = self._knock_refusal(seat)
                if reason is not None:
                    return reason
            return Refusal("not_your_turn", {"seat": seat, "turn": self._turn})
        if act is KNOCK:
            if phase is _PLAY or phase is _ANSWER:
                reason = self._knock_refusal(seat)
                if reason is not None:
                    return reason
            if phase is _BLIND:
                lives = self._pools[self._team_of[seat]]
                return Refusal("blind_knock_lives", {"seat": seat, "lives": lives})
            return Refusal("not_now", {"seat": seat, "action": str(act), "phase": phase.value})
        if act is FOLD and (phase is _ANSWER or phase is _BLIND_ANSWER):
            lives = self._pools[self._team_of[seat]]
            return Refusal(
                "fold_on_edge", {"seat": seat, "paid": self._accepted[seat], "lives": lives}
            )
        if act < 32:
            card = card_str(act)
            if phase is not _PLAY:
                return Refusal("card_not_now", {"seat": seat, "card": card, "phase": phase.value})
            hand = self._hands[seat]
            if not hand >> act & 1:
                return Refusal("card_not_held", {"seat": seat, "card": card})
            if self._led >= 0 and hand & SUIT_MASKS[self._led]:
                return Refusal(
                    "must_follow_suit", {"seat": seat, "card": card, "suit": SUITS[self._led]}
                )
            return Refusal("card_not_now", {"seat": seat, "card": card, "phase": phase.value})
        return Refusal("not_now", {"seat": seat, "action": str(act), "phase": phase.value})

    def _knock_refusal(self, seat: int) -> Refusal | None:
        """Why ``seat`` may not knock now, or None if it may (the slow twin of the check
        inlined in :meth:`legal_actions`)."""
        stake = self._stake
        if seat == self._knock_bar:
            return Refusal("knock_own_latest", {"seat": seat})
        if stake + 1 > self._max_stake:
            return Refusal("knock_stake_capped", {"seat": seat, "max_stake": self._max_stake})
        limit = self._limit
        if limit != "none":
            lives = self._pools[self._team_of[seat]]
            if limit == "lives_at_least_stake":
                if lives < stake:
                    return Refusal(
                        "knock_lives_below_stake", {"seat": seat, "lives": lives, "stake": stake}
                    )
            elif stake + 1 > lives:
                return Refusal(
                    "knock_exceeds_lives", {"seat": seat, "new_stake": stake + 1, "lives": lives}
                )
        if not self._early and not self._any_card_played and seat == self._leader:
            return Refusal("knock_before_first_card", {"seat": seat})
        return None
