"""The score sheet for real cards: a session kept from only what happens in the open.

At a pub table the cards are real and toepen sees none of them. The table enters, hand
by hand, only the public facts (who knocked, who stayed or folded, who claimed armoede or
exchanged and how a challenge came out, who took the last trick) and the sheet applies
the chosen :class:`~toepen.rules.Rules` by the engine itself: the sheet's machine is a
:class:`~toepen.engine.Game` whose cards are not known, each entry is the engine's own
actions (the passes nobody entered, then the decision), refused with the engine's
:class:`~toepen.engine.Refusal`, and where the engine would read a hidden card the table's
entry says what it was. So a sheet and a game played through the engine agree to the life.

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
from .cards import JACK, RANKS, card_str, parse_card
from .engine.actions import CHALLENGE, FOLD, KNOCK, PASS, STAY, Action
from .engine.declare import DECLARATIONS, Declaration
from .engine.events import Event, EventKind
from .engine.phase import Phase
from .engine.refusal import REFUSAL_CODES, IllegalAction, Refusal
from .engine.settle import Place, pot_balances
from .engine.unseen import UnseenGame
from .narration import Message
from .record import FORMAT, RecordError, check_format
from .rules import Rules, RulesError
from .settle import transfers

__all__ = [
    "DISPLAYS", "ENTRY_VERBS", "KIND", "NAMED_REFUSALS", "SHEET_REFUSAL_CODES", "Entry",
    "EntryError", "HandRow", "IllegalEntry", "Sheet", "Standing", "entries_from_events", "english",
    "refusal_message",
]

KIND = "sheet"
"""The ``kind`` of a sheet's record (a ``toepen-record/1`` without decks or actions)."""
DISPLAYS: tuple[str, ...] = ("strokes", "points")
"""How a sheet shows lives lost: tally strokes, or penalty points counting up."""
ENTRY_VERBS: tuple[str, ...] = (
    "knock", "stay", "fold", "claim", "exchange", "challenge", "unchallenged", "last",
    "blind", "four", "kans", "check", "shown", "rebuy",
)
"""Every verb of an entry."""

_VERB_OF: dict[str, str] = {"armoede": "claim", "exchange": "exchange", "laundry": "exchange",
                            "kans": "kans"}
"""The entry verb of each declaration (witte/vuile was is entered as an exchange)."""
_ACTION: dict[str, str] = {"four": "claim", "kans": "exchange", "check": "challenge",
                           "shown": "challenge", "unchallenged": "pass", "last": "play",
                           "blind": "knock", "rebuy": "stay"}
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


_CARD_PHASES = {"phase.play": "tally.phase.play", "phase.play.card": "tally.phase.play"}
"""The phases whose words are about playing a card, and what a sheet says instead."""

NAMED_REFUSALS: tuple[str, ...] = (
    "folded", "out_of_session", "not_your_turn", "knock_own_latest", "knock_stake_capped",
    "knock_lives_below_stake", "knock_exceeds_lives", "knock_before_first_card", "not_now",
)
"""The engine's refusals that a sheet says about the player by name (``tally.said.<code>``:
"Dirk has folded this hand."), where a seat at the table is told "You have folded". The
reason is the engine's (the same code and parameters); only the words differ, because a
shared sheet is read by the whole table. The engine's other refusals name the seat already
or are about no one (``session_over``); those about cards never reach a sheet."""


def refusal_message(refusal: Refusal, sheet: Sheet | None = None) -> Message:
    """A sheet's refusal in the table's words: the engine's reason said about the player by
    name (``tally.said.<code>`` for :data:`NAMED_REFUSALS`, else ``refusal.<code>``), or
    ``tally.refusal.<name>`` for a sheet's own (``sheet_passed`` -> ``tally.refusal.passed``).
    With the ``sheet`` that refused it, a phase that names a player (``{name} claims
    armoede``) names the one it is about: the declarer awaiting a challenge, or the last
    knocker.

    >>> refusal_message(Refusal("sheet_passed", {"seat": 1, "declaration": "armoede"}))
    Message('tally.refusal.passed', seat=Seat(1), declaration=Message('tally.declaration.armoede'))
    >>> refusal_message(Refusal("folded", {"seat": 3}))
    Message('tally.said.folded', seat=Seat(3))
    """
    if refusal.code not in _SHEET_TEXT:
        message = narration.refusal_message(refusal)
        said = dict(message.params)
        phase = said.get("phase")
        if isinstance(phase, Message) and phase.id in _CARD_PHASES:
            # a sheet takes no cards: the hand's play is said in the sheet's words
            said["phase"] = Message(_CARD_PHASES[phase.id])
        elif isinstance(phase, Message) and sheet is not None:
            about = sheet.target if sheet.target >= 0 else sheet.last_knocker
            said["phase"] = Message(phase.id, {**phase.params, "name": narration.Seat(about)})
        ident = f"tally.said.{refusal.code}" if refusal.code in NAMED_REFUSALS else message.id
        return Message(ident, said)
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


