"""The state machine of a Toepen session.

A :class:`Game` is its rules, its decks and its actions. ``apply`` checks an action
against the legal ones, changes the state in place and returns the events it
caused; an illegal action raises :class:`IllegalAction` with a reason and changes
nothing. Chance comes only from the decks: given explicitly, or drawn from the
game's own seeded generator.

>>> from toepen.rules import Rules
>>> g = Game.new(Rules.preset("rulebook", lives=3), players=4, seed=1)
>>> g.phase, g.to_act
(<Phase.CLAIM: 1>, (1,))
>>> [str(a) for a in g.legal(1)]
['claim', 'pass']
>>> g.apply(1, Action.parse("knock"))
Traceback (most recent call last):
...
toepen.engine.state.IllegalAction: seat 1 may not knock now (armoede: claim or pass)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Any

from ..cards import (
    FULL_MASK,
    HIGH_CARDS_MASK,
    JACK,
    RANK_MASKS,
    SUIT_MASKS,
    SUIT_NAMES,
    TEN,
    card_str,
    cards_of,
)
from ..rules import Rules
from ..seeds import derive_seed
from .actions import (
    ACTIONS,
    CHALLENGE,
    CLAIM,
    EXCHANGE,
    FOLD,
    KNOCK,
    PASS,
    STAY,
    Action,
    ActionError,
    action,
)
from .events import Event, EventKind

__all__ = ["Game", "Phase", "IllegalAction", "DeckError"]


class Phase(IntEnum):
    """Whose decision of which kind the game awaits."""

    DEAL = 0  # a new deal needs a deck that is not there (chance)
    CLAIM = 1  # armoede: claim or pass
    CLAIM_CHALLENGE = 2  # challenge an armoede claim or pass
    EXCHANGE = 3  # exchange or pass
    EXCHANGE_CHALLENGE = 4  # challenge an exchange or pass
    ANSWER = 5  # answer a knock: stay, fold or knock again
    PLAY = 6  # play a card (or knock first)
    OVER = 7  # the session is over


class IllegalAction(ValueError):
    """An action the rules do not allow now; the game is unchanged."""


class DeckError(ValueError):
    """A deck that is not the 32 cards."""


# Bound once: attribute lookups on the enum cost time in the hot path.
_E = EventKind
_DEAL, _REDEAL, _HAND, _TELL = _E.DEAL, _E.REDEAL, _E.HAND, _E.TELL
_CLAIM, _EXCH, _DRAW, _CHAL, _PASS = _E.CLAIM, _E.EXCHANGE, _E.DRAW, _E.CHALLENGE, _E.PASS
_REVEAL, _CLAIM_RES, _EXCH_RES = _E.REVEAL, _E.CLAIM_RESULT, _E.EXCHANGE_RESULT
_PELT, _KNOCK, _STAY, _FOLD, _PLAY = _E.PELT, _E.KNOCK, _E.STAY, _E.FOLD, _E.PLAY
_TRICK, _LIVES, _ELIM, _HAND_RES = _E.TRICK, _E.LIVES, _E.ELIMINATED, _E.HAND_RESULT
_P_CLAIM, _P_CC, _P_EXCH, _P_EC = (
    Phase.CLAIM,
    Phase.CLAIM_CHALLENGE,
    Phase.EXCHANGE,
    Phase.EXCHANGE_CHALLENGE,
)
_P_ANSWER, _P_PLAY, _P_DEAL, _P_OVER = Phase.ANSWER, Phase.PLAY, Phase.DEAL, Phase.OVER

_NONE, _AT_LEAST = "none", "lives_at_least_stake"
_new = tuple.__new__  # Event(...) without the NamedTuple keyword layer, in the hot path

_CLAIM_PASS = (CLAIM, PASS)
_CHALLENGE_PASS = (CHALLENGE, PASS)
_EXCHANGE_PASS = (EXCHANGE, PASS)
_ANSWER_KNOCK = (KNOCK, STAY, FOLD)
_ANSWER = (STAY, FOLD)

_ORDER_CACHE: dict[int, tuple[int, ...]] = {}
_PLAYS_CACHE: dict[int, tuple[Action, ...]] = {}
_KNOCK_PLAYS_CACHE: dict[int, tuple[Action, ...]] = {}


def _cards(mask: int) -> tuple[int, ...]:
    """Card ids of a small mask in id order (a hand of a few cards)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


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


def seeded_deck(seed: int, index: int) -> list[int]:
    """Deck number ``index`` of a game seeded with ``seed``.

    A Fisher-Yates shuffle driven by 192 bits of BLAKE2b of ``"seed:index"``: the same on
    every machine and Python version, independent of any global generator, and cheap
    (no generator state to seed or copy). 32! < 2**118, so taking remainders of a
    192-bit number biases the shuffle by less than 2**-74.

    >>> seeded_deck(7, 0) == seeded_deck(7, 0) != seeded_deck(7, 1)
    True
    """
    return shuffled_deck(derive_seed(seed, index, bits=192))


