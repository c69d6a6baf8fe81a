"""Why an action is refused: a code and its parameters, and the English of it.

The engine decides once why an action is illegal; every consumer (the server's error,
the terminal, the browser) shows :attr:`Refusal.code` through its own catalog
(``refusal.<code>``) or :meth:`Refusal.english`, and re-derives nothing.

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

from ..cards import SUIT_NAMES, SUITS
from .phase import Phase

__all__ = ["REFUSAL_CODES", "IllegalAction", "Refusal", "PHASE_TASKS"]

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
