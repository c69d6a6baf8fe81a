"""Many Toepen sessions stepped together in NumPy arrays, for learning at speed.

:class:`ToepenBatch` holds ``num_games`` sessions of one rule set at one table size. Each
game awaits one seat (its ``turn``); :meth:`ToepenBatch.step` takes one action id per
game, applies them all at once and starts a finished game over on its own. Two paths do
it, with the same results bit for bit (``backend``, :data:`BACKENDS`): NumPy array
operations over all the games (loops run over the seats of a table or the cards of a
trick, never over the games), always there; and, with the optional ``fast`` extra
(numba), the same rules written for one game and compiled as a loop over the games
(:mod:`toepen.rl.kernel`), two to three times faster. The action ids (0..38) and the
observation vector are those of the PettingZoo environment
(:class:`~toepen.rl.encoding.ObservationEncoder`, :func:`~toepen.rl.encoding.action_mask`),
so an agent moves between the two unchanged, and the rules are the engine's own:
``tests/rl/test_batch.py`` plays over a thousand random sessions (two thousand hands) in
both from the same deals and compares every observation, mask, reward and ending.

Supported rules (anything else is refused with :class:`UnsupportedRules`): the presets
``rulebook``, ``classic``, ``kroegtoepen`` and ``no-knock`` at 2 to 8 players, and
``gezinstoepen`` at 3 or 4, with any of these options: ``lives``, ``last_trick``,
``dealer``, ``knock_limit``, ``max_stake``, ``first_player_may_knock_early``,
``armoede``, ``exchange``, ``tells``, ``pelt``, ``session``, ``rubbers``, and the
options that change no decision (``count``, ``beer_tally``, ``pot``, ``pot_unit``). Not
supported: ``teams`` and every house rule that changes play (``knock_anytime``,
``blind_knock``, ``double_knock``, ``edge``, ``jack_last_trick``, ``four_of_a_kind``,
``three_of_a_kind_draw``, ``witte_was``, ``vuile_was``) and ``rebuy``.

Decks come from a counter-based generator (SplitMix64 over the game's seed, its episode
and the deal's index, ranked into a permutation): each game's decks depend on its own
seed only, not on the other games of the batch. :func:`decks` of a game's key
(:attr:`ToepenBatch.keys`) gives the deck of any of its deals, so the engine can replay
the game (``Game(...).deal(deck)``).

>>> b = ToepenBatch("rulebook", 4, num_games=3, seed=7)
>>> obs, mask = b.observe()
>>> obs.shape, mask.shape, mask[0].nonzero()[0].tolist()  # claim, pass
((3, 418), (3, 39), [35, 38])
>>> r = b.step(np.full(3, 38))  # everyone passes the armoede claim
>>> r.rewards.shape, bool(r.done.any())
((3, 4), False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine.actions import NUM_ACTIONS
from ..engine.state import Phase
from ..rules import TELL_RANKS, Rules
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
    F_COUNT,
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
    G_COUNT,
    G_CURSOR,
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

__all__ = ["BACKENDS", "BatchResult", "ToepenBatch", "UnsupportedRules", "SUPPORTED_PRESETS",
           "decks"]

I64 = npt.NDArray[np.int64]
F32 = npt.NDArray[np.float32]
Bool = npt.NDArray[np.bool_]

BACKENDS = ("auto", "numba", "numpy")
"""``ToepenBatch(backend=...)``: ``auto`` compiles the rules with numba when it is installed
in its tested range (:mod:`toepen.rl.kernel`) and plays them in NumPy otherwise; ``numba``
requires it; ``numpy`` never uses it. Both give the same results, bit for bit."""

SUPPORTED_PRESETS = ("rulebook", "classic", "gezinstoepen", "kroegtoepen", "no-knock")
"""The presets :class:`ToepenBatch` plays (``teams`` and ``kroeg-huisregels`` are not)."""

_UNSUPPORTED_OPTIONS: dict[str, Any] = {
    "teams": False,
    "knock_anytime": False,
    "blind_knock": False,
    "double_knock": False,
    "edge": "normal",
    "jack_last_trick": "off",
    "four_of_a_kind": False,
    "three_of_a_kind_draw": False,
    "witte_was": False,
    "vuile_was": False,
    "rebuy": "off",
}
"""Options the batch does not play, with the one value it accepts."""


class UnsupportedRules(ValueError):
    """Rules the batched environment does not play (the engine and the AEC env do)."""



_HIGH = 0
for _s in range(4):
    _HIGH |= 0x0F << (8 * _s)  # ranks ten, 9, 8, 7 (ids 0..3 of each suit)
_SUIT = np.array([0xFF << (8 * s) for s in range(4)], dtype=np.int64)
_BITS4 = np.arange(4, dtype=np.int64)
_CHUNK = 2048
"""Rows of observations :meth:`ToepenBatch.encode` writes at a time."""


_POP = np.array([bin(m).count("1") for m in range(256)], dtype=np.int64)
_CARD_BIT = np.array([1 << c for c in range(32)] + [0], dtype=np.uint64)
"""A card id's bit; index -1 (no card) is the last entry, 0."""
_LED_BIT = np.array([0, 1, 2, 4, 8], dtype=np.uint64)
"""Index ``led + 1``: the led suit's bit (none when -1)."""
_ONE = np.uint64(1) << np.arange(64, dtype=np.uint64)
_PHASE_ACTIONS = np.zeros(len(Phase), dtype=np.uint64)
"""By phase id: the actions open to the seat asked, but for cards and knocking."""
for _ph, _acts in ((P_ANSWER, (A_STAY, A_FOLD)), (P_CLAIM, (A_CLAIM, A_PASS)),
                   (P_EXCH, (A_EXCH, A_PASS)), (P_CLAIM_CH, (A_CHAL, A_PASS)),
                   (P_EXCH_CH, (A_CHAL, A_PASS))):
    _PHASE_ACTIONS[_ph] = sum(1 << a for a in _acts)


def _put(words: npt.NDArray[np.uint64], v: npt.NDArray[np.uint64], off: int,
         width: int) -> None:
    """OR the ``width``-bit values ``v`` (one per row) into the rows' bit strings ``words``
    (64-bit words, bit 0 first) at bit ``off``."""
    w, s = divmod(off, 64)
    if s == 0:
        words[:, w] |= v
        return
    words[:, w] |= v << np.uint64(s)
    if s + width > 64:
        words[:, w + 1] |= v >> np.uint64(64 - s)


