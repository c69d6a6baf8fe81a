"""Actions and their one notation.

An action is a small int: ``0..31`` play that card id, then the verbs. The same
text codec serves the API, records, the CLI, the protocol and the tests.

>>> a = Action.parse("play 10h")
>>> a, str(a), int(a)
(Action('play Th'), 'play Th', 16)
>>> Action.parse("knock") is KNOCK
True
>>> [str(x) for x in (STAY, FOLD, CLAIM, EXCHANGE, CHALLENGE, PASS)]
['stay', 'fold', 'claim', 'exchange', 'challenge', 'pass']
"""

from __future__ import annotations

from ..cards import CardError, card_str, parse_card


class ActionError(ValueError):
    """A text that is not an action."""


VERBS = ("knock", "stay", "fold", "claim", "exchange", "challenge", "pass")
"""The verbs besides ``play CARD``, in action-id order (ids 32..38)."""

NUM_ACTIONS = 32 + len(VERBS)


class Action(int):
    """One decision: play a card (ids 0..31) or a verb (ids 32..38).

    Instances are interned: ``Action(n)`` for the same ``n`` is always the same object
    when built through :func:`action`, :meth:`parse` or the module constants.
    """

    __slots__ = ()

    @property
    def is_play(self) -> bool:
        """True for ``play CARD``."""
        return self < 32

    @property
    def card(self) -> int:
        """The card id of a play (ValueError for a verb)."""
        if self >= 32:
            raise ValueError(f"{self} is not a play")
        return int(self)

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Action({_TEXT[self]!r})"

    @staticmethod
    def parse(text: str) -> Action:
        """Parse ``play Th``, ``play 10h``, ``knock``... (case-insensitive)."""
        if not isinstance(text, str):
            raise ActionError(f"an action must be text, not {text!r}")
        words = text.strip().split()
        if not words:
            raise ActionError("empty action")
        verb = words[0].lower()
        if verb == "play":
            if len(words) != 2:
                raise ActionError(f"'play' needs one card: {text!r}")
            try:
                return ACTIONS[parse_card(words[1])]
            except CardError as e:
                raise ActionError(str(e)) from None
        if verb in VERBS and len(words) == 1:
            return ACTIONS[32 + VERBS.index(verb)]
        raise ActionError(f"unknown verb {words[0]!r}" if verb not in VERBS else f"bad {text!r}")

    @staticmethod
    def play(card: int | str) -> Action:
        """The action of playing a card (id or notation)."""
        return ACTIONS[parse_card(card) if isinstance(card, str) else card]


ACTIONS: tuple[Action, ...] = tuple(Action(i) for i in range(NUM_ACTIONS))
_TEXT: tuple[str, ...] = tuple(f"play {card_str(i)}" for i in range(32)) + VERBS

KNOCK, STAY, FOLD, CLAIM, EXCHANGE, CHALLENGE, PASS = ACTIONS[32:]


def action(value: int | str | Action) -> Action:
    """Coerce an id, a text or an action to the interned action."""
    if isinstance(value, str):
        return Action.parse(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < NUM_ACTIONS:
        return ACTIONS[value]
    raise ActionError(f"not an action: {value!r}")


def format_move(seat: int, act: Action) -> str:
    """Record notation of one decision: ``"2 play Th"``."""
    return f"{seat} {_TEXT[act]}"


def parse_move(text: str) -> tuple[int, Action]:
    """Parse record notation ``"SEAT VERB"`` or ``"SEAT play CARD"``.

    >>> parse_move("1 play Th")
    (1, Action('play Th'))
    """
    if not isinstance(text, str):
        raise ActionError(f"an action must be text, not {text!r}")
    seat_text, _, rest = text.strip().partition(" ")
    if not seat_text.isdigit():
        raise ActionError(f"{text!r} does not start with a seat number")
    return int(seat_text), Action.parse(rest)
