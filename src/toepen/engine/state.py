"""The state machine of a Toepen session.

A :class:`Game` is its rules, its decks and its actions. ``apply`` checks an action
against the legal ones, changes the state in place and returns the events it
caused; an illegal action raises :class:`IllegalAction` with a :class:`Refusal` and
changes nothing. Chance comes only from the decks: given explicitly, or drawn from
the game's own seeded generator.

>>> from toepen.rules import Rules
>>> g = Game.new(Rules.preset("rulebook", lives=3), players=4, seed=1)
>>> g.phase, g.to_act
(<Phase.CLAIM: 'claim'>, (1,))
>>> [str(a) for a in g.legal(1)]
['claim', 'pass']
>>> g.refusal(1, "knock").code
'not_now'
>>> g.apply(1, Action.parse("knock"))
Traceback (most recent call last):
...
toepen.engine.refusal.IllegalAction: seat 1 may not knock now (armoede: claim or pass)

The game is split over a few modules: :mod:`.deck` (decks), :mod:`.declare` (armoede
and the exchange), :mod:`.settle` (lives, rubbers, the session), :mod:`.refusal`
(why an action is illegal); this module deals, runs the hot path of play and knocks,
and is the public face. Public facts are read-only properties; the hidden cards are
read through explicit omniscient methods (:meth:`Game.hand_mask`, :meth:`Game.stock`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ..cards import (
    FULL_MASK,
    RANK_MASKS,
    SUIT_MASKS,
    SUITS,
    card_str,
    cards_of,
    cards_str,
)
from ..rules import TELL_WORDS, Rules
from .actions import (
    ACTIONS,
    CHALLENGE,
    FOLD,
    KNOCK,
    PASS,
    STAY,
    Action,
    ActionError,
    action,
)
from .core import GameCore, after_table, order_table, slot_copier
from .deck import DeckError, check_deck, seeded_deck
from .declare import DECLARATIONS, Declarations, rounds_of
from .events import Event, EventKind, redact
from .phase import Phase
from .refusal import IllegalAction, Refusal, Refusals, bad_action
from .settle import Settlement, pot_balances

__all__ = ["Game", "Phase", "IllegalAction", "DeckError", "Refusal", "check_deck"]

# Bound once: attribute lookups on the enum cost time in the hot path.
_E = EventKind
_DEAL, _REDEAL, _HAND, _TELL = _E.DEAL, _E.REDEAL, _E.HAND, _E.TELL
_PELT, _KNOCK, _STAY, _FOLD, _PLAY = _E.PELT, _E.KNOCK, _E.STAY, _E.FOLD, _E.PLAY
_TRICK = _E.TRICK
_P_ANSWER, _P_PLAY, _P_DEAL, _P_OVER = Phase.ANSWER, Phase.PLAY, Phase.DEAL, Phase.OVER
_P_BLIND, _P_BLIND_ANSWER, _P_REBUY = Phase.BLIND, Phase.BLIND_ANSWER, Phase.REBUY
_PLAYING = (_P_ANSWER, _P_PLAY)
_CHALLENGE_PASS = (CHALLENGE, PASS)

_NONE, _AT_LEAST = "none", "lives_at_least_stake"
_new = tuple.__new__  # Event(...) without the NamedTuple keyword layer, in the hot path

_ANSWER_KNOCK = (KNOCK, STAY, FOLD)
_ANSWER = (STAY, FOLD)
_ANSWER_KNOCK_NO_FOLD = (KNOCK, STAY)
_STAY_ONLY = (STAY,)
_BLIND_KNOCK = (KNOCK, PASS)
_KNOCK_ONLY = (KNOCK,)
_PASS_ONLY = (PASS,)
_REBUY_CHOICE = (STAY, PASS)  # rebuy: buy back in (stay) or stay out (pass)
_BLIND_PASSES = tuple(Event(_E.PASS, s, 0, (), "blind", False) for s in range(8))

# Shared immutable tuples of the hot path (seat < 8, card < 32, action < 64, suit < 4):
# looking one up is cheaper than building it on every action.
_MOVES: tuple[tuple[int, Action], ...] = tuple(
    (s, ACTIONS[min(a, len(ACTIONS) - 1)]) for s in range(8) for a in range(64)
)  # index seat << 6 | action (entries past the last action are never looked up)
_SEAT_CARD = tuple((s, ACTIONS[c]) for s in range(8) for c in range(32))
_SEAT_CARD_LED = tuple(
    (s, ACTIONS[c], led) for s in range(8) for c in range(32) for led in range(4)
)
_PLAY_EVENTS = tuple(
    Event(_PLAY, s, 0, (ACTIONS[c],), "", False) for s in range(8) for c in range(32)
)

_TRICK_EVENTS = tuple(
    Event(_TRICK, s, k, (), "", False) for s in range(8) for k in range(1, 5)
)  # index seat << 2 | trick number - 1

_PLAYS_CACHE: dict[int, tuple[Action, ...]] = {}
_HAND_CARDS: dict[int, tuple[int, ...]] = {}
"""A dealt hand's cards in id order, by its mask (at most the 35,960 hands of four)."""
_KNOCK_PLAYS_CACHE: dict[int, tuple[Action, ...]] = {}


def _plays(mask: int) -> tuple[Action, ...]:
    acts = _PLAYS_CACHE.get(mask)
    if acts is None:
        acts = tuple(ACTIONS[c] for c in cards_of(mask))
        _PLAYS_CACHE[mask] = acts
    return acts


