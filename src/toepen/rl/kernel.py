"""The batched environment's rules compiled by numba: one loop over the games.

:class:`~toepen.rl.batch.ToepenBatch` has two paths to the same results, bit for bit:
NumPy array operations over all the games (always there), and this module, the same rules
written for one game at a time and compiled by `numba <https://numba.pydata.org>`_ (the
optional ``fast`` extra: ``pip install 'toepen[fast]'``), looping over the games in
machine code. Each function here is the scalar twin of the ``ToepenBatch`` method of the
same name; ``tests/rl/test_batch.py`` plays both paths against the engine and against
each other.

numba is used only within the tested range of versions (:data:`NUMBA_RANGE`); outside it,
or when it is not installed, :func:`unavailable` says why and the batch plays the NumPy
path. :class:`~toepen.rl.batch.ToepenBatch` compiles them when it is made
(:func:`compile_all`: about 16 CPU seconds the first time; numba's cache on disk, beside
this file, brings later processes to about 2), never inside a step.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

import numpy as np
import numpy.typing as npt

from .encoding import ObservationEncoder
from .layout import (
    A_CHAL,
    A_CLAIM,
    A_EXCH,
    A_FOLD,
    A_KNOCK,
    A_PASS,
    A_STAY,
    F_ACCEPTED,
    F_DRINKS,
    F_HANDS,
    F_KNOCKS,
    F_LOST,
    F_LOST_BEFORE,
    F_PLAYED,
    F_POOLS,
    F_REVEALED,
    F_RUBBERS_WON,
    F_TELL_JACK,
    F_TELL_TEN,
    F_TRICK_CARD,
    F_TRICK_POS,
    F_VOIDS,
    F_WON,
    G_ACTIVE,
    G_ANY_CARD,
    G_CLAIMED,
    G_CURSOR,
    G_DEAL_DUE,
    G_DEALER,
    G_DEALS,
    G_DISCARD,
    G_EPISODES,
    G_EXCHANGED,
    G_GAME_KEYS,
    G_HAND_NO,
    G_HAND_OVER,
    G_IN_SESSION,
    G_KEYS,
    G_KNOCK_BAR,
    G_LAST_KNOCKER,
    G_LEADER,
    G_LED,
    G_PHASE,
    G_PLAYED_MASK,
    G_QUEUE,
    G_RESUME,
    G_ROUND_CURSOR,
    G_ROUND_QUEUE,
    G_RUBBER_NO,
    G_STAKE,
    G_STOCK_POS,
    G_TARGET,
    G_TRICK_COUNT,
    G_TRICK_NO,
    G_TURN,
    G_WINNER,
    P_ANSWER,
    P_CLAIM,
    P_CLAIM_CH,
    P_EXCH,
    P_EXCH_CH,
    P_OVER,
    P_PLAY,
)

__all__ = ["CONFIG", "LAYOUT", "NUMBA_RANGE", "State", "compile_all", "config", "layout",
           "unavailable"]

NUMBA_RANGE = ((0, 68), (0, 69))
"""The numba versions the kernel is tested with: at least the first, below the second
(``pyproject.toml``'s ``fast`` extra pins the same)."""

I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
F32 = npt.NDArray[np.float32]
I8 = npt.NDArray[np.int8]
Bool = npt.NDArray[np.bool_]

F = TypeVar("F", bound=Callable[..., Any])


def _load_numba() -> tuple[Any, str | None]:
    """numba, or None and why it is not used."""
    try:
        import numba
    except ImportError:
        return None, "numba is not installed (pip install 'toepen[fast]')"
    try:
        version = tuple(int(p) for p in numba.__version__.split(".")[:2])
    except ValueError:
        return None, f"numba {numba.__version__}: not a version this module knows"
    low, high = NUMBA_RANGE
    if not low <= version < high:
        return None, (f"numba {numba.__version__} is outside the tested range "
                      f"{'.'.join(map(str, low))} to below {'.'.join(map(str, high))}")
    return numba, None


_numba, _why = _load_numba()


def unavailable() -> str | None:
    """Why the compiled path cannot be used (None: it can)."""
    return _why


def _jit(f: F) -> F:
    """``numba.njit`` (compiled on first call, cached on disk) when numba is usable."""
    if _numba is None:
        return f
    out: F = _numba.njit(cache=True, nogil=True)(f)
    return out


class State(NamedTuple):
    """A :class:`~toepen.rl.batch.ToepenBatch`'s arrays, the arguments of every function
    here (the same objects: the kernel writes into them). Few arrays, not one a field, and
    only arrays: a compiled call passes each, and numba's cache keeps no class of ours."""

    gm: I64
    """``(fields, games)``: a game's numbers, by the rows ``batch._G_*``."""
    ps: I64
    """``(games, fields, seats)``: a seat's numbers, by the fields ``batch._F_*``."""
    deck: I64
    after: I64
    """The table ``mask << 3 | seat``: the first seat of ``mask`` clockwise after ``seat``."""
    cf: I64
    """The rules as numbers, by the indices ``_C_*`` (:func:`config`)."""


CONFIG = ("n", "loses", "elim", "max_stake", "limit", "decl", "tell_ten", "tell_jack", "rubber",
          "rubbers", "dealer_rule", "hand_episode", "early", "pelt", "lives", "first_dealer")
"""The rules as numbers: ``limit`` 0 none, 1 lives at least the stake, 2 lives cover the
new stake; ``decl`` the declaration phase's id (-1: none); ``rubbers`` -1: no limit;
``dealer_rule`` 0 rotate, 1 the last trick's winner, 2 the highest loser."""
(_C_N, _C_LOSES, _C_ELIM, _C_MAX_STAKE, _C_LIMIT, _C_DECL, _C_TELL_TEN, _C_TELL_JACK,
 _C_RUBBER, _C_RUBBERS, _C_DEALER_RULE, _C_HAND_EPISODE, _C_EARLY, _C_PELT, _C_LIVES,
 _C_FIRST_DEALER) = range(len(CONFIG))


def config(**values: int) -> I64:
    """The array of :data:`CONFIG` from its values by name."""
    return np.array([values[k] for k in CONFIG], dtype=np.int64)


LAYOUT = ("played", "trick", "led_suit", "phase", "to_act", "dealer", "leader", "last_knocker",
          "active", "in_session", "claimed", "exchanged", "voids", "revealed", "tells",
          "tricks_won", "trick_no", "stock", "sudden_death", "stake", "accepted", "knocks",
          "lives", "drinks")
"""The observation's blocks whose starts :func:`encode` reads (``_L_*``)."""
(_L_PLAYED, _L_TRICK, _L_LED, _L_PHASE, _L_TO_ACT, _L_DEALER, _L_LEADER, _L_LAST_KNOCKER,
 _L_ACTIVE, _L_IN_SESSION, _L_CLAIMED, _L_EXCHANGED, _L_VOIDS, _L_REVEALED, _L_TELLS,
 _L_TRICKS_WON, _L_TRICK_NO, _L_STOCK, _L_SUDDEN_DEATH, _L_STAKE, _L_ACCEPTED, _L_KNOCKS,
 _L_LIVES, _L_DRINKS) = range(len(LAYOUT))


def layout(encoder: ObservationEncoder) -> I64:
    """Where each block of :data:`LAYOUT` starts in ``encoder``'s vector."""
    return np.array([encoder.slices[k].start for k in LAYOUT], dtype=np.int64)


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_C1 = np.uint64(0xBF58476D1CE4E5B9)
_C2 = np.uint64(0x94D049BB133111EB)
_SIGN = np.uint64(1 << 63)
_HIGH = 0
for _s in range(4):
    _HIGH |= 0x0F << (8 * _s)
_SUIT_MASK = 0xFF


@_jit
def _mix(x: np.uint64) -> np.uint64:
    """SplitMix64's finaliser (``batch._mix`` of one value)."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _C1
    z = (z ^ (z >> np.uint64(27))) * _C2
    return z ^ (z >> np.uint64(31))


@_jit
def _wrap(x: int, n: int) -> int:
    """``x % n`` for ``0 <= x < 2 * n``, without a division."""
    return x - n if x >= n else x


@_jit
def _popcount(m: int) -> int:
    c = 0
    while m:
        m &= m - 1
        c += 1
    return c


@_jit
def _fill_deck(gm: I64, deck: I64, g: int, draws: I64) -> None:
    """``batch.decks(keys[g], deals[g])`` into ``deck[g]``: card ``c`` goes to its rank
    among the draws (ties by index, as a stable sort), counted without branches."""
    index = np.uint64(gm[G_DEALS, g]) * _GOLDEN + np.uint64(1)
    base = _mix(np.uint64(gm[G_KEYS, g]) ^ _mix(index))
    for c in range(32):  # the draws as signed numbers in the same order
        draws[c] = np.int64(_mix(base + np.uint64(c + 1) * _C1) ^ _SIGN)
    for c in range(32):
        v = draws[c]
        r = 0
        for d in range(c):
            r += draws[d] <= v
        for d in range(c + 1, 32):
            r += draws[d] < v
        deck[g, r] = c


# -- episodes -------------------------------------------------------------------------------


@_jit
def _new_session(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int) -> None:
    key = _mix(np.uint64(gm[G_GAME_KEYS, g]) ^ _mix(np.uint64(gm[G_EPISODES, g]) + _C1))
    gm[G_KEYS, g] = np.int64(key)
    gm[G_EPISODES, g] += 1
    gm[G_DEALS, g] = 0
    for s in range(cf[_C_N]):
        ps[g, F_POOLS, s] = cf[_C_LIVES]
        ps[g, F_LOST, s] = 0
        ps[g, F_LOST_BEFORE, s] = 0
        ps[g, F_DRINKS, s] = 0
        ps[g, F_RUBBERS_WON, s] = 0
    gm[G_IN_SESSION, g] = (1 << cf[_C_N]) - 1
    gm[G_ACTIVE, g] = 0
    gm[G_DEALER, g] = cf[_C_FIRST_DEALER]
    gm[G_HAND_NO, g] = 0
    gm[G_RUBBER_NO, g] = 1
    gm[G_WINNER, g] = -1
    gm[G_LEADER, g] = -1
    gm[G_TURN, g] = -1
    _start_hand(gm, ps, deck, after, cf, g)


@_jit
def _start_hand(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int) -> None:
    gm[G_HAND_NO, g] += 1
    gm[G_CLAIMED, g] = 0
    gm[G_EXCHANGED, g] = 0
    for s in range(cf[_C_N]):
        ps[g, F_KNOCKS, s] = 0
    gm[G_DEAL_DUE, g] = 1


@_jit
def _flush(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, draws: I64) -> None:
    """Deal while a deal is due (a deal can end a hand that asks for the next one)."""
    while gm[G_DEAL_DUE, g]:
        redeal = gm[G_DEAL_DUE, g] == 2
        gm[G_DEAL_DUE, g] = 0
        _deal_now(gm, ps, deck, after, cf, g, redeal, draws)


@_jit
def _deal_now(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, redeal: bool,
              draws: I64) -> None:
    n = cf[_C_N]
    if not redeal:  # an armoede redeal keeps the hand's stake
        gm[G_STAKE, g] = 1
        for s in range(n):
            ps[g, F_ACCEPTED, s] = 1
        gm[G_LAST_KNOCKER, g] = -1
        gm[G_KNOCK_BAR, g] = -1
    for s in range(n):
        ps[g, F_TRICK_CARD, s] = -1
        ps[g, F_WON, s] = 0
        ps[g, F_PLAYED, s] = 0
        ps[g, F_VOIDS, s] = 0
        ps[g, F_REVEALED, s] = 0
        ps[g, F_TELL_TEN, s] = 0
        ps[g, F_TELL_JACK, s] = 0
    gm[G_TRICK_COUNT, g] = 0
    gm[G_PLAYED_MASK, g] = 0
    gm[G_LED, g] = -1
    gm[G_TRICK_NO, g] = 0
    gm[G_ANY_CARD, g] = 0
    gm[G_TARGET, g] = -1
    gm[G_DISCARD, g] = 0
    gm[G_RESUME, g] = -1
    members = (gm[G_ACTIVE, g] if redeal else -1) & gm[G_IN_SESSION, g]
    _fill_deck(gm, deck, g, draws)
    gm[G_DEALS, g] += 1
    m = _popcount(members)
    j = 0
    for k in range(n):
        s = _wrap(gm[G_DEALER, g] + 1 + k, n)
        if members >> s & 1:
            h = 0
            for r in range(4):
                h |= 1 << deck[g, min(j + m * r, 31)]
            ps[g, F_HANDS, s] = h
            j += 1
        else:
            ps[g, F_HANDS, s] = 0
    gm[G_STOCK_POS, g] = 4 * m
    gm[G_ACTIVE, g] = members
    if cf[_C_TELL_TEN] or cf[_C_TELL_JACK]:
        for s in range(n):
            h = ps[g, F_HANDS, s]
            if cf[_C_TELL_TEN]:
                c = 0
                for su in range(4):
                    c += h >> (8 * su) & 1
                ps[g, F_TELL_TEN, s] = c if c >= 3 else 0
            if cf[_C_TELL_JACK]:
                c = 0
                for su in range(4):
                    c += h >> (8 * su + 7) & 1
                ps[g, F_TELL_JACK, s] = c if c >= 3 else 0
    _start_declarations(gm, ps, deck, after, cf, g, members)


# -- declarations (armoede, exchange) ---------------------------------------------------


@_jit
def _start_declarations(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int,
                        order: int) -> None:
    if cf[_C_DECL] < 0:
        _start_play(gm, ps, deck, after, cf, g)
        return
    gm[G_QUEUE, g] = order
    gm[G_CURSOR, g] = gm[G_DEALER, g]
    _next_declarer(gm, ps, deck, after, cf, g)


@_jit
def _next_declarer(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int) -> None:
    declared = gm[G_CLAIMED, g] if cf[_C_DECL] == P_CLAIM else gm[G_EXCHANGED, g]
    cand = gm[G_QUEUE, g] & gm[G_ACTIVE, g] & ~declared
    if cf[_C_DECL] == P_EXCH and gm[G_STOCK_POS, g] + 4 > 32:
        cand = 0
    nxt = after[cand << 3 | gm[G_CURSOR, g]]
    if nxt >= 0:
        gm[G_PHASE, g] = cf[_C_DECL]
        gm[G_TURN, g] = nxt
    else:
        _start_play(gm, ps, deck, after, cf, g)


@_jit
def _declare(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, seat: int,
             declare: bool) -> None:
    bit = 1 << seat
    gm[G_QUEUE, g] &= ~bit
    gm[G_CURSOR, g] = seat
    if not declare:
        _next_declarer(gm, ps, deck, after, cf, g)
        return
    if cf[_C_DECL] == P_CLAIM:
        gm[G_CLAIMED, g] |= bit
    else:
        gm[G_EXCHANGED, g] |= bit
        gm[G_DISCARD, g] = ps[g, F_HANDS, seat]
        pos = gm[G_STOCK_POS, g]
        new = 0
        for r in range(4):
            new |= 1 << deck[g, pos + r]
        gm[G_STOCK_POS, g] = pos + 4
        ps[g, F_HANDS, seat] = new
    gm[G_TARGET, g] = seat
    gm[G_ROUND_QUEUE, g] = gm[G_QUEUE, g]
    gm[G_ROUND_CURSOR, g] = seat
    opp = gm[G_ACTIVE, g] & ~bit
    gm[G_QUEUE, g] = opp
    gm[G_CURSOR, g] = seat
    nxt = after[opp << 3 | seat]
    if nxt >= 0:
        gm[G_PHASE, g] = P_CLAIM_CH if cf[_C_DECL] == P_CLAIM else P_EXCH_CH
        gm[G_TURN, g] = nxt
    else:
        _stands(gm, ps, deck, after, cf, g)


@_jit
def _challenge(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, seat: int,
               challenge: bool) -> None:
    gm[G_QUEUE, g] &= ~(1 << seat)
    if not challenge:  # the next opponent, or the declaration stands unchallenged
        nxt = after[gm[G_QUEUE, g] << 3 | seat]
        if nxt >= 0:
            gm[G_TURN, g] = nxt
        else:
            _stands(gm, ps, deck, after, cf, g)
        return
    declarer = gm[G_TARGET, g]
    shown = ps[g, F_HANDS, declarer] if cf[_C_DECL] == P_CLAIM else gm[G_DISCARD, g]
    ps[g, F_REVEALED, declarer] |= shown
    if (shown & _HIGH) == 0:  # honest: the challenger pays
        _lose(gm, ps, deck, after, cf, g, seat, 1)
        if gm[G_PHASE, g] != P_OVER:
            _stands(gm, ps, deck, after, cf, g)
        return
    _lose(gm, ps, deck, after, cf, g, declarer, 1)
    if gm[G_PHASE, g] != P_OVER:
        gm[G_QUEUE, g] = gm[G_ROUND_QUEUE, g]
        gm[G_CURSOR, g] = gm[G_ROUND_CURSOR, g]
        _next_declarer(gm, ps, deck, after, cf, g)


@_jit
def _stands(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int) -> None:
    if cf[_C_DECL] == P_CLAIM:
        gm[G_DEAL_DUE, g] = 2  # a redeal to those still in the hand
    else:
        gm[G_QUEUE, g] = gm[G_ROUND_QUEUE, g]
        gm[G_CURSOR, g] = gm[G_ROUND_CURSOR, g]
        _next_declarer(gm, ps, deck, after, cf, g)


# -- play ------------------------------------------------------------------------------


@_jit
def _start_play(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int) -> None:
    n = cf[_C_N]
    active = gm[G_ACTIVE, g]
    if _popcount(active) <= 1:
        _end_hand_by_folds(gm, ps, deck, after, cf, g)
        return
    if cf[_C_PELT]:
        opener = -1
        if gm[G_LAST_KNOCKER, g] < 0:
            for k in range(n, 0, -1):  # the first seat in order wins: walk it backwards
                s = _wrap(gm[G_DEALER, g] + k, n)
                if (active >> s & 1) == 1 and ps[g, F_POOLS, s] == 1:
                    opener = s
        if opener >= 0:
            gm[G_STAKE, g] = 2
            ps[g, F_ACCEPTED, opener] = 2
            gm[G_LAST_KNOCKER, g] = opener
            gm[G_KNOCK_BAR, g] = opener
            gm[G_LEADER, g] = opener
            gm[G_RESUME, g] = opener
            _ask_answers(gm, ps, deck, after, cf, g, opener)
            return
    leader = after[active << 3 | gm[G_DEALER, g]]
    gm[G_LEADER, g] = leader
    gm[G_PHASE, g] = P_PLAY
    gm[G_TURN, g] = leader


@_jit
def _ask_answers(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, seat: int) -> None:
    q = gm[G_ACTIVE, g] & ~(1 << seat)
    gm[G_QUEUE, g] = q
    gm[G_PHASE, g] = P_ANSWER
    gm[G_TURN, g] = after[q << 3 | seat]


@_jit
def _knock(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, seat: int) -> None:
    stake = gm[G_STAKE, g] + 1
    gm[G_STAKE, g] = stake
    ps[g, F_ACCEPTED, seat] = stake
    gm[G_LAST_KNOCKER, g] = seat
    gm[G_KNOCK_BAR, g] = seat
    ps[g, F_KNOCKS, seat] += 1
    if gm[G_PHASE, g] == P_PLAY:
        gm[G_RESUME, g] = seat
    _ask_answers(gm, ps, deck, after, cf, g, seat)


@_jit
def _next_answer(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, seat: int) -> None:
    gm[G_QUEUE, g] &= ~(1 << seat)
    cand = gm[G_QUEUE, g] & gm[G_ACTIVE, g]
    nxt = after[cand << 3 | seat]
    if nxt >= 0:
        gm[G_TURN, g] = nxt
    else:
        _resume_play(gm, ps, deck, after, cf, g)


@_jit
def _resume_play(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int) -> None:
    unplayed = gm[G_ACTIVE, g] & ~gm[G_PLAYED_MASK, g]
    if unplayed == 0:
        _finish_trick(gm, ps, deck, after, cf, g)
        return
    seat = gm[G_RESUME, g]
    if (unplayed >> seat & 1) == 0:
        seat = after[unplayed << 3 | seat]
    empty = True
    for s in range(cf[_C_N]):
        if ps[g, F_TRICK_CARD, s] >= 0:
            empty = False
    if empty:
        gm[G_LEADER, g] = seat
    gm[G_PHASE, g] = P_PLAY
    gm[G_TURN, g] = seat


@_jit
def _leave_hand(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, seat: int) -> None:
    bit = 1 << seat
    gm[G_ACTIVE, g] &= ~bit
    ps[g, F_HANDS, seat] = 0
    gm[G_PLAYED_MASK, g] &= ~bit
    ps[g, F_TRICK_CARD, seat] = -1


@_jit
def _fold(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, seat: int) -> None:
    paid = ps[g, F_ACCEPTED, seat]
    _leave_hand(gm, ps, deck, after, cf, g, seat)
    _lose(gm, ps, deck, after, cf, g, seat, paid)
    if gm[G_PHASE, g] == P_OVER:
        return
    if _popcount(gm[G_ACTIVE, g]) <= 1:
        _end_hand_by_folds(gm, ps, deck, after, cf, g)
    else:
        _next_answer(gm, ps, deck, after, cf, g, seat)


@_jit
def _play(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, seat: int, card: int) -> None:
    cbit = 1 << card
    ps[g, F_HANDS, seat] &= ~cbit
    led = gm[G_LED, g]
    if led < 0:
        led = card >> 3
    gm[G_LED, g] = led
    ps[g, F_TRICK_CARD, seat] = card
    ps[g, F_TRICK_POS, seat] = gm[G_TRICK_COUNT, g]
    gm[G_TRICK_COUNT, g] += 1
    ps[g, F_PLAYED, seat] |= cbit
    if (card >> 3) != led:
        ps[g, F_VOIDS, seat] |= 1 << led
    played = gm[G_PLAYED_MASK, g] | (1 << seat)
    gm[G_PLAYED_MASK, g] = played
    gm[G_ANY_CARD, g] = 1
    unplayed = gm[G_ACTIVE, g] & ~played
    if unplayed == 0:
        _finish_trick(gm, ps, deck, after, cf, g)
    else:
        gm[G_TURN, g] = after[unplayed << 3 | seat]


@_jit
def _finish_trick(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int) -> None:
    led = gm[G_LED, g]
    best, best_card = -1, 99
    first, first_pos = 0, 1 << 30
    for s in range(cf[_C_N]):
        c = ps[g, F_TRICK_CARD, s]
        if c < 0:
            continue
        if (c >> 3) == led and c < best_card:
            best, best_card = s, c
        if ps[g, F_TRICK_POS, s] < first_pos:
            first, first_pos = s, ps[g, F_TRICK_POS, s]
    winner = best if best >= 0 else first
    gm[G_TRICK_NO, g] += 1
    ps[g, F_WON, winner] += 1
    for s in range(cf[_C_N]):
        ps[g, F_TRICK_CARD, s] = -1
    gm[G_TRICK_COUNT, g] = 0
    gm[G_PLAYED_MASK, g] = 0
    gm[G_LED, g] = -1
    if gm[G_TRICK_NO, g] == 4:
        _settle(gm, ps, deck, after, cf, g, winner)
    else:
        gm[G_LEADER, g] = winner
        gm[G_PHASE, g] = P_PLAY
        gm[G_TURN, g] = winner


# -- lives, hands, the session -------------------------------------------------------------


@_jit
def _settle(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, last: int) -> None:
    stake = gm[G_STAKE, g]
    if cf[_C_LOSES]:
        _lose(gm, ps, deck, after, cf, g, last, stake)
    else:
        n = cf[_C_N]
        for k in range(1, n):
            s = _wrap(last + k, n)
            if (gm[G_ACTIVE, g] >> s & 1) == 1:
                _lose(gm, ps, deck, after, cf, g, s, stake)
    if gm[G_PHASE, g] != P_OVER:
        _end_hand(gm, ps, deck, after, cf, g, last)


@_jit
def _end_hand_by_folds(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int) -> None:
    _end_hand(gm, ps, deck, after, cf, g, after[gm[G_ACTIVE, g] << 3 | gm[G_DEALER, g]])


@_jit
def _lose(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, seat: int, amount: int) -> None:
    ps[g, F_POOLS, seat] -= amount
    ps[g, F_LOST, seat] += amount
    if not cf[_C_ELIM]:
        return
    if ps[g, F_POOLS, seat] > 0 or (gm[G_IN_SESSION, g] >> seat & 1) == 0:
        return
    _leave_hand(gm, ps, deck, after, cf, g, seat)
    left = gm[G_IN_SESSION, g] & ~(1 << seat)
    gm[G_IN_SESSION, g] = left
    count = _popcount(left)
    if count == 0:  # every side out at once: unreachable without teams
        raise RuntimeError("sudden death is not supported by the batched environment")
    if count == 1:
        gm[G_WINNER, g] = after[left << 3]  # the one seat left
        gm[G_PHASE, g] = P_OVER
        gm[G_TURN, g] = -1
        gm[G_HAND_OVER, g] = 1


@_jit
def _end_hand(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, last: int) -> None:
    gm[G_HAND_OVER, g] = 1
    n = cf[_C_N]
    if cf[_C_RUBBER]:
        low, best = 1 << 62, -(1 << 62)
        for s in range(n):
            low = min(low, ps[g, F_POOLS, s])
            best = max(best, ps[g, F_POOLS, s])
        if low <= 0:
            for s in range(n):
                lv = ps[g, F_POOLS, s]
                if lv <= 0:
                    ps[g, F_DRINKS, s] += 1
                if lv == best:
                    ps[g, F_RUBBERS_WON, s] += 1
                ps[g, F_POOLS, s] = cf[_C_LIVES]
            if cf[_C_RUBBERS] >= 0 and gm[G_RUBBER_NO, g] >= cf[_C_RUBBERS]:
                w, key = 0, 1 << 62
                for s in range(n):
                    k = ps[g, F_DRINKS, s] * 1000 - ps[g, F_RUBBERS_WON, s]
                    if k < key:
                        w, key = s, k
                gm[G_WINNER, g] = w
                gm[G_PHASE, g] = P_OVER
                gm[G_TURN, g] = -1
                return
            gm[G_RUBBER_NO, g] += 1
    if cf[_C_HAND_EPISODE]:
        gm[G_PHASE, g] = P_OVER  # the episode ends here; the game is started over
        gm[G_TURN, g] = -1
        return
    ins = gm[G_IN_SESSION, g]
    if cf[_C_DEALER_RULE] == 0:
        dealer = after[ins << 3 | gm[G_DEALER, g]]
    elif cf[_C_DEALER_RULE] == 1:
        dealer = last if (ins >> last & 1) else after[ins << 3 | last]
    else:  # highest loser: the fewest lives, the first clockwise after the dealer
        dealer = -1
        fewest = 1 << 30
        for k in range(1, n + 1):
            s = _wrap(gm[G_DEALER, g] + k, n)
            lives = ps[g, F_POOLS, s]
            if (ins >> s & 1) == 1 and lives < fewest:
                dealer, fewest = s, lives
    gm[G_DEALER, g] = dealer
    _start_hand(gm, ps, deck, after, cf, g)


# -- the entry points ------------------------------------------------------------------


@_jit
def new_sessions(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, games: I64) -> None:
    """Start the sessions of ``games`` over (``ToepenBatch._new_session``, dealt)."""
    draws = np.zeros(32, dtype=np.int64)
    for i in range(len(games)):
        g = games[i]
        _new_session(gm, ps, deck, after, cf, g)
        _flush(gm, ps, deck, after, cf, g, draws)


@_jit
def step(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, actions: I64, selected: Bool,
         rewards: F32, done: Bool,
         winner: I64, final_lives: I64, final_in: I64) -> None:
    """``ToepenBatch._step``: the action of each selected game, its reward and ending."""
    draws = np.zeros(32, dtype=np.int64)
    n = cf[_C_N]
    for g in range(len(actions)):
        gm[G_HAND_OVER, g] = 0
        winner[g] = -1
        if selected[g]:
            a = actions[g]
            seat = gm[G_TURN, g]
            phase = gm[G_PHASE, g]
            if phase == P_PLAY and a < 32:
                _play(gm, ps, deck, after, cf, g, seat, a)
            elif phase in (P_PLAY, P_ANSWER) and a == A_KNOCK:
                _knock(gm, ps, deck, after, cf, g, seat)
            elif phase == P_ANSWER and a == A_STAY:
                ps[g, F_ACCEPTED, seat] = gm[G_STAKE, g]
                _next_answer(gm, ps, deck, after, cf, g, seat)
            elif phase == P_ANSWER and a == A_FOLD:
                _fold(gm, ps, deck, after, cf, g, seat)
            elif phase in (P_CLAIM, P_EXCH):
                _declare(gm, ps, deck, after, cf, g, seat, a != A_PASS)
            elif phase in (P_CLAIM_CH, P_EXCH_CH):
                _challenge(gm, ps, deck, after, cf, g, seat, a == A_CHAL)
            _flush(gm, ps, deck, after, cf, g, draws)
        if gm[G_HAND_OVER, g]:
            for s in range(n):
                rewards[g, s] = -(ps[g, F_LOST, s] - ps[g, F_LOST_BEFORE, s])
                ps[g, F_LOST_BEFORE, s] = ps[g, F_LOST, s]
        else:
            for s in range(n):
                rewards[g, s] = 0.0
        done[g] = gm[G_PHASE, g] == P_OVER
        if done[g]:
            winner[g] = gm[G_WINNER, g]
            for s in range(n):
                final_lives[g, s] = ps[g, F_POOLS, s]
            final_in[g] = gm[G_IN_SESSION, g]
            _new_session(gm, ps, deck, after, cf, g)
            _flush(gm, ps, deck, after, cf, g, draws)
        else:
            for s in range(n):
                final_lives[g, s] = 0
            final_in[g] = 0


@_jit
def _may_knock(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, seat: int) -> bool:
    stake = gm[G_STAKE, g]
    if seat == gm[G_KNOCK_BAR, g] or stake >= cf[_C_MAX_STAKE]:
        return False
    lives = ps[g, F_POOLS, seat]
    if cf[_C_LIMIT] == 1 and lives < stake:
        return False
    if cf[_C_LIMIT] == 2 and stake >= lives:
        return False
    return not (not cf[_C_EARLY] and gm[G_ANY_CARD, g] != 1 and seat == gm[G_LEADER, g])


@_jit
def _mask_row(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, g: int, seat: int, mask: I8,
              i: int) -> None:
    """Row ``i`` of ``mask``: the legal actions of ``seat`` in game ``g`` (all zero when
    the game does not await it)."""
    for a in range(mask.shape[1]):
        mask[i, a] = 0
    if seat < 0 or seat != gm[G_TURN, g]:
        return
    phase = gm[G_PHASE, g]
    if phase == P_PLAY:
        hand = ps[g, F_HANDS, seat]
        led = gm[G_LED, g]
        if led >= 0:
            follow = hand & (_SUIT_MASK << (8 * led))
            if follow != 0:
                hand = follow
        for c in range(32):
            if hand >> c & 1:
                mask[i, c] = 1
    elif phase == P_ANSWER:
        mask[i, A_STAY] = 1
        mask[i, A_FOLD] = 1
    elif phase == P_CLAIM:
        mask[i, A_CLAIM] = 1
        mask[i, A_PASS] = 1
    elif phase == P_EXCH:
        mask[i, A_EXCH] = 1
        mask[i, A_PASS] = 1
    elif phase in (P_CLAIM_CH, P_EXCH_CH):
        mask[i, A_CHAL] = 1
        mask[i, A_PASS] = 1
    if phase in (P_PLAY, P_ANSWER) and _may_knock(gm, ps, deck, after, cf, g, seat):
        mask[i, A_KNOCK] = 1


@_jit
def fill_mask(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, games: I64, seats: I64,
              mask: I8) -> None:
    """``ToepenBatch._fill_mask``: row ``i``, seat ``seats[i]`` of game ``games[i]``."""
    for i in range(len(games)):
        _mask_row(gm, ps, deck, after, cf, games[i], seats[i], mask, i)


@_jit
def _put(buf: U64, off: int, value: int, width: int) -> None:
    """OR ``value`` (``width`` bits, at most 64) into the bit string ``buf`` at ``off``."""
    v = np.uint64(value)
    w = off >> 6
    sh = off & 63
    buf[w] |= v << np.uint64(sh)
    if sh + width > 64:
        buf[w + 1] |= v >> np.uint64(64 - sh)


@_jit
def _turned(m: int, me: int, n: int) -> int:
    """The seat mask ``m`` turned to ``me`` (bit ``r``: seat ``me + r``)."""
    return ((m >> me) | (m << (n - me))) & ((1 << n) - 1)


@_jit
def encode(gm: I64, ps: I64, deck: I64, after: I64, cf: I64, lay: I64, games: I64,
           seats: I64, x: F32, mask: I8) -> None:
    """``ToepenBatch._encode``: row ``i`` of ``x`` and ``mask``, the observation and the
    legal actions of seat ``seats[i]`` in game ``games[i]`` (every entry written). The 0/1
    entries are set as the bits of one bit string a row, then written out."""
    n = cf[_C_N]
    # the offsets as locals: a store into x could alias lay for all the compiler knows
    o_accepted = lay[_L_ACCEPTED]
    o_active = lay[_L_ACTIVE]
    o_drinks = lay[_L_DRINKS]
    o_knocks = lay[_L_KNOCKS]
    o_led = lay[_L_LED]
    o_lives = lay[_L_LIVES]
    o_phase = lay[_L_PHASE]
    o_played = lay[_L_PLAYED]
    o_revealed = lay[_L_REVEALED]
    o_stake = lay[_L_STAKE]
    o_stock = lay[_L_STOCK]
    o_sudden_death = lay[_L_SUDDEN_DEATH]
    o_tells = lay[_L_TELLS]
    o_to_act = lay[_L_TO_ACT]
    o_trick = lay[_L_TRICK]
    o_tricks_won = lay[_L_TRICKS_WON]
    o_trick_no = lay[_L_TRICK_NO]
    o_voids = lay[_L_VOIDS]
    binary = o_tells
    full = binary >> 6
    buf = np.zeros(full + 2, dtype=np.uint64)
    for i in range(len(games)):
        g = games[i]
        me = seats[i]
        for w in range(len(buf)):
            buf[w] = 0
        _put(buf, 0, ps[g, F_HANDS, me], 32)
        trick = 0
        voids = 0
        for r in range(n):
            s = _wrap(me + r, n)
            _put(buf, o_played + 32 * r, ps[g, F_PLAYED, s], 32)
            _put(buf, o_revealed + 32 * r, ps[g, F_REVEALED, s], 32)
            voids |= ps[g, F_VOIDS, s] << (4 * r)
            c = ps[g, F_TRICK_CARD, s]
            if c >= 0:
                trick |= 1 << c
        _put(buf, o_trick, trick, 32)
        led = gm[G_LED, g]
        _put(buf, o_led, (1 << led) if led >= 0 else 0, 4)
        _put(buf, o_phase, 1 << gm[G_PHASE, g], o_to_act - o_phase)
        _put(buf, o_voids, voids, 4 * n)
        for f, field in enumerate((G_TURN, G_DEALER, G_LEADER, G_LAST_KNOCKER)):
            seat = gm[field, g]
            if seat >= 0:
                _put(buf, o_to_act + f * n, 1 << _wrap(seat - me + n, n), n)
        for f, field in enumerate((G_ACTIVE, G_IN_SESSION, G_CLAIMED, G_EXCHANGED)):
            _put(buf, o_active + f * n, _turned(gm[field, g], me, n), n)
        row = x[i]
        for w in range(full):  # whole words: a loop of 64 that compiles to vector code
            v = np.int64(buf[w])
            for k in range(64):
                row[w * 64 + k] = (v >> k) & 1
        v = np.int64(buf[full])
        for k in range(binary - full * 64):
            row[full * 64 + k] = (v >> k) & 1
        for r in range(n):
            s = _wrap(me + r, n)
            x[i, o_tells + 2 * r] = ps[g, F_TELL_TEN, s] * 0.25
            x[i, o_tells + 2 * r + 1] = ps[g, F_TELL_JACK, s] * 0.25
            x[i, o_tricks_won + r] = ps[g, F_WON, s] * 0.25
            x[i, o_accepted + r] = ps[g, F_ACCEPTED, s]
            x[i, o_knocks + r] = ps[g, F_KNOCKS, s]
            x[i, o_lives + r] = ps[g, F_POOLS, s]
            x[i, o_drinks + r] = ps[g, F_DRINKS, s]
        x[i, o_trick_no] = gm[G_TRICK_NO, g] * 0.25
        x[i, o_stock] = (32 - gm[G_STOCK_POS, g]) * (1 / 32)
        x[i, o_sudden_death] = 0.0  # never without teams
        x[i, o_stake] = gm[G_STAKE, g]
        _mask_row(gm, ps, deck, after, cf, g, me, mask, i)


@_jit
def random_actions(mask: I8, u: npt.NDArray[np.float64], out: I64) -> None:
    """``out[i]``: legal action number ``floor(u[i] * count)`` of row ``i`` of ``mask``
    (``count`` its legal actions), as ``ToepenBatch.random_actions`` draws them."""
    for i in range(mask.shape[0]):
        count = 0
        for a in range(mask.shape[1]):
            count += mask[i, a]
        k = int(u[i] * count)
        out[i] = 0
        for a in range(mask.shape[1]):
            if mask[i, a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


def compile_all(state: State, lay: I64) -> float:
    """Compile every entry point for these array types (or load them from numba's cache),
    on empty inputs that change nothing; the seconds it took."""
    t = time.perf_counter()
    none = np.zeros(0, dtype=np.int64)
    n = int(state.cf[_C_N])
    step(*state, none, np.zeros(0, dtype=np.bool_), np.zeros((0, n), dtype=np.float32),
         np.zeros(0, dtype=np.bool_), none, np.zeros((0, n), dtype=np.int64), none)
    new_sessions(*state, none)
    masks = np.zeros((0, 39), dtype=np.int8)
    fill_mask(*state, none, none, masks)
    encode(*state, lay, none, none, np.zeros((0, 1), dtype=np.float32), masks)
    random_actions(masks, np.zeros(0, dtype=np.float64), none)
    return time.perf_counter() - t
