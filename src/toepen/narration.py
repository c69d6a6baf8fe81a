"""Events in words, once: a message id and typed parameters that every client translates.

:func:`describe` turns one event into a :class:`Message` for one viewer (a seat, or
``None`` for a spectator): the catalog id of its text and the values of its placeholders.
It names no language and holds no text. The terminal renders a message with its
translator (:meth:`Message.render`); the server sends :meth:`Message.to_json` with every
event (``"say"``), so the browser only looks the id up in its catalog and fills in the
parameters. A parameter is a number, a plain string, or a typed reference the client
resolves in its own language:

- :class:`Seat` -> ``{"seat": 1}``: the name of that seat's player;
- :class:`Seats` -> ``{"seats": [1, 2]}``: their names, comma-separated;
- :class:`Cards` -> ``{"cards": ["Th", "7s"]}``: localised card texts, space-separated;
- :class:`Message` -> ``{"msg": "rank.tens", "params": {...}}``: another catalog message,
  translated in place (``params`` left out when it has none).

>>> from toepen.engine import Event, EventKind
>>> m = describe(Event(EventKind.KNOCK, 1, 3), viewer=0)
>>> m
Message('log.knock', name=Seat(1), stake=3)
>>> m.to_json()
{'id': 'log.knock', 'params': {'name': {'seat': 1}, 'stake': 3}}
>>> Message.from_json(m.to_json()) == m
True
>>> describe(Event(EventKind.TELL, 2, 3, (), "jacks"), None).to_json()["params"]["rank"]
{'msg': 'rank.jacks'}

Private cards are only ever named to their owner:

>>> hand = Event(EventKind.HAND, 0, 4, (16, 0), "", True)
>>> describe(hand, viewer=0)
Message('log.hand', cards=Cards(0, 16))
>>> describe(hand, viewer=1) is None, describe(hand, None) is None
(True, True)

Rendering needs only something that translates ids and knows its language
(:class:`toepen.i18n.Translator` does):

>>> class English:
...     lang = "en"
...     texts = {"log.knock": "{name} knocks: stake {stake}", "log.hand": "Your cards: {cards}"}
...     def __call__(self, key, /, **values):
...         return self.texts[key].format(**values)
>>> m.render(English(), ("Ann", "Bas", "Cor"))
'Bas knocks: stake 3'
>>> describe(hand, 0).render(English(), ("Ann", "Bas"))
'Your cards: 10♣ 10♥'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

from .cards import card_str, local_card_str, parse_card
from .engine import CHALLENGE, CLAIM, EXCHANGE, FOLD, KNOCK, PASS, STAY, Action, Event, EventKind
from .engine.events import sharers
from .engine.settle import Place
from .rules import Rules
from .view import View

__all__ = [
    "Cards", "Decision", "Message", "PROMPT_VERBS", "Param", "Refused", "Seat", "Seats",
    "Translate", "VERB_KEYS", "SECOND_PERSON", "action_message", "decision_verbs", "describe",
    "hand_summary", "in_second_person", "prompt", "refusal_message", "standings",
    "turn_prompt", "verb_id",
]


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat, shown as its player's name."""

    seat: int

    def __repr__(self) -> str:
        return f"Seat({self.seat})"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class Seats:
    """Several seats, shown as their players' names as a list (:func:`name_list`)."""

    seats: tuple[int, ...]

    def __repr__(self) -> str:
        return f"Seats{self.seats!r}"

    def to_json(self) -> dict[str, Any]:
        return {"seats": list(self.seats)}


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards (ids), shown in the client's language (``10♥``, ``V♥``), space-separated."""

    cards: tuple[int, ...]

    def __repr__(self) -> str:
        return f"Cards({', '.join(map(str, self.cards))})"

    def to_json(self) -> dict[str, Any]:
        return {"cards": [card_str(c) for c in self.cards]}


Param: TypeAlias = "int | str | Seat | Seats | Cards | Message"
"""One placeholder's value: a nested :class:`Message` is translated in place."""


class Translate(Protocol):
    """What :meth:`Message.render` needs: ids to text in one language (a Translator)."""

    lang: str

    def __call__(self, key: str, /, **values: object) -> str: ...


