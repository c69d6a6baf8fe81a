"""The declaration machine: a seat declares, then its opponents may challenge it.

Armoede and the exchange are one machine with two settings (:class:`Declaration`).
After the deal each seat in turn may declare (claim armoede, exchange four cards) or
pass. A declaration opens a challenge round: the declarer's opponents, clockwise from
its left, may challenge or pass. A challenge shows the cards the declaration is about
(the armoede hand, the exchanged discard) and whichever side was wrong loses a life.
A declaration that stands (unchallenged, or proven honest) either ends the deal with
a redeal (armoede) or lets the round go on (exchange); a dishonest one always lets
the round go on. The house rules are more settings of the same machine: the laundry
(witte and vuile was: the exchange with its own test, checked by the first challenger
or by each other player, a caught bluffer maybe playing face up) and kans op toep
(three of a rank draw one card for the fourth: offered only to those who hold three,
never challenged).

>>> ARMOEDE.verb, ARMOEDE.phase, ARMOEDE.challenge_phase
(Action('claim'), <Phase.CLAIM: 'claim'>, <Phase.CLAIM_CHALLENGE: 'claim_challenge'>)
>>> ARMOEDE.is_honest(0), EXCHANGE.honest_word, EXCHANGE.dishonest_word
(True, 'clean', 'caught')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..cards import HIGH_CARDS_MASK, RANK_MASKS, SEVEN
from ..rules import Rules
from .actions import CLAIM, PASS, Action
from .actions import EXCHANGE as EXCHANGE_ACTION
from .core import GameCore
from .events import Event, EventKind
from .phase import Phase

__all__ = [
    "ARMOEDE", "DECLARATIONS", "EXCHANGE", "KANS", "LAUNDRY", "Declaration", "Declarations",
    "laundry_word", "rounds_of", "three_of_a_kind",
]

_new = tuple.__new__  # Event(...) without the NamedTuple keyword layer
_PASS_EV, _CHAL_EV, _REVEAL_EV = EventKind.PASS, EventKind.CHALLENGE, EventKind.REVEAL
_DRAW_EV = EventKind.DRAW
_KANS_EV = EventKind.KANS
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


def _kans_on(rules: Rules) -> bool:
    return rules.three_of_a_kind_draw


def _laundry_on(rules: Rules) -> bool:
    return rules.laundry


def _never(rules: Rules) -> bool:
    return False


def _laundry_each(rules: Rules) -> bool:
    return rules.laundry_check == "each"


_SEVENS = RANK_MASKS[SEVEN]


def laundry_word(mask: int, rules: Rules) -> str | None:
    """What a laundered hand was under ``rules``: ``"witte_was"`` (four of J, Q, K, A),
    ``"vuile_was"`` (three of them and a 7), or None (a bluff).

    >>> from toepen.cards import mask_of, parse_card
    >>> hand = lambda text: mask_of(parse_card(c) for c in text.split())
    >>> both = Rules.preset("rulebook", witte_was=True, vuile_was=True)
    >>> laundry_word(hand("Jc Qd Kh As"), both), laundry_word(hand("Jc Qd Kh 7s"), both)
    ('witte_was', 'vuile_was')
    >>> laundry_word(hand("Jc Qd 7h 7s"), both), laundry_word(hand("Jc Qd Kh 7s"),
    ...     Rules.preset("rulebook", witte_was=True))
    (None, None)
    """
    high = mask & HIGH_CARDS_MASK
    if not high:
        return "witte_was" if rules.witte_was else None
    if rules.vuile_was and high == mask & _SEVENS and high.bit_count() == 1:
        return "vuile_was"
    return None


def _laundry_honest(mask: int) -> bool:
    high = mask & HIGH_CARDS_MASK
    return not high or (high == mask & _SEVENS and high.bit_count() == 1)


def three_of_a_kind(hand: int) -> int:
    """The rank mask of which ``hand`` holds exactly three cards, or 0."""
    for rmask in RANK_MASKS:
        if (hand & rmask).bit_count() == 3:
            return rmask
    return 0


def _has_three(hand: int) -> bool:
    return three_of_a_kind(hand) != 0


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
    draws: int
    """Cards declaring draws from the stock (and needs there): 0, 4 (the whole hand is
    exchanged) or 1 (kans: the odd card for one)."""
    redeal_when_standing: bool
    """A declaration that stands ends the deal with a redeal (else the round goes on)."""
    enabled: Callable[[Rules], bool]
    word_of: Callable[[int, Rules], str | None] | None = None
    """The honest word for the shown cards under the rules, None for a bluff (when the
    verdict depends on the rules: the laundry's kinds); else ``is_honest`` decides."""
    eligible: Callable[[int], bool] | None = None
    """Only seats whose hand passes this are asked (kans); None: every seat."""
    check_each: Callable[[Rules], bool] = _never
    """Every opponent may check (``laundry_check: each``), the verdict settled after all
    have decided, instead of the first challenger settling it."""

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
    honest_word="genuine", dishonest_word="false", is_honest=_no_high_cards, draws=0,
    redeal_when_standing=True, enabled=_armoede_on,
)
"""Armoede: a hand without 7s, 8s, 9s or tens may be claimed for a redeal."""

