"""The declaration machine: a seat declares, then its opponents may challenge it.

Armoede and the exchange are one machine with two settings (:class:`Declaration`).
After the deal each seat in turn may declare (claim armoede, exchange four cards) or
pass. A declaration opens a challenge round: the declarer's opponents, clockwise from
its left, may challenge or pass. A challenge shows the cards the declaration is about
(the armoede hand, the exchanged discard) and whichever side was wrong loses a life.
A declaration that stands (unchallenged, or proven honest) either ends the deal with
a redeal (armoede) or lets the round go on (exchange); a dishonest one always lets
the round go on. Later claims (the house rules' witte and vuile was, four of a kind)
are more settings of the same machine.

>>> ARMOEDE.verb, ARMOEDE.phase, ARMOEDE.challenge_phase
(Action('claim'), <Phase.CLAIM: 'claim'>, <Phase.CLAIM_CHALLENGE: 'claim_challenge'>)
>>> ARMOEDE.is_honest(0), EXCHANGE.honest_word, EXCHANGE.dishonest_word
(True, 'clean', 'caught')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..cards import HIGH_CARDS_MASK
from ..rules import Rules
from .actions import CLAIM, PASS, Action
from .actions import EXCHANGE as EXCHANGE_ACTION
from .core import GameCore
from .events import Event, EventKind
from .phase import Phase

__all__ = [
    "ARMOEDE", "DECLARATIONS", "EXCHANGE", "Declaration", "Declarations",
    "rounds_of",
]

_new = tuple.__new__  # Event(...) without the NamedTuple keyword layer
_PASS_EV, _CHAL_EV, _REVEAL_EV = EventKind.PASS, EventKind.CHALLENGE, EventKind.REVEAL
_DRAW_EV = EventKind.DRAW
_OVER = Phase.OVER
_CHALLENGE_PASSES = tuple(Event(_PASS_EV, s, 0, (), "challenge", False) for s in range(8))


def _cards(mask: int) -> tuple[int, ...]:
    """Card ids of a small mask in id order (a hand or a discard of four cards)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _no_high_cards(mask: int) -> bool:
    return not mask & HIGH_CARDS_MASK


def _armoede_on(rules: Rules) -> bool:
    return rules.armoede


def _exchange_on(rules: Rules) -> bool:
    return rules.exchange


@dataclass(frozen=True, eq=False, slots=True)
class Declaration:
    """One kind of declaration: its decisions, events, test and outcome."""

    name: str
    """The word in events and lives lost: ``"armoede"``, ``"exchange"``."""
    index: int
    """Its place in :data:`DECLARATIONS` (and in the game's declared masks)."""
    phase: Phase
    """The phase of declaring or passing."""
    challenge_phase: Phase
    """The phase of challenging a declaration or passing."""
    verb: Action
    """The action that declares."""
    pass_detail: str
    """The ``detail`` of a PASS event in the declaring phase."""
    declared: EventKind
    """The event of declaring."""
    result: EventKind
    """The event that settles a declaration (detail: unchallenged/honest/dishonest word)."""
    honest_word: str
    dishonest_word: str
    is_honest: Callable[[int], bool]
    """Judges the shown cards (the discard of an exchange, else the hand)."""
    draws: bool
    """Declaring exchanges the hand for four stock cards (and needs four in the stock)."""
    redeal_when_standing: bool
    """A declaration that stands ends the deal with a redeal (else the round goes on)."""
    enabled: Callable[[Rules], bool]

    options: tuple[Action, ...] = field(init=False)
    """The legal actions of the declaring phase: the verb or pass."""
    pass_events: tuple[Event, ...] = field(init=False)
    """Each seat's PASS event of the declaring phase (shared: events are immutable)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", (self.verb, PASS))
        object.__setattr__(self, "pass_events", tuple(
            Event(_PASS_EV, s, 0, (), self.pass_detail, False) for s in range(8)
        ))

    def __reduce__(self) -> str:
        # A constant of this module: copies and pickles are the constant itself.
        return self.name.upper()


ARMOEDE = Declaration(
    name="armoede", index=0, phase=Phase.CLAIM, challenge_phase=Phase.CLAIM_CHALLENGE,
    verb=CLAIM, pass_detail="claim", declared=EventKind.CLAIM, result=EventKind.CLAIM_RESULT,
    honest_word="genuine", dishonest_word="false", is_honest=_no_high_cards, draws=False,
    redeal_when_standing=True, enabled=_armoede_on,
)
"""Armoede: a hand without 7s, 8s, 9s or tens may be claimed for a redeal."""

EXCHANGE = Declaration(
    name="exchange", index=1, phase=Phase.EXCHANGE, challenge_phase=Phase.EXCHANGE_CHALLENGE,
    verb=EXCHANGE_ACTION, pass_detail="exchange", declared=EventKind.EXCHANGE,
    result=EventKind.EXCHANGE_RESULT, honest_word="clean", dishonest_word="caught",
    is_honest=_no_high_cards, draws=True, redeal_when_standing=False,
    enabled=_exchange_on,
)
"""The exchange: four cards without 7s, 8s, 9s or tens may be swapped for the stock's."""

