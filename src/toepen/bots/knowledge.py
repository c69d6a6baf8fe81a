"""What one seat's view tells about the hidden cards, for the search bots.

:class:`Knowledge` holds the constraints on the cards a seat cannot see (whose hand
may hold what, tells, voids, false armoede claims shown), and draws deals of them.
:func:`observed_decisions` lists the opponents' decisions of the current deal with
their public context (what ``pimc`` and ``expert`` read them by), and
:func:`strength` is the cheap public-information score of a hand both read with.

Every fact the view already works out (hand masks, the start of the deal, the pelt
opener, tell ranks) is read from :class:`~toepen.view.View` and
:class:`~toepen.rules.Rules`, not derived again here.

>>> from toepen.engine import Game
>>> from toepen.view import observe
>>> know = Knowledge.from_view(observe(Game.new("rulebook", 4, seed=5), 1))
>>> know.need
[4, 0, 4, 4]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..cards import FULL_MASK, HIGH_CARDS_MASK, RANK_MASKS, SUIT_MASKS, mask_of
from ..engine.actions import CHALLENGE, CLAIM, FOLD, KNOCK, PASS, STAY
from ..engine.phase import Phase
from ..view import View

__all__ = [
    "Knowledge", "Observed", "observed_decisions", "next_to_play", "side_of", "strength",
    "pick_cards", "opening_stake", "low_hand_chance",
]


# -- strength: a cheap, public-information score of a hand ---------------------------------


def strength(hand: int, gone: int, want_last: bool) -> float:
    """How good ``hand`` is in [0, 1], knowing only the cards ``gone`` (out of play).

    Under ``last_trick: loses`` (``want_last`` False) a card is good when cards of its
    suit that beat it are still out there (it can duck); under ``wins`` when few are.

    >>> from toepen.cards import parse_card, mask_of
    >>> low = mask_of(parse_card(c) for c in "Jh Qs Jc Kd".split())
    >>> high = mask_of(parse_card(c) for c in "Th Ts 9c Td".split())
    >>> strength(low, 0, False) > strength(high, 0, False)
    True
    >>> strength(high, 0, True) > strength(low, 0, True)
    True
    """
    if not hand:
        return 0.5
    live = FULL_MASK & ~gone & ~hand
    total = 0.0
    count = 0
    h = hand
    while h:
        low = h & -h
        h ^= low
        c = low.bit_length() - 1
        above = (live & SUIT_MASKS[c >> 3] & (low - 1)).bit_count()
        total += 1.0 / (above + 1) if want_last else above / (above + 1.0)
        count += 1
    return total / count


def low_hand_chance(pool: int) -> float:
    """The chance that 4 cards drawn from ``pool`` hold no 7, 8, 9 or ten (armoede)."""
    low = (pool & ~HIGH_CARDS_MASK).bit_count()
    size = pool.bit_count()
    g0 = 1.0
    for i in range(4):
        g0 *= max(0, low - i) / max(1, size - i)
    return g0


# -- what the view tells about the hidden cards --------------------------------------------


@dataclass(slots=True)
class Knowledge:
    """The constraints on the hidden cards, from one seat's view."""

    n: int
    me: int
    hand: int
    side: int
    """Mask of the seats on the bot's side (itself; its partner in teams)."""
    active: list[int]
    pool: int
    """Cards whose place the bot does not know (opponents' hands, stock, discards)."""
    known: list[int]
    """By seat: cards known to be in its hand (a false armoede claim shown)."""
    need: list[int]
    """By seat: how many unknown cards its hand holds (0 for the bot and inactive seats)."""
    allowed: list[int]
    """By seat: the cards it may hold (suits it has shown void in are excluded)."""
    exact: list[tuple[int, int] | None]
    """By seat: (rank mask, count) its unknown cards must contain exactly (a tell)."""
    caps: list[list[tuple[int, int]]] = field(default_factory=list)
    """By seat: (rank mask, at most) its unknown cards may contain (no tell made)."""
    played_by: list[int] = field(default_factory=list)
    draw_order: list[int] = field(default_factory=list)
    """The opponents in the order :meth:`sample` draws them (worked out at the first)."""

    @classmethod
    def from_view(cls, view: View) -> Knowledge:
        """Everything public in ``view`` that constrains the hidden cards."""
        if view.seat is None:
            raise ValueError("a spectator's view holds no hand to play")
        n = len(view.players)
        me = view.seat
        hand = view.hand_mask
        side = side_of(view, me)
        played_by = [0] * n
        played = 0
        for s, c in view.played:
            played_by[s] |= 1 << c
            played |= 1 << c
        known = [0] * n
        for s, cards in (*view.false_claims, *view.open_hands):
            for c in cards:
                known[s] |= 1 << c
        out = view.discarded_mask
        for s in range(n):
            known[s] &= ~played_by[s]
        known[me] = 0
        pool = FULL_MASK & ~hand & ~played & ~out
        for k in known:
            pool &= ~k
        active = [s for s in range(n) if view.active[s]]
        need = [0] * n
        allowed = [0] * n
        exact: list[tuple[int, int] | None] = [None] * n
        caps: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        ranks = view.rules.tell_ranks
        told = {(s, r): k for s, k, r in view.tells}
        for s in active:
            if s == me:
                continue
            need[s] = max(0, view.hand_sizes[s] - known[s].bit_count())
            mask = FULL_MASK
            for suit in view.voids[s]:
                mask &= ~SUIT_MASKS[suit]
            allowed[s] = mask
            if s in view.exchanged or s in view.laundered or s in view.kans:
                continue  # a hand changed since the tells
            for r in ranks:
                rmask = RANK_MASKS[r]
                already = ((played_by[s] | known[s]) & rmask).bit_count()
                if (s, r) in told:
                    exact[s] = (rmask, max(0, told[(s, r)] - already))
                else:
                    caps[s].append((rmask, 2 - already))
        return cls(n, me, hand, side, active, pool, known, need, allowed, exact, caps, played_by)

    def sample(self, rng: random.Random, tries: int = 40) -> list[int]:
        """One deal of the hidden cards consistent with the constraints (hands by seat).

        Draws opponents in order of how tightly they are constrained; a draw that
        paints itself into a corner is retried, and after ``tries`` failures the void
        and tell constraints are dropped (they can only disagree after house-rule
        edge cases) so that a deal is always returned.
        """
        opps = self.draw_order
        if not opps:
            opps = [s for s in self.active if s != self.me]
            opps.sort(key=lambda s: (self.pool & self.allowed[s]).bit_count() - self.need[s])
            self.draw_order = opps
        for attempt in range(tries + 1):
            relax = attempt == tries
            hands = [0] * self.n
            hands[self.me] = self.hand
            pool = self.pool
            ok = True
            for s in opps:
                k = self.need[s]
                allowed = pool if relax else pool & self.allowed[s]
                picked = 0
                ex = None if relax else self.exact[s]
                if ex is not None:
                    rmask, cnt = ex
                    part = pick_cards(allowed & rmask, min(cnt, k), rng)
                    if part is None:
                        ok = False
                        break
                    picked = part
                    allowed &= ~rmask
                    k -= min(cnt, k)
                rest = pick_cards(allowed, k, rng)
                if rest is None:
                    ok = False
                    break
                picked |= rest
                if not relax:
                    for rmask, cap in self.caps[s]:
                        if (picked & rmask).bit_count() > cap:
                            ok = False
                    if not ok:
                        break
                hands[s] = self.known[s] | picked
                pool &= ~picked
            if ok:
                return hands
        raise RuntimeError("no consistent deal of the hidden cards")  # pragma: no cover

    def leftover(self, hands: Sequence[int]) -> int:
        """The unknown cards a sampled deal did not give to any active hand."""
        used = 0
        for s, h in enumerate(hands):
            if s != self.me:
                used |= h
        return self.pool & ~used