@dataclass(frozen=True)
class Message:
    """A catalog message id and the values of its placeholders."""

    id: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.id, tuple(self.params.items())))

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Message({self.id!r}{args})"

    def to_json(self) -> dict[str, Any]:
        """``{"id": ..., "params": {...}}``, references as one-key objects (see the module)."""
        return {"id": self.id, "params": {k: _param_json(v) for k, v in self.params.items()}}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Message:
        """The message :meth:`to_json` wrote (ValueError for anything else).

        >>> Message.from_json({"id": "log.sudden_death", "params": {"names": {"seats": [1, 2]}}})
        Message('log.sudden_death', names=Seats(1, 2))
        """
        ident = data.get("id") if isinstance(data, Mapping) else None
        params = data.get("params", {}) if isinstance(data, Mapping) else None
        if not isinstance(ident, str) or not isinstance(params, Mapping):
            raise ValueError(f"not a message: {data!r}")
        return Message(ident, {str(k): _param_from_json(v) for k, v in params.items()})

    def render(self, t: Translate, names: Sequence[str]) -> str:
        """The text in ``t``'s language; ``names`` are the players' names by seat."""
        return t(self.id, **{k: _render(v, t, names) for k, v in self.params.items()})


def _param_json(value: Param) -> Any:
    if isinstance(value, (int, str)):
        return value
    if isinstance(value, Message):
        data = value.to_json()
        return {"msg": data["id"], "params": data["params"]} if value.params else {"msg": value.id}
    return value.to_json()


def _param_from_json(value: Any) -> Param:
    if isinstance(value, bool):
        raise ValueError(f"not a message parameter: {value!r}")
    if isinstance(value, (int, str)):
        return value
    if isinstance(value, Mapping) and "msg" in value:
        return Message.from_json({"id": value["msg"], "params": value.get("params", {})})
    if isinstance(value, Mapping) and len(value) == 1:
        ((key, inner),) = value.items()
        if key == "seat" and isinstance(inner, int):
            return Seat(inner)
        if key == "seats" and isinstance(inner, list):
            return Seats(tuple(int(s) for s in inner))
        if key == "cards" and isinstance(inner, list):
            return Cards(tuple(parse_card(c) for c in inner))
    raise ValueError(f"not a message parameter: {value!r}")


def _name(seat: int, names: Sequence[str]) -> str:
    return names[seat] if 0 <= seat < len(names) else ""


def _render(value: Param, t: Translate, names: Sequence[str]) -> object:
    if isinstance(value, Seat):
        return _name(value.seat, names)
    if isinstance(value, Seats):
        return name_list([_name(s, names) for s in value.seats], t.lang)
    if isinstance(value, Cards):
        return " ".join(local_card_str(c, t.lang) for c in value.cards)
    if isinstance(value, Message):
        return value.render(t, names)
    return value


def name_list(items: Sequence[str], lang: str) -> str:
    """Names as a list in ``lang``'s own way (CLDR, Babel's ``format_list``; the browser's
    ``Intl.ListFormat`` agrees): ``Cor and Dirk``, ``Ann, Bob und Cor``.

    >>> name_list(["Ann", "Bob", "Cor"], "nl")
    'Ann, Bob en Cor'
    """
    from babel.core import UnknownLocaleError
    from babel.lists import format_list

    try:
        return format_list(list(items), locale=lang)
    except (UnknownLocaleError, ValueError):
        return ", ".join(items)


def _cards(cards: Sequence[int]) -> Cards:
    """Cards for display: sorted suit by suit, high to low."""
    return Cards(tuple(sorted(cards)))


_PASS = {"claim": "log.pass.claim", "exchange": "log.pass.exchange",
         "challenge": "log.pass.challenge", "blind": "log.pass.blind", "kans": "log.pass.kans",
         "laundry": "log.pass.laundry", "rebuy": "log.pass.rebuy"}
_LAUNDRY_RESULT = {"witte_was": "log.laundry.witte_was", "vuile_was": "log.laundry.vuile_was",
                   "caught": "log.laundry.caught", "unchallenged": "log.laundry.unchallenged"}
_JACK = {"others_pay_more": "log.jack.others_pay_more", "winner_gains": "log.jack.winner_gains"}
_CLAIM_RESULT = {"genuine": "log.claim.genuine", "false": "log.claim.false",
                 "unchallenged": "log.claim.unchallenged"}
