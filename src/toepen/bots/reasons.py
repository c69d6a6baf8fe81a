"""Why a hint: the facts of a position that speak for the suggested action, as messages.

A hint (the browser's button, ``GET /api/tables/{id}/hint``; the terminal's ``?``) asks
the strongest bot what to do; :func:`reason` says, as a catalog message
(``hint.reason.*``) with its parameters, what that action does in the seat's own view.
Every figure in it is worked out from that view, so a reason never tells a hidden card and
never contradicts the hand:

- a card: it takes the trick for now, it is the lowest that follows, it is a discard
  (the seat cannot follow), it leads high or low;
- knock, stay, fold, exchange: how often this hand pays the stake, by the heuristic's
  estimate (:func:`toepen.bots.heuristic.hand_strength`, which knows whether the last
  trick wins or loses), against the table's average (1 in the players for ``last_trick:
  loses``, all but 1 for ``wins``). A knock on a hand that pays more often than the
  average is called a bluff, not "a strong hand"; a fold names what it costs now and
  what staying would risk;
- an armoede claim: genuine (no 7, 8, 9 or ten) or a bluff naming the cards a challenge
  would find;
- a blind knock, a challenge, a pass: what they do.

The parameters are numbers (percentages, lives), cards (:class:`~toepen.narration.Cards`)
and nested messages (the action), so each client shows them in its own language.
"""

from __future__ import annotations

from ..cards import HIGH_CARDS_MASK, beats, rank_of, suit_of
from ..engine import Action
from ..narration import Cards, Message
from ..view import View
from .heuristic import hand_strength

__all__ = ["REASON_IDS", "pay_chance", "reason"]

REASON_IDS: tuple[str, ...] = (
    "hint.reason.blind", "hint.reason.challenge", "hint.reason.claim",
    "hint.reason.claim.bluff", "hint.reason.discard", "hint.reason.exchange",
    "hint.reason.fold", "hint.reason.fold.stake", "hint.reason.follow_low",
    "hint.reason.knock", "hint.reason.knock.bluff", "hint.reason.lead_high",
    "hint.reason.lead_low", "hint.reason.only", "hint.reason.pass", "hint.reason.stay",
    "hint.reason.stay.cheap", "hint.reason.wins",
)
"""Every message :func:`reason` may answer with."""


def pay_chance(view: View) -> tuple[int, int]:
    """How often (percent) the seat's hand pays the stake, and the table's average.

    The heuristic's estimate of the hand left to play; the average is what a random hand
    pays at this table: 1 in the players still in the hand under ``last_trick: loses``
    (only the taker pays), all but one of them under ``wins``.
    """
    active = max(sum(view.active), 2)
    average = (active - 1) / active if view.rules.last_trick_wins else 1 / active
    return round(100 * hand_strength(view)), round(100 * average)


def _card(act: Action) -> Cards:
    return Cards((act.card,))


def _strong(view: View) -> Cards:
    """The seat's cards of the strong ranks (10, 9, 8, 7), high to low."""
    return Cards(tuple(sorted(c for c in view.hand if HIGH_CARDS_MASK >> c & 1)))


def reason(view: View, act: Action) -> Message:
    """Why ``act`` for the viewing seat, from its view only (see the module).

    >>> from types import SimpleNamespace as V
    >>> from toepen.cards import parse_card as c
    >>> lead = V(hand=(c("Th"), c("Jh")), trick=(), led_suit=-1, legal=(1, 2))
    >>> reason(lead, Action.parse("play Th")).id, reason(lead, Action.parse("play Jh")).id
    ('hint.reason.lead_high', 'hint.reason.lead_low')
    >>> follow = V(hand=(c("9h"), c("Jh"), c("Ks")), trick=((1, c("Qh")),), led_suit=2,
    ...            legal=(1, 2))
    >>> reason(follow, Action.parse("play 9h")).id, reason(follow, Action.parse("play Jh")).id
    ('hint.reason.wins', 'hint.reason.follow_low')
    >>> reason(V(hand=(c("Ks"),), trick=((1, c("Qh")),), led_suit=2, legal=(1, 2)),
    ...        Action.parse("play Ks"))
    Message('hint.reason.discard', card=Cards(29))
    """
    if len(view.legal) == 1:
        return Message("hint.reason.only", {"action": _action(act)})
    if act.is_play:
        return _play_reason(view, act)
    verb = str(act)
    phase = str(view.phase)
    if phase == "blind":
        return Message("hint.reason.blind" if verb == "knock" else "hint.reason.pass")
    if verb in ("challenge", "pass"):
        return Message(f"hint.reason.{verb}")
    if verb == "claim":
        strong = _strong(view)
        if strong.cards:
            return Message("hint.reason.claim.bluff", {"cards": strong})
        return Message("hint.reason.claim")
    pct, avg = pay_chance(view)
    figures: dict[str, int | Cards | Message] = {"pct": pct, "avg": avg}
    if verb == "knock":
        return Message("hint.reason.knock" if pct < avg else "hint.reason.knock.bluff",
                       figures)
    if verb == "stay":
        if pct <= avg:
            return Message("hint.reason.stay", figures)
        seat = view.seat if view.seat is not None else 0
        return Message("hint.reason.stay.cheap",
                       {**figures, "fold": view.accepted[seat], "stake": view.stake})
    if verb == "fold":
        seat = view.seat if view.seat is not None else 0
        cost = {"fold": view.accepted[seat], "stake": view.stake}
        return Message("hint.reason.fold" if pct > avg else "hint.reason.fold.stake",
                       {**figures, **cost})
    return Message("hint.reason.exchange", figures)  # exchange, kans, laundry


def _action(act: Action) -> Message:
    if act.is_play:
        return Message("act.play", {"card": _card(act)})
    return Message(f"act.{act}")


def _play_reason(view: View, act: Action) -> Message:
    card = act.card
    said = {"card": _card(act)}
    if not view.trick:
        strongest = min(view.hand) if view.hand else card
        best_of_suit = all(not beats(o, card) for o in view.hand if suit_of(o) == suit_of(card))
        if card == strongest or (best_of_suit and rank_of(card) <= 1):
            return Message("hint.reason.lead_high", said)
        return Message("hint.reason.lead_low", said)
    led = view.led_suit
    if led >= 0 and suit_of(card) != led:
        return Message("hint.reason.discard", said)
    best = [c for _, c in view.trick if led < 0 or suit_of(c) == led]
    top = min(best) if best else None
    if top is None or beats(card, top):
        return Message("hint.reason.wins", said)
    return Message("hint.reason.follow_low", said)