_ENTRY_WORDS = {"knock": "act.knock", "stay": "act.stay", "fold": "act.fold",
                "claim": "act.claim", "exchange": "act.exchange",
                "unchallenged": "web.tally.unchallenged", "last": "web.tally.last",
                "blind": "web.tally.blind", "check": "web.tally.check",
                "rebuy": "act.rebuy.stay"}


def entry_message(entry: Entry) -> Message:
    """What an entry's button says, as a message the client translates: a challenge's or a
    show's outcome, four of a kind and a kans with the rank's letter in the language
    (``rank.letter.<r>``, :data:`toepen.cards.LOCAL_RANKS`), the last trick's jack as a card.

    >>> entry_message(Entry(1, "four", "9")).to_json()
    {'id': 'web.tally.four', 'params': {'rank': {'msg': 'rank.letter.9'}}}
    """
    verb, word = entry.verb, entry.word
    if verb in ("challenge", "shown"):
        return Message(f"web.tally.{verb}", {"outcome": Message(f"web.tally.outcome.{word}")})
    if verb == "kans" and word == "miss":
        return Message("web.tally.kans_miss")
    if verb in ("four", "kans") and word.upper() in RANKS:
        rank = Message(f"rank.letter.{word.lower()}")
        return Message("web.tally.four" if verb == "four" else "web.tally.kans_hit", {"rank": rank})
    if verb == "last" and word:
        return Message("web.tally.last_jack", {"card": narration.Cards((parse_card(word),))})
    return Message(_ENTRY_WORDS.get(verb, f"act.{verb}"))


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


_UNTOLD: frozenset[EventKind] = frozenset({
    EventKind.HAND, EventKind.TELL, EventKind.DRAW, EventKind.PASS, EventKind.REVEAL,
    EventKind.PLAY, EventKind.TRICK,
})
"""The engine's events a sheet keeps none of: the cards (dealt, drawn, shown, played, told)
and the passes, which nobody enters."""
_PASSABLE = frozenset({Phase.BLIND, *(d.phase for d in DECLARATIONS)})
"""The rounds a table leaves without an entry: whoever was asked and entered nothing passed."""
_PLAYING = (Phase.PLAY, Phase.ANSWER)