_EXCHANGE_RESULT = {"caught": "log.exchange.caught", "clean": "log.exchange.clean",
                    "unchallenged": "log.exchange.unchallenged"}
_HAND_RESULT = {"loses": "log.hand_result.loses", "wins": "log.hand_result.wins",
                "folded": "log.hand_result.folded", "last_left": "log.hand_result.last_left",
                "four_of_a_kind": "log.hand_result.four_of_a_kind"}
_LIVES = {"stake": "log.lives.stake", "armoede": "log.lives.armoede",
          "exchange": "log.lives.exchange", "laundry": "log.lives.laundry",
          "four_of_a_kind": "log.lives.four_of_a_kind"}
_TELL_RANK = {"tens": "rank.tens", "jacks": "rank.jacks"}


def describe(event: Event, viewer: int | None) -> Message | None:
    """One event in words for ``viewer`` (a seat, ``None`` for a spectator), or None.

    None for the events not worth a line: another seat's dealt or drawn cards, and the
    lives a fold paid (the fold's own line says so). Cards of a private event are named
    only to the seat they belong to, redacted or not.

    >>> from toepen.engine import Event, EventKind as K
    >>> describe(Event(K.PASS, 3, 0, (), "exchange"), 0)
    Message('log.pass.exchange', name=Seat(3))
    >>> describe(Event(K.RUBBER, -1, 2, (), "0 2"), 0)
    Message('log.rubber_shared_by', n=2, names=Seats(0, 2))
    >>> describe(Event(K.SUDDEN_DEATH, -1, 0b0110), None)
    Message('log.sudden_death', names=Seats(1, 2))
    >>> describe(Event(K.LIVES, 1, 2, (), "fold"), 1) is None
    True
    """
    k = EventKind
    kind = event.kind
    who = Seat(event.seat)
    if kind is k.HAND or kind is k.DRAW:
        if event.seat != viewer or not event.cards:
            return None
        return Message("log.hand" if kind is k.HAND else "log.draw",
                       {"cards": _cards(event.cards)})
    if event.private and event.seat != viewer:
        return None
    if kind is k.DEAL:
        return Message("log.deal", {"hand": event.value, "name": who})
    if kind is k.REDEAL:
        return Message("log.redeal", {"name": who})
    if kind is k.TELL:
        rank = Message(_TELL_RANK.get(event.detail, "rank.tens"))
        return Message("log.tell.whistle" if event.value == 3 else "log.tell.stand",
                       {"name": who, "rank": rank})
    if kind is k.CLAIM:
        return Message("log.claim", {"name": who})
    if kind is k.EXCHANGE:
        return Message("log.exchange", {"name": who, "n": event.value})
    if kind is k.CHALLENGE:
        return Message("log.challenge", {"name": who, "target": Seat(event.value)})
    if kind is k.PASS:
        return Message(_PASS.get(event.detail, "log.pass.claim"), {"name": who})
    if kind is k.REVEAL:
        return Message("log.reveal.open" if event.detail == "open" else "log.reveal",
                       {"name": who, "cards": _cards(event.cards)})
    if kind is k.KANS:
        return Message("log.kans", {"name": who})
    if kind is k.LAUNDRY:
        return Message("log.laundry", {"name": who, "n": event.value})
    if kind is k.LAUNDRY_RESULT:
        return Message(_LAUNDRY_RESULT.get(event.detail, "log.laundry.caught"), {"name": who})
    if kind is k.FOUR_OF_A_KIND:
        return Message("log.four_of_a_kind",
                       {"name": who, "cards": _cards(event.cards), "n": event.value})
    if kind is k.JACK:
        return Message(_JACK.get(event.detail, "log.jack.others_pay_more"), {"name": who})
    if kind is k.LIFE_BACK:
        return Message("log.life_back", {"name": who, "n": event.value})
    if kind is k.CLAIM_RESULT:
        return Message(_CLAIM_RESULT.get(event.detail, "log.claim.false"), {"name": who})
    if kind is k.EXCHANGE_RESULT:
        return Message(_EXCHANGE_RESULT.get(event.detail, "log.exchange.clean"), {"name": who})
    if kind is k.PELT:
        return Message("log.pelt", {"name": who, "stake": event.value})
    if kind is k.KNOCK:
        return Message("log.knock.blind" if event.detail == "blind" else "log.knock",
                       {"name": who, "stake": event.value})
    if kind is k.STAY:
        return Message("log.stay", {"name": who, "stake": event.value})
    if kind is k.FOLD:
        return Message("log.fold", {"name": who, "n": event.value})
    if kind is k.PLAY:
        if not event.cards:
            return None
        return Message("log.play", {"name": who, "card": Cards(event.cards[:1])})
    if kind is k.TRICK:
        return Message("log.trick", {"name": who, "n": event.value})
    if kind is k.LIVES:
        if event.detail == "fold":
            return None  # the fold line already says what was paid
        return Message(_LIVES.get(event.detail, "log.lives.stake"), {"name": who, "n": event.value})
    if kind is k.ELIMINATED:
        return Message("log.eliminated", {"name": who})
    if kind is k.HAND_RESULT:
        return Message(_HAND_RESULT.get(event.detail, "log.hand_result.loses"),
                       {"name": who, "stake": event.value})
    if kind is k.RUBBER:
        if event.seat < 0:
            shared = sharers(event)
            if not shared:
                return Message("log.rubber_shared", {"n": event.value})
            return Message("log.rubber_shared_by", {"n": event.value, "names": Seats(shared)})
        return Message("log.rubber", {"n": event.value, "name": who})
    if kind is k.DRINKS:
        return Message("log.drinks", {"name": who, "n": event.value})
    if kind is k.TOEPKONING:
        return Message("log.toepkoning", {"name": who})
    if kind is k.SUDDEN_DEATH:
        tied = tuple(s for s in range(event.value.bit_length()) if event.value >> s & 1)
        return Message("log.sudden_death", {"names": Seats(tied)})
    if kind is k.REBUY:
        return Message("log.rebuy", {"name": who, "n": event.value})
    if kind is k.POT:
        return Message("log.pot", {"name": who, "amount": money(event.value),
                                   "unit": event.detail})
    if kind is k.SESSION_RESULT:
        return Message("log.session_result", {"name": who})
    return None