def _knock_plays(mask: int) -> tuple[Action, ...]:
    acts = _KNOCK_PLAYS_CACHE.get(mask)
    if acts is None:
        acts = (KNOCK, *_plays(mask))
        _KNOCK_PLAYS_CACHE[mask] = acts
    return acts


class Game(Declarations, Settlement, Refusals):
    """One session of Toepen: rules, table, decks and every decision.

    ``repr()`` sums the position up in a line; ``str()`` shows it whole, every hand
    included (it is the omniscient picture, for logs and debugging):

    >>> g = Game.new("rulebook", ["Ann", "Bas", "Cor", "Dirk"], seed=11)
    >>> g
    <Game rulebook 4 players: hand 1, claim, seat 1 to act, stake 1>
    >>> print(g)
    rulebook: 4 players, 10 lives, session elimination, last trick loses
    hand 1, phase claim, stake 1, Bas (seat 1) to act
      0 Ann   lives 10  Ad Th 9h 8h  dealer
      1 Bas   lives 10  9d Jd Ah Qh  to act
      2 Cor   lives 10  Td 7h Jh Qs
      3 Dirk  lives 10  9c 7c 9s Js
    stock: 16 cards
    """

    __slots__ = ()

    # -- construction -----------------------------------------------------------------

    def __init__(
        self,
        rules: Rules,
        players: int | Sequence[str] = 4,
        *,
        seed: int | None = None,
        decks: Iterable[Sequence[int | str]] | None = None,
        dealer: int = 0,
    ) -> None:
        if isinstance(players, int):
            names = tuple(f"Player {i + 1}" for i in range(players))
        else:
            names = tuple(players)
        n = len(names)
        rules.check_table(n)
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"dealer: must be a seat from 0 to {n - 1}, not {dealer!r}")
        self._rules = rules
        self._n = n
        self._players = names
        self._teams = rules.teams
        half = n // 2
        self._team_of = tuple(i % half for i in range(n)) if rules.teams else tuple(range(n))
        self._after = after_table(n)
        self._orders = order_table(n)
        self._pools = [rules.lives] * (half if rules.teams else n)
        self._in_session = (1 << n) - 1
        self._eliminated = []
        self._out_hands = ()
        self._active = 0
        self._hands = [0] * n
        self._out = 0
        self._phase = _P_DEAL
        self._turn = -1
        self._dealer = dealer
        self._first_dealer = dealer
        self._hand_no = 0
        self._stake = 1
        self._accepted = [1] * n
        self._last_knocker = -1
        self._leader = -1
        self._trick = []
        self._played_mask = 0
        self._led = -1
        self._trick_no = 0
        self._any_card_played = False
        self._trick_winners = []
        self._won_cards = 0
        self._queue = []
        self._declared = [0] * len(DECLARATIONS)
        self._target = -1
        self._discard = 0
        self._resume = -1
        self._deck = []
        self._stock_pos = 32
        self._decks = []
        self._supplied = (
            [check_deck(d, f"decks[{i}]") for i, d in enumerate(decks)] if decks is not None else []
        )
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ValueError(f"seed: must be an integer, not {seed!r}")
        self._seed = seed
        self._actions = []
        self._hand_start = 0
        self._lives_before = list(self._pools)
        self._rubber_no = 1
        self._drinks = [0] * n
        self._beers = [0] * n
        self._rubbers_won = [0] * n
        self._streak = [0] * n
        self._toepkoning = []
        self._winner = None
        self._lives_lost = [0] * n
        self._hands_won = [0] * n
        self._hands_lost = [0] * n
        self._tells = []
        self._revealed = []
        self._sudden_death = False
        self._plays = []
        self._hands_played = 0
        self._legal = None
        self._max_stake = rules.max_stake if rules.max_stake is not None else 1 << 30
        self._limit = {"none": _NONE, "lives_at_least_stake": _AT_LEAST}.get(
            rules.knock_limit, rules.knock_limit
        )
        self._early = rules.first_player_may_knock_early
        self._ev = []
        self._pending_redeal = False
        self._round_queue = []
        self._rounds = rounds_of(rules)
        self._round = 0
        self._decl = None
        self._checkers = 0
        self._knock_bar = -1
        self._dealt_ev = ()
        self._next_dealer = -1
        self._marks = ()
        self._no_fold = rules.edge == "no_fold"
        self._double = rules.double_knock
        self._anytime = rules.knock_anytime
        self._blind_on = rules.blind_knock
        self._dead = rules.edge == "plays_dead"
        self._jack = rules.jack_last_trick if rules.jack_last_trick != "off" else ""
        self._each = tuple(d.check_each(rules) for d in DECLARATIONS)
        self._seen_rules = bool(rules.tell_ranks) or rules.four_of_a_kind
        self._loses = rules.last_trick_loses
        self._beer = rules.beer_tally
        self._elim = rules.session == "elimination"
        self._rubber = rules.session == "rubber"
        self._pelt = rules.pelt
        self._dealer_rule = rules.dealer
        self._rebuys = [0] * n
        limit = rules.rebuys
        self._rebuy_limit = 1 << 30 if limit is None else limit
        self._rebuy_lives = 0
        self._rebuy_last = -1
        self._start_hand()
        self._opening = self._ev
        self._ev = []

    @classmethod
    def new(
        cls,
        rules: Rules | str = "rulebook",
        players: int | Sequence[str] = 4,
        *,
        seed: int | None = None,
        decks: Iterable[Sequence[int | str]] | None = None,
        dealer: int = 0,
    ) -> Game:
        """A new session. Without ``seed`` or ``decks`` the game waits for :meth:`deal`."""
        if isinstance(rules, str):
            rules = Rules.preset(rules)
        return cls(rules, players, seed=seed, decks=decks, dealer=dealer)

    def clone(self) -> Game:
        """An independent copy (cheap: lists are copied shallowly, ints are shared)."""
        g = Game.__new__(Game)
        _copy_shared(g, self)
        g._pools = list(self._pools)
        g._eliminated = list(self._eliminated)
        g._hands = list(self._hands)
        g._accepted = list(self._accepted)
        g._trick = list(self._trick)
        g._trick_winners = list(self._trick_winners)
        g._plays = list(self._plays)
        g._queue = list(self._queue)
        g._round_queue = list(self._round_queue)
        g._decks = list(self._decks)
        g._supplied = list(self._supplied)
        g._actions = list(self._actions)
        g._lives_before = list(self._lives_before)
        g._drinks = list(self._drinks)
        g._beers = list(self._beers)
        g._rubbers_won = list(self._rubbers_won)
        g._streak = list(self._streak)
        g._toepkoning = list(self._toepkoning)
        g._lives_lost = list(self._lives_lost)
        g._hands_won = list(self._hands_won)
        g._hands_lost = list(self._hands_lost)
        g._tells = list(self._tells)
        g._revealed = list(self._revealed)
        g._declared = list(self._declared)
        g._rebuys = list(self._rebuys)
        g._ev = []
        return g

    # -- public facts (read-only) ---------------------------------------------------------
    #
    # The four most read ones (bots and loops read ``turn`` and ``phase`` around every
    # action) are the slot itself under its public name: a read costs what a plain
    # attribute costs, where any property costs four times as much and showed in
    # ``toepen bench``. For mypy they are read-only properties, so typed code cannot
    # assign them; untyped code must not either.

    if TYPE_CHECKING:

        @property
        def turn(self) -> int:
            """The seat to act, or -1 when dealing or over."""

        @property
        def phase(self) -> Phase:
            """The kind of decision the game awaits."""

        @property
        def hands_played(self) -> int:
            """Hands that reached a result (settled, or ended because all but one folded)."""

        @property
        def n(self) -> int:
            """The number of seats."""

    else:
        turn = GameCore.__dict__["_turn"]
        phase = GameCore.__dict__["_phase"]
        hands_played = GameCore.__dict__["_hands_played"]
        n = GameCore.__dict__["_n"]

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names by seat."""
        return self._players

    @property
    def team_of(self) -> tuple[int, ...]:
        """Each seat's side: its pair of partners under teams, else the seat itself."""
        return self._team_of

    @property
    def pools(self) -> Sequence[int]:
        """Lives by side (see :attr:`team_of`)."""
        return self._pools

    @property
    def in_session(self) -> int:
        """Mask of the seats still in the session."""
        return self._in_session

    @property
    def eliminated(self) -> Sequence[int]:
        """Seats eliminated, in order."""
        return self._eliminated

    @property
    def out_hands(self) -> tuple[int, ...]:
        """By entry of :attr:`eliminated`: the number of the hand it went out in."""
        return self._out_hands

    @property
    def active(self) -> int:
        """Mask of the seats still in the hand."""
        return self._active

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def first_dealer(self) -> int:
        return self._first_dealer

    @property
    def hand_no(self) -> int:
        """The current hand's number, from 1."""
        return self._hand_no

    @property
    def stake(self) -> int:
        return self._stake

    @property
    def accepted(self) -> Sequence[int]:
        """The stake each seat has accepted this hand."""
        return self._accepted

    @property
    def last_knocker(self) -> int:
        """Who made the latest knock (or opened on pelt), -1 if nobody."""
        return self._last_knocker

    @property
    def leader(self) -> int:
        """Who leads (led) the current trick."""
        return self._leader

    @property
    def trick(self) -> Sequence[tuple[int, int]]:
        """The current trick: (seat, card) in play order."""
        return self._trick

    @property
    def played_mask(self) -> int:
        """Mask of the seats that played to the current trick."""
        return self._played_mask

    @property
    def led(self) -> int:
        """The suit led to the current trick, -1 before its first card."""
        return self._led

    @property
    def trick_no(self) -> int:
        """Tricks finished this hand."""
        return self._trick_no

    @property
    def any_card_played(self) -> bool:
        return self._any_card_played

    @property
    def trick_winners(self) -> Sequence[int]:
        return self._trick_winners

    @property
    def won_cards(self) -> int:
        """Mask of the cards of this hand's finished tricks."""
        return self._won_cards

    @property
    def plays(self) -> Sequence[tuple[int, int, int]]:
        """This hand's plays: (seat, card, suit led)."""
        return self._plays

    @property
    def claimed(self) -> int:
        """Mask of the seats that claimed armoede this hand."""
        return self._declared[0]

    @property
    def exchanged(self) -> int:
        """Mask of the seats that exchanged this hand."""
        return self._declared[1]

    @property
    def kans_drawn(self) -> int:
        """Mask of the seats that drew for four of a kind this hand (kans op toep)."""
        return self._declared[2]

    @property
    def laundered(self) -> int:
        """Mask of the seats that claimed witte or vuile was this hand."""
        return self._declared[3]

    @property
    def target(self) -> int:
        """The seat the current challenge round is about (the latest declarer), or -1."""
        return self._target

    @property
    def actions(self) -> Sequence[tuple[int, Action]]:
        """Every decision so far: (seat, action)."""
        return self._actions

    @property
    def marks(self) -> Sequence[tuple[int, Phase]]:
        """Where each round of the current hand began: (index in :attr:`actions`, phase):
        the blind round, each declaration round, the play."""
        return self._marks

    @property
    def hand_start(self) -> int:
        """Where in :attr:`actions` the current hand began."""
        return self._hand_start

    @property
    def lives_before(self) -> Sequence[int]:
        """Lives by side when the current hand began."""
        return self._lives_before

    @property
    def rubber_no(self) -> int:
        return self._rubber_no

    @property
    def drinks(self) -> Sequence[int]:
        return self._drinks

    @property
    def beers(self) -> Sequence[int]:
        return self._beers

    @property
    def rubbers_won(self) -> Sequence[int]:
        return self._rubbers_won

    @property
    def streak(self) -> Sequence[int]:
        """Rubbers won in a row, by seat."""
        return self._streak

    @property
    def toepkoning(self) -> Sequence[int]:
        return self._toepkoning

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def lives_lost(self) -> Sequence[int]:
        return self._lives_lost

    @property
    def hands_won(self) -> Sequence[int]:
        return self._hands_won

    @property
    def hands_lost(self) -> Sequence[int]:
        return self._hands_lost

    @property
    def tells(self) -> Sequence[tuple[int, int, int]]:
        """This deal's tells: (seat, count, rank)."""
        return self._tells

    @property
    def revealed(self) -> Sequence[tuple[int, int, str]]:
        """Cards shown by challenges this deal: (seat, mask, why)."""
        return self._revealed

    @property
    def rebuys(self) -> Sequence[int]:
        """By seat: how often it bought back in (``rebuy``; partners alike)."""
        return self._rebuys

    @property
    def pot(self) -> int:
        """The pot in cents (``pot``): every player's stake at the start and at each
        buy-in; 0 without a pot."""
        return self._rules.pot_cents * (self._n + sum(self._rebuys))

    def pot_balances(self) -> tuple[int, ...]:
        """By seat, in cents: what the finished session's pot won minus what was put in
        (:func:`~toepen.engine.settle.pot_balances`); they sum to zero."""
        return pot_balances(self._rules.pot_cents, self._rebuys, self._team_of, self._winner)

    @property
    def rebuy_lives(self) -> int:
        """The lives a buy-in comes back with during the ``rebuy`` round (else 0)."""
        return self._rebuy_lives if self._phase is _P_REBUY else 0

    @property
    def sudden_death(self) -> bool:
        return self._sudden_death

    @property
    def seed(self) -> int | None:
        """The seed the decks are drawn from (None: decks given or supplied)."""
        return self._seed

    @property
    def stock_size(self) -> int:
        """Cards left in the stock (0 while a deal awaits a deck)."""
        return 32 - self._stock_pos if self._phase is not _P_DEAL else 0

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats whose decision is awaited (empty when dealing or over): the seat to
        act; under ``knock_anytime`` during the play also, in seat order from its left,
        every other seat that may knock now."""
        turn = self._turn
        if turn < 0:
            return ()
        if self._anytime and self._phase is _P_PLAY:
            return (turn, *self.knockers())
        return (turn,)

    def knockers(self) -> tuple[int, ...]:
        """``knock_anytime``: the seats besides the one to play that may knock now, in seat
        order from its left (empty outside the play or without the option)."""
        turn = self._turn
        if not self._anytime or self._phase is not _P_PLAY:
            return ()
        return tuple(s for s in self._order_from((turn + 1) % self._n, self._active)
                     if s != turn and self._knock_refusal(s) is None)

    @property
    def is_over(self) -> bool:
        return self._phase is _P_OVER

    def lives(self, seat: int) -> int:
        """A seat's lives (for teams: its pair's pool)."""
        return self._pools[self._team_of[seat]]

    def lives_by_seat(self) -> list[int]:
        return [self._pools[t] for t in self._team_of]

    def partner(self, seat: int) -> int | None:
        return (seat + self._n // 2) % self._n if self._teams else None

    # -- hidden facts: omniscient readers only (observe, records, trainers, tests) -------

    def hand_mask(self, seat: int) -> int:
        """The cards ``seat`` holds, as a mask (hidden from the other seats)."""
        return self._hands[seat]

    def hand_masks(self) -> list[int]:
        """Every seat's hand as a mask (a copy)."""
        return list(self._hands)

    def current_deck(self) -> list[int]:
        """The deck of the current deal in dealing order (a copy; empty before one)."""
        return list(self._deck)

    def stock(self) -> list[int]:
        """The cards still in the stock, in drawing order."""
        return self._deck[self._stock_pos:]

    def out_mask(self) -> int:
        """Cards out of play face down this deal (folded hands, exchanged discards)."""
        return self._out

    def dealt_decks(self) -> list[list[int]]:
        """Every deck dealt so far, in order (copies)."""
        return [list(d) for d in self._decks]

    def opening_events(self, seat: int | None = None, *, omniscient: bool = False) -> list[Event]:
        """The events of the first deal as ``seat`` may see them, for a UI to start from.

        ``omniscient``: every card of them, for a reader that sees everything.
        """
        return list(self._opening) if omniscient else redact(self._opening, seat)

    def replace_hidden(self, hands: Sequence[int], stock: Sequence[int]) -> None:
        """Rearrange the hidden cards: new hands and a new stock order (omniscient; tests
        and samplers). The same cards must stay hidden: ValueError otherwise."""
        if len(hands) != self._n:
            raise ValueError(f"hands: one per seat ({self._n}), not {len(hands)}")
        old = 0
        for h in self._hands:
            old |= h
        new = 0
        for h in hands:
            if new & h:
                raise ValueError("hands: a card is in two hands")
            new |= h
        stock_mask = sum(1 << c for c in stock)
        old_stock = sum(1 << c for c in self.stock())
        if len(stock) != len(self.stock()):
            raise ValueError("stock: not as many cards as the stock holds")
        if new | stock_mask != old | old_stock or new & stock_mask:
            raise ValueError("hands and stock must hold the same cards as before")
        self._hands = list(hands)
        if self._deck:
            self._deck = self._deck[: self._stock_pos] + list(stock)
        self._legal = None

    # -- legal actions: the hot path --------------------------------------------------------

    # The hot path: legal_actions() + apply() run millions of times for the bots. Both are
    # written flat (inlined helpers, locals) on purpose; the slow paths stay readable.

    def legal_actions(self) -> tuple[Action, ...]:
        """Legal actions of the seat to act (empty if none)."""
        legal = self._legal
        if legal is not None:
            return legal
        phase = self._phase
        if phase is _P_PLAY or phase is _P_ANSWER:
            # Inlined _knock_refusal(seat) is None: this runs for every decision of a hand.
            seat = self._turn
            stake = self._stake
            may = seat != self._knock_bar and stake < self._max_stake
            if may:
                limit = self._limit
                if limit is not _NONE:
                    lives = self._pools[self._team_of[seat]]
                    may = lives >= stake if limit is _AT_LEAST else stake < lives
                if may and not self._early and not self._any_card_played:
                    may = seat != self._leader
            if phase is _P_ANSWER:
                if self._no_fold and self._on_edge(seat):
                    legal = self._legal = _ANSWER_KNOCK_NO_FOLD if may else _STAY_ONLY
                    return legal
                legal = self._legal = _ANSWER_KNOCK if may else _ANSWER
                return legal
            hand = self._hands[seat]
            if self._led >= 0:  # the suit led stays led when its card left with a fold
                follow = hand & SUIT_MASKS[self._led]
                if follow:
                    hand = follow
            legal = (_KNOCK_PLAYS_CACHE if may else _PLAYS_CACHE).get(hand)
            if legal is None:
                legal = _knock_plays(hand) if may else _plays(hand)
        else:  # a declaration round, or nobody to act (two identity checks beat a dict)
            decl = self._decl
            if decl is not None and phase is decl.phase:
                legal = decl.options
            elif decl is not None and phase is decl.challenge_phase:
                legal = _CHALLENGE_PASS
            elif phase is _P_BLIND:
                legal = _BLIND_KNOCK if self._blind_may(self._turn) else _PASS_ONLY
            elif phase is _P_BLIND_ANSWER:
                no_fold = self._no_fold and self._on_edge(self._turn)
                legal = _STAY_ONLY if no_fold else _ANSWER
            elif phase is _P_REBUY:
                legal = _REBUY_CHOICE
            else:
                legal = ()
        self._legal = legal
        return legal

    def legal(self, seat: int) -> tuple[Action, ...]:
        """Legal actions of ``seat`` (empty unless it is to act; under ``knock_anytime``
        ``knock`` for another seat that may knock during the play)."""
        if seat == self._turn:
            return self.legal_actions()
        if self._anytime and seat in self.knockers():
            return _KNOCK_ONLY
        return ()

    # -- applying: the hot path -------------------------------------------------------------

    def apply(self, seat: int, act: Action | int | str) -> list[Event]:
        """Apply ``seat``'s decision; return the events. Illegal: IllegalAction, no change."""
        if type(act) is not Action:
            try:
                act = action(act)
            except ActionError as e:
                raise IllegalAction(
                    bad_action(seat, str(e))
                ) from None
        legal = self._legal or self.legal_actions()
        if seat != self._turn or act not in legal:
            if self._anytime and act is KNOCK and seat in self.knockers():
                return self._interrupt(seat)
            raise IllegalAction(self._refuse(seat, act))
        act = ACTIONS[act]  # the interned action: an equal Action(n) built elsewhere is not it
        seat = self._turn  # the seat as an int, whatever equal value came
        self._legal = None
        ev: list[Event] = []
        self._ev = ev
        self._actions.append(_MOVES[seat << 6 | act])
        phase = self._phase
        if phase is _P_PLAY:
            if act < 32:  # inlined _play(seat, act)
                self._hands[seat] &= ~(1 << act)
                led = self._led
                if led < 0:
                    led = self._led = act >> 3
                key = seat << 5 | act
                self._trick.append(_SEAT_CARD[key])
                self._plays.append(_SEAT_CARD_LED[key << 2 | led])
                played = self._played_mask = self._played_mask | (1 << seat)
                self._any_card_played = True
                ev.append(_PLAY_EVENTS[key])
                unplayed = self._active & ~played
                if not unplayed:
                    self._finish_trick()
                else:  # inlined _next_seat(seat, unplayed)
                    self._turn = self._after[unplayed << 3 | seat]
            else:
                self._knock(seat, ev)
        elif phase is _P_ANSWER:
            if act is STAY:
                self._accepted[seat] = self._stake
                ev.append(_new(Event, (_STAY, seat, self._stake, (), "", False)))
                self._next_answer()
            elif act is FOLD:
                self._fold(seat)
            else:
                self._knock(seat, ev)
        else:  # a declaration round (declare or pass, challenge or pass), or the blind one
            decl = self._decl
            if decl is not None and phase is decl.phase:
                self._declare(decl, seat, act is decl.verb)
            elif decl is not None and phase is decl.challenge_phase:
                self._challenge(decl, seat, act is CHALLENGE)
            elif phase is _P_REBUY:
                self._rebuy(seat, act is STAY)
            else:
                self._blind(seat, act)
        return ev

    def deal(self, deck: Sequence[int | str]) -> list[Event]:
        """Supply the deck a new deal waits for (phase DEAL); return the events."""
        if self._phase is not _P_DEAL:
            raise IllegalAction(Refusal("no_deal_awaited", {"phase": self._phase.value}))
        self._supplied.append(check_deck(deck))
        ev: list[Event] = []
        self._ev = ev
        self._deal(redeal=self._pending_redeal)
        self._legal = None
        self._ev = []
        return ev

    # -- hands and deals -----------------------------------------------------------------

    def _start_hand(self) -> None:
        self._hand_no += 1
        self._declared = [0] * len(DECLARATIONS)
        self._lives_before = list(self._pools)
        self._hand_start = len(self._actions)
        self._marks = ()
        self._deal(redeal=False)

    def _deal(self, redeal: bool) -> None:
        # A new deal: the hand starts over, but an armoede redeal keeps what the blind
        # round settled (H6): the blind stake, who accepted it and who folded to it.
        if not redeal:
            self._stake = 1
            self._accepted = [1] * self._n
            self._last_knocker = -1
            self._knock_bar = -1
        self._trick = []
        self._played_mask = 0
        self._led = -1
        self._trick_no = 0
        self._any_card_played = False
        self._trick_winners = []
        self._won_cards = 0
        self._queue = []
        self._target = -1
        self._discard = 0
        self._resume = -1
        self._out = 0
        self._tells = []
        self._plays = []
        self._revealed = []  # hands shown before a redeal are no longer held
        self._hands = [0] * self._n
        # who is dealt: everyone in the session; a redeal, those still in the hand
        members = self._active & self._in_session if redeal else self._in_session
        self._active = members if redeal else 0
        order = self._order_from((self._dealer + 1) % self._n, members)
        if not self._deal_cards(order, redeal):
            return
        self._stock_pos = 4 * len(order)
        self._active = members
        if self._blind_on and not redeal:  # one blind round a hand, on its first deal
            self._marks = (*self._marks, (len(self._actions), _P_BLIND))
            self._queue = list(order)
            self._phase = _P_BLIND
            self._turn = order[0]
            return
        if self._seen_rules:
            self._cards_seen(order)
        else:
            self._start_declarations(order)

    # -- the cards ----------------------------------------------------------------------
    #
    # The steps that read or move hidden cards: dealing (here), what the players see in
    # their cards (``_cards_seen``), who may declare (``_may_declare``), drawing for a
    # declaration (``_draw_hand``, ``_kans``) and judging a shown hand (``_judge``), in
    # :mod:`.declare`. Everything else reads public facts only, so a machine that does not
    # know the cards (the score sheet, :mod:`toepen.tally`) is this ``Game`` with these
    # steps told by the table: the one hook "the cards are not known".

    def _deal_cards(self, order: tuple[int, ...], redeal: bool) -> bool:
        """Deal the next deck to ``order`` with the deal's events; False when no deck is
        there yet (phase DEAL: :meth:`deal` supplies it)."""
        if self._supplied:
            deck = self._supplied.pop(0)
        elif self._seed is not None:
            deck = seeded_deck(self._seed, len(self._decks))
        else:
            self._phase = _P_DEAL
            self._turn = -1
            self._pending_redeal = redeal
            return False
        self._deck = deck
        self._decks.append(deck)
        m = len(order)
        hands = self._hands
        ev = self._ev
        ev.append(_new(Event, (_REDEAL if redeal else _DEAL, self._dealer, self._hand_no, (), "",
                               False)))
        blind = self._blind_on and not redeal  # one blind round a hand, on its first deal
        dealt: list[Event] = [] if blind else ev
        # Seat j of the order gets cards j, j + m, j + 2m and j + 3m of the deck.
        quarters = deck, deck[m:], deck[2 * m:], deck[3 * m:]  # the stock runs past the order
        for seat, a, b, c, d in zip(order, *quarters, strict=False):
            hand = hands[seat] = (1 << a) | (1 << b) | (1 << c) | (1 << d)
            cards = _HAND_CARDS.get(hand)
            if cards is None:
                cards = _HAND_CARDS[hand] = tuple(sorted((a, b, c, d)))
            dealt.append(_new(Event, (_HAND, seat, 4, cards, "", True)))
        if blind:
            self._dealt_ev = tuple(dealt)
        return True

    def _cards_seen(self, order: tuple[int, ...]) -> None:
        """The players look at their cards: tells, four of a kind, the declarations."""
        hands = self._hands
        ranks = self._rules.tell_ranks
        if ranks:
            for seat in order:
                for rank in ranks:
                    count = (hands[seat] & RANK_MASKS[rank]).bit_count()
                    if count >= 3:
                        self._tells.append((seat, count, rank))
                        self._ev.append(Event(_TELL, seat, count, (), TELL_WORDS[rank]))
        if self._rules.four_of_a_kind:
            for seat in order:
                if self._active >> seat & 1 and any(
                    (hands[seat] & r).bit_count() == 4 for r in RANK_MASKS
                ):
                    self._four_of_a_kind(seat)
                    return
        self._start_declarations(order)

    # -- blind knock ------------------------------------------------------------------------

    def _blind_may(self, seat: int) -> bool:
        """May ``seat`` knock blind: as a knock from 2 to 3 under the knock limit."""
        limit = self._limit
        if limit is _NONE:
            return True
        lives = self._pools[self._team_of[seat]]
        return lives >= 2 if limit is _AT_LEAST else lives >= 3

    def _blind(self, seat: int, act: Action) -> None:
        ev = self._ev
        queue = self._queue
        queue.pop(0)
        if self._phase is _P_BLIND:
            if act is KNOCK:
                self._stake = 3
                self._accepted[seat] = 3
                self._last_knocker = seat
                self._knock_bar = -1 if self._double else seat
                ev.append(_new(Event, (_KNOCK, seat, 3, (), "blind", False)))
                self._queue = list(
                    self._order_from((seat + 1) % self._n, self._active & ~(1 << seat))
                )
                self._phase = _P_BLIND_ANSWER
                self._turn = self._queue[0]
                return
            ev.append(_BLIND_PASSES[seat])
        elif act is STAY:
            self._accepted[seat] = self._stake
            ev.append(_new(Event, (_STAY, seat, self._stake, (), "", False)))
        else:
            self._fold(seat)
            return
        self._next_blind()

    def _next_blind(self) -> None:
        queue = self._queue
        active = self._active
        while queue and not active >> queue[0] & 1:
            queue.pop(0)
        if queue:
            self._turn = queue[0]
            return
        # Everyone has decided: the cards are seen.
        dealt = self._dealt_ev
        self._dealt_ev = ()
        self._ev.extend(e for e in dealt if active >> e.seat & 1)
        self._cards_seen(self._order_from((self._dealer + 1) % self._n, active))

    # -- play ---------------------------------------------------------------------------------

    def _on_edge(self, seat: int) -> bool:
        """Op scherp: folding (paying the stake last accepted) would put ``seat`` out."""
        return self._pools[self._team_of[seat]] <= self._accepted[seat]

    def _start_play(self) -> None:
        active = self._active
        self._marks = (*self._marks, (len(self._actions), _P_PLAY))
        if (self._active_sides() if self._teams else active.bit_count()) <= 1:
            self._end_hand_by_folds()
            return
        if self._pelt and self._last_knocker < 0:  # a blind knock opened the stake (H6)
            for seat in self._order_from((self._dealer + 1) % self._n, active):
                if self._pools[self._team_of[seat]] == 1:
                    self._stake = 2
                    self._accepted[seat] = 2
                    self._last_knocker = seat
                    self._knock_bar = -1 if self._double else seat
                    self._leader = seat
                    self._resume = seat
                    self._ev.append(_new(Event, (_PELT, seat, 2, (), "", False)))
                    self._queue = list(
                        self._order_from((seat + 1) % self._n, active & ~(1 << seat))
                    )
                    self._phase = _P_ANSWER
                    self._turn = self._queue[0]
                    return
        self._leader = self._next_seat(self._dealer, active)
        self._phase = _P_PLAY
        self._turn = self._leader

    def _knock(self, seat: int, ev: list[Event]) -> None:
        stake = self._stake = self._stake + 1
        self._accepted[seat] = stake
        self._last_knocker = self._knock_bar = seat
        if self._double:
            self._knock_bar = -1
        ev.append(_new(Event, (_KNOCK, seat, stake, (), "", False)))
        if self._phase is _P_PLAY:
            self._resume = seat
        self._queue = list(self._order_from((seat + 1) % self._n, self._active & ~(1 << seat)))
        self._phase = _P_ANSWER
        self._turn = self._queue[0]

    def _interrupt(self, seat: int) -> list[Event]:
        """``knock_anytime``: ``seat`` knocks out of turn; the answers start at its left
        and the play resumes with the seat whose turn it was."""
        resume = self._turn
        self._legal = None
        ev: list[Event] = []
        self._ev = ev
        self._actions.append(_MOVES[seat << 6 | KNOCK])
        self._knock(seat, ev)
        self._resume = resume
        return ev

    def _next_answer(self) -> None:
        queue = self._queue
        queue.pop(0)
        active = self._active
        while queue and not active >> queue[0] & 1:
            queue.pop(0)
        if queue:
            self._turn = queue[0]
        else:
            self._resume_play()

    def _resume_play(self) -> None:
        active = self._active
        if active & ~self._played_mask == 0:
            self._finish_trick()
            return
        seat = self._resume
        unplayed = active & ~self._played_mask
        if not unplayed >> seat & 1:
            seat = self._after[unplayed << 3 | seat]
        if not self._trick:
            self._leader = seat
        self._phase = _P_PLAY
        self._turn = seat

    def _fold(self, seat: int) -> None:
        ev = self._ev
        paid = self._accepted[seat]
        if self._dead:  # voor dood (H2): the fold costs at most what is left
            paid = min(paid, max(self._pools[self._team_of[seat]], 0))
        ev.append(_new(Event, (_FOLD, seat, paid, (), "", False)))
        self._leave_hand(seat)
        self._hands_lost[seat] += 1
        self._lose(seat, paid, "fold")
        phase = self._phase
        if phase is _P_OVER:
            return
        if phase is not _P_ANSWER and phase is not _P_BLIND_ANSWER:
            return
        if self._active_sides() <= 1:
            self._end_hand_by_folds()
            return
        if phase is _P_BLIND_ANSWER:
            self._next_blind()
            return
        self._next_answer()

    def _finish_trick(self) -> None:
        trick = self._trick
        led = self._led
        best_seat = -1
        best = 99
        won = self._won_cards
        for seat, card in trick:
            won |= 1 << card
            if card >> 3 == led and card < best:
                best = card
                best_seat = seat
        self._won_cards = won
        if best_seat < 0:
            best_seat, best = trick[0]
        trick_no = self._trick_no = self._trick_no + 1
        self._trick_winners.append(best_seat)
        self._ev.append(_TRICK_EVENTS[best_seat << 2 | trick_no - 1])
        self._trick = []
        self._played_mask = 0
        self._led = -1
        if trick_no == 4:
            self._settle(best_seat, best)
            return
        self._leader = best_seat
        self._phase = _P_PLAY
        self._turn = best_seat

    # -- whole-game helpers ------------------------------------------------------------------------

    def card_accounting(self) -> int:
        """Union of every place a card can be; the 32 cards exactly when consistent.

        Raises AssertionError if two places hold the same card.
        """
        places = [
            *self._hands,
            self._out,
            self._won_cards,
            sum(1 << c for _, c in self._trick),
        ]
        if self._deck:
            stock = 0
            for c in self._deck[self._stock_pos:]:
                stock |= 1 << c
            places.append(stock)
        total = 0
        for p in places:
            if total & p:
                dup = card_str((total & p).bit_length() - 1)
                raise AssertionError(f"card in two places: {dup}")
            total |= p
        return total

    def check_invariants(self) -> None:
        """Assert the 32 cards are exactly accounted for (after the first deal)."""
        if self._deck and self._phase is not _P_DEAL:
            assert self.card_accounting() == FULL_MASK, "cards lost or invented"

    # -- reading a position ------------------------------------------------------------------------

    def __repr__(self) -> str:
        to_act = f"seat {self._turn} to act" if self._turn >= 0 else "nobody to act"
        return (
            f"<Game {self._rules.name} {self._n} players: hand {self._hand_no}, "
            f"{self._phase}, {to_act}, stake {self._stake}>"
        )

    def _seat_name(self, seat: int) -> str:
        """A seat as :meth:`__str__` names it: the player's name, then the seat number of
        the rows below (seat numbers start at 0; a player's name may be "Player 2")."""
        return f"{self._players[seat]} (seat {seat})"

    def __str__(self) -> str:
        """The position, every hand shown (like a board print); a seat named in the
        header is named by its player, with the seat number the rows start with."""
        rules = self._rules
        lines = [
            f"{rules.name}: {self._n} players, {rules.lives} lives, session {rules.session}, "
            f"last trick {rules.last_trick}" + (", teams" if self._teams else ""),
            f"hand {self._hand_no}, "
            + (f"trick {self._trick_no + 1}, " if self._phase in _PLAYING else "")
            + f"phase {self._phase}, stake {self._stake}, "
            + (f"{self._seat_name(self._turn)} to act" if self._turn >= 0 else "nobody to act")
            + (f", winner {self._seat_name(self._winner)}" if self._winner is not None else ""),
        ]
        width = max(len(p) for p in self._players)
        for s in range(self._n):
            marks = []
            if s == self._dealer:
                marks.append("dealer")
            if s == self._turn:
                marks.append("to act")
            if s == self._last_knocker:
                marks.append("knocked")
            if not self._in_session >> s & 1:
                marks.append("out of the session")
            elif not self._active >> s & 1:
                marks.append("folded")
            hand = cards_str(self._hands[s]) or "-"
            lines.append(
                f"  {s} {self._players[s]:<{width}}  lives {self.lives(s):>2}  "
                f"{hand:<11}  {', '.join(marks)}".rstrip()
            )
        if self._trick or self._led >= 0:
            played = ", ".join(f"{s}:{card_str(c)}" for s, c in self._trick)
            lines.append(f"trick: {played or '-'}; led {SUITS[self._led]}")
        if self._deck and self._phase is not _P_DEAL:
            lines.append(f"stock: {32 - self._stock_pos} cards")
        return "\n".join(lines)


_COPIED_SLOTS = frozenset((
    "_pools", "_eliminated", "_hands", "_accepted", "_trick", "_trick_winners", "_plays",
    "_queue", "_round_queue", "_decks", "_supplied", "_actions", "_lives_before", "_drinks",
    "_beers", "_rubbers_won", "_streak", "_toepkoning", "_lives_lost", "_hands_won",
    "_hands_lost", "_tells", "_revealed", "_declared",
))
"""The list fields a clone copies (the rest are immutable or shared read-only)."""
_SHARED_SLOTS = tuple(n for n in GameCore.__slots__ if n not in _COPIED_SLOTS and n != "_ev")


_copy_shared = slot_copier(_SHARED_SLOTS)