EXCHANGE = Declaration(
    name="exchange", index=1, phase=Phase.EXCHANGE, challenge_phase=Phase.EXCHANGE_CHALLENGE,
    verb=EXCHANGE_ACTION, pass_detail="exchange", declared=EventKind.EXCHANGE,
    result=EventKind.EXCHANGE_RESULT, honest_word="clean", dishonest_word="caught",
    is_honest=_no_high_cards, draws=4, redeal_when_standing=False,
    enabled=_exchange_on,
)
"""The exchange: four cards without 7s, 8s, 9s or tens may be swapped for the stock's."""

KANS = Declaration(
    name="kans", index=2, phase=Phase.KANS, challenge_phase=Phase.KANS,
    verb=EXCHANGE_ACTION, pass_detail="kans", declared=EventKind.KANS,
    result=EventKind.KANS, honest_word="", dishonest_word="", is_honest=_has_three,
    draws=1, redeal_when_standing=False, enabled=_kans_on, eligible=_has_three,
)
"""Kans op toep: a seat holding three of a rank may draw one card for the fourth (never
challenged: it cannot be bluffed, and only such seats are asked)."""

LAUNDRY = Declaration(
    name="laundry", index=3, phase=Phase.LAUNDRY, challenge_phase=Phase.LAUNDRY_CHALLENGE,
    verb=EXCHANGE_ACTION, pass_detail="laundry", declared=EventKind.LAUNDRY,
    result=EventKind.LAUNDRY_RESULT, honest_word="clean", dishonest_word="caught",
    is_honest=_laundry_honest, draws=4, redeal_when_standing=False, enabled=_laundry_on,
    word_of=laundry_word, check_each=_laundry_each,
)
"""Witte and vuile was: a hand of J, Q, K, A (or three of them and a 7) may be
exchanged for four stock cards; bluffable, checked by ``laundry_check``."""