def money(cents: int) -> Message:
    """An amount of the pot, in cents, as the reader writes it (``pot.amount``: ``2.50``
    in English, ``2,50`` in Dutch), always with two decimals.

    >>> money(250), money(5)
    (Message('pot.amount', whole=2, frac='50'), Message('pot.amount', whole=0, frac='05'))
    """
    whole, part = divmod(cents, 100)
    return Message("pot.amount", {"whole": whole, "frac": f"{part:02d}"})



SECOND_PERSON: dict[str, str] = {
    "log.deal": "log.you.deal",
    "log.redeal": "log.you.redeal",
    "log.knock": "log.you.knock",
    "log.stay": "log.you.stay",
    "log.fold": "log.you.fold",
    "log.play": "log.you.play",
    "log.trick": "log.you.trick",
    "log.claim": "log.you.claim",
    "log.claim.false": "log.you.claim.false",
    "log.claim.genuine": "log.you.claim.genuine",
    "log.claim.unchallenged": "log.you.claim.unchallenged",
    "log.exchange": "log.you.exchange",
    "log.exchange.caught": "log.you.exchange.caught",
    "log.exchange.clean": "log.you.exchange.clean",
    "log.exchange.unchallenged": "log.you.exchange.unchallenged",
    "log.challenge": "log.you.challenge",
    "log.pass.challenge": "log.you.pass.challenge",
    "log.pass.claim": "log.you.pass.claim",
    "log.pass.exchange": "log.you.pass.exchange",
    "log.reveal": "log.you.reveal",
    "log.lives.stake": "log.you.lives.stake",
    "log.lives.armoede": "log.you.lives.armoede",
    "log.lives.exchange": "log.you.lives.exchange",
    "log.eliminated": "log.you.eliminated",
    "log.hand_result.loses": "log.you.hand_result.loses",
    "log.hand_result.wins": "log.you.hand_result.wins",
    "log.hand_result.folded": "log.you.hand_result.folded",
    "log.hand_result.last_left": "log.you.hand_result.last_left",
    "log.pelt": "log.you.pelt",
    "log.drinks": "log.you.drinks",
    "log.toepkoning": "log.you.toepkoning",
    "log.tell.stand": "log.you.tell.stand",
    "log.tell.whistle": "log.you.tell.whistle",
    "log.rubber": "log.you.rubber",
    "log.session_result": "log.you.session_result",
    "log.knock.blind": "log.you.knock.blind",
    "log.pass.blind": "log.you.pass.blind",
    "log.kans": "log.you.kans",
    "log.pass.kans": "log.you.pass.kans",
    "log.laundry": "log.you.laundry",
    "log.pass.laundry": "log.you.pass.laundry",
    "log.laundry.witte_was": "log.you.laundry.witte_was",
    "log.laundry.vuile_was": "log.you.laundry.vuile_was",
    "log.laundry.caught": "log.you.laundry.caught",
    "log.laundry.unchallenged": "log.you.laundry.unchallenged",
    "log.lives.laundry": "log.you.lives.laundry",
    "log.lives.four_of_a_kind": "log.you.lives.four_of_a_kind",
    "log.reveal.open": "log.you.reveal.open",
    "log.four_of_a_kind": "log.you.four_of_a_kind",
    "log.hand_result.four_of_a_kind": "log.you.hand_result.four_of_a_kind",
    "log.jack.others_pay_more": "log.you.jack.others_pay_more",
    "log.jack.winner_gains": "log.you.jack.winner_gains",
    "log.life_back": "log.you.life_back",
    "log.rebuy": "log.you.rebuy",
    "log.pass.rebuy": "log.you.pass.rebuy",
    "log.pot": "log.you.pot",
    "summary.paid": "summary.you.paid",
    "summary.next_dealer": "summary.you.next_dealer",
}
"""The second-person form of each message about ``{name}``: "You knock: stake 2"."""


