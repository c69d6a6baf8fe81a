"""Settlement: what a hand costs, lives and elimination, rubbers and the session's end.

A mixin of ``Game`` (see :mod:`.core`): a hand is settled when its last trick is taken
(:meth:`Settlement._settle`) or when all sides but one have folded; losing lives may
eliminate a side and end the session; under rubbers, a rubber ends when a side runs out
of lives.
"""

from __future__ import annotations

from ..cards import JACK, RANK_MASKS
from .core import GameCore
from .events import Event, EventKind
from .phase import Phase

__all__ = ["Settlement"]

_new = tuple.__new__  # Event(...) without the NamedTuple keyword layer
_E = EventKind
_LIVES, _ELIM, _HAND_RES = _E.LIVES, _E.ELIMINATED, _E.HAND_RESULT
_OVER, _DEAL = Phase.OVER, Phase.DEAL
_JACK_EV, _LIFE_BACK, _FOUR = _E.JACK, _E.LIFE_BACK, _E.FOUR_OF_A_KIND


class Settlement(GameCore):
    """Lives, hand results, elimination, rubbers and the session's end."""

    __slots__ = ()

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
        if self._dead and self._pools[team] > 0:
            amount = min(amount, self._pools[team])  # voor dood: never more than is left
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
                    self._ev.append(_new(Event, (_ELIM, s, 0, (), "", False)))
            self._check_session_over()

    def _sides_in_session(self) -> set[int]:
        return {self._team_of[s] for s in range(self._n) if self._in_session >> s & 1}

    def _check_session_over(self) -> None:
        sides = self._sides_in_session()
        if len(sides) >= 2:
            return
        if len(sides) == 1:
            (team,) = sides
            self._finish_session(min(s for s in range(self._n) if self._team_of[s] == team))
            return
        self._break_tie()

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
                self._eliminated.remove(s)
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
        self._ev.append(Event(_E.SESSION_RESULT, winner))

    def _end_hand(self, last: int) -> None:
        if self._phase is _OVER:
            return
        if self._rubber and min(self._pools) <= 0:
            self._end_rubber()
            if self._phase is _OVER:
                return
        # The next dealer.
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
        ev.append(Event(_E.RUBBER, winners[0] if len(win_teams) == 1 else -1, self._rubber_no))
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
