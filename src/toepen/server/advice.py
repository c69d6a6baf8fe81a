"""Why a hint: the plain facts of a position that speak for the suggested action.

The hint endpoint (``GET /api/tables/{id}/hint``) asks the strongest bot what to do; this
module says, as a catalog message (``hint.reason.*``), what that action does in the
seat's own view: a card that takes the trick for now, the lowest card that follows, a
discard when the seat cannot follow, a knock on a strong hand. It reads only the seat's
:class:`~toepen.view.View`, so a reason can never tell a hidden card.
"""

from __future__ import annotations

from ..cards import HIGH_CARDS_MASK, beats, rank_of, suit_of
from ..engine import Action
from ..narration import Message, action_message
from ..view import View

VERB_REASONS = {
    "knock": "hint.reason.knock",
    "stay": "hint.reason.stay",
    "fold": "hint.reason.fold",
    "claim": "hint.reason.claim",
    "exchange": "hint.reason.exchange",
    "challenge": "hint.reason.challenge",
    "pass": "hint.reason.pass",
}
"""The reason of each verb a hint can suggest."""


def high_cards(view: View) -> int:
    """How many of the seat's cards are tens, nines, eights or sevens (the strong ranks)."""
    return sum(1 for c in view.hand if HIGH_CARDS_MASK >> c & 1)


def reason(view: View, act: Action) -> Message:
    """Why ``act`` is a good move for the viewing seat, from its view only.

    >>> from types import SimpleNamespace as V
    >>> from toepen.cards import parse_card as c
    >>> lead = V(hand=(c("Th"), c("Jh")), trick=(), led_suit=-1, legal=())
    >>> reason(lead, Action.parse("play Th")).id, reason(lead, Action.parse("play Jh")).id
    ('hint.reason.lead_high', 'hint.reason.lead_low')
    >>> follow = V(hand=(c("9h"), c("Jh"), c("Ks")), trick=((1, c("Qh")),), led_suit=2, legal=())
    >>> reason(follow, Action.parse("play 9h")).id, reason(follow, Action.parse("play Jh")).id
    ('hint.reason.wins', 'hint.reason.follow_low')
    >>> reason(V(hand=(c("Ks"),), trick=((1, c("Qh")),), led_suit=2, legal=()),
    ...        Action.parse("play Ks")).id
    'hint.reason.discard'
    >>> reason(V(hand=(c("Th"), c("9s")), trick=(), led_suit=-1, legal=()), Action.parse("knock"))
    Message('hint.reason.knock', n=2)
    """
    if not act.is_play:
        return Message(VERB_REASONS.get(str(act), "hint.reason.pass"), {"n": high_cards(view)})
    card = act.card
    if not view.trick:
        strongest = min(view.hand) if view.hand else card
        best_of_suit = all(not beats(o, card) for o in view.hand if suit_of(o) == suit_of(card))
        if card == strongest or (best_of_suit and rank_of(card) <= 1):
            return Message("hint.reason.lead_high", {"card": action_message(act).params["card"]})
        return Message("hint.reason.lead_low", {"card": action_message(act).params["card"]})
    led = view.led_suit
    if led >= 0 and suit_of(card) != led:
        return Message("hint.reason.discard", {"card": action_message(act).params["card"]})
    best = [c for _, c in view.trick if led < 0 or suit_of(c) == led]
    top = min(best) if best else None
    if top is None or beats(card, top):
        return Message("hint.reason.wins", {"card": action_message(act).params["card"]})
    return Message("hint.reason.follow_low", {"card": action_message(act).params["card"]})