def in_second_person(message: Message, viewer: int | None) -> Message:
    """``message`` addressed to ``viewer`` when it is about them: "You knock", not
    "Ann knocks" (:data:`SECOND_PERSON`; the ``name`` parameter is dropped), and
    "Bas challenges you." when ``viewer`` is the one challenged. Anything else, and
    every message for a spectator (``viewer`` None), is returned as it is.

    >>> from toepen.engine import Event, EventKind as K
    >>> in_second_person(describe(Event(K.KNOCK, 0, 2), 0), 0)
    Message('log.you.knock', stake=2)
    >>> in_second_person(describe(Event(K.KNOCK, 1, 2), 0), 0)
    Message('log.knock', name=Seat(1), stake=2)
    >>> in_second_person(describe(Event(K.CHALLENGE, 1, 0), 0), 0)
    Message('log.you.challenged', name=Seat(1))
    >>> in_second_person(describe(Event(K.KNOCK, 0, 2), None), None)
    Message('log.knock', name=Seat(0), stake=2)
    """
    if viewer is None:
        return message
    params = dict(message.params)
    if params.get("name") == Seat(viewer) and message.id in SECOND_PERSON:
        del params["name"]
        return Message(SECOND_PERSON[message.id], params)
    if message.id == "log.challenge" and params.get("target") == Seat(viewer):
        return Message("log.you.challenged", {"name": params["name"]})
    return message


def hand_summary(events: Sequence[Event], viewer: int | None = None) -> list[Message]:
    """What a finished hand came to, from its events as ``viewer`` saw them (the hand's
    deal up to the next deal, or to the end of the session): the hand, who took the last
    trick (or was left when the others folded), who paid how much, who is out, and who
    deals next. Addressed to ``viewer`` (:func:`in_second_person`).

    >>> from toepen.engine import Event, EventKind as K
    >>> hand = [Event(K.DEAL, 3, 2), Event(K.FOLD, 1, 1), Event(K.LIVES, 1, 1, (), "fold"),
    ...         Event(K.HAND_RESULT, 2, 2), Event(K.LIVES, 2, 2, (), "stake"),
    ...         Event(K.ELIMINATED, 2, 0), Event(K.DEAL, 0, 3)]
    >>> for m in hand_summary(hand, viewer=0):
    ...     m
    Message('summary.title', hand=2)
    Message('log.hand_result.loses', name=Seat(2), stake=2)
    Message('summary.paid', name=Seat(1), n=1)
    Message('summary.paid', name=Seat(2), n=2)
    Message('log.eliminated', name=Seat(2))
    Message('summary.you.next_dealer')
    >>> hand_summary([Event(K.DEAL, 0, 1), Event(K.HAND_RESULT, 1, 1, (), "wins")], 1)[1:]
    [Message('log.you.hand_result.wins', stake=1), Message('summary.nobody_paid')]
    """
    k = EventKind
    start = next((e for e in events if e.kind is k.DEAL), None)
    out: list[Message] = [Message("summary.title", {"hand": start.value if start else 0})]
    paid: dict[int, int] = {}
    out_seats: list[int] = []
    nxt: Event | None = None
    for e in events:
        if e.kind is k.HAND_RESULT:
            line = describe(e, viewer)
            if line is not None:
                out.append(line)
        elif e.kind is k.LIVES:
            paid[e.seat] = paid.get(e.seat, 0) + e.value
        elif e.kind is k.ELIMINATED:
            out_seats.append(e.seat)
        elif e.kind is k.DEAL and e is not start:
            nxt = e
    out.extend(Message("summary.paid", {"name": Seat(s), "n": n})
               for s, n in sorted(paid.items()) if n)
    if not any(paid.values()):
        out.append(Message("summary.nobody_paid"))
    out.extend(Message("log.eliminated", {"name": Seat(s)}) for s in out_seats)
    if nxt is not None:
        out.append(Message("summary.next_dealer", {"name": Seat(nxt.seat)}))
    return [in_second_person(m, viewer) for m in out]