def shuffled_deck(r: int) -> list[int]:
    """The deck that the 192-bit number ``r`` selects (Fisher-Yates on its remainders)."""
    deck = list(range(32))
    for i in range(31, 0, -1):
        r, j = divmod(r, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def check_deck(deck: Any, where: str = "deck") -> list[int]:
    """A deck as 32 distinct card ids (from ids or notation), or DeckError."""
    from ..cards import CardError, parse_card

    if not isinstance(deck, (list, tuple)):
        raise DeckError(f"{where}: must be a list of the 32 cards")
    try:
        ids = [c if isinstance(c, int) and not isinstance(c, bool) else parse_card(c) for c in deck]
    except (CardError, AttributeError) as e:
        raise DeckError(f"{where}: {e}") from None
    if len(ids) != 32 or sorted(ids) != list(range(32)):
        seen: set[int] = set()
        dup: list[str] = []
        for c in ids:
            if not 0 <= c < 32:
                raise DeckError(f"{where}: {c} is not a card id")
            if c in seen:
                dup.append(card_str(c))
            seen.add(c)
        missing = sorted(set(range(32)) - set(ids))
        problem = []
        if len(ids) != 32:
            problem.append(f"{len(ids)} cards")
        if dup:
            problem.append("repeats " + " ".join(dup))
        if missing:
            problem.append("lacks " + " ".join(card_str(c) for c in missing))
        raise DeckError(f"{where}: not the 32 cards ({'; '.join(problem)})")
    return ids


class Game:
    """One session of Toepen: rules, table, decks and every decision."""

    __slots__ = (
        "rules", "n", "players", "team_of", "pools", "in_session", "eliminated",
        "active", "hands", "out", "phase", "turn", "dealer", "first_dealer", "hand_no",
        "stake", "accepted", "last_knocker", "leader", "trick", "played_mask", "led",
        "trick_no", "any_card_played", "trick_winners", "won_cards", "queue",
        "claimed", "exchanged", "target", "discard", "resume", "deck", "stock_pos",
        "decks", "_supplied", "seed", "actions", "hand_start", "lives_before",
        "rubber_no", "drinks", "beers", "rubbers_won", "streak", "toepkoning",
        "winner", "lives_lost", "hands_won", "hands_lost", "tells", "revealed",
        "sudden_death", "plays", "hands_played", "_legal", "_teams", "_max_stake",
        "_limit", "_early", "_ev", "_pending_redeal", "_round_queue", "opening",
    )

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
        self.rules = rules
        self.n = n
        self.players = names
        self._teams = rules.teams
        half = n // 2
        self.team_of: tuple[int, ...] = (
            tuple(i % half for i in range(n)) if rules.teams else tuple(range(n))
        )
        self.pools = [rules.lives] * (half if rules.teams else n)
        self.in_session = (1 << n) - 1
        self.eliminated: list[int] = []
        self.active = 0
        self.hands = [0] * n
        self.out = 0
        self.phase = _P_DEAL
        self.turn = -1
        self.dealer = dealer
        self.first_dealer = dealer
        self.hand_no = 0
        self.stake = 1
        self.accepted = [1] * n
        self.last_knocker = -1
        self.leader = -1
        self.trick: list[tuple[int, int]] = []
        self.played_mask = 0
        self.led = -1
        self.trick_no = 0
        self.any_card_played = False
        self.trick_winners: list[int] = []
        self.won_cards = 0
        self.queue: list[int] = []
        self.claimed = 0
        self.exchanged = 0
        self.target = -1
        self.discard = 0
        self.resume = -1
        self.deck: list[int] = []
        self.stock_pos = 32
        self.decks: list[list[int]] = []
        self._supplied: list[list[int]] = (
            [check_deck(d, f"decks[{i}]") for i, d in enumerate(decks)] if decks is not None else []
        )
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ValueError(f"seed: must be an integer, not {seed!r}")
        self.seed = seed
        self.actions: list[tuple[int, Action]] = []
        self.hand_start = 0
        self.lives_before = list(self.pools)
        self.rubber_no = 1
        self.drinks = [0] * n
        self.beers = [0] * n
        self.rubbers_won = [0] * n
        self.streak = [0] * n
        self.toepkoning: list[int] = []
        self.winner: int | None = None
        self.lives_lost = [0] * n
        self.hands_won = [0] * n
        self.hands_lost = [0] * n
        self.tells: list[tuple[int, int, int]] = []
        self.revealed: list[tuple[int, int, str]] = []
        self.sudden_death = False
        self.plays: list[tuple[int, int, int]] = []
        self.hands_played = 0
        """Hands that reached a result (settled, or ended because all but one folded)."""
        self._legal: tuple[Action, ...] | None = None
        self._max_stake = rules.max_stake if rules.max_stake is not None else 1 << 30
        self._limit = {"none": _NONE, "lives_at_least_stake": _AT_LEAST}.get(
            rules.knock_limit, rules.knock_limit
        )
        self._early = rules.first_player_may_knock_early
        self._ev: list[Event] = []
        self._pending_redeal = False
        self._round_queue: list[int] = []
        self._start_hand()
        self.opening: list[Event] = self._ev
        """The events of the first deal (unredacted; see :meth:`opening_events`)."""
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

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        """The game a ``toepen-record/1`` describes, replayed (RecordError if it cannot be)."""
        from ..record import replay

        return replay(record)

    def record(
        self, *, meta: dict[str, Any] | None = None, use_seed: bool = False
    ) -> dict[str, Any]:
        """This game as a ``toepen-record/1`` document."""
        from ..record import to_record

        return to_record(self, meta=meta, use_seed=use_seed)

    def clone(self) -> Game:
        """An independent copy (cheap: lists are copied shallowly, ints are shared)."""
        g = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(g, name, getattr(self, name))
        g.pools = list(self.pools)
        g.eliminated = list(self.eliminated)
        g.hands = list(self.hands)
        g.accepted = list(self.accepted)
        g.trick = list(self.trick)
        g.trick_winners = list(self.trick_winners)
        g.plays = list(self.plays)
        g.queue = list(self.queue)
        g._round_queue = list(self._round_queue)
        g.decks = list(self.decks)
        g._supplied = list(self._supplied)
        g.actions = list(self.actions)
        g.lives_before = list(self.lives_before)
        for name in ("drinks", "beers", "rubbers_won", "streak", "toepkoning", "lives_lost",
                     "hands_won", "hands_lost", "tells", "revealed"):
            setattr(g, name, list(getattr(self, name)))
        g._ev = []
        return g

    # -- queries ----------------------------------------------------------------------

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats whose decision is awaited (empty when dealing or over)."""
        return (self.turn,) if self.turn >= 0 else ()

    @property
    def is_over(self) -> bool:
        return self.phase is _P_OVER

    def lives(self, seat: int) -> int:
        """A seat's lives (for teams: its pair's pool)."""
        return self.pools[self.team_of[seat]]

    def lives_by_seat(self) -> list[int]:
        return [self.pools[t] for t in self.team_of]

    def partner(self, seat: int) -> int | None:
        return (seat + self.n // 2) % self.n if self._teams else None

    def legal_actions(self) -> tuple[Action, ...]:
        """Legal actions of the seat to act (empty if none)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    # The hot path: legal_actions() + apply() run millions of times for the bots. Both are
    # written flat (inlined helpers, locals) on purpose; the slow paths stay readable.

    def legal(self, seat: int) -> tuple[Action, ...]:
        """Legal actions of ``seat`` (empty unless it is to act)."""
        return self.legal_actions() if seat == self.turn else ()

    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self.phase
        seat = self.turn
        if phase is _P_PLAY or phase is _P_ANSWER:
            # Inlined _knock_refusal(seat) is None: this runs for every decision of a hand.
            stake = self.stake
            may = seat != self.last_knocker and stake < self._max_stake
            if may:
                limit = self._limit
                if limit is not _NONE:
                    lives = self.pools[self.team_of[seat]]
                    may = lives >= stake if limit is _AT_LEAST else stake < lives
                if may and not self._early and not self.any_card_played:
                    may = seat != self.leader
            if phase is _P_ANSWER:
                return _ANSWER_KNOCK if may else _ANSWER
            hand = self.hands[seat]
            if self.led >= 0:  # the suit led stays led when its card left with a fold
                follow = hand & SUIT_MASKS[self.led]
                if follow:
                    hand = follow
            cache = _KNOCK_PLAYS_CACHE if may else _PLAYS_CACHE
            acts = cache.get(hand)
            if acts is None:
                acts = _knock_plays(hand) if may else _plays(hand)
            return acts
        if phase is _P_CLAIM:
            return _CLAIM_PASS
        if phase is _P_CC or phase is _P_EC:
            return _CHALLENGE_PASS
        if phase is _P_EXCH:
            return _EXCHANGE_PASS
        return ()

    def _knock_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not knock now, or None if it may."""
        stake = self.stake
        if seat == self.last_knocker:
            return "made the latest knock"
        if stake + 1 > self._max_stake:
            return f"stake is capped at {self._max_stake}"
        limit = self._limit
        if limit != "none":
            lives = self.pools[self.team_of[seat]]
            if limit == "lives_at_least_stake":
                if lives < stake:
                    return f"lives {lives} below stake {stake}"
            elif stake + 1 > lives:
                return f"new stake {stake + 1} exceeds lives {lives}"
        if (
            not self._early
            and not self.any_card_played
            and seat == self.leader
        ):
            return "the first player may not knock before the first card"
        return None

    # -- applying ---------------------------------------------------------------------

    def apply(self, seat: int, act: Action | int | str) -> list[Event]:
        """Apply ``seat``'s decision; return the events. Illegal: IllegalAction, no change."""
        if type(act) is not Action:
            try:
                act = action(act)
            except ActionError as e:
                raise IllegalAction(f"seat {seat}: {e}") from None
        legal = self._legal or self.legal_actions()
        if seat != self.turn or act not in legal:
            raise IllegalAction(self.explain(seat, act))
        act = ACTIONS[act]  # the interned action: an equal Action(n) built elsewhere is not it
        self._legal = None
        ev: list[Event] = []
        self._ev = ev
        self.actions.append((self.turn, act))  # the seat as an int, whatever equal value came
        phase = self.phase
        if phase is _P_PLAY:
            if act < 32:  # inlined _play(seat, act)
                self.hands[seat] &= ~(1 << act)
                trick = self.trick
                if self.led < 0:
                    self.led = act >> 3
                trick.append((seat, act))
                self.plays.append((seat, act, self.led))
                played = self.played_mask = self.played_mask | (1 << seat)
                self.any_card_played = True
                ev.append(_new(Event, (_PLAY, seat, 0, (act,), "", False)))
                unplayed = self.active & ~played
                if not unplayed:
                    self._finish_trick()
                else:
                    n = self.n
                    s = (seat + 1) % n
                    while not unplayed >> s & 1:
                        s = (s + 1) % n
                    self.turn = s
            else:
                self._knock(seat, ev)
        elif phase is _P_ANSWER:
            if act is STAY:
                self.accepted[seat] = self.stake
                ev.append(_new(Event, (_STAY, seat, self.stake, (), "", False)))
                self._next_answer()
            elif act is FOLD:
                self._fold(seat)
            else:
                self._knock(seat, ev)
        elif phase is _P_CLAIM:
            self._claim_decision(seat, act is CLAIM)
        elif phase is _P_CC:
            self._claim_challenge_decision(seat, act is CHALLENGE)
        elif phase is _P_EXCH:
            self._exchange_decision(seat, act is EXCHANGE)
        else:  # _P_EC
            self._exchange_challenge_decision(seat, act is CHALLENGE)
        return ev

    def deal(self, deck: Sequence[int | str]) -> list[Event]:
        """Supply the deck a new deal waits for (phase DEAL); return the events."""
        if self.phase is not _P_DEAL:
            raise IllegalAction(f"no deal is awaited (phase {self.phase.name.lower()})")
        self._supplied.append(check_deck(deck))
        ev: list[Event] = []
        self._ev = ev
        self._deal(redeal=self._pending_redeal)
        self._legal = None
        self._ev = []
        return ev

    def explain(self, seat: int, act: Action) -> str:
        """The reason ``act`` by ``seat`` is illegal now (or 'legal')."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            return f"seat {seat!r} is not a seat number"
        if self.phase is _P_OVER:
            return f"seat {seat} may not {act}: the session is over"
        if self.phase is _P_DEAL:
            return f"seat {seat} may not {act}: a new deal awaits a deck"
        if not 0 <= seat < self.n:
            return f"no seat {seat} at this table of {self.n}"
        if seat != self.turn:
            if not self.in_session >> seat & 1:
                return f"seat {seat} is out of the session"
            if not self.active >> seat & 1:
                return f"seat {seat} has folded this hand"
            return f"seat {seat} is not to act (awaiting seat {self.turn})"
        phase = self.phase
        what = {
            _P_CLAIM: "armoede: claim or pass",
            _P_CC: "an armoede claim: challenge or pass",
            _P_EXCH: "exchange or pass",
            _P_EC: "an exchange: challenge or pass",
            _P_ANSWER: "answer the knock: stay, fold or knock",
            _P_PLAY: "play a card or knock",
        }[phase]
        if act is KNOCK:
            if phase in (_P_PLAY, _P_ANSWER):
                reason = self._knock_refusal(seat)
                if reason is not None:
                    return f"seat {seat} may not knock ({reason})"
            return f"seat {seat} may not knock now ({what})"
        if act < 32:
            card = card_str(act)
            if phase is not _P_PLAY:
                return f"seat {seat} may not play {card} now ({what})"
            if not self.hands[seat] >> act & 1:
                return f"seat {seat} does not hold {card}"
            if self.led >= 0 and self.hands[seat] & SUIT_MASKS[self.led]:
                return f"seat {seat} must follow suit (holds {SUIT_NAMES[self.led]})"
        return f"seat {seat} may not {act} now ({what})"

    # -- order helpers ------------------------------------------------------------------

    def _order_from(self, start: int, mask: int) -> tuple[int, ...]:
        """Seats of ``mask`` clockwise, starting at ``start`` inclusive."""
        n = self.n
        key = (n << 16) | (start << 8) | mask
        order = _ORDER_CACHE.get(key)
        if order is None:
            order = tuple(s for s in ((start + i) % n for i in range(n)) if mask >> s & 1)
            _ORDER_CACHE[key] = order
        return order

    def _next_seat(self, seat: int, mask: int) -> int:
        """The first seat of ``mask`` clockwise after ``seat`` (-1 if none)."""
        n = self.n
        for i in range(1, n + 1):
            s = (seat + i) % n
            if mask >> s & 1:
                return s
        return -1

    def _opponents_mask(self, seat: int) -> int:
        if self._teams:
            t = self.team_of[seat]
            m = self.active
            for s in range(self.n):
                if self.team_of[s] == t:
                    m &= ~(1 << s)
            return m
        return self.active & ~(1 << seat)

    def _active_sides(self) -> int:
        """How many players (teams: pairs) are still active in the hand."""
        if self._teams:
            return len({self.team_of[s] for s in range(self.n) if self.active >> s & 1})
        return self.active.bit_count()

    # -- hands and deals -----------------------------------------------------------------

    def _start_hand(self) -> None:
        self.hand_no += 1
        self.claimed = 0
        self.exchanged = 0
        self.lives_before = list(self.pools)
        self.hand_start = len(self.actions)
        self._deal(redeal=False)

    def _reset_hand_state(self) -> None:
        self.stake = 1
        self.accepted = [1] * self.n
        self.last_knocker = -1
        self.trick = []
        self.played_mask = 0
        self.led = -1
        self.trick_no = 0
        self.any_card_played = False
        self.trick_winners = []
        self.won_cards = 0
        self.queue = []
        self.target = -1
        self.discard = 0
        self.resume = -1
        self.out = 0
        self.tells = []
        self.plays = []

    def _deal(self, redeal: bool) -> None:
        self._reset_hand_state()
        self.revealed = []  # hands shown before a redeal are no longer held
        self.hands = [0] * self.n
        self.active = 0
        if self._supplied:
            deck = self._supplied.pop(0)
        elif self.seed is not None:
            deck = seeded_deck(self.seed, len(self.decks))
        else:
            self.phase = _P_DEAL
            self.turn = -1
            self._pending_redeal = redeal
            return
        self.deck = deck
        self.decks.append(deck)
        dealer = self.dealer
        order = self._order_from((dealer + 1) % self.n, self.in_session)
        m = len(order)
        hands = self.hands
        ev = self._ev
        ev.append(_new(Event, (_REDEAL if redeal else _DEAL, dealer, self.hand_no, (), "", False)))
        for j, seat in enumerate(order):
            a, b, c, d = deck[j], deck[j + m], deck[j + 2 * m], deck[j + 3 * m]
            hands[seat] = (1 << a) | (1 << b) | (1 << c) | (1 << d)
            ev.append(_new(Event, (_HAND, seat, 4, tuple(sorted((a, b, c, d))), "", True)))
        self.stock_pos = 4 * m
        self.active = self.in_session
        tells = self.rules.tells
        if tells != "off":
            ranks = ((TEN, "tens"), (JACK, "jacks")) if tells == "tens_and_jacks" else (
                (TEN, "tens"),
            )
            for seat in order:
                for rank, word in ranks:
                    count = (hands[seat] & RANK_MASKS[rank]).bit_count()
                    if count >= 3:
                        self.tells.append((seat, count, rank))
                        ev.append(Event(_TELL, seat, count, (), word))
        if self.rules.armoede:
            self.phase = _P_CLAIM
            self.queue = [s for s in order if not self.claimed >> s & 1]
            self._next_claim()
        elif self.rules.exchange:
            self.phase = _P_EXCH
            self.queue = list(order)
            self._next_exchange()
        else:
            self._start_play()

    # -- armoede ----------------------------------------------------------------------------

    def _next_claim(self) -> None:
        queue = self.queue
        while queue and (self.claimed >> queue[0] & 1 or not self.active >> queue[0] & 1):
            queue.pop(0)
        if queue:
            self.phase = _P_CLAIM
            self.turn = queue[0]
        else:
            self._start_play()

    def _claim_decision(self, seat: int, claim: bool) -> None:
        ev = self._ev
        self.queue.pop(0)
        if not claim:
            ev.append(_new(Event, (_PASS, seat, 0, (), "claim", False)))
            self._next_claim()
            return
        self.claimed |= 1 << seat
        ev.append(_new(Event, (_CLAIM, seat, 0, (), "", False)))
        self.target = seat
        self._round_queue = self.queue
        self.queue = list(self._order_from((seat + 1) % self.n, self._opponents_mask(seat)))
        if not self.queue:
            ev.append(_new(Event, (_CLAIM_RES, seat, 0, (), "unchallenged", False)))
            self._redeal()
            return
        self.phase = _P_CC
        self.turn = self.queue[0]

    def _claim_challenge_decision(self, seat: int, challenge: bool) -> None:
        ev = self._ev
        claimer = self.target
        self.queue.pop(0)
        if not challenge:
            ev.append(_new(Event, (_PASS, seat, 0, (), "challenge", False)))
            if self.queue:
                self.turn = self.queue[0]
                return
            ev.append(_new(Event, (_CLAIM_RES, claimer, 0, (), "unchallenged", False)))
            self._redeal()
            return
        ev.append(_new(Event, (_CHAL, seat, claimer, (), "", False)))
        hand = self.hands[claimer]
        self.revealed.append((claimer, hand, "armoede"))
        ev.append(_new(Event, (_REVEAL, claimer, 0, _cards(hand), "armoede", False)))
        if not hand & HIGH_CARDS_MASK:
            ev.append(_new(Event, (_CLAIM_RES, claimer, 0, (), "genuine", False)))
            self._lose(seat, 1, "armoede")
            if self.phase is not _P_OVER:
                self._redeal()
            return
        ev.append(_new(Event, (_CLAIM_RES, claimer, 0, (), "false", False)))
        self._lose(claimer, 1, "armoede")
        if self.phase is _P_OVER:
            return
        self.queue = self._round_queue
        self._next_claim()

    def _redeal(self) -> None:
        self.out = 0
        self._deal(redeal=True)

    # -- exchange ---------------------------------------------------------------------------

    def _next_exchange(self) -> None:
        queue = self.queue
        while queue and (
            self.exchanged >> queue[0] & 1
            or not self.active >> queue[0] & 1
            or self.stock_pos + 4 > 32
        ):
            queue.pop(0)
        if queue:
            self.phase = _P_EXCH
            self.turn = queue[0]
        else:
            self._start_play()

    def _exchange_decision(self, seat: int, exchange: bool) -> None:
        ev = self._ev
        self.queue.pop(0)
        if not exchange:
            ev.append(_new(Event, (_PASS, seat, 0, (), "exchange", False)))
            self._next_exchange()
            return
        self.exchanged |= 1 << seat
        self.discard = self.hands[seat]
        pos = self.stock_pos
        deck = self.deck
        new = (1 << deck[pos]) | (1 << deck[pos + 1]) | (1 << deck[pos + 2]) | (1 << deck[pos + 3])
        self.stock_pos = pos + 4
        self.hands[seat] = new
        self.out |= self.discard
        ev.append(_new(Event, (_EXCH, seat, 4, (), "", False)))
        ev.append(Event(_DRAW, seat, 4, cards_of(new), "", True))
        self.target = seat
        self._round_queue = self.queue
        self.queue = list(self._order_from((seat + 1) % self.n, self._opponents_mask(seat)))
        if not self.queue:
            ev.append(_new(Event, (_EXCH_RES, seat, 0, (), "unchallenged", False)))
            self.queue = self._round_queue
            self._next_exchange()
            return
        self.phase = _P_EC
        self.turn = self.queue[0]

    def _exchange_challenge_decision(self, seat: int, challenge: bool) -> None:
        ev = self._ev
        exchanger = self.target
        self.queue.pop(0)
        if not challenge:
            ev.append(_new(Event, (_PASS, seat, 0, (), "challenge", False)))
            if self.queue:
                self.turn = self.queue[0]
                return
            ev.append(_new(Event, (_EXCH_RES, exchanger, 0, (), "unchallenged", False)))
        else:
            ev.append(_new(Event, (_CHAL, seat, exchanger, (), "", False)))
            discard = self.discard
            self.revealed.append((exchanger, discard, "exchange"))
            ev.append(Event(_REVEAL, exchanger, 0, cards_of(discard), "exchange"))
            if discard & HIGH_CARDS_MASK:
                ev.append(_new(Event, (_EXCH_RES, exchanger, 0, (), "caught", False)))
                self._lose(exchanger, 1, "exchange")
            else:
                ev.append(_new(Event, (_EXCH_RES, exchanger, 0, (), "clean", False)))
                self._lose(seat, 1, "exchange")
            if self.phase is _P_OVER:
                return
        self.queue = self._round_queue
        self._next_exchange()

    # -- play ---------------------------------------------------------------------------------

    def _start_play(self) -> None:
        active = self.active
        if self._active_sides() <= 1:
            self._end_hand_by_folds()
            return
        if self.rules.pelt:
            for seat in self._order_from((self.dealer + 1) % self.n, active):
                if self.pools[self.team_of[seat]] == 1:
                    self.stake = 2
                    self.accepted[seat] = 2
                    self.last_knocker = seat
                    self.leader = seat
                    self.resume = seat
                    self._ev.append(_new(Event, (_PELT, seat, 2, (), "", False)))
                    self.queue = list(self._order_from((seat + 1) % self.n, active & ~(1 << seat)))
                    self.phase = _P_ANSWER
                    self.turn = self.queue[0]
                    return
        self.leader = self._next_seat(self.dealer, active)
        self.phase = _P_PLAY
        self.turn = self.leader

    def _knock(self, seat: int, ev: list[Event]) -> None:
        stake = self.stake = self.stake + 1
        self.accepted[seat] = stake
        self.last_knocker = seat
        ev.append(_new(Event, (_KNOCK, seat, stake, (), "", False)))
        if self.phase is _P_PLAY:
            self.resume = seat
        self.queue = list(self._order_from((seat + 1) % self.n, self.active & ~(1 << seat)))
        self.phase = _P_ANSWER
        self.turn = self.queue[0]

    def _next_answer(self) -> None:
        queue = self.queue
        queue.pop(0)
        active = self.active
        while queue and not active >> queue[0] & 1:
            queue.pop(0)
        if queue:
            self.turn = queue[0]
        else:
            self._resume_play()

    def _resume_play(self) -> None:
        active = self.active
        if active & ~self.played_mask == 0:
            self._finish_trick()
            return
        seat = self.resume
        n = self.n
        unplayed = active & ~self.played_mask
        while not unplayed >> seat & 1:
            seat = (seat + 1) % n
        if not self.trick:
            self.leader = seat
        self.phase = _P_PLAY
        self.turn = seat

    def _fold(self, seat: int) -> None:
        ev = self._ev
        paid = self.accepted[seat]
        ev.append(_new(Event, (_FOLD, seat, paid, (), "", False)))
        self._leave_hand(seat)
        self.hands_lost[seat] += 1
        self._lose(seat, paid, "fold")
        if self.phase is _P_OVER:
            return
        if self.phase is not _P_ANSWER:
            return
        if self._active_sides() <= 1:
            self._end_hand_by_folds()
            return
        self._next_answer()

    def _leave_hand(self, seat: int) -> None:
        """``seat``'s cards leave play (fold or elimination)."""
        bit = 1 << seat
        if not self.active & bit:
            return
        self.active &= ~bit
        self.out |= self.hands[seat]
        self.hands[seat] = 0
        if self.played_mask & bit:
            self.played_mask &= ~bit
            for i, (s, card) in enumerate(self.trick):
                if s == seat:
                    del self.trick[i]
                    self.out |= 1 << card
                    break

    def _finish_trick(self) -> None:
        trick = self.trick
        led = self.led
        best_seat = -1
        best = 99
        won = self.won_cards
        for seat, card in trick:
            won |= 1 << card
            if card >> 3 == led and card < best:
                best = card
                best_seat = seat
        self.won_cards = won
        if best_seat < 0:
            best_seat = trick[0][0]
        self.trick_no += 1
        self.trick_winners.append(best_seat)
        self._ev.append(_new(Event, (_TRICK, best_seat, self.trick_no, (), "", False)))
        self.trick = []
        self.played_mask = 0
        self.led = -1
        if self.trick_no == 4:
            self._settle(best_seat)
            return
        self.leader = best_seat
        self.phase = _P_PLAY
        self.turn = best_seat

    # -- settlement, lives, sessions --------------------------------------------------------------

    def _settle(self, last: int) -> None:
        stake = self.stake
        self.hands_played += 1
        self._ev.append(_new(Event, (_HAND_RES, last, stake, (), self.rules.last_trick, False)))
        if self.rules.last_trick == "loses":
            self.hands_lost[last] += 1
            for s in range(self.n):
                if self.active >> s & 1 and s != last:
                    self.hands_won[s] += 1
            self._lose(last, stake, "stake")
        else:
            self.hands_won[last] += 1
            paid_teams: set[int] = set()
            win_team = self.team_of[last]
            for s in self._order_from((last + 1) % self.n, self.active):
                t = self.team_of[s]
                if t == win_team:
                    continue
                self.hands_lost[s] += 1
                if t in paid_teams:
                    continue
                paid_teams.add(t)
                self._lose(s, stake, "stake")
        if self.phase is not _P_OVER:
            self._end_hand(last)

    def _end_hand_by_folds(self) -> None:
        lone = self._next_seat(self.dealer, self.active)
        for s in range(self.n):
            if self.active >> s & 1:
                self.hands_won[s] += 1
        self.hands_played += 1
        self._ev.append(_new(Event, (_HAND_RES, lone, self.stake, (), "folded", False)))
        self._end_hand(lone)

    def _lose(self, seat: int, amount: int, reason: str) -> None:
        team = self.team_of[seat]
        self.pools[team] -= amount
        self.lives_lost[seat] += amount
        if self.rules.beer_tally:
            self.beers[seat] += amount
        self._ev.append(_new(Event, (_LIVES, seat, amount, (), reason, False)))
        if self.pools[team] <= 0 and self.rules.session == "elimination":
            for s in range(self.n):
                if self.team_of[s] == team and self.in_session >> s & 1:
                    self._leave_hand(s)
                    self.in_session &= ~(1 << s)
                    self.eliminated.append(s)
                    self._ev.append(_new(Event, (_ELIM, s, 0, (), "", False)))
            self._check_session_over()

    def _sides_in_session(self) -> set[int]:
        return {self.team_of[s] for s in range(self.n) if self.in_session >> s & 1}

    def _check_session_over(self) -> None:
        sides = self._sides_in_session()
        if len(sides) >= 2:
            return
        if len(sides) == 1:
            (team,) = sides
            self._finish_session(min(s for s in range(self.n) if self.team_of[s] == team))
            return
        self._break_tie()

    def _break_tie(self) -> None:
        """Everyone left was eliminated in the same hand: most lives before it wins."""
        last_in = {self.team_of[s] for s in self.eliminated_this_hand()}
        best = max(self.lives_before[t] for t in last_in)
        tied = sorted(t for t in last_in if self.lives_before[t] == best)
        if len(tied) == 1:
            self._finish_session(min(s for s in range(self.n) if self.team_of[s] == tied[0]))
            return
        mask = 0
        for s in range(self.n):
            if self.team_of[s] in tied:
                mask |= 1 << s
                self.eliminated.remove(s)
        for t in tied:
            self.pools[t] = 1
        self.in_session = mask
        self.sudden_death = True
        self._ev.append(Event(_E.SUDDEN_DEATH, -1, mask))
        self.phase = _P_DEAL  # the hand in progress ends; _end_hand deals the next

    def eliminated_this_hand(self) -> list[int]:
        """Seats eliminated during the current hand."""
        before = {t for t, lives in enumerate(self.lives_before) if lives > 0}
        return [s for s in self.eliminated if self.team_of[s] in before
                and self.pools[self.team_of[s]] <= 0]

    def _finish_session(self, winner: int) -> None:
        self.winner = winner
        self.phase = _P_OVER
        self.turn = -1
        self.queue = []
        self._ev.append(Event(_E.SESSION_RESULT, winner))

    def _end_hand(self, last: int) -> None:
        if self.phase is _P_OVER:
            return
        if self.rules.session == "rubber" and min(self.pools) <= 0:
            self._end_rubber()
            if self.phase is _P_OVER:
                return
        # The next dealer.
        if self.rules.dealer == "rotate":
            self.dealer = self._next_seat(self.dealer, self.in_session)
        elif self.in_session >> last & 1:
            self.dealer = last
        else:
            self.dealer = self._next_seat(last, self.in_session)
        self._start_hand()

    def _end_rubber(self) -> None:
        ev = self._ev
        n = self.n
        lives = self.lives_by_seat()
        best = max(lives)
        winners = [s for s in range(n) if lives[s] == best]
        win_teams = {self.team_of[s] for s in winners}
        ev.append(Event(_E.RUBBER, winners[0] if len(win_teams) == 1 else -1, self.rubber_no))
        for s in range(n):
            if lives[s] <= 0:
                self.drinks[s] += 1
                ev.append(Event(_E.DRINKS, s, self.drinks[s]))
            if lives[s] == best:
                self.rubbers_won[s] += 1
                self.streak[s] += 1
                if self.streak[s] == 3 and s not in self.toepkoning:
                    self.toepkoning.append(s)
                    ev.append(Event(_E.TOEPKONING, s, 3))
            else:
                self.streak[s] = 0
        self.pools = [self.rules.lives] * len(self.pools)
        limit = self.rules.rubbers
        if limit is not None and self.rubber_no >= limit:
            winner = min(range(n), key=lambda s: (self.drinks[s], -self.rubbers_won[s], s))
            self._finish_session(winner)
            return
        self.rubber_no += 1

    # -- whole-game helpers ------------------------------------------------------------------------

    def opening_events(self, seat: int | None = None) -> list[Event]:
        """The events of the first deal as ``seat`` may see them, for a UI to start from."""
        from .events import redact

        return redact(self.opening, seat)

    def card_accounting(self) -> int:
        """Union of every place a card can be; the 32 cards exactly when consistent.

        Raises AssertionError if two places hold the same card.
        """
        places = [
            *self.hands,
            self.out,
            self.won_cards,
            sum(1 << c for _, c in self.trick),
        ]
        if self.deck:
            stock = 0
            for c in self.deck[self.stock_pos:]:
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
        if self.deck and self.phase is not _P_DEAL:
            assert self.card_accounting() == FULL_MASK, "cards lost or invented"
