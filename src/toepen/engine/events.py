"""Events: what an applied action caused, for a UI to narrate.

An event is a small immutable tuple. ``private`` events carry cards that only
``seat`` may see (a dealt hand, cards drawn by an exchange); :func:`redact` strips
them for everyone else, keeping how many cards there were.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from ..cards import cards_str


class EventKind(StrEnum):
    """Every kind of event, with the meaning of ``seat`` and ``value``."""

    DEAL = "deal"  # seat: dealer, value: hand number
    REDEAL = "redeal"  # seat: dealer, value: hand number
    HAND = "hand"  # private; seat: who received cards, cards: the hand
    TELL = "tell"  # seat whistles (value 3) or stands (value 4); detail: "tens"/"jacks"
    CLAIM = "claim"  # seat claims armoede
    EXCHANGE = "exchange"  # seat exchanges; value: cards drawn
    DRAW = "draw"  # private; seat: exchanger, cards: the new hand
    CHALLENGE = "challenge"  # seat challenges; value: the claimer/exchanger
    PASS = "pass"  # seat passes; detail: "claim", "exchange", "challenge", "blind", "kans",
    # "laundry", "rebuy"
    REVEAL = "reveal"  # seat's cards are shown; detail: "armoede", "exchange", "laundry" or
    # "open" (a caught laundry bluffer plays the hand face up)
    CLAIM_RESULT = "claim_result"  # seat: claimer; detail: genuine/false/unchallenged
    EXCHANGE_RESULT = "exchange_result"  # seat: exchanger; detail: caught/clean/unchallenged
    KANS = "kans"  # seat draws one card for a fourth of a rank (three_of_a_kind_draw)
    LAUNDRY = "laundry"  # seat claims witte or vuile was; value: cards drawn
    LAUNDRY_RESULT = "laundry_result"  # seat: claimer; detail: witte_was/vuile_was/caught/
    # unchallenged
    FOUR_OF_A_KIND = "four_of_a_kind"  # seat shows cards (four of a rank); value: the penalty
    PELT = "pelt"  # seat is on pelt and opens at stake value
    KNOCK = "knock"  # seat knocks; value: the new stake; detail "blind" for a blind knock
    STAY = "stay"  # seat stays; value: the stake accepted
    FOLD = "fold"  # seat folds; value: lives paid
    PLAY = "play"  # seat plays cards[0]
    TRICK = "trick"  # seat wins trick number value
    LIVES = "lives"  # seat loses value lives; detail: fold/stake/armoede/exchange/laundry/
    # four_of_a_kind
    JACK = "jack"  # seat took the last trick with a jack; detail: others_pay_more/winner_gains
    LIFE_BACK = "life_back"  # seat's side gets value lives back (jack_last_trick: winner_gains)
    ELIMINATED = "eliminated"  # seat leaves the session
    HAND_RESULT = "hand_result"  # seat: took the last trick (or last one left); value: stake;
    # detail: loses/wins (the last trick), folded (the others folded), four_of_a_kind, or
    # last_left (a penalty put the last but one side out and ended the session: the
    # hand_result follows the eliminated, before pot/session_result; so does a fold's)
    RUBBER = "rubber"  # rubber number value ended; seat: a rubber winner (-1 if shared);
    # detail: a shared rubber's sharers, every seat with the most lives left (partners
    # too), as seat numbers in seat order separated by spaces ("0 2"); "" when not shared
    DRINKS = "drinks"  # seat owes a round of drinks; value: their tally
    TOEPKONING = "toepkoning"  # seat won three in a row
    SUDDEN_DEATH = "sudden_death"  # value: mask of the tied seats, each back with 1 life
    REBUY = "rebuy"  # seat buys back in (rebuy); value: the lives it comes back with
    POT = "pot"  # seat (a pair: its lower seat) takes the pot; value: the pot in cents;
    # detail: the currency sign (pot_unit)
    SESSION_RESULT = "session_result"  # seat: the winner


class Event(NamedTuple):
    """One thing that happened."""

    kind: EventKind
    seat: int = -1
    value: int = 0
    cards: tuple[int, ...] = ()
    detail: str = ""
    private: bool = False

    def __str__(self) -> str:
        text = f"{self.kind} seat={self.seat}"
        if self.value:
            text += f" value={self.value}"
        if self.cards:
            text += f" cards={cards_str(sum(1 << c for c in self.cards))}"
        if self.detail:
            text += f" ({self.detail})"
        return text


def sharers(event: Event) -> tuple[int, ...]:
    """The seats that shared the rubber a shared ``RUBBER`` event ended (``()`` for any
    other event).

    >>> sharers(Event(EventKind.RUBBER, -1, 1, (), "0 2"))
    (0, 2)
    """
    if event.kind is not EventKind.RUBBER or event.seat >= 0:
        return ()
    return tuple(int(s) for s in event.detail.split())


def redact(events: list[Event] | tuple[Event, ...], seat: int | None) -> list[Event]:
    """The events as ``seat`` may see them (``None``: a spectator)."""
    out: list[Event] = []
    for e in events:
        if e.private and e.seat != seat and e.cards:
            e = e._replace(cards=(), value=len(e.cards))
        out.append(e)
    return out