def standings(places: Sequence[Place], rules: Rules, *, over: bool = True,
              rebuys: Sequence[int] = ()) -> list[Message]:
    """The standings as lines: a title, then one line per place of the engine's
    finishing order (:func:`toepen.engine.settle.finishing_order`, e.g. ``view.places``)
    with the figures that decided it: under rubbers the rounds owed and the rubbers won
    (and, before the session's end, the lives of the rubber being played); under
    elimination the last one in with their lives, the others by the hand they went out
    in. Where two places are level on every figure the line says what put the first
    above: the lower seat, or going out later in the same hand. Lives are shown as
    penalty points towards ``lives`` under ``count: points_up``. A pair in teams is one
    line (``name``: both seats). ``over``: the session has ended (the title says final).
    ``rebuys`` (by seat, :attr:`View.rebuys`): a side that bought back in says how often
    (``standings.fig.rebuys``).

    >>> from toepen.engine.settle import finishing_order
    >>> from toepen.rules import Rules
    >>> order = finishing_order(rubber=False, team_of=(0, 1, 2), pools=(3, 0, 0),
    ...     in_session=1, eliminated=(2, 1), out_hands=(4, 4), drinks=(0, 0, 0),
    ...     rubbers_won=(0, 0, 0), winner=0)
    >>> lines = standings(order, Rules.preset("rulebook"))
    >>> [m.id for m in lines]
    ['standings.title', 'standings.row', 'standings.row_why', 'standings.row']
    >>> lines[1].params["figures"]
    Message('standings.fig.winner', lives=3)
    >>> lines[2].params["why"], lines[3].params["figures"]
    (Message('standings.why.same_hand', name=Seat(2)), Message('standings.fig.out', hand=4))
    """
    points = rules.count == "points_up"
    limit = rules.lives
    rubber = rules.session == "rubber"

    def lives(p: Place) -> dict[str, Param]:
        if points:
            return {"points": rules.sheet_value(p.lives), "limit": limit}
        return {"lives": p.lives}

    def who(p: Place) -> Param:
        return Seat(p.seat) if len(p.seats) == 1 else Seats(p.seats)

    out = [Message("standings.title" if over else "standings.title_now")]
    for i, p in enumerate(places):
        if rubber:
            figs: dict[str, Param] = {"drinks": p.drinks, "rubbers": p.rubbers_won}
            if over:
                figures = Message("standings.fig.rubber", figs)
            else:
                figures = Message("standings.fig.rubber_now_points" if points
                                  else "standings.fig.rubber_now", {**figs, **lives(p)})
        elif p.out:
            figures = Message("standings.fig.out", {"hand": p.out_hand})
        elif over and i == 0:
            figures = Message("standings.fig.winner_points" if points
                              else "standings.fig.winner", lives(p))
        else:
            figures = Message("standings.fig.in_points" if points else "standings.fig.in",
                              lives(p))
        bought = rebuys[p.seat] if p.seat < len(rebuys) else 0
        if bought:
            figures = Message("standings.fig.rebuys", {"figures": figures, "n": bought})
        nxt = places[i + 1] if i + 1 < len(places) else None
        why: Message | None = None
        if nxt is not None and p.by == "seat":
            why = Message("standings.why.seat", {"name": who(nxt)})
        elif nxt is not None and p.by == "out" and p.out and p.out_hand == nxt.out_hand:
            why = Message("standings.why.same_hand", {"name": who(nxt)})
        row: dict[str, Param] = {"place": p.place, "name": who(p), "figures": figures}
        if why is None:
            out.append(Message("standings.row", row))
        else:
            out.append(Message("standings.row_why", {**row, "why": why}))
    return out


