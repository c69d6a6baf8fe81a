"""A table in memory: its seats, its game, the clients watching it.

A :class:`Table` is what the protocol calls a table (``docs/protocol.md``): one game of
Toepen with its seats. Its stored form is :class:`~toepen.server.db.store.TableRow`; the
game itself is never stored but rebuilt from the rules, the seed and the actions. The
lobby creates and finds tables, the table master changes them; this module only holds
them and says what their public face (:meth:`Table.info`) is.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import deque
from collections.abc import Callable, Coroutine, Generator, Iterable
from dataclasses import dataclass, field
from typing import Any

from ...bots.base import level_of
from ...engine import Event, Game
from ...rules import Rules
from ...seeds import derive_seed
from ..db.store import SeatRow, TableRow
from ..names import skeleton
from .external_bots import ExternalSeat
from .presets import full_rules

BOT_NAMES = ("Bas", "Cor", "Dirk", "Els", "Fien", "Gijs", "Hanna", "Ivo", "Joke", "Kees",
             "Lotte", "Maarten", "Noor", "Otto", "Pien", "Ruud", "Sanne", "Teun", "Wim",
             "Yara", "Anouk", "Henk", "Marieke", "Sjaak")
"""The names bot seats get (each seat its own; its bot kind is shown beside it)."""


CHAT_HISTORY = 50
"""How many chat lines a table keeps for those who come later (``welcome``'s ``chat``)."""


def bot_name(seed: int, seat: int, taken: list[str]) -> str:
    """The name of a bot at ``seat``: from :data:`BOT_NAMES` in an order fixed by the
    table's seed and the seat, the first that looks like no name at the table
    (:func:`~toepen.server.names.skeleton`: letter case, fullwidth letters and look-alikes
    folded); when all are taken, a name with a number.

    >>> bot_name(7, 1, []) == bot_name(7, 1, [])
    True
    >>> sorted({bot_name(s, 1, list(BOT_NAMES[:-1])) for s in range(5)})
    ['Sjaak']
    >>> bot_name(7, 2, [n.upper() for n in BOT_NAMES])
    'Bas 2'
    >>> bot_name(7, 1, [bot_name(7, 1, [])]) != bot_name(7, 1, [])
    True
    >>> fullwidth = "".join(chr(ord(c) + 0xFEE0) for c in bot_name(7, 1, []))
    >>> bot_name(7, 1, [fullwidth]) != bot_name(7, 1, [])
    True
    """
    used = {skeleton(n) for n in taken}
    order = sorted(BOT_NAMES, key=lambda n: derive_seed(seed, "bot-name", seat, n))
    for name in order:
        if skeleton(name) not in used:
            return name
    n = 2
    while True:
        for name in BOT_NAMES:
            if skeleton(f"{name} {n}") not in used:
                return f"{name} {n}"
        n += 1


def token_hash(token: str) -> str:
    """What the server keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    """A seat in memory."""

    seat: int
    kind: str = "open"  # open | human | bot
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    standin: bool = False
    """A bot plays for this human seat while its owner is away (not stored)."""
    fallback: str | None = None
    """The built-in bot playing for this seat's external bot, which failed (or is not
    registered at this server), for the rest of the game."""
    incident: str | None = None
    """Why, for the table's clients (kind and a fixed text: no card can appear)."""
    account: str | None = None
    """The account that plays this seat (seated logged in, or claimed), if any (kept by
    :mod:`toepen.server.site.accounts`, not in the seat's row)."""

    @classmethod
    def stored(cls, row: SeatRow) -> Seat:
        return cls(row.seat, row.kind, row.name, row.bot, row.token_hash)

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.bot, self.token_hash)

    @property
    def label(self) -> str:
        """The seat's name in the game's ``players`` (a bot's own name; tables stored
        before bots had names: ``"<kind> bot"``)."""
        if self.kind == "human" and self.name:
            return self.name
        return self.name if self.kind == "bot" and self.name else f"{self.bot} bot"

    def info(self, connected: bool) -> dict[str, Any]:
        """The ``seats`` item of the protocol's ``Table``."""
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind, "name": self.name,
                               "bot": self.bot, "connected": connected,
                               "standin": self.standin}
        lv = level_of(self.bot) if self.kind == "bot" and self.bot else None
        if lv is not None:  # what the clients call the bot: its level (level.<name>)
            out["level"] = lv.name
        if self.fallback is not None:
            out["fallback"] = self.fallback
            out["incident"] = self.incident
        if self.account is not None:
            out["account"] = self.account
        return out


