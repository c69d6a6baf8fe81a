"""The score sheet for real cards: a session kept from only what happens in the open.

At a pub table the cards are real and toepen sees none of them. The table enters, hand
by hand, only the public facts (who knocked, who stayed or folded, who claimed armoede or
exchanged and how a challenge came out, who took the last trick) and the sheet applies
the chosen :class:`~toepen.rules.Rules`: it refuses what the rules forbid, with the
engine's :class:`~toepen.engine.Refusal` codes, and works out every payment, elimination,
pelt opening, rubber, round of drinks and Toepkoning with the engine's own settlement
(:mod:`toepen.engine.settle`), so a sheet and a game played through the engine agree to
the life.

A :class:`Sheet` is event sourced: the rules, the players, the first dealer and the list of
entries. Every state is the replay of its entries, so :meth:`Sheet.undo` goes back any
number of times, exactly; a refused entry changes nothing. Entries are written like
record moves, ``"SEAT VERB [WORD]"``:

============================  ===========================================================
``2 knock``                   seat 2 knocks (on their turn, or as a counter-knock)
``3 stay`` / ``3 fold``       the seat asked next answers a knock or a pelt opening
``1 claim``                   seat 1 claims armoede (``1 exchange``: exchanges four cards)
``2 challenge false``         seat 2 challenges the claim; the shown hand was not poor
                              (``genuine``; for an exchange ``caught`` or ``clean``)
``1 unchallenged``            nobody challenged seat 1's declaration
``0 last``                    seat 0 took the last trick: the hand is settled
============================  ===========================================================

Passes need no entry (the next declaration or the first knock shows that everyone before
passed), nor do the first three tricks; a hand in which all but one side fold ends by
itself. The sheet cannot see the cards, so whose turn it is to play a card and
``first_player_may_knock_early`` stay with the table.

>>> sheet = Sheet.new("rulebook", ["Ann", "Bas", "Cor"], lives=3)
>>> for entry in ["1 knock", "2 stay", "0 fold", "2 last"]:
...     _ = sheet.add(entry)
>>> sheet.lives, sheet.hand_no, sheet.dealer
([2, 3, 1], 2, 1)
>>> sheet.refusal("1 stay").english()
'seat 1 may not stay now (play a card or knock)'
>>> sheet.undo()
Entry(seat=2, verb='last', word='')
>>> sheet.lives, sheet.stake, sheet.phase
([2, 3, 3], 2, <Phase.PLAY: 'play'>)
>>> Sheet.from_record(sheet.to_record()).entries == sheet.entries
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from . import narration
from .cards import JACK, RANK_MASKS, card_str, parse_card
from .engine.core import GameCore
from .engine.declare import DECLARATIONS, Declaration
from .engine.events import Event, EventKind
from .engine.phase import Phase
from .engine.refusal import REFUSAL_CODES, Refusal, Refusals
from .engine.settle import Settlement
from .engine.state import Game
from .narration import Message
from .record import FORMAT, RecordError
from .rules import Rules, RulesError

__all__ = [
    "DISPLAYS", "ENTRY_VERBS", "KIND", "SHEET_REFUSAL_CODES", "Entry", "EntryError",
    "HandRow", "IllegalEntry", "Sheet", "Standing", "entries_from_events", "english",
    "refusal_message",
]

KIND = "sheet"
"""The ``kind`` of a sheet's record (a ``toepen-record/1`` without decks or actions)."""
DISPLAYS: tuple[str, ...] = ("strokes", "points")
"""How a sheet shows lives lost: tally strokes, or penalty points counting up."""
ENTRY_VERBS: tuple[str, ...] = (
    "knock", "stay", "fold", "claim", "exchange", "challenge", "unchallenged", "last",
    "blind", "four", "kans", "check", "shown",
)
"""Every verb of an entry."""

_VERB_OF: dict[str, str] = {"armoede": "claim", "exchange": "exchange", "laundry": "exchange",
                            "kans": "kans"}
"""The entry verb of each declaration (witte/vuile was is entered as an exchange)."""
_ACTION: dict[str, str] = {"four": "claim", "kans": "exchange", "check": "challenge",
                           "shown": "challenge", "unchallenged": "pass", "last": "play",
                           "blind": "knock"}
"""The engine's action a sheet's verb is refused as (``refusal.not_now`` names it)."""
_WORD_VERBS = {"challenge": True, "four": True, "kans": True, "shown": True, "last": False}
"""Verbs with a third word: required (True) or optional (False)."""


def _rank_of(seat: int, word: str) -> int:
    """A rank from its letter (``9``, ``T`` or ``10``, ``A``...), IllegalEntry if none."""
    try:
        return parse_card(f"{word}c") & 7
    except ValueError:
        raise IllegalEntry(Refusal("bad_action", {
            "seat": seat, "error": f"{word!r} is not a rank (7 8 9 T J Q K A)"})) from None


def _card_of(seat: int, word: str) -> int:
    """The card that took the last trick (``Jh``), IllegalEntry if it is no card."""
    try:
        card = parse_card(word)
    except ValueError:
        card = -1
    if card < 0 or card & 7 != JACK:
        raise IllegalEntry(Refusal("bad_action", {
            "seat": seat, "error": f"the last trick names only a jack (like Jh), not {word!r}"}))
    return card

_SHEET_TEXT: dict[str, str] = {
    "sheet_passed": "seat {seat} has passed in this {declaration} round",
    "sheet_declared": "seat {seat} has declared {declaration} this hand already",
    "sheet_stock_short": "seat {seat} may not exchange: the stock has no four cards left",
    "sheet_not_opponent": "seat {seat} may not challenge seat {target} (not an opponent)",
    "sheet_bad_outcome": "seat {seat}: a challenge of {declaration} is {choices}, not {word!r}",
    "sheet_nothing_to_undo": "there is nothing to undo",
}
SHEET_REFUSAL_CODES: tuple[str, ...] = tuple(_SHEET_TEXT)
"""The refusals only a sheet has (catalog ids ``tally.refusal.<code minus sheet_>``);
everything else is refused with the engine's :data:`~toepen.engine.REFUSAL_CODES`."""


