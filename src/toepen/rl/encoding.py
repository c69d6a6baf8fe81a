"""Fixed-size numeric encodings of what one seat may know, for learning agents.

Everything here is computed from a :class:`~toepen.view.View` (``observe(game, seat)``),
the one door to hidden information, so an encoding can never show a seat a card it may
not see. Seats are *relative*: block index 0 is the observing seat, 1 the seat on its
left, and so on clockwise.

>>> from toepen.engine import Game
>>> from toepen.view import observe
>>> g = Game.new("rulebook", 4, seed=3)
>>> enc = ObservationEncoder(4)
>>> x = enc.encode(observe(g, 2))
>>> x.shape == (enc.size,), int(x[enc.slices["hand"]].sum())
(True, 4)
>>> action_mask(observe(g, g.turn)).nonzero()[0].tolist()  # claim, pass
[35, 38]
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..engine.actions import KNOCK, NUM_ACTIONS
from ..engine.state import Phase
from ..view import View

__all__ = ["NUM_ACTIONS", "ObservationEncoder", "HistoryEncoder", "action_mask"]

FloatArray = npt.NDArray[np.float32]

_PHASES = {str(p): i for i, p in enumerate(Phase)}


def action_mask(view: View) -> npt.NDArray[np.int8]:
    """A 0/1 vector over the 39 action ids: 1 for each of ``view.legal``."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for a in view.legal:
        mask[int(a)] = 1
    return mask


@dataclass(frozen=True)
class _Feature:
    name: str
    size: int
    binary: bool
    """True: values in [0, 1]. False: a count or an amount of lives (unbounded)."""
    low: float = 0.0


