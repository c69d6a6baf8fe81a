"""Tables in memory: seats, tokens, the game, the clients watching, bots and stand-ins.

The :class:`Lobby` owns every :class:`Room`. All changes to a room happen under its
lock, are committed to the :class:`~toepen.server.store.Store` first (in the storage
thread) and only then applied in memory and broadcast. The game itself is never
stored: it is rebuilt from the rules, the seed and the actions.

Hidden information leaves a room only through :func:`toepen.view.observe` and
:func:`toepen.engine.redact`, per receiver.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..bots.base import CMD_PREFIX
from ..cards import card_str
from ..engine import Action, ActionError, Event, Game, redact
from ..rules import Rules, RulesError
from ..view import View, observe
from .botpool import BotPool, available_bots, resolve_bot
from .external import FALLBACK, ExternalBots, ExternalSeat, public_incident
from .store import ActionRow, SeatRow, Store, TableRow

log = logging.getLogger("toepen.server")

PROTOCOL = 1
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
NAME_PUNCTUATION = " '-_."
T = TypeVar("T")


class Refused(Exception):
    """A request the server will not do; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


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
    send_queue: int = 512


def check_name(name: Any, what: str = "name") -> str:
    """A display name, or Refused naming what is wrong.

    >>> check_name("Ann-Sophie")
    'Ann-Sophie'
    >>> check_name(" Ann")
    Traceback (most recent call last):
    ...
    toepen.server.tables.Refused: name: no space at the start or end
    """
    if not isinstance(name, str):
        raise Refused("bad_message", f"{what}: must be text")
    if not 1 <= len(name) <= Limits.name_length:
        raise Refused("bad_message",
                      f"{what}: 1 to {Limits.name_length} characters, not {len(name)}")
    if name != name.strip():
        raise Refused("bad_message", f"{what}: no space at the start or end")
    bad = sorted({ch for ch in name if not (ch.isalnum() or ch in NAME_PUNCTUATION)})
    if bad:
        shown = " ".join(repr(ch) for ch in bad)
        raise Refused("bad_message",
                      f"{what}: letters, digits, space and ' - _ . only (not {shown})")
    return name


def token_hash(token: str) -> str:
    """What the server keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def event_json(e: Event) -> dict[str, Any]:
    """An (already redacted) event as protocol JSON."""
    return {"kind": str(e.kind), "seat": e.seat, "value": e.value,
            "cards": [card_str(c) for c in e.cards], "detail": e.detail, "private": e.private}


@dataclass
class Seat:
    """A seat in memory."""

    seat: int
    kind: str = "open"  # open | human | bot
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    standin: bool = False
    fallback: str | None = None
    """The built-in bot playing for this seat's external bot, which failed (or is not
    registered at this server), for the rest of the game."""
    incident: str | None = None
    """Why, for the table's clients (kind and a fixed text: no card can appear)."""

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.bot, self.token_hash)


class Client:
    """One WebSocket: who it is, and a queue of text frames a writer task sends."""

    def __init__(self, seat: int | None, host: bool, limit: int) -> None:
        self.seat = seat
        self.host = host
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.limit = limit
        self.dropped = False

    def send(self, text: str) -> None:
        """Queue a frame; a client too slow to keep up is dropped (it will reconnect)."""
        if self.dropped:
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
class Room:
    """One table."""

    row: TableRow
    rules: Rules
    seats: list[Seat]
    game: Game | None = None
    clients: set[Client] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    pending: asyncio.Task[None] | None = None
    last_by: list[str] = field(default_factory=list)
    external: dict[int, ExternalSeat] = field(default_factory=dict)
    """The running external bots of this game, by seat."""

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def state(self) -> int:
        return len(self.game.actions) if self.game is not None else 0

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.clients)

    def spectators(self) -> int:
        return sum(1 for c in self.clients if c.seat is None)

    def info(self) -> dict[str, Any]:
        """The ``Table`` object of the protocol (public information only)."""
        return {
            "id": self.row.id,
            "code": self.row.code,
            "status": self.row.status,
            "rules": self.rules.to_json(),
            "preset": self.row.preset,
            "size": self.row.size,
            "idle_seconds": self.row.idle_seconds,
            "seats": [_seat_info(s, s.kind == "bot" or self.connected(s.seat))
                      for s in self.seats],
            "spectators": self.spectators(),
            "state": self.state,
            "winner": self.game.winner if self.game is not None else None,
            "created": self.row.created.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "record": f"/api/tables/{self.row.id}/record" if self.row.status == "over" else None,
        }

    def seat_of(self, thash: str) -> int | None:
        for s in self.seats:
            if s.token_hash == thash:
                return s.seat
        return None