VERB_KEYS: dict[Action, str] = {
    KNOCK: "k", STAY: "s", FOLD: "f", CLAIM: "a", EXCHANGE: "x", CHALLENGE: "c", PASS: "p",
}
"""The keyboard key of each verb, the same in every language and client (shown on screen)."""


_PHASE_VERBS: dict[tuple[str, Action], str] = {
    ("rebuy", STAY): "act.rebuy.stay", ("rebuy", PASS): "act.rebuy.pass",
}
"""A verb's label where a phase gives it another meaning: in the ``rebuy`` round ``stay``
buys back in and ``pass`` stays out."""


def verb_id(act: Action, phase: str = "") -> str:
    """The catalog id of a verb's label (``act.knock``; in ``phase``, its meaning there:
    ``act.rebuy.stay``); ValueError for a play."""
    if act.is_play:
        raise ValueError(f"{act} is not a verb")
    return _PHASE_VERBS.get((str(phase), act), f"act.{act}")


def action_message(act: Action, phase: str = "") -> Message:
    """The name of an action (``play 10♥``, ``knock``) as a message; ``phase``: the
    phase it is taken in, where that names it otherwise (``rebuy``: "buy back in").

    >>> action_message(Action.parse("play Th")), action_message(KNOCK)
    (Message('act.play', card=Cards(16)), Message('act.knock'))
    >>> action_message(STAY, "rebuy")
    Message('act.rebuy.stay')
    """
    if act.is_play:
        return Message("act.play", {"card": Cards((act.card,))})
    return Message(verb_id(act, phase))


def prompt(view: View) -> Message:
    """What the seat to act must decide (``phase.answer``: answer NAME's knock...).

    ``name`` is the seat the decision is about (:attr:`View.target`): the knocker when
    answering, the claimer or exchanger in a challenge round.
    """
    return Message(f"phase.{view.phase}", {"name": Seat(view.target)})


class Decision(Protocol):
    """What :func:`turn_prompt` reads of a seat's decision (a :class:`~toepen.view.View`)."""

    @property
    def phase(self) -> str: ...

    @property
    def target(self) -> int: ...

    @property
    def legal(self) -> Sequence[Action]: ...


PROMPT_VERBS: dict[str, frozenset[str]] = {
    "phase.deal": frozenset(),
    "phase.over": frozenset(),
    "phase.blind": frozenset({"knock", "pass"}),
    "phase.blind.pass": frozenset({"pass"}),
    "phase.blind_answer": frozenset({"stay", "fold"}),
    "phase.blind_answer.stay": frozenset({"stay"}),
    "phase.claim": frozenset({"claim", "pass"}),
    "phase.claim_challenge": frozenset({"challenge", "pass"}),
    "phase.exchange": frozenset({"exchange", "pass"}),
    "phase.exchange_challenge": frozenset({"challenge", "pass"}),
    "phase.kans": frozenset({"exchange", "pass"}),
    "phase.laundry": frozenset({"exchange", "pass"}),
    "phase.laundry_challenge": frozenset({"challenge", "pass"}),
    "phase.rebuy": frozenset({"stay", "pass"}),
    "phase.answer": frozenset({"stay", "fold", "knock"}),
    "phase.answer.stay_fold": frozenset({"stay", "fold"}),
    "phase.answer.stay_knock": frozenset({"stay", "knock"}),
    "phase.answer.stay": frozenset({"stay"}),
    "phase.play": frozenset({"play", "knock"}),
    "phase.play.card": frozenset({"play"}),
    "phase.play.knock": frozenset({"knock"}),
}
"""The moves each prompt names (``play`` for any card): :func:`turn_prompt` picks the
prompt of the phase that names exactly the seat's legal moves."""