class _Machine:
    """The sheet's state machine: the engine's :class:`~toepen.engine.unseen.UnseenGame`
    (a ``Game`` whose cards are not known) and the sheet's log of its events.

    A sheet entry is one or more of the engine's actions (the passes nobody enters
    first, then the entered decision), applied by the engine's ``apply`` with its own
    refusals. Where the engine would read a hidden card (the deal, what a player sees
    in the cards, who may draw for kans, what a drawn card or a shown hand was) the
    table has told it (``tell``, ``show_four``, ``last_trick``). Whose turn it is to play
    a card the sheet cannot know, so during the tricks the seat of an entry is the one
    to act (``take_turn``). Only :meth:`enter` changes it, and it may change it halfway
    before refusing: :class:`Sheet` enters every entry on a copy.
    """

    __slots__ = ("game", "_decls", "_log", "_entry_no", "_checks")

    game: UnseenGame
    _decls: tuple[Declaration, ...]  # the game's declaration rounds (fixed by the rules)
    _log: list[tuple[int, Event]]
    _entry_no: int
    _checks: int  # laundry_check each: seats that checked the pending laundry, in any order

    def __init__(self, rules: Rules, players: Sequence[str], dealer: int) -> None:
        self.game = UnseenGame(rules, players, dealer)
        self._decls = self.game.rounds
        self._log = []
        self._entry_no = -1
        self._checks = 0
        self._flush(self.game.opening_events(omniscient=True))

    def clone(self) -> _Machine:
        """An independent copy (the game cloned, the log copied)."""
        twin = object.__new__(_Machine)
        twin.game = self.game.clone()
        twin._decls = self._decls
        twin._log = list(self._log)
        twin._entry_no = self._entry_no
        twin._checks = self._checks
        return twin

    # -- entries ----------------------------------------------------------------------------

    def enter(self, entry: Entry) -> None:
        """Enter one entry (IllegalEntry: refused; the machine may be half changed)."""
        self.precheck(entry)
        self._entry_no += 1
        game = self.game
        checks = self._checks
        deals = game.deals if checks else 0
        batch: list[Event] = []
        self._enter(entry.seat, entry.verb, entry.word, batch)
        if checks and game.deals != deals:  # checks belong to the deal they were made in
            self._checks = 0
        self._flush(batch)

    def precheck(self, entry: Entry) -> None:
        """What refuses ``entry`` whatever it is: a seat that is no seat, out or folded, a
        verb that is none, the session over (IllegalEntry; nothing changes)."""
        seat, verb = entry.seat, entry.verb
        game = self.game
        phase = game.phase
        if isinstance(seat, bool) or not isinstance(seat, int):
            self._no("not_a_seat", seat=repr(seat))
        if verb not in ENTRY_VERBS:
            self._no("bad_action", seat=seat, error=f"unknown verb {verb!r}")
        if phase is Phase.OVER:
            self._no("session_over", seat=seat, action=verb)
        if not 0 <= seat < game.n:
            self._no("no_such_seat", seat=seat, players=game.n)
        in_session = game.in_session >> seat & 1
        if verb == "rebuy":  # pot toepen: only a seat the last hand put out buys back in
            if phase is not Phase.REBUY or seat not in game.queue:
                if in_session:
                    self._no("not_now", seat=seat, action="stay", phase=phase.value)
                self._no("out_of_session", seat=seat)
            return
        if not in_session:
            self._no("out_of_session", seat=seat)
        if phase is Phase.REBUY:  # the next hand's entry: nobody has folded in it yet
            return
        if not game.active >> seat & 1:
            self._no("folded", seat=seat)

    def _enter(self, seat: int, verb: str, word: str, batch: list[Event]) -> None:
        game = self.game
        # The rebuy round (pot toepen): those asked before an entered buy-in, and all of
        # them before any other entry, stayed out (nobody enters a pass).
        while game.phase is Phase.REBUY and not (verb == "rebuy" and game.turn == seat):
            self._act(game.turn, PASS, batch)
        if verb == "rebuy":
            self._act(seat, STAY, batch)
            return
        if verb == "four":
            self._enter_four(seat, word, batch)
        elif verb in ("claim", "exchange", "kans"):
            self._enter_declaration(seat, verb, word, batch)
        elif verb in ("challenge", "unchallenged", "check", "shown"):
            self._enter_challenge(seat, verb, word, batch)
        elif verb == "blind":
            self._pass_until(Phase.BLIND, seat, "knock", batch)
            if game.phase is not Phase.BLIND:
                self._no("not_now", seat=seat, action="knock", phase=game.phase.value)
            self._act(seat, KNOCK, batch)
        else:  # knock, stay, fold, last: the play
            self._pass_until(Phase.PLAY, seat, _ACTION.get(verb, verb), batch)
            phase = game.phase
            if verb == "last":
                if phase is not Phase.PLAY:
                    self._no("not_now", seat=seat, action="play", phase=phase.value)
                if word and game.rules.jack_last_trick == "off":
                    self._no("bad_action", seat=seat,
                             error="the card of the last trick counts only with jack_last_trick")
                card = _card_of(seat, word) if word else -1
                batch.extend(game.last_trick(seat, card))
                return
            if phase not in _PLAYING and phase is not Phase.BLIND_ANSWER:
                self._no("not_now", seat=seat, action=verb, phase=phase.value)
            self._act(seat, {"knock": KNOCK, "stay": STAY, "fold": FOLD}[verb], batch)

    def _no(self, code: str, **params: Any) -> NoReturn:
        raise IllegalEntry(Refusal(code, params))

    def _act(self, seat: int, act: Action, batch: list[Event]) -> None:
        """The engine's ``apply`` of ``seat``'s decision, refused with the engine's reason.
        During the tricks the sheet does not know who is to play: the entering seat is."""
        game = self.game
        if game.phase is Phase.PLAY and game.turn != seat:
            game.take_turn(seat)
        try:
            batch.extend(game.apply(seat, act))
        except IllegalAction as e:
            raise IllegalEntry(e.refusal) from None

    def _rank(self, phase: Phase) -> int:
        """Where ``phase`` comes in a deal: the blind round, the declaration rounds, play."""
        if phase is Phase.BLIND or phase is Phase.BLIND_ANSWER:
            return 0
        rounds = self._decls
        for i, decl in enumerate(rounds, 1):
            if phase is decl.phase or phase is decl.challenge_phase:
                return i
        return len(rounds) + 1

    def _pass_until(self, target: Phase, seat: int, action: str, batch: list[Event]) -> None:
        """The rounds before ``target`` (and, in ``target``'s round, the seats asked before
        ``seat``) were passed: the engine takes those passes. A round that ``seat`` has
        already passed or declared in refuses; so does a pass that would end the deal."""
        game = self.game
        deals = game.deals
        want = self._rank(target)
        while game.phase in _PASSABLE:
            phase = game.phase
            here = self._rank(phase)
            if here > want:
                return
            if here == want and phase is target:
                if game.turn == seat:
                    return
                decl = game.declaration
                if seat not in game.queue and decl is not None:
                    if game.declared(decl) >> seat & 1:
                        self._no("sheet_declared", seat=seat, declaration=decl.name)
                    self._no("sheet_passed", seat=seat, declaration=decl.name)
            self._act(game.turn, PASS, batch)
            if game.deals != deals or game.phase is Phase.OVER:
                self._no("not_now", seat=seat, action=action, phase=phase.value)

    def _enter_four(self, seat: int, word: str, batch: list[Event]) -> None:
        """Four of a kind shown when the cards are seen (the blind round passed first)."""
        game = self.game
        four = game.rules.four_of_a_kind
        if four and game.phase is Phase.BLIND:
            while game.phase is Phase.BLIND:
                self._act(game.turn, PASS, batch)
        if not four or not game.cards_just_seen or not game.active >> seat & 1:
            self._no("not_now", seat=seat, action="claim", phase=game.phase.value)
        batch.extend(game.show_four(seat, _rank_of(seat, word)))

    def _round_of(self, verb: str) -> Declaration | None:
        return next((d for d in self._decls if _VERB_OF[d.name] == verb), None)

    def _enter_declaration(self, seat: int, verb: str, word: str, batch: list[Event]) -> None:
        game = self.game
        decl = self._round_of(verb)
        if decl is not None and decl.draws and game.stock_size < decl.draws:
            self._no("sheet_stock_short", seat=seat)  # (the round ended for it)
        action = _ACTION.get(verb, verb)
        if decl is None:
            self._no("not_now", seat=seat, action=action, phase=game.phase.value)
        if decl.draws == 1:  # kans: the word says what the drawn card made
            game.tell(shown=word, drawn_four=-1 if word == "miss" else _rank_of(seat, word))
        elif word:
            self._no("bad_action", seat=seat, error=f"{verb} takes no third word")
        self._pass_until(decl.phase, seat, action, batch)
        if game.phase is not decl.phase:
            self._no("not_now", seat=seat, action=action, phase=game.phase.value)
        self._act(seat, decl.verb, batch)

    def outcomes(self, decl: Declaration) -> tuple[str, ...]:
        """What a shown hand may turn out to be: honest words, then the dishonest one."""
        if decl.word_of is not None:  # the laundry: which was it was, or caught
            words = [w for w in ("witte_was", "vuile_was") if getattr(self.game.rules, w)]
            return (*words, decl.dishonest_word)
        return (decl.honest_word, decl.dishonest_word)

    def _enter_challenge(self, seat: int, verb: str, word: str, batch: list[Event]) -> None:
        """A challenge round: ``challenge`` (the first challenger settles it), ``check`` and
        ``shown`` (``laundry_check: each``: every check, then the shown hand) or
        ``unchallenged``; the opponents asked who entered nothing passed."""
        game = self.game
        decl = game.declaration
        phase = game.phase
        action = _ACTION.get(verb, verb)
        if decl is None or phase is not decl.challenge_phase or decl.challenge_phase is (
                decl.phase):  # (kans is never challenged)
            self._no("not_now", seat=seat, action=action, phase=phase.value)
        declarer = game.target
        each = decl.check_each(game.rules)
        game.tell(shown=word)  # what a challenge below shows (only a challenge reads it)
        if verb in ("unchallenged", "shown"):
            if seat != declarer:
                self._no("not_now", seat=seat, action="pass", phase=phase.value)
            if verb == "unchallenged" and each and self._checks:  # checked: shown it must be
                self._no("not_now", seat=seat, action="pass", phase=phase.value)
            if verb == "shown" and not (each and self._checks):
                self._no("not_now", seat=seat, action="challenge", phase=phase.value)
            if verb == "shown":
                self._verdict_word(decl, seat, word)
            checks, self._checks = self._checks, 0
            events: list[Event] = []
            for s in game.queue:  # the engine asks them in its order
                self._act(s, CHALLENGE if checks >> s & 1 else PASS, events)
            # the checks were told as they were entered
            batch.extend(e for e in events if e.kind is not EventKind.CHALLENGE)
            return
        if not game.opponents(declarer) >> seat & 1:
            self._no("sheet_not_opponent", seat=seat, target=declarer)
        if each != (verb == "check"):  # each: checks, then the shown hand; else one challenge
            self._no("not_now", seat=seat, action=action, phase=phase.value)
        if each:
            if self._checks >> seat & 1:
                self._no("sheet_declared", seat=seat, declaration=decl.name)
            self._checks |= 1 << seat
            batch.append(Event(EventKind.CHALLENGE, seat, declarer))
            return
        self._verdict_word(decl, seat, word)
        while game.turn != seat:
            self._act(game.turn, PASS, batch)
        self._act(seat, CHALLENGE, batch)

    def _verdict_word(self, decl: Declaration, seat: int, word: str) -> None:
        outcomes = self.outcomes(decl)
        if word not in outcomes:
            self._no("sheet_bad_outcome", seat=seat, declaration=decl.name, word=word,
                     choices=" or ".join(outcomes))

    # -- the log and the hands ------------------------------------------------------------

    def _flush(self, events: Iterable[Event]) -> None:
        self._log.extend((self._entry_no, e) for e in events if e.kind not in _UNTOLD)

    def rows(self) -> list[HandRow]:
        rows: list[HandRow] = []
        n = self.game.n
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
                if e.detail in ("folded", "last_left"):
                    cur["left"] = e.seat
                else:
                    cur["last"] = e.seat
                cur["ended"] = True
        if cur is not None:
            close(bool(cur.get("ended")) or self.game.phase is Phase.OVER)
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
            self._machine.precheck(parsed)
            self._machine.clone().enter(parsed)
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
        machine.enter(parsed)
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
            machine.enter(entry)
        self._machine = machine
        return last

    def legal_entries(self) -> list[Entry]:
        """Every entry the sheet would take now (what a client offers as buttons)."""
        m = self._machine
        if m.game.phase is Phase.OVER:
            return []
        rules = self.rules
        words: tuple[str, ...] = ()
        decl = m.game.declaration
        if decl is not None and m.game.phase is decl.challenge_phase:
            words = m.outcomes(decl)
        plain = ["knock", "stay", "fold", "claim", "exchange", "unchallenged", "last"]
        if rules.blind_knock:
            plain.append("blind")
        if m.game.phase is Phase.REBUY:
            plain.append("rebuy")
        each = decl is not None and decl.check_each(rules)
        if each:
            plain.append("check")
        ranks = "T987AKQJ" if rules.four_of_a_kind else ""
        out: list[Entry] = []
        for seat in range(m.game.n):
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
        return self._machine.game.phase

    @property
    def rebuyers(self) -> tuple[int, ...]:
        """``rebuy``: the seats the last hand put out that may buy back in now (entry
        ``SEAT rebuy``; any other entry means they stayed out); empty otherwise."""
        m = self._machine
        return tuple(m.game.queue) if m.game.phase is Phase.REBUY else ()

    @property
    def rebuys(self) -> tuple[int, ...]:
        """By seat: how often it bought back in (pot toepen)."""
        return tuple(self._machine.game.rebuys)

    @property
    def pot(self) -> int:
        """The pot in cents: every player's stake at the start and at each buy-in."""
        return self.rules.pot_cents * (self._machine.game.n + sum(self._machine.game.rebuys))

    def pot_balances(self) -> tuple[int, ...]:
        """By seat, in cents, of a finished sheet: what the pot won less what was put in
        (ValueError while nobody has won)."""
        m = self._machine
        return pot_balances(self.rules.pot_cents, m.game.rebuys, m.game.team_of, m.game.winner)

    @property
    def turn(self) -> int:
        """The seat whose answer a knock awaits (-1 when no answer is awaited)."""
        m = self._machine
        return m.game.turn if m.game.phase in (Phase.ANSWER, Phase.BLIND_ANSWER) else -1

    @property
    def target(self) -> int:
        """The seat whose declaration awaits its challenge (-1 if none)."""
        m = self._machine
        decl = m.game.declaration
        if decl is None or m.game.phase is not decl.challenge_phase or decl.phase is m.game.phase:
            return -1
        return m.game.target

    @property
    def declaration(self) -> str | None:
        """The declaration round open or being challenged (``armoede``, ``exchange``)."""
        m = self._machine
        decl = m.game.declaration
        if decl is None or m.game.phase not in (decl.phase, decl.challenge_phase):
            return None
        return decl.name

    @property
    def n(self) -> int:
        return self._machine.game.n

    @property
    def stake(self) -> int:
        return self._machine.game.stake

    @property
    def accepted(self) -> list[int]:
        """The stake each seat has accepted this hand (what folding costs it)."""
        return list(self._machine.game.accepted)

    @property
    def last_knocker(self) -> int:
        return self._machine.game.last_knocker

    @property
    def dealer(self) -> int:
        return self._machine.game.dealer

    @property
    def hand_no(self) -> int:
        return self._machine.game.hand_no

    @property
    def team_of(self) -> tuple[int, ...]:
        return self._machine.game.team_of

    @property
    def lives(self) -> list[int]:
        """Lives by seat (with teams: the pair's pool)."""
        m = self._machine
        return [m.game.pools[m.game.team_of[s]] for s in range(m.game.n)]

    @property
    def pools(self) -> list[int]:
        return list(self._machine.game.pools)

    @property
    def lives_lost(self) -> list[int]:
        return list(self._machine.game.lives_lost)

    @property
    def in_session(self) -> list[int]:
        m = self._machine
        return [s for s in range(m.game.n) if m.game.in_session >> s & 1]

    @property
    def active(self) -> list[int]:
        m = self._machine
        return [s for s in range(m.game.n) if m.game.active >> s & 1]

    @property
    def eliminated(self) -> list[int]:
        return list(self._machine.game.eliminated)

    @property
    def winner(self) -> int | None:
        return self._machine.game.winner

    @property
    def is_over(self) -> bool:
        return self._machine.game.phase is Phase.OVER

    @property
    def rubber_no(self) -> int:
        return self._machine.game.rubber_no

    @property
    def drinks(self) -> list[int]:
        return list(self._machine.game.drinks)

    @property
    def beers(self) -> list[int]:
        return list(self._machine.game.beers)

    @property
    def rubbers_won(self) -> list[int]:
        return list(self._machine.game.rubbers_won)

    @property
    def toepkoning(self) -> list[int]:
        return list(self._machine.game.toepkoning)

    @property
    def hands_played(self) -> int:
        return self._machine.game.hands_played

    def events(self) -> list[tuple[int, Event]]:
        """Every event so far with the index of the entry that caused it (-1: the start)."""
        return list(self._machine._log)

    def hands(self) -> list[HandRow]:
        """The sheet's rows, one per hand (the last one may be in progress)."""
        return self._machine.rows()

    def places(self) -> tuple[Place, ...]:
        """The finishing order as it stands: the engine's own
        (:func:`toepen.engine.settle.finishing_order`), the same as a game's."""
        return self._machine.game.places()

    def standings(self) -> list[Standing]:
        """Each seat by its place in :meth:`places` (partners share theirs)."""
        m = self._machine
        lives = self.lives
        out_hand = dict(zip(m.game.eliminated, m.game.out_hands, strict=True))
        return [
            Standing(p.place, s, self.players[s], lives[s], m.game.lives_lost[s], out_hand.get(s),
                     m.game.drinks[s], m.game.rubbers_won[s])
            for p in self.places() for s in p.seats
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
        pot = self._pot_record()
        if pot is not None:  # the export says who pays whom (checked when read back)
            rec["pot"] = pot
        return rec

    @classmethod
    def from_record(cls, record: Any) -> Sheet:
        """The sheet a record describes (RecordError naming the field or entry at fault)."""
        if not isinstance(record, dict):
            raise RecordError("file: a record is a JSON object")
        check_format(record)
        if record.get("kind", "game") == "game":
            raise RecordError("kind: this is the record of a game, not a score sheet "
                              f"(kind {KIND!r}): toepen replay and toepen review read it")
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
        if "pot" in record and record["pot"] != sheet._pot_record():
            raise RecordError(f"pot: the record says {record['pot']!r}, its entries give "
                              f"{sheet._pot_record()!r}")
        return sheet

    def _pot_record(self) -> dict[str, Any] | None:
        """What a finished sheet's record says of its pot (pot toepen): the balances by
        seat and the settlement, in cents; None without a pot or before the end."""
        if not self.is_over or not self.rules.pot_cents:
            return None
        return {"balances": list(self.pot_balances()), "settlement": self.settlement()}

    def to_json(self) -> dict[str, Any]:
        """The whole state for a client: rules, seats, the rows, standings, what may be
        entered next (a client holds no rule: it draws this and sends entries)."""
        m = self._machine
        lives = self.lives
        seats = []
        for s in range(m.game.n):
            seats.append({
                "seat": s, "name": self.players[s], "lives": lives[s],
                "lost": m.game.lives_lost[s], "in": bool(m.game.in_session >> s & 1),
                "active": bool(m.game.active >> s & 1), "accepted": m.game.accepted[s],
                "drinks": m.game.drinks[s], "beers": m.game.beers[s],
                "rubbers_won": m.game.rubbers_won[s], "toepkoning": s in m.game.toepkoning,
                "team": m.game.team_of[s],
            })
        legal = self.legal_entries()
        return {
            "rules": self.rules.to_json(),
            "lives": self.rules.lives,
            "display": self.display,
            "count": self.rules.count,
            "session": self.rules.session,
            "players": list(self.players),
            "seats": seats,
            "phase": m.game.phase.value,
            "declaration": self.declaration,
            "turn": self.turn,
            "target": self.target,
            "stake": m.game.stake,
            "last_knocker": m.game.last_knocker,
            "dealer": m.game.dealer,
            "hand": m.game.hand_no,
            "rubber": m.game.rubber_no,
            "winner": m.game.winner,
            "over": self.is_over,
            "eliminated": list(m.game.eliminated),
            "entries": [str(e) for e in self._entries],
            "legal": [str(e) for e in legal],
            "legal_say": [entry_message(e).to_json() for e in legal],
            "hands": [dataclasses.asdict(r) for r in self.hands()],
            "standings": [dataclasses.asdict(s) for s in self.standings()],
            "places": [p.to_json() for p in self.places()],
            "standings_say": [m.to_json() for m in narration.standings(
                self.places(), self.rules, over=self.is_over, rebuys=m.game.rebuys)],
            "rebuyers": list(self.rebuyers),
            "rebuys": list(self.rebuys),
            "pot": self.pot,
            "pot_unit": self.rules.pot_unit,
            "pot_balances": list(self.pot_balances()) if self.is_over else None,
            "settlement": self.settlement() if self.is_over else None,
        }

    def settlement(self) -> list[dict[str, int]]:
        """A finished sheet's pot settled: who pays whom (seats), in the fewest transfers
        (:func:`toepen.settle.transfers`); empty without a pot."""
        balances = {str(s): b for s, b in enumerate(self.pot_balances())}
        return [{"payer": int(t.payer), "payee": int(t.payee), "cents": t.cents}
                for t in transfers(balances)]

    def pot_by_name(self) -> dict[str, int]:
        """A finished sheet's pot balances by player name (partners alike), what an
        evening of several sheets adds up (:func:`toepen.settle.evening`)."""
        out: dict[str, int] = {}
        for name, cents in zip(self.players, self.pot_balances(), strict=True):
            out[name] = out.get(name, 0) + cents
        return out

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
    EventKind.REBUY: "rebuy",
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
            if each and declared is EventKind.LAUNDRY:  # told as each one checks
                out.append(f"{e.seat} check")
        elif kind in results:
            if checkers and each and declared is EventKind.LAUNDRY:
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
