"""The state a :class:`~toepen.engine.state.Game` is made of, and seat-order helpers.

:class:`GameCore` declares every field of a game (its ``__slots__`` are all of them)
and the few helpers that the parts of the machine share: seat order, sides, a seat
leaving the hand. The parts are mixins over it: :mod:`.declare` (armoede and
exchange rounds), :mod:`.settle` (lives, hands, rubbers, the session), and
:mod:`.state` (dealing, the hot path of play and knocks, the public API).

Fields whose name starts with ``_`` are hidden from the players (hands, the deck, the
discard) or internal to the machine; ``Game`` shows the public ones as read-only
properties and the hidden ones through explicit omniscient methods.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

from ..rules import Rules
from .actions import Action
from .events import Event
from .phase import Phase

__all__ = ["GameCore", "slot_copier"]


def slot_copier(names: Iterable[str], lists: Collection[str] = ()) -> Callable[[Any, Any], None]:
    """A function ``copy(g, s)`` that assigns every slot of ``names`` from ``s`` to ``g`` in
    a straight line, those in ``lists`` copied (``list(s.name)``, the rest shared): a loop
    of getattr and setattr costs twice as much, and a clone is made for every searched
    position. The names are a class's ``__slots__``, refused unless identifiers.

    >>> class P:
    ...     __slots__ = ("_a", "_b")
    >>> s, g = P(), P()
    >>> s._a, s._b = 1, [2]
    >>> slot_copier(P.__slots__, {"_b"})(g, s)
    >>> g._a, g._b, g._b is s._b
    (1, [2], False)
    """
    names = tuple(names)
    bad = [n for n in names if not n.isidentifier()]
    if bad:
        raise ValueError(f"slot names must be identifiers, not {bad!r}")
    lines = "".join(f"    g.{n} = list(s.{n})\n" if n in lists else f"    g.{n} = s.{n}\n"
                    for n in names)
    namespace: dict[str, Any] = {}
    exec(f"def copy(g, s):\n{lines or '    pass'}\n", namespace)  # noqa: S102 - identifiers only
    copier: Callable[[Any, Any], None] = namespace["copy"]
    return copier



def after_table(n: int) -> tuple[int, ...]:
    """For a table of ``n``: index ``mask << 3 | seat`` gives the first seat of ``mask``
    clockwise after ``seat`` (-1 if none). One lookup where a loop of modulos ran for
    every card played.

    >>> t = after_table(4)
    >>> t[0b1010 << 3 | 1], t[0b1010 << 3 | 3], t[0b0001 << 3 | 0], t[0 << 3 | 2]
    (3, 1, 0, -1)
    """
    table = _AFTER.get(n)
    if table is None:
        out = []
        for mask in range(1 << n):
            for seat in range(8):
                nxt = -1
                for i in range(1, n + 1):
                    if mask >> (seat + i) % n & 1:
                        nxt = (seat + i) % n
                        break
                out.append(nxt)
        table = _AFTER[n] = tuple(out)
    return table


_AFTER: dict[int, tuple[int, ...]] = {}


def order_table(n: int) -> tuple[tuple[int, ...], ...]:
    """For a table of ``n``: index ``mask << 3 | start`` gives the seats of ``mask``
    clockwise from ``start`` inclusive.

    >>> order_table(4)[0b1011 << 3 | 1]
    (1, 3, 0)
    """
    table = _ORDERS.get(n)
    if table is None:
        table = _ORDERS[n] = tuple(
            tuple(s for s in ((start + i) % n for i in range(n)) if mask >> s & 1)
            for mask in range(1 << n) for start in range(8)
        )
    return table


_ORDERS: dict[int, tuple[tuple[int, ...], ...]] = {}


class GameCore:
    """Every field of a game, and helpers over seats. Not used on its own."""

    __slots__ = (
        "_rules", "_n", "_players", "_team_of", "_pools", "_in_session", "_eliminated",
        "_active", "_hands", "_out", "_phase", "_turn", "_dealer", "_first_dealer",
        "_hand_no", "_stake", "_accepted", "_last_knocker", "_leader", "_trick",
        "_played_mask", "_led", "_trick_no", "_any_card_played", "_trick_winners",
        "_won_cards", "_queue", "_declared", "_target", "_discard", "_resume", "_deck",
        "_stock_pos", "_decks", "_supplied", "_seed", "_actions", "_hand_start",
        "_lives_before", "_rubber_no", "_drinks", "_beers", "_rubbers_won", "_streak",
        "_toepkoning", "_winner", "_lives_lost", "_hands_won", "_hands_lost", "_tells",
        "_revealed", "_sudden_death", "_plays", "_hands_played", "_legal", "_teams",
        "_max_stake", "_limit", "_early", "_ev", "_pending_redeal", "_round_queue",
        "_opening", "_rounds", "_round", "_decl", "_checkers", "_knock_bar", "_dealt_ev",
        "_next_dealer", "_marks", "_no_fold", "_double", "_anytime", "_blind_on", "_dead",
        "_jack", "_each", "_seen_rules", "_after", "_loses", "_beer", "_elim", "_rubber",
        "_pelt", "_dealer_rule", "_orders", "_out_hands", "_rebuys", "_rebuy_limit",
        "_rebuy_lives", "_rebuy_last",
    )

    # -- the table and the session (public) --
    _rules: Rules
    _n: int
    _players: tuple[str, ...]
    _team_of: tuple[int, ...]
    _teams: bool
    _pools: list[int]  # lives by side (a seat, or a pair of partners)
    _in_session: int  # mask of seats still in the session
    _eliminated: list[int]
    _out_hands: tuple[int, ...]  # by entry of _eliminated: the hand it went out in
    _dealer: int
    _first_dealer: int
    _hand_no: int
    _lives_before: list[int]  # pools at the start of the current hand
    _rubber_no: int
    _drinks: list[int]
    _beers: list[int]
    _rubbers_won: list[int]
    _streak: list[int]
    _toepkoning: list[int]
    _winner: int | None
    _lives_lost: list[int]
    _hands_won: list[int]
    _hands_lost: list[int]
    _hands_played: int
    _rebuys: list[int]  # by seat: how often it bought back in (rebuy)
    _rebuy_limit: int  # buy-ins one seat may make: 0 (rebuy off), 1 (once), or 1 << 30
    _rebuy_lives: int  # the rebuy round: the lives a buy-in comes back with
    _rebuy_last: int  # the rebuy round: the seat the hand ended with (the next dealer's rule)
    _sudden_death: bool
    _actions: list[tuple[int, Action]]
    _hand_start: int  # index in _actions where the current hand began
    _seed: int | None
    # -- the hand (public) --
    _phase: Phase
    _turn: int
    _active: int  # mask of seats still in the hand
    _stake: int
    _accepted: list[int]  # the stake each seat has accepted
    _last_knocker: int
    _leader: int
    _trick: list[tuple[int, int]]
    _played_mask: int  # seats that played to the current trick
    _led: int  # suit led, -1 before the first card of a trick
    _trick_no: int
    _any_card_played: bool
    _trick_winners: list[int]
    _won_cards: int  # cards of finished tricks
    _plays: list[tuple[int, int, int]]  # (seat, card, led suit) of the hand
    _tells: list[tuple[int, int, int]]
    _revealed: list[tuple[int, int, str]]
    _declared: list[int]  # per declaration (armoede, exchange): mask of seats that did
    _target: int  # the seat the current challenge round is about
    # -- hidden --
    _hands: list[int]
    _out: int  # cards out of play face down (folded hands, discards)
    _discard: int  # the latest exchanger's discard
    _deck: list[int]
    _stock_pos: int
    _decks: list[list[int]]
    _supplied: list[list[int]]  # decks given in advance, not yet dealt
    _opening: list[Event]
    # -- the machine --
    _queue: list[int]  # seats still to decide in the current round, the next first
    _round_queue: list[int]  # the declaration round's queue, kept during a challenge
    _resume: int  # who plays on after a knock round
    _legal: tuple[Action, ...] | None
    _max_stake: int
    _limit: str
    _early: bool
    _ev: list[Event]  # the events of the action being applied
    _pending_redeal: bool
    _checkers: int  # laundry_check each: seats that checked the pending declaration
    _knock_bar: int  # the seat barred from knocking (the latest knocker; -1: double_knock)
    _dealt_ev: tuple[Event, ...]  # blind_knock: the deal's HAND events, told once seen
    _marks: tuple[tuple[int, Phase], ...]  # (index in _actions, phase) where each round of
    # this hand began: the blind round, each declaration round, the play
    # the house rules, read once from the rules (the hot path reads a slot, not an option)
    _no_fold: bool  # edge: no_fold
    _double: bool  # double_knock
    _anytime: bool  # knock_anytime
    _blind_on: bool  # blind_knock
    _dead: bool  # edge: plays_dead
    _jack: str  # jack_last_trick, "" when off
    _each: tuple[bool, ...]  # by declaration index: every opponent may check (laundry_check)
    _seen_rules: bool  # a rule acts when the cards are first seen (tells, four of a kind)
    _after: tuple[int, ...]  # after_table(n): the next seat of a mask after a seat
    _orders: tuple[tuple[int, ...], ...]  # order_table(n): a mask's seats from a start
    # more options read once (each is read at every hand or payment)
    _loses: bool  # last_trick: loses
    _beer: bool  # beer_tally
    _elim: bool  # session: elimination
    _rubber: bool  # session: rubber
    _pelt: bool  # pelt
    _dealer_rule: str  # dealer
    _next_dealer: int  # who deals the next hand when a rule names one (four of a kind), else -1

    # -- seats --------------------------------------------------------------------------

    def _order_from(self, start: int, mask: int) -> tuple[int, ...]:
        """Seats of ``mask`` clockwise, starting at ``start`` inclusive."""
        return self._orders[mask << 3 | start]

    def _next_seat(self, seat: int, mask: int) -> int:
        """The first seat of ``mask`` clockwise after ``seat`` (-1 if none)."""
        return self._after[mask << 3 | seat]

    def _opponents_mask(self, seat: int) -> int:
        if self._teams:
            t = self._team_of[seat]
            m = self._active
            for s in range(self._n):
                if self._team_of[s] == t:
                    m &= ~(1 << s)
            return m
        return self._active & ~(1 << seat)

    def _active_sides(self) -> int:
        """How many players (teams: pairs) are still active in the hand."""
        if self._teams:
            return len({self._team_of[s] for s in range(self._n) if self._active >> s & 1})
        return self._active.bit_count()

    def _leave_hand(self, seat: int) -> None:
        """``seat``'s cards leave play (fold or elimination)."""
        bit = 1 << seat
        if not self._active & bit:
            return
        self._active &= ~bit
        self._out |= self._hands[seat]
        self._hands[seat] = 0
        if self._played_mask & bit:
            self._played_mask &= ~bit
            for i, (s, card) in enumerate(self._trick):
                if s == seat:
                    del self._trick[i]
                    self._out |= 1 << card
                    break

    # -- steps one part of the machine takes into another (defined by the parts) --------

    def _deal(self, redeal: bool) -> None:
        """Deal the next deck, or wait for one (phase DEAL). In :mod:`.state`."""
        raise NotImplementedError

    def _start_hand(self) -> None:
        """Begin the next hand: count it and deal. In :mod:`.state`."""
        raise NotImplementedError

    def _start_play(self) -> None:
        """The declarations are over: pelt, or the first lead. In :mod:`.state`."""
        raise NotImplementedError

    def legal_actions(self) -> tuple[Action, ...]:
        """Legal actions of the seat to act. In :mod:`.state`."""
        raise NotImplementedError

    def legal(self, seat: int) -> tuple[Action, ...]:
        """Legal actions of ``seat``. In :mod:`.state`."""
        raise NotImplementedError

    def _lose(self, seat: int, amount: int, reason: str) -> None:
        """``seat``'s side loses ``amount`` lives. In :mod:`.settle`."""
        raise NotImplementedError

    def _four_of_a_kind(self, seat: int) -> None:
        """``seat`` holds four of a rank: it shows them and wins the hand. In :mod:`.settle`."""
        raise NotImplementedError