def _seat_info(s: Seat, connected: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot,
                           "connected": connected, "standin": s.standin}
    if s.fallback is not None:
        out["fallback"] = s.fallback
        out["incident"] = s.incident
    return out


def _dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


class Lobby:
    """Every table of the server, and the storage and bot pool behind them."""

    def __init__(self, store: Store, bots: BotPool, limits: Limits | None = None,
                 bot_delay: float = 0.0, external: ExternalBots | None = None) -> None:
        self.store = store
        self.bots = bots
        self.external = external or ExternalBots()
        self.external_seats: set[ExternalSeat] = set()
        """Every external bot not yet stopped (the server stops them all at the end)."""
        self.limits = limits or Limits()
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self.codes: dict[str, str] = {}
        self.tokens: dict[str, str] = {}  # token hash -> table id
        self.db_thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="toepen-db")
        self.background: set[asyncio.Task[None]] = set()
        self._batch: list[tuple[ActionRow, asyncio.Future[None]]] = []
        self._flushing = False

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a storage call in the storage thread; failures become ``server_error``."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.db_thread, fn, *args)
        except Exception as e:
            log.exception("storage failed")
            raise Refused("server_error", f"storage failed ({type(e).__name__}); nothing changed",
                          503) from None

    async def append(self, row: ActionRow) -> None:
        """Commit one action. Actions that arrive while a commit runs share the next one
        (group commit); each caller returns only once its own action is on disk."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._batch.append((row, fut))
        if not self._flushing:
            self._flushing = True
            self._spawn(self._flush())
        await fut

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._batch:
                batch, self._batch = self._batch, []
                try:
                    await loop.run_in_executor(self.db_thread, self.store.append_actions,
                                               [r for r, _ in batch])
                    outcome: list[BaseException | None] = [None] * len(batch)
                except Exception:  # one bad row must not sink the others: one by one
                    outcome = []
                    for r, _ in batch:
                        try:
                            await loop.run_in_executor(self.db_thread,
                                                       self.store.append_actions, [r])
                            outcome.append(None)
                        except Exception as e:
                            log.exception("storing action %d of table %s failed", r.n,
                                          r.table_id)
                            outcome.append(Refused(
                                "server_error",
                                f"storage failed ({type(e).__name__}); nothing changed", 503))
                for (_, fut), err in zip(batch, outcome, strict=True):
                    if fut.done():
                        continue
                    if err is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(err)
        finally:
            self._flushing = False

    # -- start-up --------------------------------------------------------------------

    async def load(self) -> int:
        """Rebuild every stored table (games replayed from their actions); how many."""
        rows = await self.db(self.store.load_tables)
        for row in rows:
            try:
                room = self._room(row)
                if row.status != "lobby":
                    actions = await self.db(self.store.load_actions, row.id)
                    game = self._new_game(room)
                    for seat, text, by in actions:
                        game.apply(seat, Action.parse(text))
                        room.last_by.append(by)
                    room.game = game
            except Exception:  # a table that cannot be rebuilt must not stop the others
                log.exception("table %s could not be rebuilt; it is left out", row.id)
                continue
            if row.status != "over":
                self._check_bots(room)
            self._add(room)
        for room in self.rooms.values():
            self.kick(room)
        return len(rows)

    def _check_bots(self, room: Room) -> None:
        """After a restart: a seat whose bot this server does not have (an external bot
        not registered again) is played by the fallback, and that is said."""
        for s in room.seats:
            if s.kind == "bot" and s.bot and not self.knows_bot(s.bot):
                s.fallback = FALLBACK
                s.incident = f"unregistered: no bot {s.bot!r} at this server"
                log.warning("table %s seat %d: bot %r is not registered at this server; "
                            "%s plays the seat", room.id, s.seat, s.bot, FALLBACK)

    def knows_bot(self, name: str) -> bool:
        """Whether ``name`` is a bot of this server (built in, or registered external)."""
        return name in self.external or name in available_bots()

    def bot_choices(self) -> list[str]:
        """Bot names a table may use here, ``default`` last."""
        return [*available_bots(), *self.external.names(), "default"]

    def resolve_bot(self, name: str) -> str:
        """A bot name a table may use (``default`` resolved), or ValueError naming it.

        Only names: a command (``cmd:...``) is never accepted from a client; the
        operator registers external programs (``toepen serve --bot NAME=cmd:COMMAND``).
        """
        if name in self.external:
            return name
        shown = name if len(name) <= 40 else name[:37] + "..."
        if name.startswith(CMD_PREFIX):
            raise ValueError(f"unknown bot {shown!r}: a table names a bot, never a command "
                             f"(available: {', '.join(self.bot_choices())})")
        try:
            return resolve_bot(name)
        except ValueError:
            raise ValueError(f"unknown bot {shown!r} (available: "
                             f"{', '.join(self.bot_choices())})") from None

    def _room(self, row: TableRow) -> Room:
        rules = Rules.from_json(row.rules)
        seats = [Seat(s.seat, s.kind, s.name, s.bot, s.token_hash) for s in row.seats]
        return Room(row=row, rules=rules, seats=seats)

    def _add(self, room: Room) -> None:
        self.rooms[room.id] = room
        self.codes[room.row.code] = room.id
        self.tokens[room.row.host_hash] = room.id
        for s in room.seats:
            if s.token_hash:
                self.tokens[s.token_hash] = room.id

    def _new_game(self, room: Room) -> Game:
        players = room.row.players or [self._seat_label(s) for s in room.seats]
        return Game(room.rules, players, seed=room.row.seed, dealer=room.row.dealer)

    @staticmethod
    def _seat_label(s: Seat) -> str:
        return s.name if s.kind == "human" and s.name else f"{s.bot} bot"

    async def close(self) -> None:
        for room in self.rooms.values():
            if room.pending is not None:
                room.pending.cancel()
            for c in list(room.clients):
                c.close()
        for task in list(self.background):
            task.cancel()
        await self.stop_external()
        self.db_thread.shutdown(wait=True)

    async def stop_external(self) -> None:
        """Stop every external bot's program now (at shutdown), all at once."""
        running = list(self.external_seats)
        for room in self.rooms.values():
            room.external.clear()
        if running:
            await asyncio.gather(*(asyncio.to_thread(ext.kill) for ext in running),
                                 return_exceptions=True)
        self.external_seats.difference_update(running)

    # -- finding ---------------------------------------------------------------------

    def get(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is None:
            raise Refused("not_found", f"no table {table_id!r}", 404)
        return room

    def by_code(self, code: str) -> Room:
        table_id = self.codes.get(code.strip().upper())
        if table_id is None:
            raise Refused("not_found", f"no table with code {code!r}", 404)
        return self.rooms[table_id]

    def who(self, room: Room, token: str) -> tuple[int | None, bool]:
        """(seat, is host) for a token at this table, or Refused ``auth``."""
        thash = token_hash(token)
        if self.tokens.get(thash) != room.id:
            raise Refused("auth", "unknown token for this table", 401)
        return room.seat_of(thash), thash == room.row.host_hash

    # -- lobby -----------------------------------------------------------------------

    async def create(self, *, preset: str, options: dict[str, Any], size: int,
                     bots: dict[int, str], name: str | None, idle_seconds: float,
                     autostart: bool, creator: str) -> tuple[Room, str, int | None]:
        """A new table; returns it, the host's token and the host's seat (None: not seated)."""
        live = [r for r in self.rooms.values() if r.row.status != "over"]
        if len(live) >= self.limits.max_tables:
            raise Refused("limit", f"the server holds {len(live)} open tables, its maximum", 429)
        mine = sum(1 for r in live if r.row.creator == creator)
        if mine >= self.limits.tables_per_client:
            raise Refused("limit", f"you already have {mine} open tables (at most "
                          f"{self.limits.tables_per_client})", 429)
        if not isinstance(options, dict):
            raise Refused("bad_message", "options: must be an object")
        try:
            rules = Rules.preset(preset, **options)
            rules.check_table(size)
        except RulesError as e:
            raise Refused("bad_message", str(e)) from None
        except TypeError as e:
            raise Refused("bad_message", f"options: {e}") from None
        if not 0.1 <= idle_seconds <= 3600:
            raise Refused("bad_message", f"idle_seconds: 0.1 to 3600, not {idle_seconds}")
        if name is not None:
            check_name(name)
        seats = [Seat(i) for i in range(size)]
        for seat, bot in bots.items():
            if not 0 <= seat < size:
                raise Refused("bad_message", f"bots: no seat {seat} at a table of {size}")
            if seat == 0 and name is not None:
                raise Refused("bad_message", "bots: seat 0 is the host's")
            try:
                seats[seat] = Seat(seat, "bot", bot=self.resolve_bot(bot))
            except ValueError as e:
                raise Refused("bad_message", f"bots: seat {seat}: {e}") from None
        token = secrets.token_urlsafe(24)
        thash = token_hash(token)
        if name is not None:
            seats[0] = Seat(0, "human", name=name, token_hash=thash)
        table_id = secrets.token_hex(6)
        while table_id in self.rooms:
            table_id = secrets.token_hex(6)
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        while code in self.codes:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        seed = secrets.randbits(62)
        row = TableRow(id=table_id, code=code, preset=rules.name, rules=rules.to_json(),
                       size=size, seed=seed, dealer=seed % size, idle_seconds=idle_seconds,
                       autostart=autostart, creator=creator, host_hash=thash)
        room = Room(row=row, rules=rules, seats=seats)
        await self.db(self.store.create_table, row, [s.row() for s in seats])
        self._add(room)
        if autostart and all(s.kind != "open" for s in seats):
            await self.start(room)
        return room, token, 0 if name is not None else None

    async def join(self, room: Room, name: str, seat: int | None = None) -> tuple[str, int]:
        """Take an open seat (the first, or ``seat``); returns the new token and the seat."""
        check_name(name)
        async with room.lock:
            if room.row.status != "lobby":
                raise Refused("bad_command", "the game has started: watch it as a spectator", 409)
            open_seats = [s.seat for s in room.seats if s.kind == "open"]
            if not open_seats:
                raise Refused("bad_command", "the table is full", 409)
            if seat is None:
                seat = open_seats[0]
            elif seat not in open_seats:
                raise Refused("bad_command", f"seat {seat} is not open (open: "
                              f"{', '.join(map(str, open_seats))})", 409)
            token = secrets.token_urlsafe(24)
            new = Seat(seat, "human", name=name, token_hash=token_hash(token))
            await self.db(self.store.set_seat, room.id, new.row())
            room.seats[seat] = new
            self.tokens[new.token_hash or ""] = room.id
            self.broadcast_table(room)
        if room.row.autostart and all(s.kind != "open" for s in room.seats):
            await self.start(room)
        return token, seat

    async def start(self, room: Room) -> None:
        """Deal: the game begins with the seats as they are (every seat must be taken)."""
        async with room.lock:
            if room.row.status != "lobby":
                raise Refused("bad_command", "the game has already started", 409)
            empty = [str(s.seat) for s in room.seats if s.kind == "open"]
            if empty:
                raise Refused("bad_command", f"seats {', '.join(empty)} are open: wait for "
                              "players or add bots", 409)
            players = [self._seat_label(s) for s in room.seats]
            await self.db(self.store.start, room.id, players)
            room.row.players = players
            room.row.status = "playing"
            room.game = self._new_game(room)
            self.broadcast_table(room)
            self.broadcast_state(room, room.game.opening, None)
        self.kick(room)

    async def set_seat(self, room: Room, seat: int, new: Seat, *, lobby_only: bool = True) -> None:
        if lobby_only and room.row.status != "lobby":
            raise Refused("bad_command", "seats change only before the start", 409)
        old = room.seats[seat]
        await self.db(self.store.set_seat, room.id, new.row())
        room.seats[seat] = new
        ext = room.external.pop(seat, None)
        if ext is not None:
            self._spawn(self._finish_external(ext, None))
        if old.token_hash and old.token_hash != new.token_hash:
            if old.token_hash != room.row.host_hash:
                self.tokens.pop(old.token_hash, None)
            for c in list(room.clients):
                if c.seat == seat:
                    c.seat = None
                    if not c.host:
                        c.close()
        self.broadcast_table(room)

    async def host_command(self, room: Room, command: str, seat: Any, bot: Any) -> None:
        """``start``, ``add_bot``, ``remove_bot``, ``remove_seat`` (Refused if not now)."""
        if command == "start":
            await self.start(room)
            return
        if command not in ("add_bot", "remove_bot", "remove_seat"):
            raise Refused("bad_message", f"command: unknown {command!r}")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < room.row.size:
            raise Refused("bad_message",
                          f"seat: a seat from 0 to {room.row.size - 1}, not {seat!r}")
        async with room.lock:
            s = room.seats[seat]
            if command == "add_bot":
                if not isinstance(bot, str):
                    raise Refused("bad_message", "bot: a bot name is needed")
                if s.kind == "bot":
                    raise Refused("bad_command", f"seat {seat} already has a bot")
                if s.kind == "human" and room.connected(seat):
                    raise Refused("bad_command", f"seat {seat}'s player is here")
                try:
                    name = self.resolve_bot(bot)
                except ValueError as e:
                    raise Refused("bad_message", f"bot: {e}") from None
                await self.set_seat(room, seat, Seat(seat, "bot", bot=name))
            elif command == "remove_bot":
                if s.kind != "bot":
                    raise Refused("bad_command", f"seat {seat} has no bot")
                await self.set_seat(room, seat, Seat(seat))
            else:
                if s.kind != "human":
                    raise Refused("bad_command", f"seat {seat} has no player")
                if room.connected(seat):
                    raise Refused("bad_command", f"seat {seat}'s player is still here")
                await self.set_seat(room, seat, Seat(seat))
        if room.row.autostart and all(s.kind != "open" for s in room.seats):
            await self.start(room)

    async def leave(self, room: Room, seat: int) -> None:
        """A player gives up a seat before the start."""
        async with room.lock:
            await self.set_seat(room, seat, Seat(seat))

    # -- playing ---------------------------------------------------------------------

    async def act(self, room: Room, seat: int, text: Any, state: Any, by: str = "player") -> None:
        """Apply one action: checked, committed, then broadcast; Refused changes nothing."""
        if not isinstance(state, int) or isinstance(state, bool):
            raise Refused("bad_message", "state: must be an integer (view.action_count)")
        if not isinstance(text, str):
            raise Refused("bad_message", "action: must be text such as 'play Th' or 'knock'")
        try:
            act = Action.parse(text)
        except ActionError as e:
            raise Refused("bad_action", f"action: {e}") from None
        async with room.lock:
            game = room.game
            if game is None:
                raise Refused("not_started", "the game has not started")
            if game.is_over:
                raise Refused("over", "the game is over")
            if by == "standin" and not room.seats[seat].standin:
                raise Refused("stale", "the player is back")
            n = len(game.actions)
            if state != n:
                raise Refused("stale", f"state {state} is stale: the game is at state {n}")
            if game.turn != seat:
                raise Refused("not_your_turn", f"seat {seat} is not to act (seat {game.turn} is)")
            if act not in game.legal_actions():
                raise Refused("illegal", game.explain(seat, act))
            after = game.clone()
            events = after.apply(seat, act)
            await self.append(ActionRow(room.id, n, seat, str(act), by,
                                        after.winner if after.is_over else None))
            room.game = after
            room.last_by.append(by)
            if after.is_over:
                room.row.status = "over"
                room.row.winner = after.winner
                for s, ext in list(room.external.items()):  # the result, then stop
                    del room.external[s]
                    self._spawn(self._finish_external(ext, observe(after, s)))
            self.broadcast_state(room, events, (seat, act, by))
            if after.is_over:
                self.broadcast_table(room)
        self.kick(room)

    async def back(self, room: Room, seat: int) -> None:
        """The owner of ``seat`` is back: end a stand-in."""
        if room.seats[seat].standin:
            async with room.lock:
                room.seats[seat].standin = False
                self.broadcast_table(room)
            self.kick(room)

    def kick(self, room: Room) -> None:
        """Arrange what happens next: a bot move, or the idle clock of a human seat."""
        if room.pending is not None and not room.pending.done():
            room.pending.cancel()
        room.pending = None
        game = room.game
        if game is None or game.is_over or game.turn < 0:
            return
        seat = room.seats[game.turn]
        state = len(game.actions)
        if seat.kind == "bot":
            bot = seat.fallback or seat.bot or "random"
            room.pending = self._spawn(self._bot_move(room, seat.seat, bot, state, "bot"))
        elif seat.standin:
            room.pending = self._spawn(self._bot_move(room, seat.seat, self._standin_bot(room),
                                                      state, "standin"))
        else:
            room.pending = self._spawn(self._idle(room, seat.seat, state))

    def _standin_bot(self, room: Room) -> str:
        try:
            return resolve_bot("default")
        except (RuntimeError, ValueError):
            return "random"

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    async def _bot_move(self, room: Room, seat: int, bot: str, state: int, by: str) -> None:
        game = room.game
        if game is None:
            return
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        view = observe(game, seat)
        # One-way from the table's secret seed (which fixes every deck) to the bot's.
        digest = hashlib.sha256(f"{room.row.seed}:{state}".encode()).digest()
        seed = int.from_bytes(digest[:8], "big")
        try:
            if by == "bot" and bot in self.external:
                got = await self._external_move(room, seat, bot, game, view)
                if got is None:  # the seat was closed meanwhile (the server stops)
                    return
                choice = got
            else:
                choice = await self.bots.decide(bot, seed, view)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s failed at table %s; playing its first legal action", bot, room.id)
            choice = view.legal[0]
        try:
            await self.act(room, seat, str(choice), state, by)
        except Refused as e:
            if e.code == "server_error":  # try again a little later
                await asyncio.sleep(0.5)
                self.kick(room)
            elif e.code not in ("stale", "over"):
                log.error("bot %s at table %s refused: %s", bot, room.id, e.message)

    # -- external bots ---------------------------------------------------------------

    async def _external_move(self, room: Room, seat: int, name: str, game: Game,
                             view: View) -> Action | None:
        """The decision of the external bot ``name`` at ``seat``: its program is started at
        the seat's first decision and asked in the seat's own thread."""
        ext = room.external.get(seat)
        if ext is None:
            # One-way from the table's secret seed; 53 bits, so that any language reads it.
            digest = hashlib.sha256(f"{room.row.seed}:external:{seat}".encode()).digest()
            ext = ExternalSeat(name, self.external.commands[name], seat=seat,
                               seed=int.from_bytes(digest[:8], "big") >> 11,
                               timeout=self.external.timeout)
            room.external[seat] = ext
            self.external_seats.add(ext)
        choice = await ext.act(room.rules, game.players, view)
        self._report(room, seat, ext)
        return choice

    def _report(self, room: Room, seat: int, ext: ExternalSeat) -> None:
        """An incident of an external bot: log it (in full), tell the table (its kind
        only), and let the fallback play the seat in the bot pool from now on."""
        fresh = ext.new_incidents()
        if not fresh:
            return
        incident = fresh[0]
        log.warning("external bot %s at table %s seat %d: %s; %s plays the seat for the "
                    "rest of the game", ext.name, room.id, seat, incident, FALLBACK)
        s = room.seats[seat]
        if s.kind == "bot" and s.bot == ext.name:
            s.fallback = FALLBACK
            s.incident = public_incident(incident.kind, ext.timeout)
        if room.external.get(seat) is ext:
            del room.external[seat]
        self._spawn(self._finish_external(ext, None))
        self.broadcast_table(room)

    async def _finish_external(self, ext: ExternalSeat, view: View | None) -> None:
        await ext.finish(view)
        # Not in a ``finally``: if this is cancelled (shutdown), the lobby stops it.
        self.external_seats.discard(ext)

    async def _idle(self, room: Room, seat: int, state: int) -> None:
        await asyncio.sleep(room.row.idle_seconds)
        async with room.lock:
            if room.game is None or len(room.game.actions) != state:
                return
            room.seats[seat].standin = True
            self.broadcast_table(room)
        self.kick(room)

    # -- sending ---------------------------------------------------------------------

    def broadcast_table(self, room: Room) -> None:
        text = _dumps({"v": PROTOCOL, "type": "table", "table": room.info()})
        for c in list(room.clients):
            c.send(text)

    def state_message(self, room: Room, seat: int | None, events: list[Event] | tuple[Event, ...],
                      last: tuple[int, Action, str] | None) -> str:
        """The ``state`` message for ``seat`` (None: a spectator): its view, its events."""
        game = room.game
        assert game is not None
        view = observe(game, seat)
        return _dumps({
            "v": PROTOCOL,
            "type": "state",
            "view": view.to_json(),
            "events": [event_json(e) for e in redact(events, seat)],
            "last": None if last is None else {"seat": last[0], "action": str(last[1]),
                                               "by": last[2]},
            "state": view.action_count,
        })

    def broadcast_state(self, room: Room, events: list[Event] | tuple[Event, ...],
                        last: tuple[int, Action, str] | None) -> None:
        cache: dict[int | None, str] = {}
        for c in list(room.clients):
            text = cache.get(c.seat)
            if text is None:
                text = cache[c.seat] = self.state_message(room, c.seat, events, last)
            c.send(text)

    def welcome(self, room: Room, client: Client) -> None:
        client.send(_dumps({"v": PROTOCOL, "type": "welcome", "table": room.info(),
                            "seat": client.seat, "host": client.host, "server": server_version()}))
        if room.game is not None:
            client.send(self.state_message(room, client.seat, (), None))

    def attach(self, room: Room, client: Client) -> None:
        if client.seat is None and room.spectators() >= self.limits.max_spectators:
            raise Refused("limit", f"this table has {self.limits.max_spectators} spectators, "
                          "its maximum", 429)
        room.clients.add(client)
        self.welcome(room, client)
        self.broadcast_table(room)

    def detach(self, room: Room, client: Client) -> None:
        room.clients.discard(client)
        with contextlib.suppress(RuntimeError):
            self.broadcast_table(room)


class RateLimiter:
    """At most ``rate`` events per second (a one-second sliding count)."""

    def __init__(self, rate: int) -> None:
        self.rate = rate
        self.stamps: list[float] = []

    def allow(self) -> bool:
        now = time.monotonic()
        self.stamps = [t for t in self.stamps if now - t < 1.0]
        if len(self.stamps) >= self.rate:
            return False
        self.stamps.append(now)
        return True


def server_version() -> str:
    from .. import __version__

    return f"toepen {__version__} protocol {PROTOCOL}"