def _or_columns(a: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """The OR of the columns of ``a`` (rows, k), column by column: numpy's reductions
    are slow over a short last axis."""
    out = a[:, 0].copy()
    for c in range(1, a.shape[1]):
        out |= a[:, c]
    return out


@dataclass(frozen=True)
class _Layout:
    """Where the observation's 0/1 entries lie (its first ``binary`` entries, packed as
    bits in ``words`` 64-bit words by :meth:`ToepenBatch._encode_into`)."""

    played: int
    trick: int
    led: int
    phase: int
    to_act: int
    dealer: int
    leader: int
    last_knocker: int
    active: int
    in_session: int
    claimed: int
    exchanged: int
    voids: int
    revealed: int
    binary: int
    words: int

    @classmethod
    def of(cls, encoder: ObservationEncoder) -> _Layout:
        sl = encoder.slices
        n = encoder.players
        binary = sl["tells"].start
        # the packing relies on this order: every 0/1 block, then the numbers
        order = ["hand", "played", "trick", "led_suit", "phase", "to_act", "dealer", "leader",
                 "last_knocker", "active", "in_session", "claimed", "exchanged", "voids",
                 "revealed", "tells", "tricks_won", "trick_no", "stock", "sudden_death",
                 "stake", "accepted", "knocks", "lives", "drinks"]
        stops = [sl[k].stop for k in order[:-1]]
        assert stops == [sl[k].start for k in order[1:]], "the blocks are consecutive"
        assert sl["played"].start % 32 == 0 and sl["trick"].start % 32 == 0
        assert list(sl) == order and sl["hand"].start == 0 and sl["phase"].stop - sl[
            "phase"].start == 14 and sl["drinks"].stop - sl["tells"].start == 7 * n + 4
        return cls(sl["played"].start, sl["trick"].start, sl["led_suit"].start,
                   sl["phase"].start, sl["to_act"].start, sl["dealer"].start,
                   sl["leader"].start, sl["last_knocker"].start, sl["active"].start,
                   sl["in_session"].start, sl["claimed"].start, sl["exchanged"].start,
                   sl["voids"].start, sl["revealed"].start, binary, (binary + 63) // 64)

_M64 = np.uint64(0xFFFFFFFFFFFFFFFF)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_C1 = np.uint64(0xBF58476D1CE4E5B9)
_C2 = np.uint64(0x94D049BB133111EB)


def _mix(x: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """SplitMix64's finaliser over an array (wrapping uint64 arithmetic)."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _C1
    z = (z ^ (z >> np.uint64(27))) * _C2
    return z ^ (z >> np.uint64(31))


def _u64(values: Any) -> npt.NDArray[np.uint64]:
    return np.asarray(values, dtype=np.int64).astype(np.uint64) & _M64


def decks(keys: npt.ArrayLike, index: npt.ArrayLike) -> I64:
    """Deck number ``index`` of the sessions with ``keys`` (:attr:`ToepenBatch.keys`):
    an array ``(len(keys), 32)`` of card ids, dealt from the front like the engine's.

    >>> d = decks([5, 5, 6], [0, 1, 0])
    >>> sorted(d[0].tolist()) == list(range(32))
    True
    >>> bool((d[0] != d[1]).any()), bool((d[0] != d[2]).any())
    (True, True)
    """
    k = _u64(np.atleast_1d(keys))
    i = _u64(np.atleast_1d(index))
    base = _mix(k ^ _mix(i * _GOLDEN + np.uint64(1)))
    draws = _mix(base[:, None] + _u64(np.arange(1, 33)) * _C1)
    return np.argsort(draws, axis=1, kind="stable").astype(np.int64)


def _zeros(*shape: int) -> I64:
    return np.zeros(shape, dtype=np.int64)


def _after_table(n: int) -> I64:
    """Index ``mask << 3 | seat``: the first seat of ``mask`` clockwise after ``seat``."""
    out = np.full((1 << n) << 3, -1, dtype=np.int64)
    for mask in range(1 << n):
        for seat in range(n):
            for i in range(1, n + 1):
                s = (seat + i) % n
                if mask >> s & 1:
                    out[mask << 3 | seat] = s
                    break
    return out


def check_rules(rules: Rules, players: int) -> None:
    """Refuse rules or a table the batch does not play (:class:`UnsupportedRules`)."""
    if rules.name not in SUPPORTED_PRESETS:
        raise UnsupportedRules(
            f"preset {rules.name!r}: the batched environment plays "
            f"{', '.join(SUPPORTED_PRESETS)} (use the PettingZoo environment for the rest)"
        )
    for name, value in _UNSUPPORTED_OPTIONS.items():
        if getattr(rules, name) != value:
            raise UnsupportedRules(
                f"option {name}: the batched environment plays only {name}={value!r} "
                "(use the PettingZoo environment for this rule)"
            )
    if rules.dealer not in ("rotate", "last_trick_winner", "highest_loser"):
        raise UnsupportedRules(f"option dealer: {rules.dealer!r} is not supported")
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players: must be an integer, not {players!r}")
    rules.check_table(players)


@dataclass
class BatchResult:
    """What one :meth:`ToepenBatch.step` did, by game.

    ``rewards[g, s]``: minus the lives seat ``s`` lost in the hand that ended at this
    step (0 when no hand ended). ``hand_over``: a hand ended. ``done``: the episode
    ended (the game was then started over: its observation is the new episode's).
    ``winner``: the session's winner for a game whose session ended, else -1.
    ``final_lives`` and ``final_in_session``: lives and seats still in at the end of an
    ended episode (the state the new episode replaced).
    """

    rewards: F32
    hand_over: Bool
    done: Bool
    winner: I64
    final_lives: I64
    final_in_session: I64


class ToepenBatch:
    """``num_games`` sessions of ``rules`` at ``players`` seats, stepped together.

    ``seed`` seeds every game (game ``g``'s key is derived from ``seed`` and ``g``);
    ``episode`` is ``"session"`` (a game starts over when its session ends) or
    ``"hand"`` (when its first hand ends), as in the PettingZoo environment;
    ``first_dealer`` deals the first hand (``dealer`` is the rule option).
    """

    def __init__(
        self,
        rules: Rules | str = "rulebook",
        players: int = 4,
        *,
        num_games: int = 256,
        seed: int = 0,
        episode: str = "session",
        first_dealer: int = 0,
        backend: str = "auto",
        **options: Any,
    ) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"backend: must be one of {', '.join(BACKENDS)}, not {backend!r}")
        if isinstance(rules, str):
            rules = Rules.preset(rules, **options)
        elif options:
            rules = rules.replace(**options)
        check_rules(rules, players)
        if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
            raise ValueError(f"num_games: must be an integer >= 1, not {num_games!r}")
        if episode not in ("session", "hand"):
            raise ValueError(f"episode: must be one of session, hand, not {episode!r}")
        if (isinstance(first_dealer, bool) or not isinstance(first_dealer, int)
                or not 0 <= first_dealer < players):
            raise ValueError(
                f"first_dealer: must be a seat from 0 to {players - 1}, not {first_dealer!r}"
            )
        self.rules = rules
        self.n = n = players
        self.num_games = num_games
        self.episode = episode
        self.first_dealer = first_dealer
        self.encoder = ObservationEncoder(n)
        self._after = _after_table(n)
        self._seats = np.arange(n, dtype=np.int64)
        self._bit = np.int64(1) << self._seats
        self._loses = rules.last_trick_loses
        self._elim = rules.session == "elimination"
        self._max_stake = rules.max_stake if rules.max_stake is not None else 1 << 30
        self._limit = rules.knock_limit
        self._decl = P_CLAIM if rules.armoede else P_EXCH if rules.exchange else -1
        self._tell_ranks = TELL_RANKS[rules.tells]
        self._rank_masks = [
            sum(1 << (s * 8 + r) for s in range(4)) for r in range(8)
        ]
        N = num_games
        z = _zeros
        self._rot = (self._seats[:, None] + self._seats[None, :]) % n
        self._one_hot_starts = np.array(
            [self.encoder.slices[k].start for k in ("to_act", "dealer", "leader", "last_knocker")],
            dtype=np.int64)
        # The per-seat fields the observation shows, one block (views into it below), so
        # that turning them all to the observer is one gather.
        self._per_seat = z(N, F_COUNT, n)
        # _turned[me]: the flat indices (within a game's block) of its fields, turned to me
        self._turned = (np.arange(F_COUNT)[None, :, None] * n
                        + self._rot[:, None, :]).reshape(n, F_COUNT * n)
        # _gather[me]: those the observation packs or writes, in its order: played,
        # revealed, voids (by seat), tells (ten, jack by seat), tricks won, then accepted,
        # knocks, lives, drinks (by seat)
        t = self._turned.reshape(n, F_COUNT, n)
        tells = np.stack([t[:, F_TELL_TEN], t[:, F_TELL_JACK]], axis=2).reshape(n, 2 * n)
        self._gather = np.concatenate(
            [t[:, F_PLAYED], t[:, F_REVEALED], t[:, F_VOIDS], tells, t[:, F_WON],
             t[:, F_ACCEPTED : F_DRINKS + 1].reshape(n, -1)], axis=1)
        self._layout = _Layout.of(self.encoder)
        # _who[me, seat + 1]: seat's bit turned to me (0 for seat -1); _turn_flags[me, m]:
        # the seat mask m turned to me (bit r: seat me + r)
        self._who = np.zeros((n, n + 1), dtype=np.uint64)
        self._turn_flags = np.zeros((n, 1 << n), dtype=np.uint64)
        for me in range(n):
            for seat in range(n):
                self._who[me, seat + 1] = 1 << ((seat - me) % n)
            for m in range(1 << n):
                self._turn_flags[me, m] = sum(1 << r for r in range(n) if m >> ((me + r) % n) & 1)
        self._void_shift = (4 * np.arange(n)).astype(np.uint64)
        self._field_shift = (n * np.arange(8)).astype(np.uint64)
        block = self._per_seat
        # every per-game number is a row of one block (views below)
        self._game = gm = z(G_COUNT, N)
        # the session
        self.keys = gm[G_KEYS].view(np.uint64)
        """Each game's current session key: its decks are ``decks(keys[g], k)``."""
        self.game_keys = gm[G_GAME_KEYS].view(np.uint64)
        self.episodes = gm[G_EPISODES]
        self.deals = gm[G_DEALS]
        self.pools = block[:, F_POOLS]
        self.in_session = gm[G_IN_SESSION]
        self.dealer = gm[G_DEALER]
        self.hand_no = gm[G_HAND_NO]
        self.lives_lost = block[:, F_LOST]
        self.lost_before = block[:, F_LOST_BEFORE]
        self.drinks = block[:, F_DRINKS]
        self.rubbers_won = block[:, F_RUBBERS_WON]
        self.rubber_no = gm[G_RUBBER_NO]
        self.winner = gm[G_WINNER]
        # the hand
        self.phase = gm[G_PHASE]
        self.turn = gm[G_TURN]
        self.active = gm[G_ACTIVE]
        self.hands = block[:, F_HANDS]
        self.deck = z(N, 32)
        self.stock_pos = gm[G_STOCK_POS]
        self.stake = gm[G_STAKE]
        self.accepted = block[:, F_ACCEPTED]
        self.last_knocker = gm[G_LAST_KNOCKER]
        self.knock_bar = gm[G_KNOCK_BAR]
        self.leader = gm[G_LEADER]
        self.resume = gm[G_RESUME]
        self.trick_card = block[:, F_TRICK_CARD]
        self.trick_pos = block[:, F_TRICK_POS]
        self.trick_count = gm[G_TRICK_COUNT]
        self.played_mask = gm[G_PLAYED_MASK]
        self.led = gm[G_LED]
        self.trick_no = gm[G_TRICK_NO]
        self.any_card = gm[G_ANY_CARD]
        self.played = block[:, F_PLAYED]
        self.voids = block[:, F_VOIDS]
        self.tricks_won = block[:, F_WON]
        self.knocks = block[:, F_KNOCKS]
        self.claimed = gm[G_CLAIMED]
        self.exchanged = gm[G_EXCHANGED]
        self.revealed = block[:, F_REVEALED]
        self.tells = (block[:, F_TELL_TEN], block[:, F_TELL_JACK])
        self.discard = gm[G_DISCARD]
        self.target = gm[G_TARGET]
        self.queue = gm[G_QUEUE]  # seats still to be asked in the current round
        self.round_queue = gm[G_ROUND_QUEUE]  # the declaration round's, kept in a challenge
        self.cursor = gm[G_CURSOR]  # the seat asked last (the next is the first after it)
        self.round_cursor = gm[G_ROUND_CURSOR]
        self._hand_over = gm[G_HAND_OVER]  # 0/1: a hand ended in this step
        self._deals_due: list[tuple[I64, bool]] = []
        self._mask: npt.NDArray[np.int8] | None = None
        self.backend = "numpy"
        """The path that steps the games: ``numba`` (compiled) or ``numpy``."""
        self.compile_seconds = 0.0
        """Seconds the compiled path took to compile (or load from numba's cache)."""
        self._kernel: Any = None
        if backend != "numpy":
            self._start_kernel(backend == "numba")
        self.reset(seed)

    def _start_kernel(self, required: bool) -> None:
        """Use the compiled path (:mod:`toepen.rl.kernel`) when numba is there and in its
        tested range; ``required``: refuse to go on without it."""
        from . import kernel

        why = kernel.unavailable()
        if why is not None:
            if required:
                raise ValueError(f"backend 'numba': {why}")
            return
        rules = self.rules
        cf = kernel.config(
            n=self.n, loses=int(self._loses), elim=int(self._elim), max_stake=self._max_stake,
            limit={"none": 0, "lives_at_least_stake": 1,
                   "lives_cover_new_stake": 2}[self._limit],
            decl=self._decl, tell_ten=int(0 in self._tell_ranks),
            tell_jack=int(7 in self._tell_ranks), rubber=int(rules.session == "rubber"),
            rubbers=-1 if rules.rubbers is None else rules.rubbers,
            dealer_rule=("rotate", "last_trick_winner", "highest_loser").index(rules.dealer),
            hand_episode=int(self.episode == "hand"),
            early=int(rules.first_player_may_knock_early), pelt=int(rules.pelt),
            lives=rules.lives, first_dealer=self.first_dealer)
        self._state = kernel.State(self._game, self._per_seat, self.deck, self._after, cf)
        self._kernel_layout = kernel.layout(self.encoder)
        self.compile_seconds = kernel.compile_all(self._state, self._kernel_layout)
        self._kernel = kernel
        self.backend = "numba"

    @staticmethod
    def observation_bounds(players: int) -> tuple[F32, F32]:
        """(low, high) of every entry of an observation at a table of ``players``."""
        return ObservationEncoder(players).bounds()

    # -- episodes ----------------------------------------------------------------------

    def reset(self, seed: int = 0) -> None:
        """Start every game over: game ``g`` keyed by ``seed`` and ``g``."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed: must be an integer, not {seed!r}")
        N = self.num_games
        base = _mix(_u64([seed]))
        self.game_keys[:] = _mix(base + _u64(np.arange(N)) * _C2)
        self.episodes[:] = 0
        self._deals_due = []
        self._mask = None
        self._new_sessions(np.arange(N, dtype=np.int64))

    def _new_sessions(self, g: I64) -> None:
        """Start the sessions of games ``g`` over and deal their first hands."""
        if self._kernel is not None:
            self._kernel.new_sessions(*self._state, g)
            return
        self._new_session(g)
        self._flush_deals()

    def _new_session(self, g: I64) -> None:
        n = self.n
        self.keys[g] = _mix(self.game_keys[g] ^ _mix(_u64(self.episodes[g]) + _C1))
        self.episodes[g] += 1
        self.deals[g] = 0
        self.pools[g] = self.rules.lives
        self.in_session[g] = (1 << n) - 1
        self.active[g] = 0
        self.dealer[g] = self.first_dealer
        self.hand_no[g] = 0
        self.lives_lost[g] = 0
        self.lost_before[g] = 0
        self.drinks[g] = 0
        self.rubbers_won[g] = 0
        self.rubber_no[g] = 1
        self.winner[g] = -1
        self.leader[g] = -1
        self.turn[g] = -1
        self._start_hand(g)

    def _start_hand(self, g: I64) -> None:
        self.hand_no[g] += 1
        self.claimed[g] = 0
        self.exchanged[g] = 0
        self.knocks[g] = 0
        self._deal(g, False)

    def _deal(self, g: I64, redeal: bool) -> None:
        """Deal to games ``g`` (a redeal: to those still in the hand), at the end of the
        step (:meth:`_flush_deals`): one dealing for every game that needs one."""
        if len(g):
            self._deals_due.append((g, redeal))

    def _flush_deals(self) -> None:
        while self._deals_due:
            due, self._deals_due = self._deals_due, []
            g = np.concatenate([g for g, _ in due])
            redeal = np.concatenate([np.full(len(g), r) for g, r in due])
            self._deal_now(g, redeal)

    def _deal_now(self, g: I64, redeal: Bool) -> None:
        n = self.n
        fresh = g[~redeal]  # an armoede redeal keeps the hand's stake
        self.stake[fresh] = 1
        self.accepted[fresh] = 1
        self.last_knocker[fresh] = -1
        self.knock_bar[fresh] = -1
        self.trick_card[g] = -1
        self.trick_count[g] = 0
        self.played_mask[g] = 0
        self.led[g] = -1
        self.trick_no[g] = 0
        self.any_card[g] = 0
        self.tricks_won[g] = 0
        self.played[g] = 0
        self.voids[g] = 0
        self.revealed[g] = 0
        self.tells[0][g] = 0
        self.tells[1][g] = 0
        self.target[g] = -1
        self.discard[g] = 0
        self.resume[g] = -1
        members = np.where(redeal, self.active[g], -1) & self.in_session[g]
        deck = self.deck[g] = decks(self.keys[g], self.deals[g])
        self.deals[g] += 1
        m = _POP[members]
        M = len(g)
        rows = np.arange(M)[:, None]
        dealt = (members[:, None] >> self._seats) & 1  # (M, n) by seat
        order = (self.dealer[g][:, None] + 1 + self._seats) % n  # the k-th seat dealt to
        in_order = np.take_along_axis(dealt, order, axis=1)
        j = np.empty_like(in_order)
        j[rows, order] = np.cumsum(in_order, axis=1) - in_order  # place among those dealt
        # seat j of the order gets cards j, j + m, j + 2m and j + 3m of the deck
        pos = np.minimum(j[:, :, None] + m[:, None, None] * _BITS4, 31).reshape(M, -1)
        cards = np.take_along_axis(deck, pos, axis=1).reshape(M, n, 4)
        hands = (np.int64(1) << cards).sum(axis=2) * dealt
        self.hands[g] = hands
        self.stock_pos[g] = 4 * m
        self.active[g] = members
        if self._tell_ranks:
            for t, rank in enumerate((0, 7)):
                if rank not in self._tell_ranks:
                    continue
                rm = self._rank_masks[rank]
                x = hands & rm
                count = sum(((x >> (8 * su + rank)) & 1) for su in range(4))
                self.tells[t][g] = np.where(count >= 3, count, 0)
        self._start_declarations(g, members)

    # -- declarations (armoede, exchange) -----------------------------------------------

    def _start_declarations(self, g: I64, order: I64) -> None:
        if self._decl < 0:
            self._start_play(g)
            return
        self.queue[g] = order
        self.cursor[g] = self.dealer[g]
        self._next_declarer(g)

    def _next_declarer(self, g: I64) -> None:
        if len(g) == 0:
            return
        declared = self.claimed[g] if self._decl == P_CLAIM else self.exchanged[g]
        cand = self.queue[g] & self.active[g] & ~declared
        if self._decl == P_EXCH:
            cand = np.where(self.stock_pos[g] + 4 > 32, 0, cand)
        nxt = self._after[cand << 3 | self.cursor[g]]
        ask = nxt >= 0
        ga = g[ask]
        self.phase[ga] = self._decl
        self.turn[ga] = nxt[ask]
        self._start_play(g[~ask])

    def _declare(self, g: I64, seat: I64, declare: Bool) -> None:
        bit = np.int64(1) << seat
        self.queue[g] &= ~bit
        self.cursor[g] = seat
        self._next_declarer(g[~declare])
        g, seat, bit = g[declare], seat[declare], bit[declare]
        if len(g) == 0:
            return
        if self._decl == P_CLAIM:
            self.claimed[g] |= bit
        else:
            self.exchanged[g] |= bit
            old = self.hands[g, seat]
            self.discard[g] = old
            pos = self.stock_pos[g]
            new = np.zeros(len(g), dtype=np.int64)
            for r in range(4):
                new |= np.int64(1) << self.deck[g, pos + r]
            self.stock_pos[g] = pos + 4
            self.hands[g, seat] = new
        self.target[g] = seat
        self.round_queue[g] = self.queue[g]
        self.round_cursor[g] = seat
        opp = self.active[g] & ~bit
        self.queue[g] = opp
        self.cursor[g] = seat
        nxt = self._after[opp << 3 | seat]
        ask = nxt >= 0
        self.phase[g[ask]] = P_CLAIM_CH if self._decl == P_CLAIM else P_EXCH_CH
        self.turn[g[ask]] = nxt[ask]
        self._stands(g[~ask])

    def _challenge(self, g: I64, seat: I64, challenge: Bool) -> None:
        bit = np.int64(1) << seat
        self.queue[g] &= ~bit
        # a pass: the next opponent, or the declaration stands unchallenged
        p = ~challenge
        gp, sp = g[p], seat[p]
        nxt = self._after[self.queue[gp] << 3 | sp]
        more = nxt >= 0
        self.turn[gp[more]] = nxt[more]
        self._stands(gp[~more])
        # a challenge: the declared cards are shown
        g, seat = g[challenge], seat[challenge]
        if len(g) == 0:
            return
        declarer = self.target[g]
        shown = self.hands[g, declarer] if self._decl == P_CLAIM else self.discard[g]
        self.revealed[g, declarer] |= shown
        honest = (shown & _HIGH) == 0
        gh = g[honest]
        self._lose(gh, seat[honest], np.ones(len(gh), dtype=np.int64))
        self._stands(gh[self.phase[gh] != P_OVER])
        gd = g[~honest]
        self._lose(gd, declarer[~honest], np.ones(len(gd), dtype=np.int64))
        gd = gd[self.phase[gd] != P_OVER]
        self.queue[gd] = self.round_queue[gd]
        self.cursor[gd] = self.round_cursor[gd]
        self._next_declarer(gd)

    def _stands(self, g: I64) -> None:
        if len(g) == 0:
            return
        if self._decl == P_CLAIM:
            self._deal(g, True)
        else:
            self.queue[g] = self.round_queue[g]
            self.cursor[g] = self.round_cursor[g]
            self._next_declarer(g)

    # -- play ----------------------------------------------------------------------------

    def _start_play(self, g: I64) -> None:
        if len(g) == 0:
            return
        n = self.n
        active = self.active[g]
        lone = _POP[active] <= 1
        self._end_hand_by_folds(g[lone])
        g, active = g[~lone], active[~lone]
        if self.rules.pelt:
            opener = np.full(len(g), -1, dtype=np.int64)
            open_now = self.last_knocker[g] < 0
            for k in range(n, 0, -1):  # the first seat in order wins: walk it backwards
                s = (self.dealer[g] + k) % n
                one = open_now & ((active >> s & 1) == 1) & (self.pools[g, s] == 1)
                opener = np.where(one, s, opener)
            pelt = opener >= 0
            gp, sp = g[pelt], opener[pelt]
            self.stake[gp] = 2
            self.accepted[gp, sp] = 2
            self.last_knocker[gp] = sp
            self.knock_bar[gp] = sp
            self.leader[gp] = sp
            self.resume[gp] = sp
            self._ask_answers(gp, sp)
            g, active = g[~pelt], active[~pelt]
        leader = self._after[active << 3 | self.dealer[g]]
        self.leader[g] = leader
        self.phase[g] = P_PLAY
        self.turn[g] = leader

    def _ask_answers(self, g: I64, seat: I64) -> None:
        q = self.active[g] & ~(np.int64(1) << seat)
        self.queue[g] = q
        self.phase[g] = P_ANSWER
        self.turn[g] = self._after[q << 3 | seat]

    def _knock(self, g: I64, seat: I64) -> None:
        stake = self.stake[g] + 1
        self.stake[g] = stake
        self.accepted[g, seat] = stake
        self.last_knocker[g] = seat
        self.knock_bar[g] = seat
        self.knocks[g, seat] += 1
        in_play = self.phase[g] == P_PLAY
        self.resume[g[in_play]] = seat[in_play]
        self._ask_answers(g, seat)

    def _next_answer(self, g: I64, seat: I64) -> None:
        self.queue[g] &= ~(np.int64(1) << seat)
        cand = self.queue[g] & self.active[g]
        nxt = self._after[cand << 3 | seat]
        more = nxt >= 0
        self.turn[g[more]] = nxt[more]
        self._resume_play(g[~more])

    def _resume_play(self, g: I64) -> None:
        if len(g) == 0:
            return
        unplayed = self.active[g] & ~self.played_mask[g]
        done = unplayed == 0
        self._finish_trick(g[done])
        g, unplayed = g[~done], unplayed[~done]
        seat = self.resume[g]
        off = (unplayed >> seat & 1) == 0
        seat = np.where(off, self._after[unplayed << 3 | seat], seat)
        empty = (self.trick_card[g] < 0).all(axis=1)
        self.leader[g[empty]] = seat[empty]
        self.phase[g] = P_PLAY
        self.turn[g] = seat

    def _leave_hand(self, g: I64, seat: I64) -> None:
        bit = np.int64(1) << seat
        self.active[g] &= ~bit
        self.hands[g, seat] = 0
        self.played_mask[g] &= ~bit
        self.trick_card[g, seat] = -1

    def _fold(self, g: I64, seat: I64) -> None:
        paid = self.accepted[g, seat]
        self._leave_hand(g, seat)
        self._lose(g, seat, paid)
        live = self.phase[g] != P_OVER
        g, seat = g[live], seat[live]
        lone = _POP[self.active[g]] <= 1
        self._end_hand_by_folds(g[lone])
        self._next_answer(g[~lone], seat[~lone])

    def _play(self, g: I64, seat: I64, card: I64) -> None:
        cbit = np.int64(1) << card
        self.hands[g, seat] &= ~cbit
        led = self.led[g]
        led = np.where(led < 0, card >> 3, led)
        self.led[g] = led
        self.trick_card[g, seat] = card
        self.trick_pos[g, seat] = self.trick_count[g]
        self.trick_count[g] += 1
        self.played[g, seat] |= cbit
        off = (card >> 3) != led
        self.voids[g[off], seat[off]] |= np.int64(1) << led[off]
        played = self.played_mask[g] | (np.int64(1) << seat)
        self.played_mask[g] = played
        self.any_card[g] = 1
        unplayed = self.active[g] & ~played
        last = unplayed == 0
        more = ~last
        self.turn[g[more]] = self._after[unplayed[more] << 3 | seat[more]]
        self._finish_trick(g[last])

    def _finish_trick(self, g: I64) -> None:
        if len(g) == 0:
            return
        cards = self.trick_card[g]
        led = self.led[g]
        follows = (cards >= 0) & ((cards >> 3) == led[:, None])
        best = np.where(follows, cards, 99).argmin(axis=1)
        anyf = follows.any(axis=1)
        first = np.where(cards >= 0, self.trick_pos[g], 1 << 30).argmin(axis=1)
        winner = np.where(anyf, best, first).astype(np.int64)
        self.trick_no[g] += 1
        self.tricks_won[g, winner] += 1
        self.trick_card[g] = -1
        self.trick_count[g] = 0
        self.played_mask[g] = 0
        self.led[g] = -1
        final = self.trick_no[g] == 4
        gm, wm = g[~final], winner[~final]
        self.leader[gm] = wm
        self.phase[gm] = P_PLAY
        self.turn[gm] = wm
        self._settle(g[final], winner[final])

    # -- lives, hands, the session ---------------------------------------------------------

    def _settle(self, g: I64, last: I64) -> None:
        if len(g) == 0:
            return
        stake = self.stake[g]
        if self._loses:
            self._lose(g, last, stake)
        else:
            n = self.n
            for k in range(1, n):
                s = (last + k) % n
                pays = (self.active[g] >> s & 1) == 1
                self._lose(g[pays], s[pays], stake[pays])
        live = self.phase[g] != P_OVER
        self._end_hand(g[live], last[live])

    def _end_hand_by_folds(self, g: I64) -> None:
        if len(g) == 0:
            return
        lone = self._after[self.active[g] << 3 | self.dealer[g]]
        self._end_hand(g, lone)

    def _lose(self, g: I64, seat: I64, amount: I64) -> None:
        if len(g) == 0:
            return
        self.pools[g, seat] -= amount
        self.lives_lost[g, seat] += amount
        if not self._elim:
            return
        out = (self.pools[g, seat] <= 0) & ((self.in_session[g] >> seat & 1) == 1)
        go, so = g[out], seat[out]
        if len(go) == 0:
            return
        self._leave_hand(go, so)
        left = self.in_session[go] & ~(np.int64(1) << so)
        self.in_session[go] = left
        count = _POP[left]
        if (count == 0).any():  # every side out at once: unreachable without teams
            raise RuntimeError("sudden death is not supported by the batched environment")
        fin = count == 1
        gf = go[fin]
        self.winner[gf] = self._after[left[fin] << 3]  # the one seat left
        self.phase[gf] = P_OVER
        self.turn[gf] = -1
        self._hand_over[gf] = 1

    def _end_hand(self, g: I64, last: I64) -> None:
        if len(g) == 0:
            return
        self._hand_over[g] = 1
        n = self.n
        if self.rules.session == "rubber":
            lives = self.pools[g]
            out = lives.min(axis=1) <= 0
            gr, lv = g[out], lives[out]
            best = lv.max(axis=1, keepdims=True)
            self.drinks[gr] += lv <= 0
            self.rubbers_won[gr] += lv == best
            self.pools[gr] = self.rules.lives
            limit = self.rules.rubbers
            if limit is not None:
                over = self.rubber_no[gr] >= limit
                gf = gr[over]
                key = self.drinks[gf] * 1000 - self.rubbers_won[gf]
                self.winner[gf] = key.argmin(axis=1)
                self.phase[gf] = P_OVER
                self.turn[gf] = -1
                self.rubber_no[gr[~over]] += 1
                keep = ~np.isin(g, gf)
                g, last = g[keep], last[keep]
            else:
                self.rubber_no[gr] += 1
        if self.episode == "hand":
            self.phase[g] = P_OVER  # the episode ends here; the game is started over
            self.turn[g] = -1
            return
        ins = self.in_session[g]
        rule = self.rules.dealer
        if rule == "rotate":
            dealer = self._after[ins << 3 | self.dealer[g]]
        elif rule == "last_trick_winner":
            dealer = np.where(ins >> last & 1, last, self._after[ins << 3 | last])
        else:  # highest_loser: the fewest lives, the first clockwise after the dealer
            dealer = np.full(len(g), -1, dtype=np.int64)
            fewest = np.full(len(g), 1 << 30, dtype=np.int64)
            for k in range(1, n + 1):
                s = (self.dealer[g] + k) % n
                lives = self.pools[g, s]
                better = ((ins >> s & 1) == 1) & (lives < fewest)
                dealer = np.where(better, s, dealer)
                fewest = np.where(better, lives, fewest)
        self.dealer[g] = dealer
        self._start_hand(g)

    # -- stepping ----------------------------------------------------------------------------

    def legal_mask(self) -> npt.NDArray[np.int8]:
        """The 0/1 mask over the 39 action ids of the seat each game awaits."""
        N = self.num_games
        mask = np.zeros((N, NUM_ACTIONS), dtype=np.int8)
        self._fill_mask(np.arange(N), self.turn, mask)
        return mask

    def _may_knock(self, g: I64, seat: I64) -> Bool:
        stake = self.stake[g]
        may: Bool = (seat != self.knock_bar[g]) & (stake < self._max_stake)
        lives = self.pools[g, seat]
        if self._limit == "lives_at_least_stake":
            may &= lives >= stake
        elif self._limit == "lives_cover_new_stake":
            may &= stake < lives
        if not self.rules.first_player_may_knock_early:
            may &= (self.any_card[g] == 1) | (seat != self.leader[g])
        return may

    def _fill_mask(self, g: I64, seat: I64, mask: npt.NDArray[np.int8]) -> None:
        """Set ``mask[i]`` to the legal actions of ``seat[i]`` in game ``g[i]`` (``mask``
        all zero): the legal action ids as the bits of one 64-bit word a row, unpacked."""
        if self._kernel is not None:
            self._kernel.fill_mask(*self._state, np.asarray(g, dtype=np.int64),
                                   np.asarray(seat, dtype=np.int64), mask)
            return
        phase = self.phase[g]
        asked = (seat >= 0) & (seat == self.turn[g])
        play = asked & (phase == P_PLAY)
        knocking = play | (asked & (phase == P_ANSWER))
        # cards: the hand, or its cards of the led suit when it has any
        hand = self.hands[g, np.maximum(seat, 0)]
        led = self.led[g]
        follow = hand & _SUIT.take(np.maximum(led, 0))
        legal = np.where((led >= 0) & (follow != 0), follow, hand)
        legal[~play] = 0
        legal = legal.view(np.uint64)
        # stay/fold and the declarations' pairs, by phase, for the seat asked
        legal |= np.where(asked, _PHASE_ACTIONS.take(phase), np.uint64(0))
        if knocking.any():
            i = np.flatnonzero(knocking)
            may = self._may_knock(g[i], seat[i])
            legal[i[may]] |= _ONE[A_KNOCK]
        mask[:] = np.unpackbits(legal.view(np.uint8).reshape(-1, 8), axis=1,
                                count=NUM_ACTIONS, bitorder="little")

    def step(self, actions: npt.ArrayLike, only: npt.ArrayLike | None = None) -> BatchResult:
        """Apply one action id per game (for the seat it awaits); start finished games over.

        ``only`` (booleans by game): step those games alone; the others keep their
        position and their actions are not read. An action that is not legal raises
        ValueError naming the game, and changes nothing.
        """
        a = np.asarray(actions)
        N = self.num_games
        if a.shape != (N,) or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions: must be {N} integer action ids, not shape {a.shape} "
                             f"of {a.dtype}")
        sel_games = np.ones(N, dtype=bool)
        if only is not None:
            sel_games = np.asarray(only)
            if sel_games.shape != (N,) or sel_games.dtype != np.bool_:
                raise ValueError(f"only: must be {N} booleans, not shape {sel_games.shape} "
                                 f"of {sel_games.dtype}")
        a = np.where(sel_games, a, 0).astype(np.int64)
        bad = (a < 0) | (a >= NUM_ACTIONS)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"actions[{i}]: {int(a[i])} is not an action id (0..38)")
        mask = self._mask if self._mask is not None else self.legal_mask()
        ok = (mask.reshape(-1).take(np.arange(0, N * NUM_ACTIONS, NUM_ACTIONS) + a) == 1)
        ok |= ~sel_games
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            raise ValueError(
                f"actions[{i}]: action {int(a[i])} is not legal for seat {int(self.turn[i])} "
                f"in phase {list(Phase)[int(self.phase[i])]}"
            )
        if only is not None:
            return self._step(a, np.where(sel_games, self.phase, -1))
        return self._step(a, self.phase.copy())

    def restart(self, games: npt.ArrayLike) -> None:
        """Start the sessions of ``games`` (booleans by game) over, as a finished one is."""
        sel = np.asarray(games)
        if sel.shape != (self.num_games,) or sel.dtype != np.bool_:
            raise ValueError(f"games: must be {self.num_games} booleans")
        self._mask = None
        self._new_sessions(np.flatnonzero(sel).astype(np.int64))

    def _step(self, a: I64, phase: I64) -> BatchResult:
        N, n = self.num_games, self.n
        self._mask = None
        if self._kernel is not None:
            out = BatchResult(np.empty((N, n), dtype=np.float32), np.empty(N, dtype=bool),
                              np.empty(N, dtype=bool), np.empty(N, dtype=np.int64),
                              np.empty((N, n), dtype=np.int64), np.empty(N, dtype=np.int64))
            self._kernel.step(*self._state, a, phase >= 0, out.rewards, out.done,
                              out.winner, out.final_lives, out.final_in_session)
            out.hand_over[:] = self._hand_over == 1
            return out
        self._hand_over[:] = 0
        seat = self.turn.copy()
        g = np.arange(N, dtype=np.int64)
        playing = phase == P_PLAY
        sel = playing & (a < 32)
        self._play(g[sel], seat[sel], a[sel])
        sel = (playing | (phase == P_ANSWER)) & (a == A_KNOCK)
        self._knock(g[sel], seat[sel])
        sel = (phase == P_ANSWER) & (a == A_STAY)
        gs, ss = g[sel], seat[sel]
        self.accepted[gs, ss] = self.stake[gs]
        self._next_answer(gs, ss)
        sel = (phase == P_ANSWER) & (a == A_FOLD)
        self._fold(g[sel], seat[sel])
        sel = (phase == P_CLAIM) | (phase == P_EXCH)
        self._declare(g[sel], seat[sel], a[sel] != A_PASS)
        sel = (phase == P_CLAIM_CH) | (phase == P_EXCH_CH)
        self._challenge(g[sel], seat[sel], a[sel] == A_CHAL)
        self._flush_deals()

        hand_over = self._hand_over == 1
        rewards = np.zeros((N, n), dtype=np.float32)
        h = np.flatnonzero(hand_over)
        rewards[h] = -(self.lives_lost[h] - self.lost_before[h])
        self.lost_before[h] = self.lives_lost[h]
        done = self.phase == P_OVER
        d = np.flatnonzero(done)
        winner = np.full(N, -1, dtype=np.int64)
        final_lives = np.zeros((N, n), dtype=np.int64)
        final_in = np.zeros(N, dtype=np.int64)
        if len(d):
            winner[d] = self.winner[d]
            final_lives[d] = self.pools[d]
            final_in[d] = self.in_session[d]
            self._new_session(d)
            self._flush_deals()
        return BatchResult(rewards, hand_over, done, winner, final_lives, final_in)

    # -- observing -----------------------------------------------------------------------------

    def observe(self, seats: npt.ArrayLike | None = None) -> tuple[F32, npt.NDArray[np.int8]]:
        """(observations, action masks) of ``seats`` (one per game; default: the seat each
        game awaits), exactly the PettingZoo environment's ``observation`` and
        ``action_mask`` of that seat."""
        g = np.arange(self.num_games, dtype=np.int64)
        seat = self.turn if seats is None else np.asarray(seats, dtype=np.int64)
        if seat.shape != g.shape or ((seat < 0) | (seat >= self.n)).any():
            raise ValueError(f"seats: must be {self.num_games} seats from 0 to {self.n - 1}")
        obs, mask = self._encode(g, seat, whole=True)
        if seats is None:
            self._mask = mask.copy()  # step() checks the actions against it
        return obs, mask

    def encode(self, g: I64, me: I64) -> tuple[F32, npt.NDArray[np.int8]]:
        """Observations and masks of seat ``me[i]`` in game ``g[i]``."""
        return self._encode(g, me, whole=False)

    def _encode(self, g: I64, me: I64, whole: bool) -> tuple[F32, npt.NDArray[np.int8]]:
        """:meth:`encode`; ``whole``: ``g`` is every game in order (the state's rows are
        then read as slices, not gathered)."""
        M = len(g)
        x = np.empty((M, self.encoder.size), dtype=np.float32)  # every entry is written
        if self._kernel is not None:
            mask = np.empty((M, NUM_ACTIONS), dtype=np.int8)
            self._kernel.encode(*self._state, self._kernel_layout,
                                np.asarray(g, dtype=np.int64), np.asarray(me, dtype=np.int64),
                                x, mask)
            return x, mask
        # a couple of thousand rows at a time: fewer NumPy calls, temporaries still cached
        for start in range(0, M, _CHUNK):
            stop = min(start + _CHUNK, M)
            rows = slice(start, stop) if whole else g[start:stop]
            self._encode_into(x[start:stop], g[start:stop], rows, me[start:stop])
        mask = np.zeros((M, NUM_ACTIONS), dtype=np.int8)
        self._fill_mask(g, me, mask)
        return x, mask

    def _encode_into(self, x: F32, g: I64, rows: I64 | slice, me: I64) -> None:
        """Write the observations of seat ``me[i]`` in game ``g[i]`` into ``x``; ``rows``
        reads those games' rows of the state (``g`` itself, or the slice ``g`` spans)."""
        n = self.n
        M = len(g)
        lay = self._layout
        # every per-seat field, turned to the observer, in one gather (cards, voids, then
        # the numbers of the observation's tail, in its order)
        flat = np.take(self._gather, me, axis=0)
        flat += (g * (F_COUNT * n))[:, None]
        signed = np.take(self._per_seat, flat)
        per = signed.view(np.uint64)
        # the observation's 0/1 entries, packed as its bits in 64-bit words, unpacked once
        words = np.zeros((M, lay.words), dtype=np.uint64)
        # hand, played (by seat turned to me) and trick: whole 32-bit words of the string
        w32 = words.view(np.uint32)
        w32[:, 0] = self.hands[g, me]
        w32[:, 1 : n + 1] = per[:, :n]
        w32[:, n + 1] = _or_columns(_CARD_BIT.take(self.trick_card[rows]))
        for r in range(n):
            _put(words, per[:, n + r], lay.revealed + 32 * r, 32)
        _put(words, _LED_BIT[self.led[rows] + 1] | (_ONE[self.phase[rows]] << np.uint64(4)),
             lay.led, 18)
        # to act, dealer, leader, last knocker (one-hot) and active, in session, claimed,
        # exchanged (seat masks): eight consecutive n-bit fields, turned to me
        seats = np.stack([self.turn[rows], self.dealer[rows], self.leader[rows],
                          self.last_knocker[rows]], axis=1)
        masks = np.stack([self.active[rows], self.in_session[rows], self.claimed[rows],
                          self.exchanged[rows]], axis=1)
        mec = me[:, None]
        fields = np.concatenate([self._who.take(mec * (n + 1) + seats + 1),
                                 self._turn_flags.take(mec * (1 << n) + masks)], axis=1)
        fields <<= self._field_shift
        _put(words, _or_columns(fields), lay.to_act, 8 * n)
        voids = _or_columns(per[:, 2 * n : 3 * n] << self._void_shift)
        _put(words, voids, lay.voids, 4 * n)
        bits = np.unpackbits(words.view(np.uint8), axis=1, count=lay.binary, bitorder="little")
        x[:, : lay.binary] = bits
        # the numbers: tells / 4, tricks won / 4 (turned), trick_no, stock, stake, then
        # accepted, knocks, lives and drinks (turned)
        t = lay.binary
        np.multiply(signed[:, 3 * n : 6 * n], np.float32(0.25), out=x[:, t : t + 3 * n],
                    casting="unsafe")
        t += 3 * n
        x[:, t] = self.trick_no[rows] * np.float32(0.25)
        x[:, t + 1] = (32 - self.stock_pos[rows]) * np.float32(1 / 32)
        x[:, t + 2] = 0.0  # sudden death: never without teams
        x[:, t + 3] = self.stake[rows]
        x[:, t + 4 :] = signed[:, 6 * n :]

    def random_actions(self, rng: np.random.Generator,
                       mask: npt.NDArray[np.int8] | None = None) -> I64:
        """A uniformly random legal action for each game (for benchmarks and baselines):
        one number ``u`` of ``rng`` a game, its legal action number ``floor(u * count)``.
        ``mask``: the games' legal actions, when :meth:`observe` has just given them."""
        if mask is None:
            mask = self.legal_mask()
        u = rng.random(len(mask))
        if self._kernel is not None:
            out: I64 = np.empty(len(mask), dtype=np.int64)
            self._kernel.random_actions(mask, u, out)
            return out
        k = (u * mask.sum(axis=1)).astype(np.int64)
        out = (np.cumsum(mask, axis=1) > k[:, None]).argmax(axis=1).astype(np.int64)
        return out