@dataclass
class ObservationEncoder:
    """The observation vector of one seat at a table of ``players``.

    Blocks (``n`` = players, seats relative to the observer), in order:

    ==================  ==========  ===============================================
    block               size        meaning
    ==================  ==========  ===============================================
    ``hand``            32          own cards
    ``played``          n x 32      cards played this deal, by seat
    ``trick``           32          cards in the trick in progress
    ``led_suit``        4           suit led in the trick in progress
    ``phase``           14          the engine phase (one-hot, house rules' and pot toepen's too)
    ``to_act``          n           seat whose decision is awaited
    ``dealer``          n           the dealer
    ``leader``          n           leader of the trick in progress
    ``last_knocker``    n           who made the latest knock of this hand
    ``active``          n           still in the hand (0: folded or out)
    ``in_session``      n           still in the session
    ``claimed``         n           claimed armoede this hand
    ``exchanged``       n           exchanged this hand
    ``voids``           n x 4       suits a seat has shown it lacks this deal
    ``revealed``        n x 32      hands shown by a challenge this hand
    ``tells``           n x 2       tens / jacks announced (count / 4)
    ``tricks_won``      n           tricks taken this hand (/ 4)
    ``trick_no``        1           tricks completed this hand (/ 4)
    ``stock``           1           cards left in the stock (/ 32)
    ``sudden_death``    1           a sudden-death hand
    ``stake``           1           the stake of the hand
    ``accepted``        n           the stake each seat last accepted
    ``knocks``          n           knocks made this hand, by seat
    ``lives``           n           lives (teams: the pair's pool; may be <= 0)
    ``drinks``          n           rounds of drinks owed (rubber sessions)
    ==================  ==========  ===============================================
    """

    players: int
    features: tuple[_Feature, ...] = field(init=False)
    slices: dict[str, slice] = field(init=False)
    size: int = field(init=False)

    def __post_init__(self) -> None:
        n = self.players
        if not isinstance(n, int) or not 2 <= n <= 8:
            raise ValueError(f"players: must be 2 to 8, not {n!r}")
        feats = [
            _Feature("hand", 32, True),
            _Feature("played", n * 32, True),
            _Feature("trick", 32, True),
            _Feature("led_suit", 4, True),
            _Feature("phase", len(Phase), True),
            _Feature("to_act", n, True),
            _Feature("dealer", n, True),
            _Feature("leader", n, True),
            _Feature("last_knocker", n, True),
            _Feature("active", n, True),
            _Feature("in_session", n, True),
            _Feature("claimed", n, True),
            _Feature("exchanged", n, True),
            _Feature("voids", n * 4, True),
            _Feature("revealed", n * 32, True),
            _Feature("tells", n * 2, True),
            _Feature("tricks_won", n, True),
            _Feature("trick_no", 1, True),
            _Feature("stock", 1, True),
            _Feature("sudden_death", 1, True),
            _Feature("stake", 1, False),
            _Feature("accepted", n, False),
            _Feature("knocks", n, False),
            _Feature("lives", n, False, low=-np.inf),
            _Feature("drinks", n, False),
        ]
        self.features = tuple(feats)
        self.slices = {}
        pos = 0
        for f in feats:
            self.slices[f.name] = slice(pos, pos + f.size)
            pos += f.size
        self.size = pos

    def bounds(self) -> tuple[FloatArray, FloatArray]:
        """(low, high) of every entry, for a ``gymnasium.spaces.Box``."""
        low = np.zeros(self.size, dtype=np.float32)
        high = np.ones(self.size, dtype=np.float32)
        for f in self.features:
            sl = self.slices[f.name]
            low[sl] = f.low
            if not f.binary:
                high[sl] = np.inf
        return low, high

    def encode(self, view: View, out: FloatArray | None = None) -> FloatArray:
        """The vector of ``view`` (a seat's view; not a spectator's)."""
        if view.seat is None:
            raise ValueError("view: a spectator view has no seat to encode for")
        n = self.players
        if len(view.players) != n:
            raise ValueError(f"view: a table of {len(view.players)}, not {n}")
        x = np.zeros(self.size, dtype=np.float32) if out is None else out
        if out is not None:
            x.fill(0.0)
        me = view.seat
        s = self.slices

        def rel(seat: int) -> int:
            return (seat - me) % n

        def one_hot(name: str, seat: int) -> None:
            if seat >= 0:
                x[s[name].start + rel(seat)] = 1.0

        def per_seat(name: str, values: tuple[int, ...] | tuple[bool, ...]) -> None:
            base = s[name].start
            for seat, v in enumerate(values):
                x[base + rel(seat)] = float(v)

        hand0 = s["hand"].start
        for c in view.hand:
            x[hand0 + c] = 1.0
        played0 = s["played"].start
        for seat, c in view.played:
            x[played0 + 32 * rel(seat) + c] = 1.0
        trick0 = s["trick"].start
        for _, c in view.trick:
            x[trick0 + c] = 1.0
        if view.led_suit >= 0:
            x[s["led_suit"].start + view.led_suit] = 1.0
        x[s["phase"].start + _PHASES[view.phase]] = 1.0
        for seat in view.to_act:
            one_hot("to_act", seat)
        one_hot("dealer", view.dealer)
        one_hot("leader", view.leader)
        one_hot("last_knocker", view.last_knocker)
        per_seat("active", view.active)
        per_seat("in_session", view.in_session)
        for seat in view.claimed:
            one_hot("claimed", seat)
        for seat in view.exchanged:
            one_hot("exchanged", seat)
        voids0 = s["voids"].start
        for seat, suits in enumerate(view.voids):
            for suit in suits:
                x[voids0 + 4 * rel(seat) + suit] = 1.0
        rev0 = s["revealed"].start
        for seat, cards, _why in view.revealed:
            for c in cards:
                x[rev0 + 32 * rel(seat) + c] = 1.0
        tells0 = s["tells"].start
        for seat, count, rank in view.tells:
            x[tells0 + 2 * rel(seat) + (0 if rank == 0 else 1)] = count / 4.0
        won0 = s["tricks_won"].start
        for seat in view.trick_winners:
            x[won0 + rel(seat)] += 0.25
        x[s["trick_no"].start] = view.trick_no / 4.0
        x[s["stock"].start] = view.stock_size / 32.0
        x[s["sudden_death"].start] = float(view.sudden_death)
        x[s["stake"].start] = float(view.stake)
        per_seat("accepted", view.accepted)
        knocks0 = s["knocks"].start
        for seat, act in view.hand_actions:
            if act == KNOCK:
                x[knocks0 + rel(seat)] += 1.0
        per_seat("lives", view.lives)
        per_seat("drinks", view.drinks)
        return x


@dataclass
class HistoryEncoder:
    """The public decisions of the hand so far, one row per decision, at most ``length`` rows.

    A row is the acting seat (relative, one-hot over ``players``) and the action
    (one-hot over the 39 ids). Rows fill from the first decision of the hand; when a
    hand has more decisions than ``length``, the last ``length`` are kept.
    """

    players: int
    length: int

    @property
    def row(self) -> int:
        return self.players + NUM_ACTIONS

    @property
    def size(self) -> int:
        return self.length * self.row

    def encode(self, view: View, out: FloatArray | None = None) -> FloatArray:
        """The history block of ``view`` (a seat's view)."""
        if view.seat is None:
            raise ValueError("view: a spectator view has no seat to encode for")
        x = np.zeros(self.size, dtype=np.float32) if out is None else out
        if out is not None:
            x.fill(0.0)
        acts = view.hand_actions[-self.length:] if self.length else ()
        n, row = self.players, self.row
        for i, (seat, act) in enumerate(acts):
            x[i * row + (seat - view.seat) % n] = 1.0
            x[i * row + n + int(act)] = 1.0
        return x