def refusal_message(refusal: Refusal) -> Message:
    """A sheet's refusal in the player's words: the engine's ``refusal.<code>``, or
    ``tally.refusal.<name>`` for a sheet's own (``sheet_passed`` -> ``tally.refusal.passed``).

    >>> refusal_message(Refusal("sheet_passed", {"seat": 1, "declaration": "armoede"}))
    Message('tally.refusal.passed', seat=Seat(1), declaration=Message('tally.declaration.armoede'))
    """
    if refusal.code not in _SHEET_TEXT:
        return narration.refusal_message(refusal)
    params: dict[str, narration.Param] = {}
    for key, value in refusal.params.items():
        if key in ("seat", "target") and isinstance(value, int):
            params[key] = narration.Seat(value)
        elif key == "declaration":
            params[key] = Message(f"tally.declaration.{value}")
        else:
            params[key] = value if isinstance(value, int) else str(value)
    return Message(f"tally.refusal.{refusal.code.removeprefix('sheet_')}", params)


def english(refusal: Refusal) -> str:
    """A sheet's refusal in English: the engine's text, or the sheet's own."""
    if refusal.code in _SHEET_TEXT:
        return _SHEET_TEXT[refusal.code].format(**refusal.params)
    return refusal.english()


class EntryError(ValueError):
    """A text that is not an entry (the message says why)."""


