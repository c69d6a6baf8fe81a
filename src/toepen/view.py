"""``observe(game, seat)``: the one door to hidden information.

A :class:`View` holds everything public about a game plus the cards that ``seat``
holds, and nothing else. A spectator (``seat=None``) sees no hidden card at all.
Bots, the terminal UI, the server and the RL adapters all read games through it.

>>> from toepen.engine import Game
>>> g = Game.new("rulebook", 4, seed=3)
>>> v = observe(g, 2)
>>> len(v.hand), v.seat, str(v.phase)
(4, 2, 'claim')
>>> observe(g, None).hand
()
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .cards import HIGH_CARDS_MASK, card_str, cards_of, mask_of, parse_card
from .engine.actions import CHALLENGE, CLAIM, KNOCK, PASS, Action, format_move, parse_move
from .engine.core import order_table
from .engine.events import Event, redact
from .engine.phase import Phase
from .engine.settle import Place, finishing_order
from .engine.state import Game
from .rules import TELL_WORDS, Rules


@dataclass(frozen=True, slots=True)
class View:
    """What one seat (or a spectator) may know about a game at one moment."""

    seat: int | None
    rules: Rules
    players: tuple[str, ...]
    phase: Phase
    """The engine's phase (a ``StrEnum``: it equals its value, ``"claim"``, ``"play"``...)."""
    to_act: tuple[int, ...]
    legal: tuple[Action, ...]
    """The seat's legal actions (empty unless it is to act)."""
    hand: tuple[int, ...]
    """The seat's own cards (card ids); empty for a spectator."""
    hand_sizes: tuple[int, ...]
    lives: tuple[int, ...]
    """Lives by seat (teams: the pair's pool)."""
    in_session: tuple[bool, ...]
    active: tuple[bool, ...]
    eliminated: tuple[int, ...]
    dealer: int
    hand_no: int
    stake: int
    accepted: tuple[int, ...]
    last_knocker: int
    leader: int
    trick: tuple[tuple[int, int], ...]
    """(seat, card) of the trick in progress, in order of play."""
    led_suit: int
    trick_no: int
    """Tricks completed in this hand (0..4)."""
    trick_winners: tuple[int, ...]
    played: tuple[tuple[int, int], ...]
    """Every (seat, card) played this deal, in order (cards of folded players too)."""
    voids: tuple[tuple[int, ...], ...]
    """By seat: the suits it has shown it lacks this deal (did not follow the led suit)."""
    tells: tuple[tuple[int, int, int], ...]
    """(seat, count, rank) announced after the deal: whistle (3) or stand (4)."""
    revealed: tuple[tuple[int, tuple[int, ...], str], ...]
    """Hands shown by a challenge since this deal: (seat, cards, 'armoede'|'exchange').

    A genuine or unchallenged armoede claim brings a redeal; hands shown before it are
    no longer held and are not listed (the events still tell them)."""
    claimed: tuple[int, ...]
    exchanged: tuple[int, ...]
    stock_size: int
    drinks: tuple[int, ...]
    beers: tuple[int, ...]
    rubber_no: int
    rubbers_won: tuple[int, ...]
    toepkoning: tuple[int, ...]
    sudden_death: bool
    winner: int | None
    hand_actions: tuple[tuple[int, Action], ...]
    """The public decisions of this hand so far, redeals included."""
    action_count: int
    """How many actions the whole game has had: the state number."""
    teams: tuple[int, ...] = field(default=())
    """Pair index by seat when playing in teams, else empty."""
    target: int = -1
    """The seat the decision to make is about: the knocker while a knock is answered,
    the claimer or exchanger while a challenge round is open; else -1."""
    laundered: tuple[int, ...] = field(default=())
    """Seats that claimed witte or vuile was this deal (they hold four stock cards)."""
    kans: tuple[int, ...] = field(default=())
    """Seats that drew for four of a kind this deal (kans op toep: they hold three of a
    rank and one card drawn)."""
    hand_marks: tuple[tuple[int, Phase], ...] = field(default=())
    """Where each round of this hand began in :attr:`hand_actions`: (index, phase) of the
    blind round, each declaration round (its declaring phase) and the play."""
    lives_lost: tuple[int, ...] = field(default=())
    """Lives each seat has lost over the whole session, rubbers included (the engine's
    :attr:`Game.lives_lost`: the strokes of the score sheet)."""
    cards_unseen: bool = False
    """``blind_knock``: the deal's cards are not looked at yet (the blind round), so the
    seat's own hand is not in :attr:`hand` either."""
    out_hands: tuple[int, ...] = field(default=())
    """By entry of :attr:`eliminated`: the number of the hand it went out in."""
    rebuys: tuple[int, ...] = field(default=())
    """``rebuy``: by seat, how often it bought back in (partners alike); empty before
    pot toepen (an old view's JSON)."""

    @property
    def pot(self) -> int:
        """The pot in cents (``pot``): every player's stake at the start and at each
        buy-in (0 without a pot)."""
        return self.rules.pot_cents * (len(self.players) + sum(self.rebuys))

    @property
    def rebuy_lives(self) -> int:
        """The lives a buy-in comes back with: the fewest of those still in (the worst
        surviving position); 0 outside the ``rebuy`` round."""
        if self.phase != Phase.REBUY:
            return 0
        return min((v for v, flag in zip(self.lives, self.in_session, strict=True) if flag),
                   default=0)

    @property
    def places(self) -> tuple[Place, ...]:
        """The session's finishing order as it stands, with what decided each place:
        the engine's :func:`~toepen.engine.settle.finishing_order` of this view's public
        facts (the same as ``game.places()``)."""
        teams = self.teams or tuple(range(len(self.players)))
        sides = max(teams) + 1
        pools = [0] * sides
        for s, t in enumerate(teams):
            pools[t] = self.lives[s]
        in_session = sum(1 << s for s, flag in enumerate(self.in_session) if flag)
        return finishing_order(
            rubber=self.rules.session == "rubber", team_of=teams, pools=pools,
            in_session=in_session, eliminated=self.eliminated, out_hands=self.out_hands,
            drinks=self.drinks, rubbers_won=self.rubbers_won, winner=self.winner)

    def round_of(self, index: int) -> Phase | None:
        """The round (a phase of :attr:`hand_marks`) the hand's action ``index`` was
        taken in; None before the first mark."""
        found: Phase | None = None
        for i, phase in self.hand_marks:
            if i <= index:
                found = phase
        return found

    def cards_played_by(self, seat: int) -> tuple[int, ...]:
        return tuple(c for s, c in self.played if s == seat)

    # -- derived public facts: worked out here once, for bots and clients alike ----------

    @property
    def hand_mask(self) -> int:
        """The seat's own cards as a mask (0 for a spectator)."""
        return mask_of(self.hand)

    @property
    def played_mask(self) -> int:
        """Every card played this deal, as a mask."""
        return mask_of(c for _, c in self.played)

    def played_mask_of(self, seat: int) -> int:
        """The cards ``seat`` has played this deal, as a mask."""
        return mask_of(c for s, c in self.played if s == seat)

    @property
    def discarded_mask(self) -> int:
        """Exchanged-away hands (exchange, laundry) shown by a challenge this deal: out of
        play."""
        return mask_of(c for _, cards, why in self.revealed if why in ("exchange", "laundry")
                       for c in cards)

    @property
    def open_hands(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """(seat, cards) of hands played face up (``laundry_caught: plays_open``): the
        cards stay in that hand until played."""
        return tuple((s, cards) for s, cards, why in self.revealed if why == "open")

    @property
    def gone_mask(self) -> int:
        """Cards everyone knows are out of play: played, or shown as an exchange's discard."""
        return self.played_mask | self.discarded_mask

    @property
    def false_claims(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """(seat, cards) of the armoede hands shown this deal that are still held.

        A hand shown by a challenge holds a 7, 8, 9 or ten (the claim was false, no
        redeal): its cards stay in the claimer's hand until played. A genuine claim
        brings a redeal, which clears :attr:`revealed`.
        """
        return tuple((s, cards) for s, cards, why in self.revealed
                     if why == "armoede" and any(HIGH_CARDS_MASK >> c & 1 for c in cards))

    def opponents_in_session(self, seat: int) -> int:
        """How many seats still in the session play against ``seat`` (teams: the other pair)."""
        n = len(self.players)
        if self.teams:
            mine = self.teams[seat]
            return sum(1 for s in range(n) if self.in_session[s] and self.teams[s] != mine)
        return sum(1 for s in range(n) if self.in_session[s] and s != seat)

    @property
    def deal_start(self) -> int:
        """Index in :attr:`hand_actions` where the current deal (after any redeal) starts.

        A deal ends with a redeal when an armoede claim goes unchallenged (every
        opponent passed) or a challenge finds it genuine. The challenges of the current
        deal all found a false claim, and exactly those hands are in
        :attr:`false_claims`; so if the hand has had more challenges than that, the
        last earlier one ended a deal.
        """
        if not self.rules.armoede:
            return 0
        for _, act in self.hand_actions:
            if act is CLAIM or act is CHALLENGE:
                break
        else:  # no claim and no challenge this hand: no redeal, the deal starts at 0
            return 0
        start = 0
        pending = -1
        passes = 0
        challenges: list[int] = []
        for i, (seat, act) in enumerate(self.hand_actions):
            if act is CLAIM:
                pending, passes = seat, 0
                if self.opponents_in_session(seat) == 0:
                    start, pending = i + 1, -1
            elif pending >= 0 and act is PASS:
                passes += 1
                if passes >= self.opponents_in_session(pending):
                    start, pending = i + 1, -1
            elif act is CHALLENGE:
                challenges.append(i)
                pending = -1
        earlier = len(challenges) - len(self.false_claims)
        if earlier > 0:
            start = max(start, challenges[earlier - 1] + 1)
        return start

    @property
    def blind_knocker(self) -> int:
        """``blind_knock``: the seat that knocked blind this hand, else -1 (a blind knock
        stands through an armoede redeal: it is the hand's, not the deal's)."""
        if not self.rules.blind_knock:
            return -1
        for i, (seat, act) in enumerate(self.hand_actions):
            if act is KNOCK and self.round_of(i) is Phase.BLIND:
                return seat
        return -1

    @property
    def pelt_opener(self) -> int:
        """Under ``pelt``: the seat that opens this deal at stake 2, the first active
        seat after the dealer with one life left; -1 when there is none (or no pelt), and
        when a blind knock opened the stake this hand (it is the pelt's opening knock)."""
        if not self.rules.pelt or self.blind_knocker >= 0:
            return -1
        n = len(self.players)
        for i in range(n):
            s = (self.dealer + 1 + i) % n
            if self.active[s] and self.lives[s] == 1:
                return s
        return -1

    @property
    def first_leader(self) -> int:
        """The seat that leads the first trick of this deal: the pelt opener if there is
        one, else the first active seat after the dealer (-1 when no seat is active)."""
        opener = self.pelt_opener
        if opener >= 0:
            return opener
        n = len(self.players)
        for i in range(n):
            s = (self.dealer + 1 + i) % n
            if self.active[s]:
                return s
        return -1

    @staticmethod
    def from_json(data: Any) -> View:
        """The view that :meth:`to_json` wrote (:func:`view_from_json`)."""
        return view_from_json(data)

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON data, cards and actions in notation."""
        return {
            "seat": self.seat,
            "rules": self.rules.to_json(),
            "players": list(self.players),
            "phase": str(self.phase),
            "to_act": list(self.to_act),
            "legal": [str(a) for a in self.legal],
            "hand": [card_str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "lives": list(self.lives),
            "in_session": list(self.in_session),
            "active": list(self.active),
            "eliminated": list(self.eliminated),
            "dealer": self.dealer,
            "hand_no": self.hand_no,
            "stake": self.stake,
            "accepted": list(self.accepted),
            "last_knocker": self.last_knocker,
            "leader": self.leader,
            "trick": [[s, card_str(c)] for s, c in self.trick],
            "led_suit": "cdhs"[self.led_suit] if self.led_suit >= 0 else None,
            "trick_no": self.trick_no,
            "trick_winners": list(self.trick_winners),
            "played": [[s, card_str(c)] for s, c in self.played],
            "voids": [["cdhs"[x] for x in v] for v in self.voids],
            "tells": [
                {"seat": s, "count": k, "rank": TELL_WORDS[r]} for s, k, r in self.tells
            ],
            "revealed": [
                {"seat": s, "cards": [card_str(c) for c in cards], "reason": why}
                for s, cards, why in self.revealed
            ],
            "claimed": list(self.claimed),
            "exchanged": list(self.exchanged),
            "stock_size": self.stock_size,
            "drinks": list(self.drinks),
            "beers": list(self.beers),
            "rubber_no": self.rubber_no,
            "rubbers_won": list(self.rubbers_won),
            "lives_lost": list(self.lives_lost),
            "toepkoning": list(self.toepkoning),
            "sudden_death": self.sudden_death,
            "winner": self.winner,
            "hand_actions": [_move(s, a) for s, a in self.hand_actions],
            "hand_marks": [[i, str(p)] for i, p in self.hand_marks],
            "action_count": self.action_count,
            "teams": list(self.teams),
            "target": self.target,
            "laundered": list(self.laundered),
            "kans": list(self.kans),
            "cards_unseen": self.cards_unseen,
            "deal_start": self.deal_start,
            "pelt_opener": self.pelt_opener,
            "first_leader": self.first_leader,
            "out_hands": list(self.out_hands),
            "rebuys": list(self.rebuys),
            "pot": self.pot,
            "rebuy_lives": self.rebuy_lives,
            "places": [p.to_json() for p in self.places],
        }


_TOLD = {word: rank for rank, word in TELL_WORDS.items()}


class ViewError(ValueError):
    """A view's JSON that is not one (:meth:`View.from_json`): the message names the field."""


def view_from_json(data: Any) -> View:
    """The :class:`View` that ``view.to_json()`` wrote, exactly (``View.from_json``):
    what a bot served over the JSON-lines protocol (``toepen bot NAME``) decides from.
    The derived fields (``deal_start``, ``pelt_opener``, ``first_leader``, ``places``)
    are worked out again, not read. ViewError names the first field that is wrong.

    >>> from toepen.engine import Game
    >>> g = Game.new("classic", 4, seed=3)
    >>> view_from_json(observe(g, 1).to_json()) == observe(g, 1)
    True
    """
    if not isinstance(data, dict):
        raise ViewError("a view must be a JSON object")
    field_name = ""

    def get(name: str) -> Any:
        nonlocal field_name
        field_name = name
        if name not in data:
            raise ViewError(f"view: no field {name!r}")
        return data[name]

    def ints(name: str) -> tuple[int, ...]:
        value = get(name)
        if not isinstance(value, list) or not all(type(x) is int for x in value):
            raise ViewError(f"view: {name} must be a list of integers")
        return tuple(value)

    def flags(name: str) -> tuple[bool, ...]:
        value = get(name)
        if not isinstance(value, list) or not all(type(x) is bool for x in value):
            raise ViewError(f"view: {name} must be a list of true/false")
        return tuple(value)

    def num(name: str, optional: bool = False) -> Any:
        value = get(name)
        if (value is None and optional) or type(value) is int:
            return value
        raise ViewError(f"view: {name} must be an integer")

    def cards(value: Any) -> tuple[int, ...]:
        if not isinstance(value, list):
            raise ViewError(f"view: {field_name} must hold lists of cards")
        return tuple(parse_card(c) for c in value)

    def pairs(name: str) -> tuple[tuple[int, int], ...]:
        value = get(name)
        if not isinstance(value, list) or not all(
                isinstance(x, list) and len(x) == 2 and type(x[0]) is int for x in value):
            raise ViewError(f"view: {name} must be a list of [seat, card]")
        return tuple((x[0], parse_card(x[1])) for x in value)

    try:
        seat = num("seat", optional=True)
        led = get("led_suit")
        voids = get("voids")
        if not isinstance(voids, list) or not all(isinstance(v, list) for v in voids):
            raise ViewError("view: voids must be a list of lists of suits")
        moves = get("hand_actions")
        marks = get("hand_marks")
        if not all(isinstance(x, str) for x in get("players")) or not isinstance(
                data["players"], list):
            raise ViewError("view: players must be a list of names")
        if not isinstance(moves, list) or not isinstance(marks, list):
            raise ViewError("view: hand_actions and hand_marks must be lists")
        legal = get("legal")
        if not isinstance(legal, list):
            raise ViewError("view: legal must be a list of actions")
        for name in ("sudden_death", "cards_unseen"):
            if type(get(name)) is not bool:
                raise ViewError(f"view: {name} must be true or false")
        return View(
            seat=seat,
            rules=Rules.from_json(get("rules")),
            players=tuple(data["players"]),
            phase=Phase(get("phase")),
            to_act=ints("to_act"),
            legal=tuple(Action.parse(a) for a in legal),
            hand=cards(get("hand")),
            hand_sizes=ints("hand_sizes"),
            lives=ints("lives"),
            in_session=flags("in_session"),
            active=flags("active"),
            eliminated=ints("eliminated"),
            dealer=num("dealer"),
            hand_no=num("hand_no"),
            stake=num("stake"),
            accepted=ints("accepted"),
            last_knocker=num("last_knocker"),
            leader=num("leader"),
            trick=pairs("trick"),
            led_suit=-1 if led is None else _suit("led_suit", led),
            trick_no=num("trick_no"),
            trick_winners=ints("trick_winners"),
            played=pairs("played"),
            voids=tuple(tuple(sorted(_suit("voids", x) for x in v)) for v in voids),
            tells=tuple((t["seat"], t["count"], _TOLD[t["rank"]]) for t in get("tells")),
            revealed=tuple((r["seat"], cards(r["cards"]), str(r["reason"]))
                           for r in get("revealed")),
            claimed=ints("claimed"),
            exchanged=ints("exchanged"),
            stock_size=num("stock_size"),
            drinks=ints("drinks"),
            beers=ints("beers"),
            rubber_no=num("rubber_no"),
            rubbers_won=ints("rubbers_won"),
            toepkoning=ints("toepkoning"),
            sudden_death=data["sudden_death"],
            winner=num("winner", optional=True),
            hand_actions=tuple(parse_move(m) for m in get("hand_actions")),
            action_count=num("action_count"),
            teams=ints("teams"),
            target=num("target"),
            laundered=ints("laundered"),
            kans=ints("kans"),
            hand_marks=tuple((int(i), Phase(p)) for i, p in get("hand_marks")),
            lives_lost=ints("lives_lost"),
            cards_unseen=data["cards_unseen"],
            out_hands=ints("out_hands"),
            rebuys=ints("rebuys") if "rebuys" in data else (),
        )
    except ViewError:
        raise
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise ViewError(f"view: {field_name}: {e}") from None


def _suit(name: str, letter: Any) -> int:
    """The suit of ``letter`` (``c``, ``d``, ``h``, ``s``), or ViewError naming ``name``."""
    if not isinstance(letter, str) or len(letter) != 1 or letter not in "cdhs":
        raise ViewError(f"view: {name}: {letter!r} is not a suit (c, d, h, s)")
    return "cdhs".index(letter)


def observe(game: Game, seat: int | None) -> View:
    """Everything public about ``game`` plus ``seat``'s own cards; ``None`` for a spectator."""
    n = game.n
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"no seat {seat} at this table of {n}")
    played = tuple([(s, c) for s, c, _ in game.plays])
    unseen = cards_unseen(game)
    hand = cards_of(own_cards(game, seat)) if seat is not None else ()
    start = game.hand_start
    seats = order_table(n)  # index mask << 3: the seats of mask from seat 0, in order
    return View(
        seat=seat,
        rules=game.rules,
        players=game.players,
        phase=game.phase,
        to_act=game.to_act,
        legal=game.legal(seat) if seat is not None else (),
        hand=hand,
        hand_sizes=tuple([h.bit_count() for h in game.hand_masks()]),
        lives=tuple(game.lives_by_seat()),
        in_session=_flags(game.in_session, n),
        active=_flags(game.active, n),
        eliminated=tuple(game.eliminated),
        dealer=game.dealer,
        hand_no=game.hand_no,
        stake=game.stake,
        accepted=tuple(game.accepted),
        last_knocker=game.last_knocker,
        leader=game.leader,
        trick=tuple(game.trick),
        led_suit=game.led,
        trick_no=game.trick_no,
        trick_winners=tuple(game.trick_winners),
        played=played,
        voids=_voids(game, n),
        tells=tuple(game.tells),
        revealed=tuple((s, cards_of(m), why) for s, m, why in game.revealed),
        claimed=seats[game.claimed << 3],
        exchanged=seats[game.exchanged << 3],
        stock_size=game.stock_size,
        drinks=tuple(game.drinks),
        beers=tuple(game.beers),
        rubber_no=game.rubber_no,
        rubbers_won=tuple(game.rubbers_won),
        lives_lost=tuple(game.lives_lost),
        toepkoning=tuple(game.toepkoning),
        sudden_death=game.sudden_death,
        winner=game.winner,
        hand_actions=tuple(game.actions[start:]),
        action_count=len(game.actions),
        teams=game.team_of if game.rules.teams else (),
        target=_target(game),
        laundered=seats[game.laundered << 3],
        kans=seats[game.kans_drawn << 3],
        hand_marks=tuple([(i - start, p) for i, p in game.marks]),
        cards_unseen=unseen,
        out_hands=game.out_hands,
        rebuys=tuple(game.rebuys),
    )


def cards_unseen(game: Game) -> bool:
    """``blind_knock``: the deal's cards are not looked at yet (the blind round)."""
    return game.phase is Phase.BLIND or game.phase is Phase.BLIND_ANSWER


def own_cards(game: Game, seat: int) -> int:
    """The mask of the cards ``seat`` may see in its own hand: none while they are unseen."""
    return 0 if cards_unseen(game) else game.hand_mask(seat)


PRIVATE_FIELDS = ("seat", "legal", "hand")
"""The fields of ``observe(game, seat).to_json()`` that depend on the seat; every other
field is the spectator's (tests/server/test_cluster_views.py holds that for every seat
of many games)."""

Dumps = Callable[[Any], bytes]
"""A JSON encoder to bytes (the server's is ``orjson.dumps``)."""


def encoded_views(game: Game, seats: Iterable[int | None],
                  dumps: Dumps) -> dict[int | None, bytes]:
    """``dumps(observe(game, seat).to_json())`` for each of ``seats`` (None: a
    spectator), as JSON of the same content: the fast door for a server that tells many
    seats at once. The public part is observed and encoded once; each seat's own fields
    (:data:`PRIVATE_FIELDS`: its legal actions and :func:`own_cards`) go in front of it,
    each set of legal actions and each hand encoded once per encoder and kept."""
    public = observe(game, None).to_json()
    for name in PRIVATE_FIELDS:
        del public[name]
    tail = dumps(public)[1:]  # '"rules":...}', never empty: the view has many fields
    out: dict[int | None, bytes] = {}
    for seat in seats:
        if seat is None:
            out[None] = _SPECTATOR + tail
            continue
        if not 0 <= seat < game.n:
            raise ValueError(f"no seat {seat} at this table of {game.n}")
        out[seat] = (b'{"seat":%d,"legal":%b,"hand":%b,'
                     % (seat, _legal_json(dumps, game.legal(seat)),
                        _hand_json(dumps, own_cards(game, seat)))) + tail
    return out


_SPECTATOR = b'{"seat":null,"legal":[],"hand":[],'


@functools.lru_cache(maxsize=8192)
def _legal_json(dumps: Dumps, legal: tuple[Action, ...]) -> bytes:
    """``legal`` of a view, encoded (the same few hundred sets come back all the time)."""
    return _kept(dumps([str(a) for a in legal]))


@functools.lru_cache(maxsize=8192)
def _hand_json(dumps: Dumps, mask: int) -> bytes:
    """``hand`` of a view holding the cards of ``mask``, encoded."""
    return _kept(dumps([card_str(c) for c in cards_of(mask)]))


def _kept(data: bytes) -> bytes:
    """A copy of the encoder's output the size of its text, to keep (what orjson returns
    may hold on to the larger buffer it was written in)."""
    return bytes(memoryview(data))


_move = functools.cache(format_move)
"""``format_move``, each (seat, action) formatted once (a few hundred in all)."""


@functools.cache
def _flags(mask: int, n: int) -> tuple[bool, ...]:
    """By seat of ``n``: its bit of ``mask`` is set (the result is shared: a tuple)."""
    return tuple(bool(mask >> s & 1) for s in range(n))


def _target(game: Game) -> int:
    phase = game.phase
    if phase is Phase.ANSWER or phase is Phase.BLIND_ANSWER:
        return game.last_knocker
    if phase in (Phase.CLAIM_CHALLENGE, Phase.EXCHANGE_CHALLENGE, Phase.LAUNDRY_CHALLENGE):
        return game.target
    return -1


def _voids(game: Game, n: int) -> tuple[tuple[int, ...], ...]:
    voids: list[set[int]] = [set() for _ in range(n)]
    for seat, card, led in game.plays:
        if card >> 3 != led:
            voids[seat].add(led)
    return tuple(tuple(sorted(v)) for v in voids)


def observe_events(events: list[Event], seat: int | None) -> list[Event]:
    """Events as ``seat`` may see them (the same redaction as :func:`observe`)."""
    return redact(events, seat)