_BYTE_CARDS = [[tuple(8 * i + c for c in range(8) if v >> c & 1) for v in range(256)]
               for i in range(4)]
"""``_BYTE_CARDS[i][v]``: the cards of byte ``i`` of a card mask whose value is ``v``."""


def pick_cards(mask: int, k: int, rng: random.Random) -> int | None:
    """``k`` random cards of ``mask`` (None if it holds fewer)."""
    if k <= 0:
        return 0
    b = _BYTE_CARDS  # the cards in ascending order, as rng.sample is given them
    cards = (b[0][mask & 0xFF] + b[1][mask >> 8 & 0xFF] + b[2][mask >> 16 & 0xFF]
             + b[3][mask >> 24 & 0xFF])
    if len(cards) < k:
        return None
    return mask_of(rng.sample(cards, k))


# -- positions -----------------------------------------------------------------------------


def opening_stake(view: View) -> int:
    """The stake the first trick is played for, as seen before a card: 2 when a pelt
    opener opens the deal, else the stake now."""
    return 2 if view.pelt_opener >= 0 else view.stake


def next_to_play(view: View) -> tuple[int, list[tuple[int, int]]]:
    """(leader, trick) of the current position, trick cards of folded seats dropped."""
    trick = [(s, c) for s, c in view.trick if view.active[s]]
    if view.trick_no == 0 and not view.played:
        return view.first_leader, trick
    return view.leader, trick