class Pending:
    """A send begun at once (:meth:`Client.send`) that had to wait: the socket's buffer
    was full. Awaiting it (the writer task does) drives that same coroutine to its end."""

    def __init__(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        self.coro = coro
        self.waiting = waiting
        """What the coroutine waits on (the future it yielded)."""

    def __await__(self) -> Generator[Any, Any, None]:
        coro, waiting = self.coro, self.waiting
        while True:
            try:
                value = yield waiting
            except BaseException as e:  # cancelled: into the coroutine, which ends
                try:
                    waiting = coro.throw(e)
                except StopIteration:
                    return
            else:
                try:
                    waiting = coro.send(value)
                except StopIteration:
                    return


class Client:
    """One WebSocket: who it is, and how its frames go out. A frame is handed to the
    socket at once when none waits before it (the socket takes it without waiting, as
    it nearly always does: no task switch per receiver); else it is queued, and a
    writer task sends the queue in order."""

    def __init__(self, seat: int | None, host: bool, limit: int) -> None:
        self.seat = seat
        self.host = host
        self.queue: asyncio.Queue[str | bytes | Pending | None] = asyncio.Queue()
        self.limit = limit
        self.dropped = False
        self.sink: Callable[[str], Coroutine[Any, Any, None]] | None = None
        """The socket's send, once the connection's writer runs (before: all is queued)."""
        self.writing = False
        """The writer task is sending a frame (what comes meanwhile queues behind it)."""
        self.at = -1
        """The state number of the last ``state`` this client was sent (-1: none yet):
        a frame goes to a client one state behind it; one further behind gets the whole
        state again (:meth:`~toepen.server.tables.master.Master.broadcast_state`)."""
        self.direct: Callable[[str | bytes], bool] | None = None
        """The socket's side door (:meth:`toepen.server.socket.wire.Wire.send`), if it has one:
        sends a frame at once, or declines (the socket's buffer is full, or it closes)."""

    def send(self, text: str | bytes) -> None:
        """Send or queue a frame (its text, or that text's UTF-8 bytes); a client too
        slow to keep up is dropped (it will reconnect)."""
        if self.dropped:
            return
        if self.sink is not None and not self.writing and self.queue.empty():
            direct = self.direct
            if direct is not None and direct(text):
                return
            coro = self.sink(text if isinstance(text, str) else text.decode())
            try:
                waiting = coro.send(None)
            except StopIteration:  # sent
                return
            except Exception:  # the socket is gone: the writer ends (and the reader)
                self.queue.put_nowait(None)
                return
            self.queue.put_nowait(Pending(coro, waiting))  # the writer finishes it
            return
        if self.queue.qsize() >= self.limit:
            self.dropped = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        self.dropped = True
        self.queue.put_nowait(None)


@dataclass
class Offer:
    """Play again, offered (:mod:`toepen.server.tables.social`): the next game starts when every
    person at the table has accepted (bots accept at once); one who has left the table, or
    not answered within ``wait`` seconds, is not waited for (a stand-in plays
    their seat until they come)."""

    by: int | None
    """The seat that offered (None: the host without a seat)."""
    rules: Rules
    ready: set[int]
    """The seats that accepted (the bots, the offerer's)."""
    wait: float = 60.0
    """Seconds the people who have not answered are waited for (``--offer-wait``)."""
    timer: asyncio.TimerHandle | None = None
    """The end of the wait."""

    def info(self, table: Table) -> dict[str, Any]:
        """The ``offer`` of the protocol's ``Table``: who offered, the preset, who
        accepted, who is still waited for (a person at the table who has not)."""
        return {"by": self.by, "preset": self.rules.name, "ready": sorted(self.ready),
                "waiting": table.waited_for(self), "seconds": self.wait}


def views(seats: Iterable[int], spectators: int) -> set[int | None]:
    """The views a group of clients receives: each seat's own and, if any of them
    watches, the spectators' (None)."""
    keys: set[int | None] = set(seats)
    if spectators:
        keys.add(None)
    return keys


@dataclass
class Table:
    """One table: its stored row, rules and seats, its game once started, its clients.

    Every change happens under :attr:`lock`.
    """

    row: TableRow
    rules: Rules
    seats: list[Seat]
    game: Game | None = None
    clients: set[Client] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    pending: asyncio.Task[None] | None = None
    """What happens next (a bot's move, an idle clock), cancelled by the next change."""
    passed: tuple[int, set[int]] = (-1, set())
    """``knock_anytime``: the state number and the seats whose bots passed in its knock
    windows (:func:`toepen.match.asked`; a pass is not an action, so it is not stored)."""
    last_by: list[str] = field(default_factory=list)
    """Who made each action: ``player``, ``bot`` or ``standin``."""
    external: dict[int, ExternalSeat] = field(default_factory=dict)
    """The running external bots of this game, by seat."""
    seen: float = field(default_factory=time.monotonic)
    """When a person (a seat's player or the host) was last connected (monotonic)."""
    version: int = 0
    """How many times the seats changed (a cluster's processes compare it)."""
    events: list[Event] = field(default_factory=list)
    """Every event of the game so far, unredacted, kept in memory (never sent as such):
    valid while :attr:`events_at` is the game's state number (the master keeps it)."""
    events_at: int = -1
    askers: frozenset[str] = frozenset()
    """Besides its creator, who the table counts against for ``tables_per_client``: the
    addresses and accounts (``u:NAME``) of the people play now seated at it."""
    elsewhere: dict[str, tuple[frozenset[int], int, bool]] = field(default_factory=dict)
    """Clients at the cluster's other processes: (seats, spectators, host) by process."""
    rematch: str | None = None
    """The id of this finished game's rematch table, once one is made."""
    offer: Offer | None = None
    """Play again, offered and not yet made (then kept: who accepted), in memory only."""
    shown_offer: dict[str, Any] | None = None
    """In a cluster, at a process that does not hold the offer: the holder's (its
    ``offer`` item, as last told), shown to this process's clients."""
    shown_by: str | None = None
    """The process holding :attr:`shown_offer` (its offer lapses when it dies)."""
    heard: int = 0
    """In a cluster, at a process that does not own the table: the latest state number
    its owner relayed (this copy of the game is brought up to it from the database only
    when it is needed: :meth:`~toepen.server.tables.lobby.Lobby.sync`)."""
    rated: bool = False
    """The game counts for ratings (:mod:`toepen.server.site.accounts`)."""
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=CHAT_HISTORY))
    chat_sent: dict[int, list[float]] = field(default_factory=dict)
    """When each seat last chatted or reacted (``social.ChatBudget``: a budget per seat,
    however many sockets it has)."""
    """The last :data:`CHAT_HISTORY` chat lines and reactions (the ``chat`` messages, as
    sent), for the ``welcome`` of a late joiner or a spectator; in memory only."""

    @classmethod
    def stored(cls, row: TableRow) -> Table:
        """The table of a stored row, before its actions are replayed."""
        return cls(row=row, rules=Rules.from_json(row.rules),
                   seats=[Seat.stored(s) for s in row.seats])

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def state(self) -> int:
        """The state number: how many actions the game has had (0 before the start)."""
        return len(self.game.actions) if self.game is not None else 0

    @property
    def full(self) -> bool:
        """Every seat is taken."""
        return all(s.kind != "open" for s in self.seats)

    def new_game(self) -> Game:
        """The game of this table at its start (its first deal)."""
        players = self.row.players or [s.label for s in self.seats]
        return Game(self.rules, players, seed=self.row.seed, dealer=self.row.dealer)

    def bot_name(self, seat: int, but: str | None = None) -> str:
        """A new name for a bot at ``seat``: none that another seat has (or ``but``)."""
        taken = [s.name for s in self.seats if s.seat != seat and s.name]
        return bot_name(self.row.seed, seat, taken + ([but] if but else []))

    def keep_chat(self, text: str) -> None:
        """Keep a ``chat`` message said at another server of a cluster (its JSON text) in
        :attr:`chat`; any other text is left alone."""
        if '"chat"' not in text:
            return
        try:
            msg = json.loads(text)
        except ValueError:
            return
        if isinstance(msg, dict) and msg.get("type") == "chat":
            self.chat.append(msg)

    def people_here(self) -> bool:
        """A seat's player or the host is connected (spectators do not count), here or
        at another server of the cluster."""
        return (any(c.seat is not None or c.host for c in self.clients)
                or any(seats or host for seats, _, host in self.elsewhere.values()))

    def abandoned(self, after: float, now: float | None = None) -> bool:
        """Not started, and no person connected for ``after`` seconds."""
        if self.row.status != "lobby" or self.people_here():
            return False
        return (time.monotonic() if now is None else now) - self.seen > after

    def connected(self, seat: int) -> bool:
        return (any(c.seat == seat for c in self.clients)
                or any(seat in seats for seats, _, _ in self.elsewhere.values()))

    def waited_for(self, offer: Offer) -> list[int]:
        """The people at the table (connected) who have not accepted ``offer``."""
        return [s.seat for s in self.seats if s.kind == "human" and s.seat not in offer.ready
                and self.connected(s.seat)]

    def receivers(self) -> dict[str, set[int | None]]:
        """Who receives which view at the cluster's other processes: by process, the
        seats of its clients and (None) the spectators' view if it has any
        (:func:`views`); the one place this is worked out."""
        out: dict[str, set[int | None]] = {}
        for proc, (seats, spectators, _host) in self.elsewhere.items():
            keys = views(seats, spectators)
            if keys:
                out[proc] = keys
        return out

    def deliver(self, n: int, frames: dict[int | None, bytes], fresh: bool) -> bool:
        """The frames of state ``n`` that another process encoded (by seat; None: the
        spectators) to the clients here, as the bytes they came as: each client exactly
        one state behind gets its own (``fresh``: whole states, to a client that has
        none); True when a client here lacks more than that (it is to be told each action
        it lacks from the database: never a state that skips one)."""
        self.heard = max(self.heard, n)
        behind = False
        for c in list(self.clients):
            if c.at >= n:
                continue
            got = frames.get(c.seat)
            if got is not None and (c.at == n - 1 if not fresh else c.at < 0):
                c.send(got)  # the next state; or a whole one to a client that has none
                c.at = n
            else:
                behind = True
        return behind

    def spectators(self) -> int:
        return (sum(1 for c in self.clients if c.seat is None)
                + sum(n for _, n, _ in self.elsewhere.values()))

    def seat_of(self, thash: str) -> int | None:
        for s in self.seats:
            if s.token_hash == thash:
                return s.seat
        return None

    def info(self) -> dict[str, Any]:
        """The ``Table`` object of the protocol (public information only)."""
        row = self.row
        return {
            "id": row.id,
            "code": row.code,
            "status": row.status,
            "rules": self.rules.to_json(),
            "rules_full": full_rules(self.rules),
            "preset": row.preset,
            "size": row.size,
            "idle_seconds": row.idle_seconds,
            "seats": [s.info(s.kind == "bot" or self.connected(s.seat)) for s in self.seats],
            "spectators": self.spectators(),
            "state": max(self.state, self.heard),
            "winner": (self.game.winner if self.game is not None and self.game.winner is not None
                       else row.winner),
            "created": row.created.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "record": f"/api/tables/{row.id}/record" if row.status == "over" else None,
            "rated": self.rated,
            "rematch": self.rematch,
            "offer": self.offer.info(self) if self.offer is not None else self.shown_offer,
        }