class IllegalEntry(ValueError):
    """An entry the rules do not allow now; the sheet is unchanged. ``refusal`` says why."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(english(refusal))
        self.refusal = refusal


@dataclass(frozen=True, slots=True)
class Entry:
    """One public fact of a hand: ``seat`` did ``verb`` (``word``: a challenge's outcome)."""

    seat: int
    verb: str
    word: str = ""

    @staticmethod
    def parse(text: str) -> Entry:
        """``"2 challenge false"`` -> ``Entry(2, "challenge", "false")`` (EntryError if not)."""
        if not isinstance(text, str):
            raise EntryError(f"an entry is text like '2 knock', not {text!r}")
        parts = text.split()
        if len(parts) not in (2, 3):
            raise EntryError(f"an entry is 'SEAT VERB' or 'SEAT challenge OUTCOME', not {text!r}")
        seat_text, verb = parts[0], parts[1].lower()
        if not seat_text.isdigit():
            raise EntryError(f"seat {seat_text!r} is not a seat number")
        if verb not in ENTRY_VERBS:
            raise EntryError(f"unknown verb {parts[1]!r} (one of {', '.join(ENTRY_VERBS)})")
        word = parts[2] if len(parts) == 3 else ""
        needs = _WORD_VERBS.get(verb)
        if word and needs is None:
            raise EntryError(f"{verb} takes no third word")
        if needs and not word:
            raise EntryError(f"{verb} names what it was ('2 challenge false', '1 four 9', "
                             "'3 kans miss', '1 shown caught')")
        if verb != "last":
            word = word.lower()
        return Entry(int(seat_text), verb, word)

    def __str__(self) -> str:
        return f"{self.seat} {self.verb}" + (f" {self.word}" if self.word else "")


@dataclass(frozen=True, slots=True)
class HandRow:
    """One hand of the sheet: what it cost whom."""

    number: int
    dealer: int
    stake: int
    """The stake the hand ended at."""
    last: int | None
    """Who took the last trick (None when the hand ended by folds, or is in progress)."""
    left: int | None
    """Who was left in when all others folded (None otherwise)."""
    paid: tuple[int, ...]
    """Lives each seat lost in the hand (folds, the stake, challenges)."""
    eliminated: tuple[int, ...]
    redeals: int
    done: bool


@dataclass(frozen=True, slots=True)
class Standing:
    """A seat's place in the sheet's standings."""

    place: int
    seat: int
    name: str
    lives: int
    lost: int
    out_in_hand: int | None
    drinks: int
    rubbers_won: int


class _Machine(Settlement, Refusals):
    """The sheet's state machine: the engine's settlement over the public facts only.

    The engine's ``GameCore`` fields mean what they mean in a game; hidden ones (hands,
    the deck) stay empty. Only :meth:`apply` changes it, and it may change it halfway
    before refusing: :class:`Sheet` applies every entry to a copy.
    """

    __slots__ = ("_log", "_entry_no", "_redeals")

    _log: list[tuple[int, Event]]
    _rounds: tuple[Declaration, ...]
    _round: int
    _decl: Declaration | None
    _entry_no: int
    _redeals: int

    def __init__(self, rules: Rules, players: Sequence[str], dealer: int) -> None:
        # Every field starts as the engine starts it: a game with no deck stops before
        # its first deal, with the session's fields set (house rules' included).
        game = Game(rules, tuple(players), dealer=dealer)
        for name in GameCore.__slots__:
            if hasattr(game, name):
                value = getattr(game, name)
                setattr(self, name, list(value) if isinstance(value, list) else value)
        self._hand_no = 0
        self._any_card_played = True  # unknown to a sheet: it never refuses an early knock
        self._early = True
        self._limit = rules.knock_limit
        self._decl = None
        self._ev = []
        self._log = []
        self._entry_no = -1
        self._redeals = 0
        self._start_hand()
        self._flush()

    def clone(self) -> _Machine:
        twin = object.__new__(_Machine)
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                if hasattr(self, name):
                    value = getattr(self, name)
                    setattr(twin, name, list(value) if isinstance(value, list) else value)
        return twin

    # -- the steps the engine's settlement takes into the rest of the machine -------------

    def _start_hand(self) -> None:
        self._hand_no += 1
        self._declared = [0] * len(DECLARATIONS)
        self._lives_before = list(self._pools)
        self._redeals = 0
        self._deal(redeal=False)

    def _deal(self, redeal: bool) -> None:
        self._stake = 1
        self._accepted = [1] * self._n
        self._last_knocker = -1
        self._knock_bar = -1
        self._leader = -1
        self._queue = []
        self._target = -1
        self._checkers = 0
        self._active = self._in_session
        self._hands = [0] * self._n
        self._out = 0
        self._decl = None
        if redeal:
            self._redeals += 1
        order = self._order_from((self._dealer + 1) % self._n, self._in_session)
        self._stock_pos = 4 * len(order)
        kind = EventKind.REDEAL if redeal else EventKind.DEAL
        self._ev.append(Event(kind, self._dealer, self._hand_no))
        if self._rules.blind_knock:  # the blind round: anyone may knock blind first
            self._phase = Phase.BLIND
            self._turn = -1
            return
        self._cards_seen()

    def _cards_seen(self) -> None:
        """The cards are seen: with four_of_a_kind the first fact may be one (phase DEAL
        stands for "the cards are seen, nothing told yet"); else the declarations."""
        order = self._order_from((self._dealer + 1) % self._n, self._in_session)
        if self._rules.four_of_a_kind:
            self._phase = Phase.DEAL
            self._turn = -1
            return
        self._open_round(order, 0)

    def _open_round(self, order: tuple[int, ...], first: int) -> None:
        if first >= len(self._rounds):
            self._decl = None
            self._start_play()
            return
        decl = self._decl = self._rounds[first]
        self._round = first
        self._phase = decl.phase
        declared = self._declared[decl.index]
        self._queue = [s for s in order if not declared >> s & 1]
        self._next_declarer()

    def _next_declarer(self) -> None:
        """As the engine's, but a sheet cannot tell who is eligible (kans: who holds three
        of a rank): that is left to the table."""
        decl = self._decl
        assert decl is not None
        queue = self._queue
        declared = self._declared[decl.index]
        while queue and (
            declared >> queue[0] & 1
            or not self._active >> queue[0] & 1
            or self._stock_pos + decl.draws > 32
        ):
            queue.pop(0)
        if queue:
            self._phase = decl.phase
            self._turn = -1
        else:
            order = self._order_from((self._dealer + 1) % self._n, self._in_session)
            self._open_round(order, self._round + 1)

    def _start_play(self) -> None:
        active = self._active
        self._decl = None
        if self._active_sides() <= 1:
            self._end_hand_by_folds()
            return
        if self._rules.pelt:
            for seat in self._order_from((self._dealer + 1) % self._n, active):
                if self._pools[self._team_of[seat]] == 1:
                    self._stake = 2
                    self._accepted[seat] = 2
                    self._mark_knocker(seat)
                    self._leader = seat
                    self._ev.append(Event(EventKind.PELT, seat, 2))
                    self._queue = list(
                        self._order_from((seat + 1) % self._n, active & ~(1 << seat))
                    )
                    self._phase = Phase.ANSWER
                    self._turn = self._queue[0]
                    return
        self._leader = self._next_seat(self._dealer, active)
        self._phase = Phase.PLAY
        self._turn = -1

    # -- entries --------------------------------------------------------------------------

    def apply(self, entry: Entry) -> None:
        """Apply one entry (IllegalEntry: refused; the machine may be half changed)."""
        seat, verb = entry.seat, entry.verb
        self._entry_no += 1
        if isinstance(seat, bool) or not isinstance(seat, int):
            self._no("not_a_seat", seat=repr(seat))
        if verb not in ENTRY_VERBS:
            self._no("bad_action", seat=seat, error=f"unknown verb {verb!r}")
        if self._phase is Phase.OVER:
            self._no("session_over", seat=seat, action=verb)
        if not 0 <= seat < self._n:
            self._no("no_such_seat", seat=seat, players=self._n)
        if not self._in_session >> seat & 1:
            self._no("out_of_session", seat=seat)
        if not self._active >> seat & 1:
            self._no("folded", seat=seat)
        self._apply_entry(seat, verb, entry.word)
        self._flush()

    def _apply_entry(self, seat: int, verb: str, word: str) -> None:
        phase = self._phase
        if phase is Phase.BLIND:
            if verb == "blind":
                self._blind_knock(seat)
                return
            self._cards_seen()  # nobody knocked blind
        elif phase is Phase.BLIND_ANSWER:
            if verb not in ("stay", "fold"):
                self._no("not_now", seat=seat, action=_ACTION.get(verb, verb),
                         phase=phase.value)
            self._answer_knock(seat, verb)
            return
        if self.phase_now() is Phase.DEAL:  # the cards are seen: four of a kind first
            if verb == "four":
                self._show_four(seat, word)
                return
            self._open_round(self._order_from((self._dealer + 1) % self._n, self._in_session),
                             0)
            if not self._active >> seat & 1:
                self._no("not_now", seat=seat, action=verb, phase=self.phase_now().value)
        if verb in ("four", "blind"):
            self._no("not_now", seat=seat, action=_ACTION[verb], phase=self.phase_now().value)
        decl = self._decl
        if verb in ("claim", "exchange", "kans"):
            self._declare(seat, verb, word)
        elif verb in ("challenge", "unchallenged", "check", "shown"):
            if decl is None or self._phase is not decl.challenge_phase or (
                    decl.challenge_phase is decl.phase):  # (kans is never challenged)
                self._no("not_now", seat=seat, action=_ACTION.get(verb, verb),
                         phase=self._phase.value)
            self._challenge(decl, seat, verb, word)
        else:
            if decl is not None:
                if self._phase is decl.challenge_phase and decl.challenge_phase is not (
                        decl.phase):
                    self._no("not_now", seat=seat, action=_ACTION.get(verb, verb),
                             phase=self._phase.value)
                self._start_play()  # the first fact of play: the rounds were passed
                if not self._active >> seat & 1 or self.phase_now() is Phase.OVER:
                    self._no("not_now", seat=seat, action=verb, phase=self._phase.value)
            if verb == "knock":
                self._knock(seat)
            elif verb == "last":
                if self._phase is not Phase.PLAY:
                    self._no("not_now", seat=seat, action="play", phase=self._phase.value)
                if word and self._rules.jack_last_trick == "off":
                    self._no("bad_action", seat=seat,
                             error="the card of the last trick counts only with jack_last_trick")
                self._settle(seat, _card_of(seat, word) if word else -1)
            else:
                if self._phase is not Phase.ANSWER:
                    self._no("not_now", seat=seat, action=verb, phase=self._phase.value)
                self._answer_knock(seat, verb)

    def phase_now(self) -> Phase:
        """The phase (a method, so that a type checker reads it afresh after a step)."""
        return self._phase

    def _no(self, code: str, **params: Any) -> NoReturn:
        raise IllegalEntry(Refusal(code, params))

    def _answer_knock(self, seat: int, verb: str) -> None:
        """``stay`` or ``fold`` to a knock, a pelt opening or a blind knock."""
        if seat != self._turn:
            self._no("not_your_turn", seat=seat, turn=self._turn)
        if verb == "stay":
            self._accepted[seat] = self._stake
            self._ev.append(Event(EventKind.STAY, seat, self._stake))
            self._next_answer()
            return
        lives = self._pools[self._team_of[seat]]
        if self._rules.edge == "no_fold" and lives <= self._accepted[seat]:
            self._no("fold_on_edge", seat=seat, paid=self._accepted[seat], lives=lives)
        self._fold(seat)

    def _blind_knock(self, seat: int) -> None:
        """A blind knock: the stake goes to 3 before anyone has seen their cards."""
        limit = self._limit
        lives = self._pools[self._team_of[seat]]
        if limit != "none" and lives < (2 if limit == "lives_at_least_stake" else 3):
            self._no("blind_knock_lives", seat=seat, lives=lives)
        self._stake = 3
        self._accepted[seat] = 3
        self._mark_knocker(seat)
        self._ev.append(Event(EventKind.KNOCK, seat, 3, (), "blind"))
        self._queue = list(self._order_from((seat + 1) % self._n, self._active & ~(1 << seat)))
        self._phase = Phase.BLIND_ANSWER
        self._turn = self._queue[0]

    def _show_four(self, seat: int, word: str) -> None:
        """``seat`` shows four of a rank (``word``: the rank, ``9``, ``T``...)."""
        rank = _rank_of(seat, word)
        self._hands[seat] = RANK_MASKS[rank]  # the shown cards: the rule reads them
        self._four_of_a_kind(seat)

    def _declare(self, seat: int, verb: str, word: str) -> None:
        rounds = self._rounds
        index = next((i for i, d in enumerate(rounds) if _VERB_OF[d.name] == verb), -1)
        if index >= 0 and self._stock_pos + rounds[index].draws > 32:
            self._no("sheet_stock_short", seat=seat)  # (the round ended for it)
        decl = self._decl
        if index < 0 or decl is None or self._phase is not decl.phase or index < self._round:
            self._no("not_now", seat=seat, action=_ACTION.get(verb, verb),
                     phase=self._phase.value)
        while self._round < index:  # a later round's declaration: this one was passed
            order = self._order_from((self._dealer + 1) % self._n, self._in_session)
            self._open_round(order, self._round + 1)
            decl = self._decl
            if decl is None or self._phase is not decl.phase:
                self._no("not_now", seat=seat, action=_ACTION.get(verb, verb),
                         phase=self._phase.value)
        decl = rounds[index]
        if decl.draws == 1:  # kans: the word says what the drawn card made
            if word != "miss":
                _rank_of(seat, word)
        elif word:
            self._no("bad_action", seat=seat, error=f"{verb} takes no third word")
        if self._declared[decl.index] >> seat & 1:
            self._no("sheet_declared", seat=seat, declaration=decl.name)
        if seat not in self._queue:
            self._no("sheet_passed", seat=seat, declaration=decl.name)
        self._queue = self._queue[self._queue.index(seat) + 1:]
        self._declared[decl.index] |= 1 << seat
        self._stock_pos += decl.draws
        if decl.draws == 1:
            self._ev.append(Event(EventKind.KANS, seat, 1))
            if word != "miss":
                self._show_four(seat, word)
                return
            self._next_declarer()
            return
        self._ev.append(Event(decl.declared, seat, decl.draws))
        self._target = seat
        self._checkers = 0
        self._round_queue = self._queue
        if not self._opponents_mask(seat):
            self._ev.append(Event(decl.result, seat, 0, (), "unchallenged"))
            self._stands(decl)
            return
        self._phase = decl.challenge_phase
        self._turn = -1

    def _outcomes(self, decl: Declaration) -> tuple[str, ...]:
        """What a shown hand may turn out to be: honest words, then the dishonest one."""
        if decl.word_of is not None:  # the laundry: which was it was, or caught
            words = [w for w in ("witte_was", "vuile_was") if getattr(self._rules, w)]
            return (*words, decl.dishonest_word)
        return (decl.honest_word, decl.dishonest_word)

    def _challenge(self, decl: Declaration, seat: int, verb: str, word: str) -> None:
        declarer = self._target
        each = decl.check_each(self._rules)
        if verb in ("unchallenged", "shown"):
            if seat != declarer:
                self._no("not_now", seat=seat, action="pass", phase=self._phase.value)
            if verb == "unchallenged":
                if each and self._checkers:  # checked: the hand must be shown
                    self._no("not_now", seat=seat, action="pass", phase=self._phase.value)
                self._ev.append(Event(decl.result, declarer, 0, (), "unchallenged"))
                self._stands(decl)
                return
            if not each or not self._checkers:
                self._no("not_now", seat=seat, action="challenge", phase=self._phase.value)
            self._verdict(decl, declarer, self._checkers, seat, word)
            return
        if not self._opponents_mask(declarer) >> seat & 1:
            self._no("sheet_not_opponent", seat=seat, target=declarer)
        if each != (verb == "check"):  # each: checks, then the shown hand; else one challenge
            self._no("not_now", seat=seat, action=_ACTION.get(verb, verb),
                     phase=self._phase.value)
        if each:
            if self._checkers >> seat & 1:
                self._no("sheet_declared", seat=seat, declaration=decl.name)
            self._checkers |= 1 << seat
            self._ev.append(Event(EventKind.CHALLENGE, seat, declarer))
            return
        self._verdict(decl, declarer, 1 << seat, seat, word)

    def _verdict(self, decl: Declaration, declarer: int, checkers: int, seat: int,
                 word: str) -> None:
        """The shown hand settles it (as the engine's ``_verdict``): each checker pays 1
        to an honest declaration, a bluffer pays 1 per checker."""
        outcomes = self._outcomes(decl)
        if word not in outcomes:
            self._no("sheet_bad_outcome", seat=seat, declaration=decl.name, word=word,
                     choices=" or ".join(outcomes))
        if not decl.check_each(self._rules):
            self._ev.append(Event(EventKind.CHALLENGE, seat, declarer))
        self._checkers = 0
        seats = [s for s in range(self._n) if checkers >> s & 1]
        self._ev.append(Event(decl.result, declarer, 0, (), word))
        if word != decl.dishonest_word:
            for s in seats:
                if self._in_session >> s & 1:
                    self._lose(s, 1, decl.name)
                    if self._phase is Phase.OVER:
                        return
            self._stands(decl)
            return
        self._lose(declarer, len(seats), decl.name)
        if self._phase is Phase.OVER:
            return
        self._queue = self._round_queue
        self._next_declarer()

    def _stands(self, decl: Declaration) -> None:
        if decl.redeal_when_standing:
            self._deal(redeal=True)
        else:
            self._queue = self._round_queue
            self._next_declarer()

    def _knock(self, seat: int) -> None:
        if self._phase is Phase.ANSWER and seat != self._turn:
            self._no("not_your_turn", seat=seat, turn=self._turn)
        if self._phase not in (Phase.PLAY, Phase.ANSWER):
            self._no("not_now", seat=seat, action="knock", phase=self._phase.value)
        reason = self._knock_refusal(seat)
        if reason is not None:
            raise IllegalEntry(reason)
        stake = self._stake = self._stake + 1
        self._accepted[seat] = stake
        self._mark_knocker(seat)
        self._ev.append(Event(EventKind.KNOCK, seat, stake))
        self._queue = list(self._order_from((seat + 1) % self._n, self._active & ~(1 << seat)))
        self._phase = Phase.ANSWER
        self._turn = self._queue[0]

    def _mark_knocker(self, seat: int) -> None:
        """``seat`` made the latest knock (or opened at pelt), as the engine marks it."""
        self._last_knocker = seat
        self._knock_bar = -1 if self._rules.double_knock else seat

    def _next_answer(self) -> None:
        queue = self._queue
        queue.pop(0)
        while queue and not self._active >> queue[0] & 1:
            queue.pop(0)
        if queue:
            self._turn = queue[0]
        elif self._phase is Phase.BLIND_ANSWER:
            self._cards_seen()
        else:
            self._phase = Phase.PLAY
            self._turn = -1

    def _fold(self, seat: int) -> None:
        paid = self._accepted[seat]
        self._ev.append(Event(EventKind.FOLD, seat, paid))
        self._leave_hand(seat)
        self._hands_lost[seat] += 1
        self._lose(seat, paid, "fold")
        if self._phase is not Phase.ANSWER and self._phase is not Phase.BLIND_ANSWER:
            return
        if self._active_sides() <= 1:
            self._end_hand_by_folds()
            return
        self._next_answer()

    # -- the log and the hands ------------------------------------------------------------

    def _flush(self) -> None:
        self._log.extend((self._entry_no, e) for e in self._ev)
        self._ev = []

    def rows(self) -> list[HandRow]:
        rows: list[HandRow] = []
        n = self._n
        cur: dict[str, Any] | None = None

        def close(done: bool) -> None:
            if cur is not None:
                rows.append(HandRow(cur["number"], cur["dealer"], cur["stake"], cur["last"],
                                    cur["left"], tuple(cur["paid"]), tuple(cur["out"]),
                                    cur["redeals"], done))

        for _, e in self._log:
            k = e.kind
            if k is EventKind.DEAL:
                close(True)
                cur = {"number": e.value, "dealer": e.seat, "stake": 1, "last": None,
                       "left": None, "paid": [0] * n, "out": [], "redeals": 0}
            elif cur is None:
                continue
            elif k is EventKind.REDEAL:
                cur["redeals"] += 1
                cur["stake"] = 1
            elif k in (EventKind.KNOCK, EventKind.PELT):
                cur["stake"] = e.value
            elif k is EventKind.LIVES:
                cur["paid"][e.seat] += e.value
            elif k is EventKind.ELIMINATED:
                cur["out"].append(e.seat)
            elif k is EventKind.HAND_RESULT:
                cur["stake"] = e.value
                if e.detail == "folded":
                    cur["left"] = e.seat
                else:
                    cur["last"] = e.seat
                cur["ended"] = True
        if cur is not None:
            close(bool(cur.get("ended")) or self._phase is Phase.OVER)
        return rows


def _as_entry(entry: Entry | str) -> Entry:
    return entry if isinstance(entry, Entry) else Entry.parse(entry)


def _check_display(display: str) -> str:
    if display not in DISPLAYS:
        raise ValueError(f"display: must be one of {', '.join(DISPLAYS)}, not {display!r}")
    return display


class Sheet:
    """A score sheet: rules + players + first dealer + entries; every state their replay.

    Build with :meth:`new` (a preset name and options, or a :class:`Rules`) or
    :meth:`from_record`; :meth:`add` an entry (``"2 knock"``), :meth:`undo` the last
    one; read the state from the properties (``lives``, ``phase``, ``turn``...),
    :meth:`hands` (the rows of the sheet), :meth:`standings` and :meth:`events`.
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        *,
        dealer: int = 0,
        display: str = "strokes",
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        names = tuple(players)
        if not all(isinstance(p, str) and p.strip() for p in names):
            raise ValueError("players: every player needs a name")
        self.rules = rules
        self.players = names
        self.first_dealer = dealer
        self.display = _check_display(display)
        self.meta: dict[str, Any] = dict(meta or {})
        self._start = _Machine(rules, names, dealer)
        self._machine = self._start.clone()
        self._entries: list[Entry] = []

    @classmethod
    def new(
        cls,
        rules: Rules | str = "rulebook",
        players: int | Sequence[str] = 4,
        *,
        dealer: int = 0,
        display: str | None = None,
        meta: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> Sheet:
        """A new sheet: ``rules`` a preset name (with ``options``) or a :class:`Rules`."""
        if isinstance(rules, str):
            rules = Rules.preset(rules, **options)
        elif options:
            rules = rules.replace(**options)
        names = [f"Player {i + 1}" for i in range(players)] if isinstance(players, int) else (
            list(players))
        if display is None:
            display = "points" if getattr(rules, "count", "") == "points_up" else "strokes"
        return cls(rules, names, dealer=dealer, display=display, meta=meta)

    def copy(self) -> Sheet:
        """An independent copy (cheap: no replay)."""
        twin = object.__new__(Sheet)
        twin.rules, twin.players, twin.first_dealer = self.rules, self.players, self.first_dealer
        twin.display, twin.meta = self.display, dict(self.meta)
        twin._start = self._start
        twin._machine = self._machine.clone()
        twin._entries = list(self._entries)
        return twin

    # -- entering ------------------------------------------------------------------------

    def refusal(self, entry: Entry | str) -> Refusal | None:
        """Why ``entry`` may not be entered now, or None if it may (nothing changes)."""
        try:
            parsed = _as_entry(entry)
        except EntryError as e:
            return Refusal("bad_action", {"seat": _seat_of(entry), "error": str(e)})
        try:
            self._machine.clone().apply(parsed)
        except IllegalEntry as e:
            return e.refusal
        return None

    def add(self, entry: Entry | str) -> list[Event]:
        """Enter one fact; return the events it caused. Refused: IllegalEntry, no change."""
        try:
            parsed = _as_entry(entry)
        except EntryError as e:
            raise IllegalEntry(
                Refusal("bad_action", {"seat": _seat_of(entry), "error": str(e)})
            ) from None
        machine = self._machine.clone()
        before = len(machine._log)
        machine.apply(parsed)
        self._machine = machine
        self._entries.append(parsed)
        return [e for _, e in machine._log[before:]]

    def undo(self) -> Entry:
        """Take back the last entry (any number of times, back to the empty sheet)."""
        if not self._entries:
            raise IllegalEntry(Refusal("sheet_nothing_to_undo", {}))
        last = self._entries.pop()
        machine = self._start.clone()
        for entry in self._entries:
            machine.apply(entry)
        self._machine = machine
        return last

    def legal_entries(self) -> list[Entry]:
        """Every entry the sheet would take now (what a client offers as buttons)."""
        m = self._machine
        if m._phase is Phase.OVER:
            return []
        rules = self.rules
        words: tuple[str, ...] = ()
        decl = m._decl
        if decl is not None and m._phase is decl.challenge_phase:
            words = m._outcomes(decl)
        plain = ["knock", "stay", "fold", "claim", "exchange", "unchallenged", "last"]
        if rules.blind_knock:
            plain.append("blind")
        each = decl is not None and decl.check_each(rules)
        if each:
            plain.append("check")
        ranks = "T987AKQJ" if rules.four_of_a_kind else ""
        out: list[Entry] = []
        for seat in range(m._n):
            candidates = [Entry(seat, v) for v in plain]
            candidates += [Entry(seat, "shown" if each else "challenge", w) for w in words]
            candidates += [Entry(seat, "four", r) for r in ranks.lower()]
            if rules.jack_last_trick != "off":
                candidates += [Entry(seat, "last", f"J{suit}") for suit in "cdhs"]
            if rules.three_of_a_kind_draw:
                candidates += [Entry(seat, "kans", w) for w in ("miss", *ranks.lower())]
            out.extend(c for c in candidates if self.refusal(c) is None)
        return out

    # -- reading -------------------------------------------------------------------------

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self._entries)

    @property
    def phase(self) -> Phase:
        """``claim``/``exchange``: the declaration round is open; ``claim_challenge``/
        ``exchange_challenge``: a declaration awaits its challenge; ``answer``: a knock
        (or pelt) awaits the answer of :attr:`turn`; ``play``: the tricks; ``over``."""
        return self._machine._phase

    @property
    def turn(self) -> int:
        """The seat whose answer a knock awaits (-1 when no answer is awaited)."""
        m = self._machine
        return m._turn if m._phase in (Phase.ANSWER, Phase.BLIND_ANSWER) else -1

    @property
    def target(self) -> int:
        """The seat whose declaration awaits its challenge (-1 if none)."""
        m = self._machine
        return m._target if m._decl is not None and m._phase is m._decl.challenge_phase else -1

    @property
    def declaration(self) -> str | None:
        """The declaration round open or being challenged (``armoede``, ``exchange``)."""
        decl = self._machine._decl
        return decl.name if decl is not None else None

    @property
    def n(self) -> int:
        return self._machine._n

    @property
    def stake(self) -> int:
        return self._machine._stake

    @property
    def accepted(self) -> list[int]:
        """The stake each seat has accepted this hand (what folding costs it)."""
        return list(self._machine._accepted)

    @property
    def last_knocker(self) -> int:
        return self._machine._last_knocker

    @property
    def dealer(self) -> int:
        return self._machine._dealer

    @property
    def hand_no(self) -> int:
        return self._machine._hand_no

    @property
    def team_of(self) -> tuple[int, ...]:
        return self._machine._team_of

    @property
    def lives(self) -> list[int]:
        """Lives by seat (with teams: the pair's pool)."""
        m = self._machine
        return [m._pools[m._team_of[s]] for s in range(m._n)]

    @property
    def pools(self) -> list[int]:
        return list(self._machine._pools)

    @property
    def lives_lost(self) -> list[int]:
        return list(self._machine._lives_lost)

    @property
    def in_session(self) -> list[int]:
        m = self._machine
        return [s for s in range(m._n) if m._in_session >> s & 1]

    @property
    def active(self) -> list[int]:
        m = self._machine
        return [s for s in range(m._n) if m._active >> s & 1]

    @property
    def eliminated(self) -> list[int]:
        return list(self._machine._eliminated)

    @property
    def winner(self) -> int | None:
        return self._machine._winner

    @property
    def is_over(self) -> bool:
        return self._machine._phase is Phase.OVER

    @property
    def rubber_no(self) -> int:
        return self._machine._rubber_no

    @property
    def drinks(self) -> list[int]:
        return list(self._machine._drinks)

    @property
    def beers(self) -> list[int]:
        return list(self._machine._beers)

    @property
    def rubbers_won(self) -> list[int]:
        return list(self._machine._rubbers_won)

    @property
    def toepkoning(self) -> list[int]:
        return list(self._machine._toepkoning)

    @property
    def hands_played(self) -> int:
        return self._machine._hands_played

    def events(self) -> list[tuple[int, Event]]:
        """Every event so far with the index of the entry that caused it (-1: the start)."""
        return list(self._machine._log)

    def hands(self) -> list[HandRow]:
        """The sheet's rows, one per hand (the last one may be in progress)."""
        return self._machine.rows()

    def standings(self) -> list[Standing]:
        """Places: an elimination session's winner first, then the last one out to the
        first (those still in by lives); a rubber session by fewest rounds of drinks,
        then most rubbers won, then seat, as the engine settles its winner."""
        m = self._machine
        n = m._n
        lives = self.lives
        out_hand: dict[int, int] = {}
        hand = 0
        for _, e in m._log:
            if e.kind is EventKind.DEAL:
                hand = e.value
            elif e.kind is EventKind.ELIMINATED:
                out_hand.setdefault(e.seat, hand)
        if self.rules.session == "rubber":
            order = sorted(range(n), key=lambda s: (m._drinks[s], -m._rubbers_won[s], s))
            if m._winner is not None:
                order.remove(m._winner)
                order.insert(0, m._winner)
        else:
            still = [s for s in range(n) if s not in out_hand]
            still.sort(key=lambda s: (s != m._winner, -lives[s], s))
            order = still + [s for s in reversed(m._eliminated) if s not in still]
        return [
            Standing(place, s, self.players[s], lives[s], m._lives_lost[s], out_hand.get(s),
                     m._drinks[s], m._rubbers_won[s])
            for place, s in enumerate(order, 1)
        ]

    # -- records and JSON ----------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The sheet as a ``toepen-record/1`` of kind ``sheet``: no decks, the entries."""
        rec: dict[str, Any] = {
            "format": FORMAT,
            "kind": KIND,
            "rules": self.rules.to_json(),
            "players": list(self.players),
            "dealer": self.first_dealer,
            "display": self.display,
            "entries": [str(e) for e in self._entries],
        }
        if self.meta:
            rec["meta"] = dict(self.meta)
        return rec

    @classmethod
    def from_record(cls, record: Any) -> Sheet:
        """The sheet a record describes (RecordError naming the field or entry at fault)."""
        if not isinstance(record, dict):
            raise RecordError("file: a record is a JSON object")
        if record.get("format") != FORMAT:
            raise RecordError(f"format: must be {FORMAT!r}, not {record.get('format')!r}")
        if record.get("kind") != KIND:
            raise RecordError(f"kind: must be {KIND!r} for a score sheet, "
                              f"not {record.get('kind')!r}")
        try:
            rules = Rules.from_json(record.get("rules", "rulebook"))
        except RulesError as e:
            raise RecordError(f"rules: {e}") from None
        players = record.get("players")
        if (not isinstance(players, list) or not 2 <= len(players) <= 8
                or not all(isinstance(p, str) and p.strip() for p in players)):
            raise RecordError("players: must be a list of 2 to 8 names")
        try:
            rules.check_table(len(players))
        except RulesError as e:
            raise RecordError(f"players: {e}") from None
        dealer = record.get("dealer", 0)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not (
                0 <= dealer < len(players)):
            raise RecordError(f"dealer: must be a seat from 0 to {len(players) - 1}, "
                              f"not {dealer!r}")
        display = record.get("display", "strokes")
        if display not in DISPLAYS:
            raise RecordError(f"display: must be one of {', '.join(DISPLAYS)}, not {display!r}")
        meta = record.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("meta: must be an object")
        entries = record.get("entries", [])
        if not isinstance(entries, list):
            raise RecordError("entries: must be a list")
        sheet = cls(rules, players, dealer=dealer, display=display, meta=meta)
        for i, text in enumerate(entries, start=1):
            try:
                sheet.add(text)
            except IllegalEntry as e:
                raise RecordError(f"entry {i}: {e}") from None
        return sheet

    def to_json(self) -> dict[str, Any]:
        """The whole state for a client: rules, seats, the rows, standings, what may be
        entered next (a client holds no rule: it draws this and sends entries)."""
        m = self._machine
        lives = self.lives
        seats = []
        for s in range(m._n):
            seats.append({
                "seat": s, "name": self.players[s], "lives": lives[s],
                "lost": m._lives_lost[s], "in": bool(m._in_session >> s & 1),
                "active": bool(m._active >> s & 1), "accepted": m._accepted[s],
                "drinks": m._drinks[s], "beers": m._beers[s],
                "rubbers_won": m._rubbers_won[s], "toepkoning": s in m._toepkoning,
                "team": m._team_of[s],
            })
        return {
            "rules": self.rules.to_json(),
            "lives": self.rules.lives,
            "display": self.display,
            "session": self.rules.session,
            "players": list(self.players),
            "seats": seats,
            "phase": m._phase.value,
            "declaration": self.declaration,
            "turn": self.turn,
            "target": self.target,
            "stake": m._stake,
            "last_knocker": m._last_knocker,
            "dealer": m._dealer,
            "hand": m._hand_no,
            "rubber": m._rubber_no,
            "winner": m._winner,
            "over": self.is_over,
            "eliminated": list(m._eliminated),
            "entries": [str(e) for e in self._entries],
            "legal": [str(e) for e in self.legal_entries()],
            "hands": [dataclasses.asdict(r) for r in self.hands()],
            "standings": [dataclasses.asdict(s) for s in self.standings()],
        }

    def __repr__(self) -> str:
        return (f"Sheet({self.rules.name}, {len(self.players)} players, "
                f"{len(self._entries)} entries, hand {self.hand_no}, phase {self.phase})")


def _seat_of(entry: object) -> int:
    if isinstance(entry, Entry):
        return entry.seat
    if isinstance(entry, str) and entry.split() and entry.split()[0].isdigit():
        return int(entry.split()[0])
    return -1


_ENTRY_OF: dict[EventKind, str] = {
    EventKind.KNOCK: "knock", EventKind.STAY: "stay", EventKind.FOLD: "fold",
    EventKind.CLAIM: "claim", EventKind.EXCHANGE: "exchange", EventKind.LAUNDRY: "exchange",
}


def entries_from_events(events: Iterable[Event], rules: Rules | None = None) -> list[str]:
    """The entries a table would make for a game it watched: from events a spectator
    sees (only public kinds are read), e.g. to keep a sheet of an online game. ``rules``
    tell how a laundry is checked (``laundry_check: each``: a check per checker, then the
    shown hand).

    >>> from toepen.engine import Event, EventKind as K
    >>> entries_from_events([Event(K.KNOCK, 1, 2), Event(K.FOLD, 2, 1),
    ...                      Event(K.CHALLENGE, 0, 1), Event(K.CLAIM_RESULT, 1, 0, (), "false"),
    ...                      Event(K.TRICK, 3, 3), Event(K.TRICK, 0, 4)])
    ['1 knock', '2 fold', '0 challenge false', '0 last']
    """
    out: list[str] = []
    checkers: list[int] = []
    results = {d.result for d in DECLARATIONS if d.result is not EventKind.KANS}
    each = rules is not None and rules.laundry_check == "each"
    declared: EventKind | None = None
    kans: tuple[int, int] | None = None  # (seat, index in out) of the latest draw
    for e in events:
        kind = e.kind
        if kind is EventKind.KNOCK and e.detail == "blind":
            out.append(f"{e.seat} blind")
        elif kind in _ENTRY_OF:
            out.append(f"{e.seat} {_ENTRY_OF[kind]}")
            if kind in (EventKind.CLAIM, EventKind.EXCHANGE, EventKind.LAUNDRY):
                declared = kind
        elif kind is EventKind.KANS:
            kans = (e.seat, len(out))
            out.append(f"{e.seat} kans miss")
        elif kind is EventKind.FOUR_OF_A_KIND:
            rank = card_str(e.cards[0])[0].lower()
            if kans is not None and kans[0] == e.seat and kans[1] == len(out) - 1:
                out[-1] = f"{e.seat} kans {rank}"
            else:
                out.append(f"{e.seat} four {rank}")
        elif kind is EventKind.CHALLENGE:
            checkers.append(e.seat)
        elif kind in results:
            if checkers and each and declared is EventKind.LAUNDRY:
                out.extend(f"{s} check" for s in checkers)
                out.append(f"{e.seat} shown {e.detail}")
            elif checkers:
                out.append(f"{checkers[0]} challenge {e.detail}")
            elif e.detail == "unchallenged":
                out.append(f"{e.seat} unchallenged")
            checkers = []
        elif kind is EventKind.TRICK and e.value == 4:
            out.append(f"{e.seat} last")
        elif kind is EventKind.JACK and e.cards and out and out[-1] == f"{e.seat} last":
            out[-1] = f"{e.seat} last {card_str(e.cards[0])}"
    return out


assert set(REFUSAL_CODES).isdisjoint(_SHEET_TEXT)