def side_of(view: View, seat: int) -> int:
    """The mask of ``seat``'s side: itself, or its pair in ``teams``."""
    if not view.teams:
        return 1 << seat
    return sum(1 << t for t in range(len(view.players)) if view.teams[t] == view.teams[seat])


# -- what the opponents' decisions of this deal were ----------------------------------------

_HOUSE_ROUNDS = (Phase.BLIND, Phase.KANS, Phase.LAUNDRY)

Observed = tuple[int, str, str, int, int, int, int]
"""One observed decision of an opponent: (seat, kind, action name, tricks played then,
stake then, cards that seat played after it, cards played by anyone before it)."""


def observed_decisions(view: View) -> list[Observed]:
    """The opponents' policy decisions of the current deal, with their public context."""
    me = view.seat
    acts = view.hand_actions[view.deal_start:]
    plays_before: list[int] = []  # cards played before each action
    gone = 0
    for _, act in acts:
        plays_before.append(gone)
        if act < 32:
            gone |= 1 << act
    stake = opening_stake(view) if view.rules.pelt else 1
    in_answer = stake > 1
    last_knocker = -1
    pending_claim = False
    out: list[Observed] = []
    tricks = [0] * len(view.players)
    start = view.deal_start
    for i, (seat, act) in enumerate(acts):
        house = view.round_of(start + i) if view.hand_marks else None
        if house in _HOUSE_ROUNDS:
            # Decisions of the house rules' rounds (taken blind, or forced by the cards)
            # are not read; a blind knock opens the play at its stake.
            if act is KNOCK:
                stake, last_knocker = 3, seat
            continue
        later = 0
        for s2, a2 in acts[i:]:
            if s2 == seat and a2 < 32:
                later |= 1 << a2
        mine = seat == me
        if act is CLAIM:
            if not mine:
                out.append((seat, "claim", "claim", 0, 1, later, 0))
            pending_claim = True
        elif act is PASS:
            if not pending_claim and not mine and view.rules.armoede:
                out.append((seat, "claim", "pass", 0, 1, later, 0))
        elif act is CHALLENGE:
            pending_claim = False
        elif act is KNOCK:
            stake += 1
            if not mine:
                kind = "answer" if in_answer else "knock"
                out.append((seat, kind, "knock", tricks[seat], stake if in_answer else stake - 1,
                            later, plays_before[i]))
            in_answer = True
            last_knocker = seat
            pending_claim = False
        elif act is STAY or act is FOLD:
            if not mine:
                verb = "stay" if act is STAY else "fold"
                out.append((seat, "answer", verb, tricks[seat], stake, later, plays_before[i]))
        elif act < 32:
            pending_claim = False
            if not mine and not in_answer and seat != last_knocker:
                max_stake = view.rules.max_stake
                if max_stake is None or stake < max_stake:
                    out.append((seat, "knock", "play", tricks[seat], stake, later,
                                plays_before[i]))
            in_answer = False
            tricks[seat] += 1
    return out
