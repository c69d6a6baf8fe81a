"""Settlement: what a hand costs, lives and elimination, rubbers and the session's end.

A mixin of ``Game`` (see :mod:`.core`): a hand is settled when its last trick is taken
(:meth:`Settlement._settle`) or when all sides but one have folded; losing lives may
eliminate a side and end the session; under rubbers, a rubber ends when a side runs out
of lives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import JACK, RANK_MASKS
from .core import GameCore
from .events import Event, EventKind
from .phase import Phase

__all__ = ["DECIDERS", "Place", "Settlement", "finishing_order", "pot_balances"]

DECIDERS = ("out", "lives", "drinks", "rubbers", "seat")
"""What may put a side above the next one in the finishing order (:attr:`Place.by`)."""


@dataclass(frozen=True, slots=True)
class Place:
    """One side's place in the finishing order, with the figures that decided it.

    A side is one seat, or in teams the pair (its seats share the place).
    """

    place: int
    """1 = the winner; the next side 2, and so on."""
    seats: tuple[int, ...]
    """The side's seats, lowest first."""
    by: str
    """What put this side above the next one (one of :data:`DECIDERS`); ``""`` for the
    last side. ``out``: it went out later (or is still in); ``lives``: more lives left;
    ``drinks``: fewer rounds owed; ``rubbers``: more rubbers won; ``seat``: level on
    everything, the lower seat goes first."""
    lives: int
    """The side's lives now (its pool); under rubbers, the lives of the rubber being
    played (after the last rubber: the lives every rubber starts with)."""
    out: int
    """Elimination: the side was the ``out``-th to go out (1 = the first); 0 while in."""
    out_hand: int
    """Elimination: the number of the hand it went out in; 0 while in."""
    drinks: int
    """Rubbers: the rounds of drinks the side owes (partners owe alike)."""
    rubbers_won: int

    @property
    def seat(self) -> int:
        """The side's lowest seat (the seat that stands for a pair)."""
        return self.seats[0]

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "seats": list(self.seats), "by": self.by,
                "lives": self.lives, "out": self.out, "out_hand": self.out_hand,
                "drinks": self.drinks, "rubbers_won": self.rubbers_won}

    @classmethod
    def from_json(cls, data: Any) -> Place:
        """The inverse of :meth:`to_json`; ValueError naming the field that is wrong."""
        if not isinstance(data, dict):
            raise ValueError("a place is an object")
        ints = ("place", "lives", "out", "out_hand", "drinks", "rubbers_won")
        for name in ints:
            v = data.get(name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise ValueError(f"{name}: must be an integer, not {v!r}")
        seats = data.get("seats")
        if not isinstance(seats, list) or not seats or not all(
                isinstance(x, int) and not isinstance(x, bool) for x in seats):
            raise ValueError(f"seats: must be a list of seats, not {seats!r}")
        by = data.get("by")
        if by != "" and by not in DECIDERS:
            raise ValueError(f"by: must be one of {', '.join(DECIDERS)} or '', not {by!r}")
        return cls(data["place"], tuple(seats), by, data["lives"], data["out"],
                   data["out_hand"], data["drinks"], data["rubbers_won"])


def finishing_order(
    *,
    rubber: bool,
    team_of: Sequence[int],
    pools: Sequence[int],
    in_session: int,
    eliminated: Sequence[int],
    out_hands: Sequence[int],
    drinks: Sequence[int],
    rubbers_won: Sequence[int],
    winner: int | None,
) -> tuple[Place, ...]:
    """The finishing order of a session, finished or not, best side first: the one
    function behind every standings, rating, club result and arena score.

    - **Elimination** (rules.md, "Lives, elimination and the winner"): the winner
      first, then the sides still in by most lives left, then those out from the last
      one out to the first (the order out: sides out in the same hand in the order the
      engine took them out, i.e. the order of payment), the lower seat last of all.
    - **Rubbers** (D16): the fewest rounds of drinks, then the most rubbers won, then
      (a session still being played: an open-ended one, or one stopped) the most lives
      in the rubber being played, then the lower seat. A finished session's winner is
      first by the same rule, since every rubber starts with the same lives.
    - **Teams**: a pair is one side; its seats share the place.

    >>> [(p.place, p.seats, p.by) for p in finishing_order(rubber=True, team_of=(0, 1, 2),
    ...  pools=(10, 10, 10), in_session=7, eliminated=(), out_hands=(), drinks=(1, 0, 1),
    ...  rubbers_won=(1, 1, 1), winner=1)]
    [(1, (1,), 'drinks'), (2, (0,), 'seat'), (3, (2,), '')]
    >>> [(p.place, p.seats, p.by, p.out_hand) for p in finishing_order(rubber=False,
    ...  team_of=(0, 1, 2), pools=(3, 0, -1), in_session=1, eliminated=(2, 1),
    ...  out_hands=(4, 9), drinks=(0, 0, 0), rubbers_won=(0, 0, 0), winner=0)]
    [(1, (0,), 'out', 0), (2, (1,), 'out', 9), (3, (2,), '', 4)]
    """
    sides: dict[int, list[int]] = {}
    for s, t in enumerate(team_of):
        sides.setdefault(t, []).append(s)
    win_side = team_of[winner] if winner is not None else -1
    gone: dict[int, tuple[int, int]] = {}  # side -> (rank out, hand), the latest entry
    rank = 0
    for i, s in enumerate(eliminated):
        t = team_of[s]
        if t not in gone or gone[t][0] != rank:
            rank += 1
        gone[t] = (rank, out_hands[i] if i < len(out_hands) else 0)
    keys: dict[int, tuple[int, ...]] = {}
    for t, seats in sides.items():
        low = seats[0]
        side_in = any(in_session >> s & 1 for s in seats) or t == win_side
        if rubber:
            keys[t] = (0, drinks[low], -rubbers_won[low], -pools[t], low)
        elif side_in or t not in gone:
            keys[t] = (0 if t == win_side else 1, 0, 0, -pools[t], low)
        else:
            keys[t] = (2, 0, 0, -gone[t][0], low)
    ordered = sorted(sides, key=lambda t: keys[t])
    out: list[Place] = []
    for place, t in enumerate(ordered, 1):
        by = ""
        if place < len(ordered):
            a, b = keys[t], keys[ordered[place]]
            i = next(i for i in range(5) if a[i] != b[i])
            if i == 3:
                by = "out" if a[0] == 2 else "lives"
            else:
                by = ("out", "drinks", "rubbers", "lives", "seat")[i]
        side = tuple(sides[t])
        low = side[0]
        rank_out, hand = gone.get(t, (0, 0)) if not rubber else (0, 0)
        if t == win_side or any(in_session >> s & 1 for s in side):
            rank_out, hand = 0, 0
        out.append(Place(place, side, by, pools[t], rank_out, hand, drinks[low],
                         rubbers_won[low]))
    return tuple(out)

def pot_balances(
    pot_cents: int, rebuys: Sequence[int], team_of: Sequence[int], winner: int | None,
) -> tuple[int, ...]:
    """By seat, in cents: what a finished session's pot won minus what each put in
    (rules.md, "Pot toepen"). Every player puts in ``pot_cents`` at the start and at
    each buy-in; the winner takes the pot, a pair shares it (an odd cent to the lower
    seat). The balances sum to zero; all zero with no pot; ValueError while the session
    has no winner.

    >>> pot_balances(100, (0, 1, 0), (0, 1, 2), 1)
    (-100, 200, -100)
    >>> pot_balances(5, (0, 0, 0, 0), (0, 1, 0, 1), 0)
    (5, -5, 5, -5)
    >>> pot_balances(25, (1, 0, 1, 0), (0, 1, 0, 1), 1)
    (-50, 50, -50, 50)
    """
    if winner is None:
        raise ValueError("the session has no winner yet: the pot is not taken")
    paid = [pot_cents * (1 + r) for r in rebuys]
    pot = sum(paid)
    side = [s for s, t in enumerate(team_of) if t == team_of[winner]]
    share, odd = divmod(pot, len(side))
    won = [0] * len(paid)
    for i, s in enumerate(side):
        won[s] = share + (odd if i == 0 else 0)
    return tuple(w - p for w, p in zip(won, paid, strict=True))


_new = tuple.__new__  # Event(...) without the NamedTuple keyword layer
_E = EventKind
_LIVES, _ELIM, _HAND_RES = _E.LIVES, _E.ELIMINATED, _E.HAND_RESULT
_OVER, _DEAL = Phase.OVER, Phase.DEAL
_JACK_EV, _LIFE_BACK, _FOUR = _E.JACK, _E.LIFE_BACK, _E.FOUR_OF_A_KIND
_REBUY, _PASS = Phase.REBUY, _E.PASS
_SETTLING = frozenset({"stake", "four_of_a_kind"})  # LIVES paid after the HAND_RESULT


class Settlement(GameCore):
    """Lives, hand results, elimination, rubbers and the session's end."""

    __slots__ = ()

    def places(self) -> tuple[Place, ...]:
        """The session's finishing order as it stands (:func:`finishing_order`)."""
        return finishing_order(
            rubber=self._rubber, team_of=self._team_of, pools=self._pools,
            in_session=self._in_session, eliminated=self._eliminated,
            out_hands=self._out_hands, drinks=self._drinks, rubbers_won=self._rubbers_won,
            winner=self._winner)

    def _settle(self, last: int, card: int = -1) -> None:
        """The last trick went to ``last`` (with ``card``): the hand's stake is paid."""
        stake = self._stake
        rules = self._rules
        self._hands_played += 1
        self._ev.append(_new(Event, (_HAND_RES, last, stake, (), rules.last_trick, False)))
        jack = self._jack
        if jack and card >= 0 and card & 7 == JACK:
            self._ev.append(_new(Event, (_JACK_EV, last, 0, (card,), jack, False)))
            if jack == "others_pay_more":
                stake += 1
            else:
                team = self._team_of[last]
                if self._pools[team] < rules.lives:
                    self._pools[team] += 1
                    self._ev.append(_new(Event, (_LIFE_BACK, last, 1, (), "jack", False)))
        if self._loses:
            self._hands_lost[last] += 1
            for s in range(self._n):
                if self._active >> s & 1 and s != last:
                    self._hands_won[s] += 1
            self._lose(last, stake, "stake")
        else:
            self._hands_won[last] += 1
            paid_teams: set[int] = set()
            team_of = self._team_of
            win_team = team_of[last]
            for s in self._order_from((last + 1) % self._n, self._active):
                t = team_of[s]
                if t == win_team:
                    continue
                self._hands_lost[s] += 1
                if t in paid_teams:
                    continue
                paid_teams.add(t)
                self._lose(s, stake, "stake")
        if self._phase is not _OVER:
            self._end_hand(last)

    def _end_hand_by_folds(self) -> None:
        """All sides but one folded: the hand ends without a payment by the rest."""
        lone = self._next_seat(self._dealer, self._active)
        for s in range(self._n):
            if self._active >> s & 1:
                self._hands_won[s] += 1
        self._hands_played += 1
        self._ev.append(_new(Event, (_HAND_RES, lone, self._stake, (), "folded", False)))
        self._end_hand(lone)

    def _four_of_a_kind(self, seat: int) -> None:
        """``seat`` shows four of a rank: it wins the hand, every other side pays the
        penalty, and it deals the next hand."""
        hand = self._hands[seat]
        shown = next(hand & m for m in RANK_MASKS if (hand & m).bit_count() == 4)
        penalty = self._rules.four_of_a_kind_penalty
        cards = tuple(c for c in range(32) if shown >> c & 1)
        ev = self._ev
        ev.append(_new(Event, (_FOUR, seat, penalty, cards, "", False)))
        self._hands_played += 1
        self._hands_won[seat] += 1
        ev.append(_new(Event, (_HAND_RES, seat, self._stake, (), "four_of_a_kind", False)))
        team_of = self._team_of
        paid: set[int] = {team_of[seat]}
        for s in self._order_from((seat + 1) % self._n, self._active):
            t = team_of[s]
            if t in paid:
                continue
            paid.add(t)
            self._hands_lost[s] += 1
            self._lose(s, penalty, "four_of_a_kind")
        if self._phase is not _OVER:
            self._next_dealer = seat
            self._end_hand(seat)

    def _lose(self, seat: int, amount: int, reason: str) -> None:
        team = self._team_of[seat]
        if self._dead:  # voor dood (H2): never more than is left, nothing below 0
            amount = min(amount, max(self._pools[team], 0))
            if amount <= 0:
                return
        self._pools[team] -= amount
        self._lives_lost[seat] += amount
        if self._beer:
            self._beers[seat] += amount
        self._ev.append(_new(Event, (_LIVES, seat, amount, (), reason, False)))
        if self._pools[team] <= 0 and self._elim:
            for s in range(self._n):
                if self._team_of[s] == team and self._in_session >> s & 1:
                    self._leave_hand(s)
                    self._in_session &= ~(1 << s)
                    self._eliminated.append(s)
                    self._out_hands += (self._hand_no,)
                    self._ev.append(_new(Event, (_ELIM, s, 0, (), "", False)))
            self._check_session_over(reason)

    def _sides_in_session(self) -> set[int]:
        return {self._team_of[s] for s in range(self._n) if self._in_session >> s & 1}

    def _check_session_over(self, reason: str) -> None:
        """After a side went out by losing lives for ``reason`` (a :attr:`EventKind.LIVES`
        detail): the session is over when one side is left (or a tie is broken)."""
        sides = self._sides_in_session()
        if len(sides) >= 2:
            return
        if len(sides) == 1:
            (team,) = sides
            winner = min(s for s in range(self._n) if self._team_of[s] == team)
            if reason not in _SETTLING:
                self._end_hand_early(team, reason)
            self._finish_session(winner)
            return
        self._break_tie()

    def _end_hand_early(self, team: int, reason: str) -> None:
        """A fold or a penalty (``reason``) put the last but one side out before the hand
        could be settled: the hand ends all the same, with its result: the side left takes
        it (its first seat clockwise from the dealer still in the hand), as when all the
        others fold (:meth:`_end_hand_by_folds`); detail ``folded`` after a fold,
        ``last_left`` after a penalty (an armoede, exchange or laundry challenge)."""
        side = 0
        for s in range(self._n):
            if self._team_of[s] == team:
                side |= 1 << s
        active = self._active & side or side & self._in_session
        for s in range(self._n):
            if active >> s & 1:
                self._hands_won[s] += 1
        self._hands_played += 1
        lone = self._next_seat(self._dealer, active)
        detail = "folded" if reason == "fold" else "last_left"
        self._ev.append(_new(Event, (_HAND_RES, lone, self._stake, (), detail, False)))

    def _break_tie(self) -> None:
        """Everyone left was eliminated in the same hand: most lives before it wins."""
        last_in = {self._team_of[s] for s in self.eliminated_this_hand()}
        best = max(self._lives_before[t] for t in last_in)
        tied = sorted(t for t in last_in if self._lives_before[t] == best)
        if len(tied) == 1:
            self._finish_session(min(s for s in range(self._n) if self._team_of[s] == tied[0]))
            return
        mask = 0
        for s in range(self._n):
            if self._team_of[s] in tied:
                mask |= 1 << s
                i = self._eliminated.index(s)
                del self._eliminated[i]
                self._out_hands = self._out_hands[:i] + self._out_hands[i + 1:]
        for t in tied:
            self._pools[t] = 1
        self._in_session = mask
        self._sudden_death = True
        self._ev.append(Event(_E.SUDDEN_DEATH, -1, mask))
        self._phase = _DEAL  # the hand in progress ends; _end_hand deals the next

    def eliminated_this_hand(self) -> list[int]:
        """Seats eliminated during the current hand."""
        before = {t for t, lives in enumerate(self._lives_before) if lives > 0}
        return [s for s in self._eliminated if self._team_of[s] in before
                and self._pools[self._team_of[s]] <= 0]

    def _finish_session(self, winner: int) -> None:
        self._winner = winner
        self._phase = _OVER
        self._turn = -1
        self._queue = []
        cents = self._rules.pot_cents
        if cents:
            pot = cents * (self._n + sum(self._rebuys))
            self._ev.append(Event(_E.POT, winner, pot, (), self._rules.pot_unit))
        self._ev.append(Event(_E.SESSION_RESULT, winner))

    def _end_hand(self, last: int) -> None:
        if self._phase is _OVER:
            return
        if self._rubber and min(self._pools) <= 0:
            self._end_rubber()
            if self._phase is _OVER:
                return
        if self._rebuy_limit and self._rebuy_round(last):
            return
        self._next_deal(last)

    def _rebuy_round(self, last: int) -> bool:
        """``rebuy``: the sides put out by this hand (and still allowed a buy-in) decide,
        in seat order from the dealer's left, one seat for a pair; False when none may."""
        hand = self._hand_no
        limit = self._rebuy_limit
        out = 0
        for s, h in zip(self._eliminated, self._out_hands, strict=True):
            if h == hand and self._rebuys[s] < limit:
                out |= 1 << s
        if not out or self._sudden_death:
            return False
        team_of = self._team_of
        sides: set[int] = set()
        queue: list[int] = []
        for s in self._order_from((self._dealer + 1) % self._n, out):
            if team_of[s] not in sides:
                sides.add(team_of[s])
                queue.append(s)
        # the worst position still in, as it stands after the hand
        self._rebuy_lives = min(self._pools[team_of[s]] for s in range(self._n)
                                if self._in_session >> s & 1)
        self._rebuy_last = last
        self._marks = (*self._marks, (len(self._actions), _REBUY))
        self._queue = queue
        self._phase = _REBUY
        self._turn = queue[0]
        return True

    def _rebuy(self, seat: int, buy: bool) -> None:
        """``seat`` buys back in (its side, with the round's lives) or stays out."""
        self._queue.pop(0)
        if buy:
            team = self._team_of[seat]
            lives = self._rebuy_lives
            self._pools[team] = lives
            for s in range(self._n):
                if self._team_of[s] == team:
                    self._in_session |= 1 << s
                    i = self._eliminated.index(s)  # placed by when it finally goes out
                    del self._eliminated[i]
                    self._out_hands = self._out_hands[:i] + self._out_hands[i + 1:]
                    self._rebuys[s] += 1
            self._ev.append(_new(Event, (_E.REBUY, seat, lives, (), "", False)))
        else:
            self._ev.append(_new(Event, (_PASS, seat, 0, (), "rebuy", False)))
        if self._queue:
            self._turn = self._queue[0]
            return
        self._rebuy_lives = 0
        self._next_deal(self._rebuy_last)

    def _next_deal(self, last: int) -> None:
        """The next dealer (by ``dealer``; the hand ended with ``last``) deals."""
        named = self._next_dealer
        if named >= 0:
            self._next_dealer = -1
            self._dealer = named if self._in_session >> named & 1 else self._next_seat(
                named, self._in_session
            )
        elif self._dealer_rule == "rotate":
            self._dealer = self._next_seat(self._dealer, self._in_session)
        elif self._dealer_rule == "highest_loser":
            self._dealer = self._highest_loser()
        elif self._in_session >> last & 1:
            self._dealer = last
        else:
            self._dealer = self._next_seat(last, self._in_session)
        self._start_hand()

    def _highest_loser(self) -> int:
        """``dealer: highest_loser``: the seat in the session with the fewest lives deals;
        a tie goes to the first of them clockwise after the dealer."""
        best = -1
        fewest = 1 << 30
        for s in self._order_from((self._dealer + 1) % self._n, self._in_session):
            lives = self._pools[self._team_of[s]]
            if lives < fewest:
                best, fewest = s, lives
        return best

    def _end_rubber(self) -> None:
        ev = self._ev
        n = self._n
        lives = [self._pools[t] for t in self._team_of]
        best = max(lives)
        winners = [s for s in range(n) if lives[s] == best]
        win_teams = {self._team_of[s] for s in winners}
        if len(win_teams) == 1:
            ev.append(Event(_E.RUBBER, winners[0], self._rubber_no))
        else:  # shared: who shared it, in the detail (events.py)
            ev.append(Event(_E.RUBBER, -1, self._rubber_no, (),
                            " ".join(str(s) for s in winners)))
        for s in range(n):
            if lives[s] <= 0:
                self._drinks[s] += 1
                ev.append(Event(_E.DRINKS, s, self._drinks[s]))
            if lives[s] == best:
                self._rubbers_won[s] += 1
                self._streak[s] += 1
                if self._streak[s] == 3 and s not in self._toepkoning:
                    self._toepkoning.append(s)
                    ev.append(Event(_E.TOEPKONING, s, 3))
            else:
                self._streak[s] = 0
        self._pools = [self._rules.lives] * len(self._pools)
        limit = self._rules.rubbers
        if limit is not None and self._rubber_no >= limit:
            drinks, won = self._drinks, self._rubbers_won
            winner = min(range(n), key=lambda s: (drinks[s], -won[s], s))
            self._finish_session(winner)
            return
        self._rubber_no += 1