_PROMPT_OF: dict[tuple[str, frozenset[str]], str] = {
    (ident.split(".")[1], verbs): ident for ident, verbs in PROMPT_VERBS.items()
}


def decision_verbs(legal: Sequence[Action]) -> frozenset[str]:
    """The moves among ``legal``, a card played counted once as ``play``.

    >>> sorted(decision_verbs((STAY, FOLD, Action.parse("play Th"))))
    ['fold', 'play', 'stay']
    """
    return frozenset("play" if a.is_play else str(a) for a in legal)


def turn_prompt(view: Decision) -> Message:
    """What the viewing seat must decide now, naming only the moves :attr:`View.legal`
    allows (:data:`PROMPT_VERBS`): answering a knock, "stay or fold" when knocking again
    is not legal and "stay" alone when folding is not either; playing, "Play a card."
    when knocking is not legal, "Play a card or knock." only when it is. A seat with
    nothing to decide gets the phase's prompt (:func:`prompt`).

    >>> from types import SimpleNamespace as V
    >>> turn_prompt(V(phase="play", target=-1, legal=(KNOCK, Action.parse("play Th"))))
    Message('phase.play', name=Seat(-1))
    >>> turn_prompt(V(phase="play", target=-1, legal=(Action.parse("play Th"),)))
    Message('phase.play.card', name=Seat(-1))
    >>> turn_prompt(V(phase="answer", target=2, legal=(STAY, FOLD, KNOCK)))
    Message('phase.answer', name=Seat(2))
    >>> turn_prompt(V(phase="answer", target=2, legal=(STAY, FOLD)))
    Message('phase.answer.stay_fold', name=Seat(2))
    >>> turn_prompt(V(phase="answer", target=2, legal=(STAY,)))
    Message('phase.answer.stay', name=Seat(2))
    """
    phase = str(view.phase)
    ident = _PROMPT_OF.get((phase, decision_verbs(view.legal)), f"phase.{phase}")
    return Message(ident, {"name": Seat(view.target)})


class Refused(Protocol):
    """What :func:`refusal_message` reads of an engine refusal (:class:`toepen.engine.Refusal`)."""

    @property
    def code(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Any]: ...


def refusal_message(refusal: Refused, view: View | None = None) -> Message:
    """Why an action was refused, as the catalog message ``refusal.<code>``.

    The engine's parameters become typed ones: ``seat`` and ``turn`` (seat numbers) the
    players' names, ``card`` a card, ``suit`` its name (``suit.h``), ``action`` the
    action's name (``act.knock``, ``act.play``), ``phase`` what that phase asks
    (:func:`prompt`, naming the seat it is about when ``view`` is the refused seat's view).
    No reason is worked out here: the engine decided it.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class R:
    ...     code: str
    ...     params: dict
    >>> refusal_message(R("must_follow_suit", {"seat": 0, "card": "7s", "suit": "h"}))
    Message('refusal.must_follow_suit', seat=Seat(0), card=Cards(27), suit=Message('suit.h'))
    >>> m = refusal_message(R("not_now", {"seat": 1, "action": "knock", "phase": "claim"}))
    >>> m.params["action"], m.params["phase"]
    (Message('act.knock'), Message('phase.claim', name=Seat(-1)))
    >>> refusal_message(R("no_such_seat", {"seat": 9, "players": 4})).params["seat"]
    9
    """
    params: dict[str, Param] = {}
    named_seats = refusal.code not in ("not_a_seat", "no_such_seat", "bad_action")
    for key, value in refusal.params.items():
        params[key] = _refusal_param(key, value, named_seats, view)
    return Message(f"refusal.{refusal.code}", params)


def _refusal_param(key: str, value: Any, named_seats: bool, view: View | None) -> Param:
    if key in ("seat", "turn") and named_seats and isinstance(value, int):
        return Seat(value)
    if key == "card" and isinstance(value, str):
        return Cards((parse_card(value),))
    if key == "suit" and isinstance(value, str):
        return Message(f"suit.{value}")
    if key == "action" and isinstance(value, str):
        try:
            return action_message(Action.parse(value))
        except ValueError:
            return value
    if key == "phase" and isinstance(value, str):
        if view is not None and view.phase == value:
            return prompt(view)
        return Message(f"phase.{value}", {"name": Seat(-1)})
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return str(value)
    return value
