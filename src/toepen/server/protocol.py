"""The protocol's own words: its messages, its errors and its limits (``docs/protocol.md``).

Everything the server sends is built here, and everything a client sends is first read
here: :func:`parse` turns a WebSocket frame into a checked client message or raises
:class:`Refused`. Nothing here touches a table; the table master and the lobby call
these functions with what they decided.

>>> import json
>>> frame = json.loads(error("stale", "state 3 is stale", 7))
>>> frame["type"], frame["code"], frame["message"], frame["id"]
('error', 'stale', 'state 3 is stale', 7)
>>> frame["say"]  # what the client shows, in its reader's language
{'id': 'error.stale', 'params': {}}
>>> parse('{"v": 1, "type": "ping", "id": "a"}', Limits())
{'v': 1, 'type': 'ping', 'id': 'a'}
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
import regex

from .. import __version__
from ..cards import card_str
from ..engine import Event, redact
from ..engine.settle import Place
from ..narration import Message, describe, hand_summary, standings, turn_prompt
from ..rules import Rules
from ..view import View
from .names import invisible, misplaced_emoji_part

PROTOCOL = 1
"""The protocol version: ``"v"`` of every message, both ways."""

CLIENT_TYPES = ("hello", "act", "back", "leave", "host", "ping", "chat", "react", "rematch")
HOST_COMMANDS = ("start", "add_bot", "remove_bot", "remove_seat")
ERROR_CODES = ("bad_json", "bad_message", "unsupported_version", "too_large", "need_hello",
               "auth", "forbidden", "not_found", "limit", "not_started", "over", "stale",
               "not_your_turn", "illegal", "bad_action", "rate_limited", "bad_command",
               "server_error", "in_doubt", "replaced")
"""Every ``code`` of a refusal (``not_found`` is HTTP-only; ``limit`` on a socket: too many
sockets from one address; ``replaced``: a newer socket of the seat closed this one)."""
MAX_INT = 2**53 - 1
"""The largest integer a client message may hold anywhere (JavaScript's
``Number.MAX_SAFE_INTEGER``: every browser reads it exactly); below ``-MAX_INT`` neither."""
MAX_ROW = 2**31 - 1
"""The largest row id (an invitation's) a request may name: PostgreSQL's ``integer``."""
SMALL = 1000
"""The bound of a count, size, seat, round or table number a request may hold (each is
checked against its own, smaller rules after: this keeps the rules' own message)."""
INT_FIELDS: dict[str, tuple[int, int]] = {"id": (-MAX_INT, MAX_INT), "state": (0, MAX_INT),
                                          "seat": (0, MAX_INT)}
"""The integer fields of the client messages and their bounds, checked by :func:`parse`
before anything else reads them (the schema, ``docs/protocol.schema.json``, says the same);
any other integer (a rematch's ``options``) is held to ``-MAX_INT`` to ``MAX_INT`` there and
to its own bounds by the rules."""
NAME_PUNCTUATION = " '-_."
REACTIONS: dict[str, str] = {
    "cheers": "react.cheers",
    "well_played": "react.well_played",
    "bluff": "react.bluff",
    "oops": "react.oops",
    "your_round": "react.your_round",
    "hurry": "react.hurry",
    "lucky": "react.lucky",
    "good_game": "react.good_game",
}
"""The quick reactions and their catalog messages."""


class Refused(Exception):
    """A request the server will not do; ``code`` is the protocol's error code.

    ``refusal`` is the engine's structured reason (``Refusal.to_json()``) when the engine
    refused the action; clients translate it (``refusal.<code>``).
    """

    def __init__(self, code: str, message: str, status: int = 400,
                 refusal: dict[str, Any] | None = None, say: Message | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.refusal = refusal
        self.say = say
        """What the player is told, as a catalog message (default ``error.<code>``)."""
        self.retry_after = retry_after
        """Seconds after which the same request may succeed (HTTP's ``Retry-After``)."""
        self.msg_id: str | int | None = None
        """The ``id`` of the message refused, when :func:`parse` could read it (an unknown
        ``type``, another ``v``): echoed in the ``error``, as for any other refusal."""

    def say_json(self) -> dict[str, Any]:
        """The refusal in the player's words: its own message, else ``error.<code>``."""
        return (self.say or Message(f"error.{self.code}")).to_json()


@dataclass
class Limits:
    """The server's bounds on what clients may do."""

    max_message: int = 4096
    max_frame: int = 65536
    max_body: int = 16384
    messages_per_second: int = 20
    tables_per_client: int = 20
    max_tables: int = 10000
    max_spectators: int = 100
    name_length: int = 24
    chat_length: int = 200
    """Characters (as people see them) of one chat message."""
    chat_burst: int = 5
    chat_window: float = 10.0
    """At most ``chat_burst`` chat messages and reactions per client in ``chat_window`` s."""
    abandoned_after: float = 600.0
    """Seconds a table that has not started stays in the open list with no person there."""
    hints_per_seat: int = 20
    """Hints one seat may ask for in a minute (``--hints-per-minute``)."""
    offer_wait: float = 60.0
    """Seconds an offer to play again waits for the people at the table who have not
    answered (then the next game starts; a stand-in plays their seats until they come)."""
    finished_grace: float = 60.0
    """Seconds a finished table with nobody connected stays in memory (then it is read
    from storage when asked for)."""
    finished_kept: int = 200
    """The most finished tables in memory: past it the quiet ones leave at once."""
    send_queue: int = 512
    sockets_per_seat: int = 4
    """Open WebSockets of one seat (one process): a newer one past it closes the oldest,
    which is told (``replaced``, close code 4009)."""
    sockets_per_address: int = 64
    """Open WebSockets from one client address (one process), from the handshake to the
    close, ``hello`` said or not: one more is refused (``limit``, close code 4029)."""
    hello_timeout: float = 10.0
    """Seconds a new WebSocket has to say ``hello`` (else closed, code 4000)."""
    away_grace: float = 10.0
    """Seconds a seat whose player closed their last socket cleanly (a closed tab, a page
    left: close code 1000 or 1001) waits before a stand-in plays it, if none of the seat's
    sockets came back meanwhile (a reload reconnects within a second or two). A socket
    lost without a close (a dropped network) keeps the table's idle clock."""


def _emoji_part(ch: str) -> bool:
    """A code point that only builds an emoji: the zero-width joiner, a variation
    selector, a skin tone or a tag (of a flag such as England's)."""
    cp = ord(ch)
    return (cp == 0x200D or 0xFE00 <= cp <= 0xFE0F or 0x1F3FB <= cp <= 0x1F3FF
            or 0xE0020 <= cp <= 0xE007F)


def name_length(name: str) -> int:
    """How many characters a name has as people see them: its extended grapheme
    clusters (Unicode's own rule, by the ``regex`` library). A letter with its accents,
    a family emoji joined by zero-width joiners, a flag of two regional indicators or a
    skin-toned hand count once each.

    >>> [name_length(n) for n in ("Zoë", "Ann 👍🏽", "👨\u200d👩\u200d👧", "🇳🇱")]
    [3, 5, 1, 1]
    """
    return len(_GRAPHEME.findall(name))


_GRAPHEME = regex.compile(r"\X")


def _name_char(ch: str) -> bool:
    """Letters, accents, digits, the punctuation of names, and emoji (symbols of the
    category ``So`` with their joiners, selectors, skin tones and tags); never a control
    or formatting character, a line break, markup such as ``<``, or a character that
    shows nothing (``names.invisible``: the combining grapheme joiner, a Hangul filler...)."""
    if ch in NAME_PUNCTUATION or _emoji_part(ch):
        return True
    if invisible(ch):
        return False
    category = unicodedata.category(ch)
    return category[0] in "LMN" or category == "So"


def check_name(name: Any, limit: int, what: str = "name") -> str:
    """A display name of 1 to ``limit`` characters (as people see them: an emoji is one),
    or Refused naming what is wrong.

    >>> check_name("Ann-Sophie", 24)
    'Ann-Sophie'
    >>> check_name("Jan 🍺", 5)
    'Jan 🍺'
    >>> check_name("Annemarie", 8)
    Traceback (most recent call last):
    ...
    toepen.server.protocol.Refused: name: 1 to 8 characters, not 9
    >>> check_name(" Ann", 24)
    Traceback (most recent call last):
    ...
    toepen.server.protocol.Refused: name: no space at the start or end
    >>> check_name("Ann\u202e", 24)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    toepen.server.protocol.Refused: name: letters, digits, emoji, ... (not U+202E)
    >>> check_name("Ann\u200d", 24)
    Traceback (most recent call last):
    ...
    toepen.server.protocol.Refused: name: U+200D only inside an emoji sequence
    >>> england = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    >>> check_name(f"Jan 👨\u200d👩\u200d👧 {england}", 24) == f"Jan 👨\u200d👩\u200d👧 {england}"
    True
    """
    if not isinstance(name, str):
        raise Refused("bad_message", f"{what}: must be text", say=Message("error.name.text"))
    if len(name) > 8 * limit:  # however they are joined, no name needs more
        raise Refused("bad_message", f"{what}: too long ({len(name)} code points)",
                      say=Message("error.name.length", {"limit": limit, "n": len(name)}))
    length = name_length(name)
    if not 1 <= length <= limit:
        raise Refused("bad_message", f"{what}: 1 to {limit} characters, not {length}",
                      say=Message("error.name.length", {"limit": limit, "n": length}))
    if name != name.strip():
        raise Refused("bad_message", f"{what}: no space at the start or end",
                      say=Message("error.name.space"))
    bad = sorted({ch for ch in name if not _name_char(ch)})
    if bad:
        shown = " ".join(repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}" for ch in bad)
        raise Refused("bad_message",
                      f"{what}: letters, digits, emoji, space and ' - _ . only (not {shown})",
                      say=Message("error.name.chars", {"chars": shown}))
    part = misplaced_emoji_part(name)
    if part is not None:
        code = f"U+{ord(part):04X}"
        raise Refused("bad_message", f"{what}: {code} only inside an emoji sequence",
                      say=Message("error.name.emoji_part", {"char": code}))
    return name


def check_seat(seat: Any, size: int, what: str = "seat") -> int:
    """A seat number of a table of ``size``, or Refused ``bad_message``."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < size:
        raise Refused("bad_message", f"{what}: a seat from 0 to {size - 1}, not {seat!r}")
    return seat


# -- reading -------------------------------------------------------------------------


def lone_surrogate(doc: Any) -> bool:
    """Whether a parsed JSON document holds a lone surrogate (``"\\ud800"``) in any
    string, key or value: JSON can write one, but it is no Unicode text (it cannot be
    encoded, stored or sent back), so no message or body may carry it.

    >>> lone_surrogate(json.loads('{"a": ["ok", {"b": "\\\\ud800"}]}'))
    True
    >>> lone_surrogate(json.loads('{"a": "\\\\ud83c\\\\udf7a"}'))  # a pair: one emoji
    False
    """
    stack = [doc]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode()
                except UnicodeEncodeError:
                    return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def parse(text: str, limits: Limits) -> dict[str, Any]:
    """A client message: JSON, an object, version 1 and a known ``type`` (else Refused)."""
    if len(text.encode()) > limits.max_message:
        raise Refused("too_large", f"message longer than {limits.max_message} bytes")
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("bad_json", "the message is not JSON") from None
    if not isinstance(msg, dict):
        raise Refused("bad_json", "the message must be a JSON object")
    if "\\u" in text and lone_surrogate(msg):
        raise Refused("bad_message", "text with a lone surrogate (such as \\ud800) is not "
                      "Unicode text", say=Message("error.unicode"))
    if msg.get("v") != PROTOCOL:
        raise _with_id(Refused("unsupported_version", f"v: this server speaks version "
                               f"{PROTOCOL}, not {_shown(msg.get('v'))}"), msg)
    kind = msg.get("type")
    if kind not in CLIENT_TYPES:
        raise _with_id(Refused("bad_message", f"type: unknown message type "
                               f"{_shown(kind)}"), msg)
    check_integers(msg)
    return msg


def _shown(value: Any) -> str:
    """A value of a refused message as the error names it (a long one cut short)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _with_id(e: Refused, msg: dict[str, Any]) -> Refused:
    """``e`` with the message's ``id`` to echo, if it is one within its bounds (a string,
    or an integer from ``-MAX_INT`` to ``MAX_INT``: :data:`INT_FIELDS`).

    >>> _with_id(Refused("bad_message", "type"), {"v": 1, "type": "x", "id": 7}).msg_id
    7
    >>> _with_id(Refused("bad_message", "type"), {"id": 2**60}).msg_id is None
    True
    """
    got = message_id(msg)
    low, high = INT_FIELDS["id"]
    if isinstance(got, str) or (isinstance(got, int) and low <= got <= high):
        e.msg_id = got
    return e


def check_integers(msg: dict[str, Any]) -> None:
    """Every integer of a client message within its bounds (:data:`INT_FIELDS`, else
    ``-MAX_INT`` to ``MAX_INT``), or Refused ``bad_message`` naming the field (a long
    value by its number of digits only).

    >>> check_integers({"v": 1, "type": "ping", "id": 2**64})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    toepen.server.protocol.Refused: id: an integer from ... to ..., not 18446744073709551616
    >>> check_integers({"v": 1, "type": "act", "action": "knock", "state": -1})
    Traceback (most recent call last):
    ...
    toepen.server.protocol.Refused: state: an integer from 0 to 9007199254740991, not -1
    """
    stack: list[tuple[str, Any]] = [(key, value) for key, value in msg.items()]
    while stack:
        where, value = stack.pop()
        if isinstance(value, int) and not isinstance(value, bool):
            low, high = INT_FIELDS.get(where, (-MAX_INT, MAX_INT))
            if not low <= value <= high:
                text = str(value)  # a frame of 4 KiB holds no more digits than str takes
                shown = text if len(text) <= 24 else f"a number of {len(text)} digits"
                raise Refused("bad_message", f"{where}: an integer from {low} to {high}, "
                              f"not {shown}",
                              say=Message("error.integer", {"field": where, "low": low,
                                                            "high": high}))
        elif isinstance(value, dict):
            stack.extend((f"{where}.{key}", item) for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", item) for i, item in enumerate(value))


def message_id(msg: dict[str, Any]) -> str | int | None:
    """The ``id`` a client gave its message, if it is one (a string or an integer)."""
    value = msg.get("id")
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return value
    return None


# -- writing -------------------------------------------------------------------------


def dumps(msg: dict[str, Any]) -> str:
    """A message as the compact JSON text of one frame."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


@functools.lru_cache(maxsize=4096)
def say_json(say: Message) -> dict[str, Any]:
    """A narration's JSON, computed once per distinct message (every receiver of a public
    event gets the same one). Shared: never change what it returns."""
    return say.to_json()


def event_json(e: Event, viewer: int | None) -> dict[str, Any]:
    """An (already redacted) event as protocol JSON, with its narration for ``viewer``.
    Shared between receivers that see the same event said the same way: never change
    what it returns."""
    return _event_json(e, describe(e, viewer))


@functools.lru_cache(maxsize=8192)
def _event_json(e: Event, say: Message | None) -> dict[str, Any]:
    return {"kind": str(e.kind), "seat": e.seat, "value": e.value,
            "cards": [card_str(c) for c in e.cards], "detail": e.detail, "private": e.private,
            "say": None if say is None else say_json(say)}


def events_json(events: Iterable[Event], viewer: int | None) -> list[dict[str, Any]]:
    """Events as ``viewer`` (None: a spectator) may see them, each with its narration."""
    return [event_json(e, viewer) for e in redact(list(events), viewer)]


@functools.lru_cache(maxsize=8192)
def _event_text(e: Event, viewer: int | None) -> str:
    # kept as text: orjson's bytes keep the 4 KiB buffer they were written in
    return orjson.dumps(event_json(e, viewer)).decode()


def events_fragment(events: Iterable[Event], viewer: int | None) -> orjson.Fragment:
    """:func:`events_json` already encoded (an ``orjson.Fragment``): each (redacted) event
    is encoded once per viewer that sees it said one way, and the encoding is kept (an
    event of one table is, byte for byte, an event of many others: a card played; about
    nine in ten are found kept in the load benchmark)."""
    return orjson.Fragment("[" + ",".join(
        [_event_text(e, viewer) for e in redact(list(events), viewer)]) + "]")


@functools.lru_cache(maxsize=8192)
def said_alike(e: Event, players: int) -> bool:
    """Every seat of ``players`` and a spectator see ``e`` and are told it the same
    way (compared, once per event: the same encoding for all)."""
    text = _event_text(redact([e], None)[0], None)
    return all(_event_text(redact([e], s)[0], s) == text for s in range(players))


def shared_events(events: Sequence[Event], players: int) -> orjson.Fragment | None:
    """:func:`events_fragment` of ``events`` for every receiver when it is the same for
    all (nine actions in ten: a card played, a knock), else None."""
    for e in events:
        if not said_alike(e, players):
            return None
    return events_fragment(events, None)


def last_json(last: tuple[int, str, str] | None) -> dict[str, Any] | None:
    """``last`` of a ``state`` message: (seat, action text, by)."""
    return None if last is None else {"seat": last[0], "action": last[1], "by": last[2]}


@dataclass(frozen=True)
class Closing:
    """What a ``state`` that ends a hand (or the session) sums up: the hand's events from
    its deal, and at the end of the session all of them with the winner, the finishing
    order (``game.places()``) and the rules (the standings are said from these)."""

    hand: Sequence[Event] | None = None
    session: Sequence[Event] | None = None
    winner: int | None = None
    places: tuple[Place, ...] = ()
    rules: Rules | None = None
    rebuys: tuple[int, ...] = ()
    """By seat: how often it bought back in (``rebuy``), for the standings."""


def state(view: View, events: Sequence[Event], last: tuple[int, str, str] | None,
          history: Sequence[Event] | None = None, history_max: int = 300,
          closing: Closing | None = None) -> bytes:
    """The ``state`` message of one receiver: its view and its events (redacted for it),
    as the UTF-8 bytes of the frame's text (:func:`state_frame`, the one encoder).

    ``history`` (the first ``state`` after ``welcome``): every event of the game so far,
    redacted for the receiver like ``events``, of which the last ``history_max`` are sent;
    ``history_skipped`` says how many earlier ones were left out (0: the log is whole).
    ``closing``: the hand's ``summary`` (:func:`toepen.narration.hand_summary`) and, when
    the session is over, its ``standings``, as messages for this receiver.
    """
    return state_frame(orjson.dumps(view.to_json(), option=orjson.OPT_NON_STR_KEYS),
                       view.seat, events, last, view.action_count, closing=closing,
                       prompt=prompt_json(view), history=history, history_max=history_max)


def prompt_json(view: View) -> dict[str, Any] | None:
    """``prompt`` of a ``state``: what the receiving seat must decide now, naming only its
    legal moves (:func:`toepen.narration.turn_prompt`), or None when it has nothing to
    decide (not to act, a spectator, the session over). The browser shows it as it is."""
    seat = view.seat
    if seat is None or seat not in view.to_act or not view.legal:
        return None
    return turn_prompt(view).to_json()


def state_frame(view: bytes, seat: int | None, events: Sequence[Event],
                last: tuple[int, str, str] | None, state_no: int,
                closing: Closing | None = None,
                events_part: orjson.Fragment | None = None,
                prompt: dict[str, Any] | None = None,
                history: Sequence[Event] | None = None, history_max: int = 300) -> bytes:
    """The one encoder of the ``state`` message (:func:`state` calls it): ``view`` the
    JSON of ``observe(game, seat).to_json()`` already encoded, ``state_no`` its
    ``action_count``; its parts encoded once and spliced, as the UTF-8 bytes of the
    frame's text (sent as they are). ``events_part``: the events already encoded when
    they are the same for every receiver (:func:`shared_events`); ``prompt``: the seat's
    decision in words (:func:`prompt_json`); ``history``: see :func:`state`."""
    if events_part is None:
        events_part = events_fragment(events, seat)
    msg: dict[str, Any] = {"v": PROTOCOL, "type": "state", "view": orjson.Fragment(view),
                           "events": events_part, "last": last_json(last),
                           "state": state_no, "prompt": prompt}
    if history is not None:
        msg["history"] = events_fragment(history[-history_max:], seat)
        msg["history_skipped"] = max(0, len(history) - history_max)
    if closing is not None and closing.hand is not None:
        seen = redact(list(closing.hand), seat)
        msg["summary"] = [say_json(m) for m in hand_summary(seen, seat)]
    if closing is not None and closing.session is not None and closing.winner is not None \
            and closing.rules is not None:
        msg["standings"] = [say_json(m) for m in standings(closing.places, closing.rules,
                                                            rebuys=closing.rebuys)]
    return orjson.dumps(msg)


def table(info: dict[str, Any]) -> str:
    """The ``table`` message."""
    return dumps({"v": PROTOCOL, "type": "table", "table": info})


def welcome(info: dict[str, Any], seat: int | None, host: bool,
            limits: Limits | None = None, chat: Sequence[dict[str, Any]] = ()) -> str:
    """The ``welcome`` message, the answer to ``hello``; ``limits``: the server's bounds
    a page must know to draw its fields (``chat_length``), so that it holds none itself;
    ``chat``: the table's last chat messages, oldest first (a late joiner or a spectator
    reads what was said; the text as it was said: the page escapes it)."""
    bounds = limits or Limits()
    return dumps({"v": PROTOCOL, "type": "welcome", "table": info, "seat": seat,
                  "host": host, "server": server_version(), "chat": list(chat),
                  "limits": {"chat_length": bounds.chat_length},
                  "reactions": [{"name": name, "say": {"id": say, "params": {}}}
                                for name, say in REACTIONS.items()]})


def error(code: str, message: str, msg_id: str | int | None = None,
          refusal: dict[str, Any] | None = None, say: dict[str, Any] | None = None) -> str:
    """The ``error`` message; ``refusal`` is the engine's reason, with its English text;
    ``say`` what the player is told (a catalog message, default ``error.<code>``)."""
    out: dict[str, Any] = {"v": PROTOCOL, "type": "error", "code": code, "message": message,
                           "say": say or Message(f"error.{code}").to_json()}
    if refusal is not None:
        out["refusal"] = refusal
    if msg_id is not None:
        out["id"] = msg_id
    return dumps(out)


def refused(e: Refused, msg_id: str | int | None = None) -> str:
    """The ``error`` message of a refusal."""
    return error(e.code, e.message, msg_id, e.refusal, e.say_json())


def pong(msg_id: str | int | None) -> str:
    """The answer to ``ping``."""
    out: dict[str, Any] = {"v": PROTOCOL, "type": "pong"}
    if msg_id is not None:
        out["id"] = msg_id
    return dumps(out)


def server_version() -> str:
    """The ``server`` text of ``welcome``."""
    return f"toepen {__version__} protocol {PROTOCOL}"
