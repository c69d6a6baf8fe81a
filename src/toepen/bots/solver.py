"""Exact card-play solver for a Toepen hand with every card known.

Only the last trick settles a hand, so with all hands known the outcome of the card
play is one bit: does the *root side* (a seat, or its pair in ``teams``) end up where
it wants to be? Under ``last_trick: loses`` it wants *someone else* to take the 4th
trick; under ``wins`` it wants to take it itself.

**Convention: paranoid.** The game is not zero-sum with more than two players, so we
fix one: every other player plays against the root side (the standard "paranoid"
reduction of an n-player game to a two-sided one). It is sound in that the value is
a guarantee: a move the solver calls safe is safe whatever the others do, and with a
binary outcome it turns the search into an AND/OR search with immediate cut-offs.
It is pessimistic (real opponents also fight each other); PIMC averages it over
sampled deals, so what it buys is a conservative estimate of each move's risk.

The fast search (:class:`Solver`) uses bitmask hands, memoisation of trick-start
positions (kept across calls, so the table is shared by every sample of one
decision), equivalent-card merging (cards of one hand that are adjacent among the
cards still in play are interchangeable: only the highest is tried), a closed form
for the last trick, and cut-offs as soon as the side to move has a winning (OR) or a
refuting (AND) move. :func:`reference_solve` is the plain search it is tested
against.

>>> from toepen.cards import parse_card, mask_of
>>> def h(text: str) -> int:
...     return mask_of(parse_card(c) for c in text.split())
>>> hands = [h("Th 9h"), h("8h Qh"), h("7h Kh"), h("Ah Jh")]
>>> Solver(4, root_side=0b0001, want_last=False).solve(hands, leader=0)  # stuck with a winner
False
>>> Solver(4, root_side=0b0001, want_last=True).solve(hands, leader=0)
True
>>> hands[0] = h("Th Jh")      # now it can cash the ten and lead the jack
>>> Solver(4, root_side=0b0001, want_last=False).solve(hands, leader=0)
True
>>> reference_solve(hands, 4, 0, (), 0b0001, False)
True
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "SearchBudgetExceeded",
    "Solver",
    "reference_solve",
    "representatives",
    "last_trick_winner",
]

_SUIT = (0xFF, 0xFF << 8, 0xFF << 16, 0xFF << 24)

# _REPR[own | other << 8]: the cards of an 8-bit suit pattern ``own`` worth trying when
# ``other`` holds the other cards still in play in that suit: the highest of each run
# of own cards not separated by another card. Built lazily.
_REPR: dict[int, int] = {}


def _repr_byte(own: int, other: int) -> int:
    key = own | other << 8
    r = _REPR.get(key)
    if r is None:
        r = 0
        prev_own = False
        for b in range(8):
            if own >> b & 1:
                if not prev_own:
                    r |= 1 << b
                prev_own = True
            elif other >> b & 1:
                prev_own = False
        _REPR[key] = r
    return r


def _repr_table() -> list[int]:
    """``_repr_byte`` for every pair of disjoint 8-bit patterns, indexed ``own | other << 8``."""
    table = [0] * (1 << 16)
    for own in range(256):
        free = 0xFF & ~own
        other = free
        while True:  # every subset of the cards ``own`` does not hold
            table[own | other << 8] = _repr_byte(own, other)
            if not other:
                break
            other = (other - 1) & free
    _REPR.clear()
    return table


_REPR_TABLE = _repr_table()


def representatives(hand: int, others: int) -> int:
    """The cards of ``hand`` worth trying: one per run of equivalent cards.

    Two cards of one suit in ``hand`` are equivalent when no card of ``others`` (the
    cards still in play elsewhere, current trick included) lies between them.

    >>> from toepen.cards import parse_card, mask_of, cards_str
    >>> hand = mask_of(parse_card(c) for c in "Th 9h Ah Jh 8s".split())
    >>> cards_str(representatives(hand, 1 << parse_card("Kh")))
    'Th Jh 8s'
    """
    out = 0
    for s in range(4):
        own = hand >> (8 * s) & 0xFF
        if own:
            out |= _repr_byte(own, others >> (8 * s) & 0xFF) << (8 * s)
    return out


def last_trick_winner(cards: Sequence[int], leader_index: int) -> int:
    """Index (into ``cards``) of the winner of a trick: highest card of the suit led.

    ``cards`` are in seat order; the card at ``leader_index`` was led.

    >>> from toepen.cards import parse_card
    >>> last_trick_winner([parse_card(c) for c in ("Ah", "9s", "Th", "Ks")], 1)
    1
    """
    led = cards[leader_index] >> 3
    best = leader_index
    for i, c in enumerate(cards):
        if c >> 3 == led and c < cards[best]:
            best = i
    return best


def _low_bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class SearchBudgetExceeded(Exception):
    """A solve needed more nodes than its ``max_nodes`` (nothing half-done is memoised)."""


class Solver:
    """Paranoid AND/OR solver for one table: ``n`` seats, one root side, one goal.

    ``root_side`` is the mask of seats whose outcome is evaluated (the root seat, and
    its partner in teams); ``want_last`` is True when taking the last trick is good
    for them (``last_trick: wins``). The transposition table persists across calls,
    so one solver should serve every sampled deal of one decision.
    """

    __slots__ = ("n", "root_side", "want_last", "memo", "nodes", "max_nodes", "_limit", "_rot",
                 "results", "_root_seats", "_rots")

    def __init__(
        self, n: int, root_side: int, want_last: bool, max_nodes: int | None = None
    ) -> None:
        self.n = n
        self.root_side = root_side
        self.want_last = want_last
        self.memo: dict[tuple[int, ...], bool] = {}
        self._root_seats = [s for s in range(n) if root_side >> s & 1]
        self.nodes = 0
        """Nodes searched so far (all calls)."""
        self.max_nodes = max_nodes
        """Per call: raise :class:`SearchBudgetExceeded` beyond this many nodes (None: no limit)."""
        self._limit = 1 << 62
        self._rot: dict[int, list[int]] = {}
        self._rots: dict[tuple[int, ...], dict[int, list[int]]] = {}
        self.results: dict[tuple[object, ...], bool] = {}
        """Completed solves by their arguments: a repeated position is answered at once.
        Exact: the repeat would search a subset of the first search's tree (its trick
        starts are memoised) and find the same value; a solve over budget is not kept."""

    def try_solve(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[tuple[int, int]] = (),
        led: int = -1,
    ) -> bool | None:
        """:meth:`solve`, or None when the search would exceed ``max_nodes``."""
        try:
            return self.solve(hands, leader, trick, led)
        except SearchBudgetExceeded:
            return None

    # -- public ---------------------------------------------------------------------

    def solve(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[tuple[int, int]] = (),
        led: int = -1,
    ) -> bool:
        """True if the root side reaches its goal against everyone else.

        ``hands`` by seat (0 for a seat not in the hand); ``leader`` led (or will lead)
        the current trick; ``trick`` is the (seat, card) played to it so far by players
        still in the hand. ``led`` is the suit led when it is not the suit of
        ``trick[0]`` (the leader folded after leading; -1: take it from the trick).
        A seat is in the hand if it holds cards or has a card in the trick.
        """
        key = (*hands, leader, *trick, led)
        done = self.results.get(key)
        if done is not None:
            return done
        hs = list(hands)
        active = [s for s in range(self.n) if hs[s] or any(t == s for t, _ in trick)]
        if len(active) <= 1:
            return bool(active) and ((1 << active[0]) & self.root_side != 0) == self.want_last
        self._limit = self.nodes + self.max_nodes if self.max_nodes is not None else 1 << 62
        rot = self._rots.get(tuple(active))
        if rot is None:
            rot = self._rots[tuple(active)] = {s: _order(active, s) for s in active}
        self._rot = rot
        if not trick and led < 0:
            tricks = max(hs[s].bit_count() for s in active)
            r = self._trick_start(hs, _order(active, _next_in(active, leader)), tricks)
        else:
            r = self._mid_trick(hs, active, leader, list(trick), led)
        self.results[key] = r
        return r

    def move_values(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[tuple[int, int]],
        seat: int,
        moves: Sequence[int],
        led: int = -1,
    ) -> list[bool | None]:
        """For each card in ``moves`` that ``seat`` (to play) may play: root side's result.

        None for a card whose solve would exceed ``max_nodes``.
        """
        out: list[bool | None] = []
        for card in moves:
            hs = list(hands)
            hs[seat] &= ~(1 << card)
            lead = led if led >= 0 else (card >> 3 if not trick else -1)
            out.append(self.try_solve(hs, leader if trick or led >= 0 else seat,
                                      [*trick, (seat, card)], lead))
        return out

    # -- search ---------------------------------------------------------------------

    def _trick_start(self, hands: list[int], order: list[int], tricks: int) -> bool:
        """Value at the start of a trick led by ``order[0]`` with ``tricks`` left."""
        root = self.root_side
        want = self.want_last
        if tricks == 1:
            cards = [hands[s].bit_length() - 1 for s in order]
            win = order[last_trick_winner(cards, 0)]
            return ((1 << win) & root != 0) == want
        key = (*hands, order[0])
        memo = self.memo
        r = memo.get(key)
        if r is not None:
            return r
        self.nodes += 1
        live = 0
        for s in order:
            live |= hands[s]
        r = self._play(hands, order, 0, -1, 99, -1, tricks, 0, live)
        memo[key] = r
        return r

    def _mid_trick(
        self,
        hands: list[int],
        active: list[int],
        leader: int,
        trick: list[tuple[int, int]],
        led: int,
    ) -> bool:
        """Value with part of a trick played (or its lead gone with a folded leader)."""
        played = {s for s, _ in trick}
        if led < 0:
            led = trick[0][1] >> 3
        best, best_seat = 99, trick[0][0] if trick else -1
        for s, c in trick:
            if c >> 3 == led and c < best:
                best, best_seat = c, s
        k = len(trick)
        order = _order(active + [leader] if leader not in active else active, leader)
        order = [s for s in order if s in active]
        # Seats still to play, in order after the leader; folded seats are not in order.
        rest = [s for s in order if s not in played]
        if not rest:
            remaining = max(hands[s].bit_count() for s in order)
            if remaining == 0:
                return ((1 << best_seat) & self.root_side != 0) == self.want_last
            return self._trick_start(hands, self._rot[best_seat], remaining)
        full = [s for s, _ in trick] + rest
        trick_cards = 0
        for _, c in trick:
            trick_cards |= 1 << c
        live = trick_cards
        for s in full:
            live |= hands[s]
        tricks = max(hands[s].bit_count() for s in rest)
        return self._play(hands, full, k, led, best, best_seat, tricks, trick_cards, live)

    def _play(
        self,
        hands: list[int],
        order: list[int],
        k: int,
        led: int,
        best: int,
        best_seat: int,
        tricks: int,
        trick_cards: int,
        live: int,
    ) -> bool:
        """Seat ``order[k]`` plays to the current trick; ``tricks`` counts this one.

        ``live``: the cards of every hand in ``order`` and of the trick (the same for
        the whole trick). The search is the one :meth:`_trick_start` and this method
        describe, with the trick start and the closed-form last trick inlined here (the
        same nodes, counted the same way: only the function calls are saved)."""
        seat = order[k]
        h = hands[seat]
        others = live ^ h
        t = _REPR_TABLE
        if led >= 0 and h & _SUIT[led]:
            # Following suit: only the led suit's cards, merged within it.
            sh = 8 * led
            moves = t[(h >> sh & 0xFF) | (others >> sh & 0xFF) << 8] << sh
        elif h & (h - 1):
            moves = (t[(h & 0xFF) | (others & 0xFF) << 8]
                     | t[(h >> 8 & 0xFF) | (others >> 8 & 0xFF) << 8] << 8
                     | t[(h >> 16 & 0xFF) | (others >> 16 & 0xFF) << 8] << 16
                     | t[(h >> 24) | (others >> 24 & 0xFF) << 8] << 24)
        else:
            moves = h
        root = self.root_side
        is_root = (1 << seat) & root != 0
        last = k == len(order) - 1
        self.nodes += 1
        if self.nodes > self._limit:
            raise SearchBudgetExceeded
        # Move order: high cards first, suit by suit (measured: the other three scan
        # orders of root and others search 0-15% more nodes on fresh 4-player deals).
        want = self.want_last
        while moves:
            low = moves & -moves
            moves ^= low
            c = low.bit_length() - 1
            hands[seat] ^= low
            if led < 0:
                nl, nb, ns = c >> 3, c, seat
            elif c >> 3 == led and c < best:
                nl, nb, ns = led, c, seat
            elif best_seat < 0:
                nl, nb, ns = led, best, seat
            else:
                nl, nb, ns = led, best, best_seat
            if not last:
                if k + 2 < len(order):
                    r = self._play(hands, order, k + 1, nl, nb, ns, tricks, trick_cards | low,
                                   live)
                else:
                    r = self._close(hands, order[k + 1], nl, nb, ns, tricks, trick_cards | low,
                                    live)
            elif tricks == 1:
                r = ((1 << ns) & root != 0) == want
            elif tricks == 2 and hands[ns]:
                # The last trick in closed form: the highest card of the suit led wins.
                rest = live & ~(trick_cards | low)
                lead = hands[ns]
                follow = rest & _SUIT[(lead.bit_length() - 1) >> 3]
                mine = 0
                for s in self._root_seats:
                    mine |= hands[s]
                r = (follow & -follow & mine != 0) == want
            else:
                key = (*hands, ns)
                r = self.memo.get(key)  # type: ignore[assignment]
                if r is None:
                    if tricks == 2:  # pragma: no cover - a leader without a card
                        r = self._trick_start(hands, self._rot[ns], 1)
                    else:
                        self.nodes += 1
                        r = self._play(hands, self._rot[ns], 0, -1, 99, -1, tricks - 1, 0,
                                       live & ~(trick_cards | low))
                        self.memo[key] = r
            hands[seat] |= low
            if r is is_root:
                return r
        return not is_root


    def _close(
        self,
        hands: list[int],
        seat: int,
        led: int,
        best: int,
        best_seat: int,
        tricks: int,
        trick_cards: int,
        live: int,
    ) -> bool:
        """:meth:`_play` for the last seat of a trick (``led`` known), written out: the
        same node, counted the same way, with fewer branches (most nodes are here)."""
        h = hands[seat]
        others = live ^ h
        t = _REPR_TABLE
        if h & _SUIT[led]:
            sh = 8 * led
            moves = t[(h >> sh & 0xFF) | (others >> sh & 0xFF) << 8] << sh
        elif h & (h - 1):
            moves = (t[(h & 0xFF) | (others & 0xFF) << 8]
                     | t[(h >> 8 & 0xFF) | (others >> 8 & 0xFF) << 8] << 8
                     | t[(h >> 16 & 0xFF) | (others >> 16 & 0xFF) << 8] << 16
                     | t[(h >> 24) | (others >> 24 & 0xFF) << 8] << 24)
        else:
            moves = h
        root = self.root_side
        is_root = (1 << seat) & root != 0
        self.nodes += 1
        if self.nodes > self._limit:
            raise SearchBudgetExceeded
        want = self.want_last
        if tricks == 1:
            while moves:
                low = moves & -moves
                moves ^= low
                c = low.bit_length() - 1
                ns = seat if c >> 3 == led and c < best else best_seat
                if (((1 << ns) & root != 0) == want) is is_root:
                    return is_root
            return not is_root
        rest0 = live & ~trick_cards
        rots = self._rot
        memo = self.memo
        while moves:
            low = moves & -moves
            moves ^= low
            c = low.bit_length() - 1
            ns = seat if c >> 3 == led and c < best else best_seat
            hands[seat] ^= low
            lead = hands[ns]
            if tricks == 2 and lead:
                # The last trick in closed form: the highest card of the suit led wins.
                follow = rest0 & ~low & _SUIT[(lead.bit_length() - 1) >> 3]
                mine = 0
                for s in self._root_seats:
                    mine |= hands[s]
                r = (follow & -follow & mine != 0) == want
            else:
                key = (*hands, ns)
                r = memo.get(key)  # type: ignore[assignment]
                if r is None:
                    if tricks == 2:  # pragma: no cover - a leader without a card
                        r = self._trick_start(hands, rots[ns], 1)
                    else:
                        self.nodes += 1
                        r = self._play(hands, rots[ns], 0, -1, 99, -1, tricks - 1, 0,
                                       rest0 & ~low)
                        memo[key] = r
            hands[seat] |= low
            if r is is_root:
                return r
        return not is_root


def _next_in(seats: Sequence[int], seat: int) -> int:
    """``seat`` if it is in ``seats``, else the next of ``seats`` clockwise after it."""
    if seat in seats:
        return seat
    later = [s for s in seats if s > seat]
    return min(later) if later else min(seats)


def _order(seats: Sequence[int], leader: int) -> list[int]:
    """``seats`` (clockwise) rotated to start at ``leader``."""
    ss = sorted(seats)
    i = ss.index(leader)
    return ss[i:] + ss[:i]


def reference_solve(
    hands: Sequence[int],
    n: int,
    leader: int,
    trick: Sequence[tuple[int, int]],
    root_side: int,
    want_last: bool,
    led: int = -1,
) -> bool:
    """The plain paranoid search: every legal card, no memo, no merging, no cut-off.

    The yardstick the fast :class:`Solver` is tested and benchmarked against; the
    arguments mean what they mean for :meth:`Solver.solve`.
    """
    hs = list(hands)
    active = sorted({s for s in range(n) if hs[s]} | {s for s, _ in trick})
    if len(active) <= 1:
        return bool(active) and ((1 << active[0]) & root_side != 0) == want_last

    def value(hs: list[int], trick: list[tuple[int, int]], leader: int, led: int) -> bool:
        played = {s for s, _ in trick}
        order = [s for s in _order(sorted({*active, leader}), leader) if s in active]
        rest = [s for s in order if s not in played]
        if not rest:
            following = [(c, s) for s, c in trick if c >> 3 == led]
            winner = min(following)[1] if following else trick[0][0]
            if not any(hs[s] for s in active):
                return ((1 << winner) & root_side != 0) == want_last
            return value(hs, [], winner, -1)
        seat = rest[0]
        h = hs[seat]
        if led >= 0:
            follow = h & _SUIT[led]
            if follow:
                h = follow
        results = []
        for c in _low_bits(h):
            hs2 = list(hs)
            hs2[seat] &= ~(1 << c)
            results.append(value(hs2, [*trick, (seat, c)], leader, led if led >= 0 else c >> 3))
        return any(results) if (1 << seat) & root_side else all(results)

    if led < 0 and trick:
        led = trick[0][1] >> 3
    return value(hs, list(trick), leader, led)