DECLARATIONS: tuple[Declaration, ...] = (ARMOEDE, EXCHANGE, KANS, LAUNDRY)
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
        self._marks = (*self._marks, (len(self._actions), decl.phase))
        self._phase = decl.phase
        declared = self._declared[decl.index]
        self._queue = [s for s in order if not declared >> s & 1] if declared else list(order)
        self._next_declarer()

    def _next_declarer(self) -> None:
        decl = self._decl
        assert decl is not None
        queue = self._queue
        declared = self._declared[decl.index]
        active = self._active
        draws = decl.draws
        eligible = decl.eligible
        while queue and (
            declared >> queue[0] & 1
            or not active >> queue[0] & 1
            or draws and self._stock_pos + draws > 32
            or eligible is not None and not self._may_declare(decl, queue[0])
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
        if decl.draws == 1:
            self._kans(seat)
            return
        if decl.draws:
            self._draw_hand(decl, seat)
        else:
            ev.append(_new(Event, (decl.declared, seat, 0, (), "", False)))
        self._target = seat
        self._checkers = 0
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
            if self._checkers:  # laundry_check each: someone checked
                self._verdict(decl, declarer, self._checkers)
                return
            ev.append(_new(Event, (decl.result, declarer, 0, (), "unchallenged", False)))
            self._stands(decl)
            return
        ev.append(_new(Event, (_CHAL_EV, seat, declarer, (), "", False)))
        if self._each[decl.index]:
            self._checkers |= 1 << seat
            if self._queue:
                self._turn = self._queue[0]
                return
            self._verdict(decl, declarer, self._checkers)
            return
        self._verdict(decl, declarer, 1 << seat)

    def _verdict(self, decl: Declaration, declarer: int, checkers: int) -> None:
        """Show the declared cards to the ``checkers`` and settle: each checker pays 1 to
        an honest declaration, a bluffer pays 1 per checker."""
        ev = self._ev
        self._checkers = 0
        word = self._judge(decl, declarer)
        if word is not None:
            ev.append(_new(Event, (decl.result, declarer, 0, (), word, False)))
            while checkers:  # each checker in seat order (most often one)
                low = checkers & -checkers
                checkers ^= low
                s = low.bit_length() - 1
                if self._in_session >> s & 1:
                    self._lose(s, 1, decl.name)
                    if self._phase is _OVER:
                        return
            self._stands(decl)
            return
        ev.append(_new(Event, (decl.result, declarer, 0, (), decl.dishonest_word, False)))
        if decl is LAUNDRY and self._rules.laundry_caught == "plays_open":
            held = self._hands[declarer]
            self._revealed.append((declarer, held, "open"))
            ev.append(_new(Event, (_REVEAL_EV, declarer, 0, _cards(held), "open", False)))
        self._lose(declarer, checkers.bit_count(), decl.name)
        if self._phase is _OVER:
            return
        if not self._active >> declarer & 1:
            self._revealed = [r for r in self._revealed if r[0] != declarer or r[2] != "open"]
        self._queue = self._round_queue
        self._next_declarer()

    # -- the cards (see "the cards" in :mod:`.state`: a sheet tells these steps) ----------

    def _may_declare(self, decl: Declaration, seat: int) -> bool:
        """May ``seat`` be asked to make ``decl`` (kans: only a holder of three of a rank)."""
        eligible = decl.eligible
        return eligible is None or eligible(self._hands[seat])

    def _draw_hand(self, decl: Declaration, seat: int) -> None:
        """``seat`` declared ``decl`` that swaps the whole hand: four new cards from the stock
        (the old ones leave play face down); the declaration's events."""
        ev = self._ev
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

    def _judge(self, decl: Declaration, declarer: int) -> str | None:
        """A challenge shows the declared cards (the hand, or an exchange's discard): the
        honest word for them, or None for a bluff."""
        shown = self._discard if decl.draws else self._hands[declarer]
        self._revealed.append((declarer, shown, decl.name))
        self._ev.append(_new(Event, (_REVEAL_EV, declarer, 0, _cards(shown), decl.name, False)))
        word_of = decl.word_of
        if word_of is None:
            return decl.honest_word if decl.is_honest(shown) else None
        return word_of(shown, self._rules)

    def _kans(self, seat: int) -> None:
        """Kans op toep: ``seat`` draws one card; a fourth of the rank wins the hand, any
        other card is kept and the odd card dealt leaves play face down."""
        ev = self._ev
        hand = self._hands[seat]
        rmask = three_of_a_kind(hand)
        card = self._deck[self._stock_pos]
        self._stock_pos += 1
        ev.append(_new(Event, (_KANS_EV, seat, 1, (), "", False)))
        if rmask >> card & 1:
            self._hands[seat] = hand | 1 << card
            self._four_of_a_kind(seat)
            return
        odd = hand & ~rmask
        new = hand & rmask | 1 << card
        self._hands[seat] = new
        self._out |= odd
        ev.append(_new(Event, (_DRAW_EV, seat, 4, _cards(new), "", True)))
        self._next_declarer()

    def _stands(self, decl: Declaration) -> None:
        """The declaration stands: a redeal, or the round goes on."""
        if decl.redeal_when_standing:
            self._out = 0
            self._deal(redeal=True)
        else:
            self._queue = self._round_queue
            self._next_declarer()