DECLARATIONS: tuple[Declaration, ...] = (ARMOEDE, EXCHANGE)
"""Every declaration, in the order their rounds follow each other after a deal."""


def rounds_of(rules: Rules) -> tuple[Declaration, ...]:
    """The declaration rounds of a deal under ``rules``, in order."""
    return tuple(d for d in DECLARATIONS if d.enabled(rules))


class Declarations(GameCore):
    """The declaration rounds of a deal (a mixin of ``Game``)."""

    __slots__ = ()

    _rounds: tuple[Declaration, ...]
    _round: int  # index in _rounds of the current round
    _decl: Declaration | None  # the current round's declaration

    def _start_declarations(self, order: tuple[int, ...], first: int = 0) -> None:
        """After a deal: the declaration rounds from ``first`` on, seats in ``order``."""
        rounds = self._rounds
        if first >= len(rounds):
            self._start_play()
            return
        decl = self._decl = rounds[first]
        self._round = first
        self._phase = decl.phase
        declared = self._declared[decl.index]
        self._queue = [s for s in order if not declared >> s & 1]
        self._next_declarer()

    def _next_declarer(self) -> None:
        decl = self._decl
        assert decl is not None
        queue = self._queue
        declared = self._declared[decl.index]
        active = self._active
        draws = decl.draws
        while queue and (
            declared >> queue[0] & 1
            or not active >> queue[0] & 1
            or draws and self._stock_pos + 4 > 32
        ):
            queue.pop(0)
        if queue:
            self._phase = decl.phase
            self._turn = queue[0]
        elif self._round + 1 < len(self._rounds):
            order = self._order_from((self._dealer + 1) % self._n, self._in_session)
            self._start_declarations(order, self._round + 1)
        else:
            self._start_play()

    def _declare(self, decl: Declaration, seat: int, declare: bool) -> None:
        ev = self._ev
        self._queue.pop(0)
        if not declare:
            ev.append(decl.pass_events[seat])
            self._next_declarer()
            return
        self._declared[decl.index] |= 1 << seat
        if decl.draws:
            discard = self._discard = self._hands[seat]
            pos = self._stock_pos
            deck = self._deck
            new = (1 << deck[pos]) | (1 << deck[pos + 1]) | (1 << deck[pos + 2]) | (
                1 << deck[pos + 3]
            )
            self._stock_pos = pos + 4
            self._hands[seat] = new
            self._out |= discard
            ev.append(_new(Event, (decl.declared, seat, 4, (), "", False)))
            ev.append(_new(Event, (_DRAW_EV, seat, 4, _cards(new), "", True)))
        else:
            ev.append(_new(Event, (decl.declared, seat, 0, (), "", False)))
        self._target = seat
        self._round_queue = self._queue
        self._queue = list(self._order_from((seat + 1) % self._n, self._opponents_mask(seat)))
        if not self._queue:
            ev.append(_new(Event, (decl.result, seat, 0, (), "unchallenged", False)))
            self._stands(decl)
            return
        self._phase = decl.challenge_phase
        self._turn = self._queue[0]

    def _challenge(self, decl: Declaration, seat: int, challenge: bool) -> None:
        ev = self._ev
        declarer = self._target
        self._queue.pop(0)
        if not challenge:
            ev.append(_CHALLENGE_PASSES[seat])
            if self._queue:
                self._turn = self._queue[0]
                return
            ev.append(_new(Event, (decl.result, declarer, 0, (), "unchallenged", False)))
            self._stands(decl)
            return
        ev.append(_new(Event, (_CHAL_EV, seat, declarer, (), "", False)))
        shown = self._discard if decl.draws else self._hands[declarer]
        self._revealed.append((declarer, shown, decl.name))
        ev.append(_new(Event, (_REVEAL_EV, declarer, 0, _cards(shown), decl.name, False)))
        if decl.is_honest(shown):
            ev.append(_new(Event, (decl.result, declarer, 0, (), decl.honest_word, False)))
            self._lose(seat, 1, decl.name)
            if self._phase is not _OVER:
                self._stands(decl)
            return
        ev.append(_new(Event, (decl.result, declarer, 0, (), decl.dishonest_word, False)))
        self._lose(declarer, 1, decl.name)
        if self._phase is _OVER:
            return
        self._queue = self._round_queue
        self._next_declarer()

    def _stands(self, decl: Declaration) -> None:
        """The declaration stands: a redeal, or the round goes on."""
        if decl.redeal_when_standing:
            self._out = 0
            self._deal(redeal=True)
        else:
            self._queue = self._round_queue
            self._next_declarer()
