"""The lobby: every table of the server, its seats and tokens, and the host's commands.

The lobby creates tables, seats people and bots, starts games and rebuilds every stored
table at start-up; the table master (:mod:`toepen.server.tables.master`) plays them and the bot
scheduler (:mod:`toepen.server.tables.scheduler`) decides what happens next. Every change is
committed to storage before it is applied in memory and broadcast.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ...engine import Action, Game
from ...narration import Message
from ...rules import Rules, RulesError
from ..db.commit import Storage
from ..db.store import Store, TableRow
from ..names import skeleton
from ..protocol import HOST_COMMANDS, Limits, Refused, check_name, check_seat
from .botpool import BotPool
from .external_bots import ExternalBots
from .master import Master
from .scheduler import Scheduler
from .seam import LocalSeam, Seam
from .table import Seat, Table, bot_name, token_hash

log = logging.getLogger("toepen.server")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""The letters and digits of a table's code (no ``0 O 1 I``)."""
STATUSES = ("lobby", "playing", "over")
REQUESTS_KEPT = 1000
"""How many recent ``request`` ids of table creations the lobby remembers."""
READERS = 2
"""Tables read from storage at once after start-up (:meth:`Lobby.find`)."""
HANDED_OUT = "tournament:"
"""The ``creator`` of a table whose seats its maker hands out (a tournament's online
tables): no one joins it by its id or code, and it is not in the list of open tables."""


ASKED = "playnow:"
"""The start of the ``creator`` of a table play now made: the address after it is the
first asker's (the table counts against it, as a table created from there does)."""


def owners(table: Table) -> frozenset[str]:
    """Whom ``table`` counts against for ``tables_per_client``: its creator (a client
    address; play now's: the first asker's) and the people play now seated at it."""
    return frozenset({table.row.creator.removeprefix(ASKED), *table.askers})


def handed_out(table: Table) -> bool:
    """Whether ``table``'s seats are handed out by its maker (:data:`HANDED_OUT`)."""
    return table.row.creator.startswith(HANDED_OUT)


class Lobby:
    """Every table of the server, and the storage, master and bots behind them."""

    def __init__(self, store: Store, pool: BotPool, limits: Limits | None = None,
                 bot_delay: float = 0.0, external: ExternalBots | None = None,
                 seam: Seam | None = None) -> None:
        self.limits = limits or Limits()
        self.storage = Storage(store)
        self.seam: Seam = seam if seam is not None else LocalSeam()
        """Where the tables live (:mod:`~toepen.server.tables.seam`): this process alone
        or, with ``--redis``, a cluster of servers; chosen at start-up."""
        self.master = Master(self.storage, self.limits, self.seam)
        self.bots = Scheduler(self.master, pool, external, bot_delay)
        self.master.on_change = self.next
        self.tables: dict[str, Table] = {}
        self.codes: dict[str, str] = {}
        self.tokens: dict[str, str] = {}  # token hash -> table id
        self.requests: dict[tuple[str, str], asyncio.Task[tuple[Table, str, int | None]]] = {}
        """Table creations by (creator, the client's request id): a repeat gets the same."""
        self.on_adopt: list[Callable[[Table], Awaitable[None]]] = []
        """Run for a table read from storage after start-up (a finished table asked for
        again, one made at another server of a cluster): marks of other areas."""
        self.loaded = False
        """Start-up's tables are rebuilt (:meth:`load`)."""
        self.quiet: dict[str, float] = {}
        """Finished tables with nobody connected: since when (monotonic), by id."""
        self.evicted = 0
        """How many finished tables left memory (:meth:`trim`)."""
        self._sweeper: asyncio.Task[None] | None = None
        self._reading: dict[str, asyncio.Task[Table | None]] = {}
        """Tables being read from storage (:meth:`find`): one read each, however many ask."""
        self._readers = asyncio.Semaphore(READERS)
        self.master.on_over.append(self._ended)
        self.promised: Callable[[frozenset[str]], Awaitable[int]] | None = None
        """How many tables are promised to a client (play now's waiting tickets): they
        count against its ``tables_per_client`` as its open tables do."""

    # -- start-up and shutdown -------------------------------------------------------

    async def load(self) -> int:
        """Rebuild every stored table whose game is not over (games replayed from their
        actions); how many. A finished table is read when it is asked for (:meth:`find`)."""
        rows = await self.storage.load_tables(live=True)
        for row in rows:
            await self.adopt(row)
        for table in list(self.tables.values()):
            if table.row.autostart and table.row.status == "lobby" and table.full:
                # a full autostart table that did not start (stored by an older server
                # that committed the last seat and the start apart): finish what was begun
                log.warning("table %s: every seat is taken but the game had not started; "
                            "starting it", table.id)
                with contextlib.suppress(Refused):
                    await self.start(table)
        for table in self.tables.values():
            self.next(table)
        self.loaded = True
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        return len(rows)

    async def adopt(self, row: TableRow) -> Table | None:
        """Rebuild a stored table (its game replayed from its actions) into the lobby;
        after start-up the game is replayed in a thread (a finished game asked for again
        may have tens of thousands of actions: the event loop does not wait for them)."""
        try:
            table = Table.stored(row)
            if row.status != "lobby":
                actions = await self.storage.load_actions(row.id)
                if self.loaded:
                    table.game = await asyncio.to_thread(self._replayed, table, actions)
                else:
                    table.game = self._replayed(table, actions)
        except Exception:  # a table that cannot be rebuilt must not stop the others
            log.exception("table %s could not be rebuilt; it is left out", row.id)
            return None
        if row.id in self.tables:  # made meanwhile (another server told us)
            return self.tables[row.id]
        if row.status != "over":
            self.bots.check_seats(table)
        self._add(table)
        if self.loaded:
            for hook in self.on_adopt:
                try:
                    await hook(table)
                except Exception:  # the table is there whatever a mark does
                    log.exception("table %s: marking it failed", table.id)
            self.trim()
        return self.tables.get(row.id, table)

    @staticmethod
    def _replayed(table: Table, actions: list[tuple[int, str, str]]) -> Game:
        """The game of a table not yet in the lobby, its stored ``actions`` applied; the
        table's status follows its game (the row may have been read before the action
        that ended the game was stored: a process starting while a game ends)."""
        game = table.new_game()
        for seat, text, by in actions:
            game.apply(seat, Action.parse(text))
            table.last_by.append(by)
        if game.is_over:
            table.row.status = "over"
            table.row.winner = game.winner
        return game

    # -- finished tables: out of memory, read again when asked for ---------------------

    def evictable(self, table: Table) -> bool:
        """A finished table that nobody is connected to (here or, in a cluster, at
        another server) and that nothing is changing."""
        return (table.row.status == "over" and not table.clients
                and not any(seats or watching or host
                            for seats, watching, host in table.elsewhere.values())
                and not table.lock.locked() and not table.external
                and (table.pending is None or table.pending.done()))

    def evict(self, table: Table) -> None:
        """Forget the finished ``table`` here (storage keeps it: :meth:`find` reads it
        again); in a cluster its lease, if held here, is let go."""
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        self.quiet.pop(table.id, None)
        if self.codes.get(table.row.code) == table.id:
            del self.codes[table.row.code]
        for thash in {table.row.host_hash, *(s.token_hash for s in table.seats)}:
            if thash and self.tokens.get(thash) == table.id:
                del self.tokens[thash]
        self.evicted += 1
        self.seam.evicted(table.id)

    def trim(self, now: float | None = None) -> int:
        """Evict the finished tables quiet (:meth:`evictable`) for ``finished_grace``
        seconds, and while more than ``finished_kept`` finished tables are in memory the
        quiet ones longest quiet first, at once; how many left."""
        now = time.monotonic() if now is None else now
        finished = 0
        quiet: list[tuple[float, Table]] = []
        for table in self.tables.values():
            if table.row.status != "over":
                continue
            finished += 1
            if self.evictable(table):
                quiet.append((self.quiet.setdefault(table.id, now), table))
            else:
                self.quiet.pop(table.id, None)
        quiet.sort(key=lambda q: q[0])
        excess = finished - self.limits.finished_kept
        gone = 0
        for since, table in quiet:
            if excess <= 0 and now - since < self.limits.finished_grace:
                break
            self.evict(table)
            excess -= 1
            gone += 1
        return gone

    async def _ended(self, _table: Table) -> None:
        """A game ended (the master's ``on_over``): past ``finished_kept``, room now."""
        self.trim()

    async def _sweep(self) -> None:
        """:meth:`trim` every few seconds (a quiet finished table leaves after its grace)."""
        period = max(0.2, min(5.0, self.limits.finished_grace / 2))
        while True:
            await asyncio.sleep(period)
            try:
                self.trim()
            except Exception:  # the next round tries again
                log.exception("trimming the finished tables failed")

    # -- a cluster of servers (--redis): the other servers' changes ----------------------

    async def find(self, table_id: str) -> Table:
        """The table ``table_id``; one not in memory (a finished table, or in a cluster
        one another server just made) is read from the database."""
        table = self.tables.get(table_id)
        if table is None and len(table_id) <= 40:
            task = self._reading.get(table_id)
            if task is None:
                task = asyncio.get_running_loop().create_task(self._read(table_id))
                self._reading[table_id] = task
                task.add_done_callback(lambda _: self._reading.pop(table_id, None))
            table = await asyncio.shield(task)
        if table is None:
            raise Refused("not_found", f"no table {table_id!r}", 404)
        if table.id in self.quiet:  # just asked for: the last a cap makes leave
            self.quiet[table.id] = time.monotonic()
        return table

    async def _read(self, table_id: str) -> Table | None:
        """Read a table from storage into the lobby (at most :data:`READERS` at once)."""
        async with self._readers:
            row = await self.storage.load_table(table_id)
            return None if row is None else await self.adopt(row)

    async def find_code(self, code: str) -> Table:
        """The table of ``code`` (also one not in memory: finished, or in a cluster one
        just made elsewhere)."""
        if code.strip().upper() not in self.codes:
            table_id = await self.storage.load_code(code.strip().upper()[:20])
            if table_id is not None:
                await self.find(table_id)
        return self.by_code(code)

    async def refresh(self, table: Table) -> bool:
        """Read the table's seats again from the database (a token just given out by
        another server); whether it could have changed there (:attr:`Seam.shared`)."""
        if not self.seam.shared:
            return False
        row = await self.storage.load_table(table.id)
        if row is not None:
            async with table.lock:
                self._apply_row(table, row, table.version)
                await self.master.catch_up_actions(table)
        return True

    async def catch_up(self, table: Table, n: int, ver: int) -> None:
        """Under the table's locks (a change of its seats): make this copy of the table
        what the database holds (its row; seat version at least ``ver``) and its game
        what the database holds (``n``, Redis' state number, is not trusted: Redis may
        have been restarted and remember nothing)."""
        row = await self.storage.load_table(table.id)
        if row is not None:
            self._apply_row(table, row, max(ver, table.version))
        await self.master.catch_up_actions(table)

    async def sync(self, table: Table, takeover: bool = False) -> None:
        """In a cluster: bring this copy of the table up to what the database holds (its
        seats, its game), tell this process's clients what they lack, and (``takeover``:
        this process just took the lease) every other process's clients too; then what
        comes next (:meth:`next`)."""
        async with table.lock:
            row = await self.storage.load_table(table.id)
            if row is not None:
                self._apply_row(table, row, table.version)
            await self.master.catch_up_actions(table)
            self.master.tell_behind(table)
            if takeover:
                self.master.tell_elsewhere(table)
        self.next(table)

    async def fresh_copy(self, table: Table) -> None:
        """At a process that does not apply ``table``'s actions (in a cluster, not its
        owner): :meth:`sync` it (its copy lags: only the owner applies each action).
        Elsewhere nothing."""
        if not self.seam.owns(table.id):
            await self.sync(table)

    def next(self, table: Table) -> None:
        """The one "what next" step: every path that learns of a new state of a table
        (its own commit, a relayed action, a stale refusal, a catch-up, a takeover) ends
        here: the bot, the stand-in, the idle clock (:meth:`Scheduler.kick`)."""
        self.bots.kick(table)

    async def remote_seats(self, table: Table, ver: int, row: TableRow) -> None:
        """Another server changed the seats (or started the game)."""
        async with table.lock:
            if ver <= table.version:
                return
            self._apply_row(table, row, ver)
        self.next(table)

    def _apply_row(self, table: Table, row: TableRow, ver: int) -> None:
        """Seats and status as stored elsewhere; this server's clients told."""
        changed = False
        for stored in row.seats:
            old = table.seats[stored.seat]
            if old.row() == stored:
                continue
            changed = True
            new = Seat.stored(stored)
            table.seats[stored.seat] = new
            if new.token_hash:
                self.tokens[new.token_hash] = table.id
            if old.token_hash and old.token_hash != new.token_hash:
                for c in list(table.clients):
                    if c.seat == stored.seat:
                        c.seat = None
                        if not c.host:
                            c.close()
        table.version = max(table.version, ver)
        if row.status != "lobby" and table.row.status == "lobby" and row.players:
            self._begin(table, row.players)
            return
        if changed:
            self.master.broadcast_table(table)

    async def close(self) -> None:
        """Stop every bot and clock, close every socket and the storage."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            for c in list(table.clients):
                c.close()
        await self.bots.close(list(self.tables.values()))
        self.storage.close()

    # -- finding ---------------------------------------------------------------------

    def get(self, table_id: str) -> Table:
        """A table in memory (a finished one may not be: :meth:`find`)."""
        table = self.tables.get(table_id)
        if table is None:
            raise Refused("not_found", f"no table {table_id!r}", 404)
        return table

    def by_code(self, code: str) -> Table:
        table_id = self.codes.get(code.strip().upper())
        if table_id is None:
            raise Refused("not_found", f"no table with code {code!r}", 404)
        return self.tables[table_id]

    def listed(self, status: str | None = None, most: int = 200) -> list[Table]:
        """Tables, newest first (at most ``most``), optionally of one status. The open
        tables (``lobby``) leave out the abandoned ones: no person connected for
        ``abandoned_after`` seconds (they are still there, by id and code)."""
        if status not in (None, *STATUSES):
            raise Refused("bad_message", f"status: lobby, playing or over, not {status!r}")
        found = [t for t in self.tables.values() if status is None or t.row.status == status]
        if status == "lobby":
            now = time.monotonic()
            found = [t for t in found if not t.abandoned(self.limits.abandoned_after, now)
                     and not handed_out(t)]
        found.sort(key=lambda t: t.row.created, reverse=True)
        return found[:most]

    def who(self, table: Table, token: str) -> tuple[int | None, bool]:
        """(seat, is host) for a token at this table, or Refused ``auth``."""
        thash = token_hash(token)
        # the table's own seats and host (a rematch's seats keep their players' tokens)
        if table.seat_of(thash) is None and thash != table.row.host_hash:
            raise Refused("auth", "unknown token for this table", 401)
        return table.seat_of(thash), thash == table.row.host_hash

    def bearer(self, table: Table, authorization: str | None, whose: str) -> tuple[int | None,
                                                                                  bool]:
        """(seat, is host) of an ``Authorization: Bearer TOKEN`` header, or Refused."""
        if not authorization or not authorization.startswith("Bearer "):
            raise Refused("auth", f"Authorization: Bearer TOKEN ({whose}) is needed", 401)
        return self.who(table, authorization[7:].strip())

    def _add(self, table: Table) -> None:
        self.tables[table.id] = table
        self.codes[table.row.code] = table.id
        self.tokens[table.row.host_hash] = table.id
        for s in table.seats:
            if s.token_hash:
                self.tokens[s.token_hash] = table.id

    # -- tables ----------------------------------------------------------------------

    def _live(self) -> list[Table]:
        live = [t for t in self.tables.values() if t.row.status != "over"]
        if len(live) >= self.limits.max_tables:
            raise Refused("limit", f"the server holds {len(live)} open tables, its maximum", 429)
        return live

    async def _check_room(self, creator: str, per_client: bool = True) -> None:
        keys = frozenset({creator.removeprefix(ASKED)})
        pending = await self.promised(keys) if per_client and self.promised else 0
        live = self._live()
        if per_client:
            self._check_mine(live, keys, pending)

    def check_tables(self, keys: frozenset[str], pending: int) -> None:
        """Refused (429, as for a created table) if the client of ``keys`` (its address,
        and ``u:NAME`` when logged in) may not have one more open table: it has
        ``tables_per_client`` already, counting ``pending`` ones promised to it (play
        now's waiting tickets)."""
        self._check_mine(self._live(), keys, pending)

    def _check_mine(self, live: list[Table], keys: frozenset[str], pending: int) -> None:
        mine = pending + sum(1 for t in live if keys & owners(t))
        most = self.limits.tables_per_client
        if mine >= most:
            raise Refused("limit", f"you already have {mine} open tables (at most {most})", 429,
                          say=Message("error.limit.tables", {"n": mine, "most": most}))

    def fresh_ids(self) -> tuple[str, str]:
        """A new table's id and invite code, neither used by a table in memory."""
        table_id = secrets.token_hex(6)
        while table_id in self.tables:
            table_id = secrets.token_hex(6)
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        while code in self.codes:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
        return table_id, code

    async def new_ids(self) -> tuple[str, str]:
        """:meth:`fresh_ids` that no stored table has either (finished tables leave
        memory, not the database, whose ids and codes are unique)."""
        while True:
            table_id, code = self.fresh_ids()
            if not await self.storage.taken(table_id, code):
                return table_id, code

    async def create(self, *, preset: str, options: dict[str, Any], size: int,
                     bots: dict[int, str], name: str | None, idle_seconds: float,
                     autostart: bool, creator: str,
                     request: str | None = None,
                     rated: bool = False, per_client: bool = True
                     ) -> tuple[Table, str, int | None]:
        """A new table; returns it, the host's token and the host's seat (None: not seated).

        ``request`` is the client's id of this creation: the same creator sending the
        same id again (a double click, a retry) gets the same table, not a second one. A
        creation that was refused is forgotten, so the id may be used again.
        ``per_client`` False: the creator's ``tables_per_client`` was counted already
        (play now's, when it was asked).
        """
        if request is None:
            return await self._create(preset=preset, options=options, size=size, bots=bots,
                                      name=name, idle_seconds=idle_seconds,
                                      autostart=autostart, creator=creator, rated=rated,
                                      per_client=per_client)
        key = (creator, request)
        task = self.requests.get(key)
        if task is None:
            task = asyncio.ensure_future(self._create(
                preset=preset, options=options, size=size, bots=bots, name=name,
                idle_seconds=idle_seconds, autostart=autostart, creator=creator,
                rated=rated))
            self.requests[key] = task

            def forget_refused(done: asyncio.Task[tuple[Table, str, int | None]]) -> None:
                if done.cancelled() or done.exception() is not None:
                    self.requests.pop(key, None)

            task.add_done_callback(forget_refused)
            while len(self.requests) > REQUESTS_KEPT:
                oldest = next(iter(self.requests))
                if not self.requests[oldest].done():
                    break
                del self.requests[oldest]
        return await asyncio.shield(task)

    async def _create(self, *, preset: str, options: dict[str, Any], size: int,
                      bots: dict[int, str], name: str | None, idle_seconds: float,
                      autostart: bool, creator: str,
                      rated: bool = False, per_client: bool = True
                      ) -> tuple[Table, str, int | None]:
        await self._check_room(creator, per_client)
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
            check_name(name, self.limits.name_length)
        seed = secrets.randbits(62)  # the table's secret: every deck and bot seed comes from it
        seats = [Seat(i) for i in range(size)]
        taken = [name] if name is not None else []
        for seat, bot in sorted(bots.items()):
            if not 0 <= seat < size:
                raise Refused("bad_message", f"bots: no seat {seat} at a table of {size}")
            if seat == 0 and name is not None:
                raise Refused("bad_message", "bots: seat 0 is the host's")
            try:
                kind = self.bots.resolve(bot)
            except ValueError as e:
                raise Refused("bad_message", f"bots: seat {seat}: {e}") from None
            seats[seat] = Seat(seat, "bot", name=bot_name(seed, seat, taken), bot=kind)
            taken.append(seats[seat].name or "")
        token = secrets.token_urlsafe(24)
        thash = token_hash(token)
        if name is not None:
            seats[0] = Seat(0, "human", name=name, token_hash=thash)
        table_id, code = await self.new_ids()
        row = TableRow(id=table_id, code=code, preset=rules.name, rules=rules.to_json(),
                       size=size, seed=seed, dealer=seed % size, idle_seconds=idle_seconds,
                       autostart=autostart, creator=creator, host_hash=thash)
        table = Table(row=row, rules=rules, seats=seats, rated=rated)
        if autostart and table.full:  # stored started: one transaction, no window
            row.status = "playing"
            row.players = [s.label for s in seats]
        await self.storage.create_table(row, [s.row() for s in seats])
        if row.status == "playing":
            table.game = table.new_game()
        self._add(table)
        self.seam.created(table)
        self.seam.claim_soon(table)
        self.next(table)
        return table, token, 0 if name is not None else None

    async def start(self, table: Table) -> None:
        """Deal: the game begins with the seats as they are (every seat must be taken)."""
        async with self.master.locked(table):
            if table.row.status != "lobby":
                raise Refused("bad_command", "the game has already started", 409)
            empty = [str(s.seat) for s in table.seats if s.kind == "open"]
            if empty:
                raise Refused("bad_command", f"seats {', '.join(empty)} are open: wait for "
                              "players or add bots", 409)
            players = [s.label for s in table.seats]
            await self.storage.start(table.id, players)
            self._begin(table, players)
        self.next(table)

    def _starts(self, table: Table, taken: dict[int, Seat]) -> list[str] | None:
        """The players of the game if seating ``taken`` starts it (``autostart`` and then
        every seat taken), else None."""
        if not table.row.autostart or table.row.status != "lobby":
            return None
        seats = [taken.get(s.seat, s) for s in table.seats]
        if any(s.kind == "open" for s in seats):
            return None
        return [s.label for s in seats]

    def _begin(self, table: Table, players: list[str]) -> None:
        """The game begins in memory (its start is committed): deal and tell everyone
        (in a cluster, its first-ranked server takes its bots)."""
        table.row.players = players
        table.row.status = "playing"
        table.game = table.new_game()
        self.master.broadcast_table(table)
        self.master.broadcast_state(table, table.game.opening_events(omniscient=True), None)
        self.seam.claim_soon(table)

    # -- seats -----------------------------------------------------------------------

    async def join(self, table: Table, name: Any, seat: int | None = None, *,
                   handed: bool = False, thash: str | None = None) -> tuple[str, int]:
        """Take an open seat (the first, or ``seat``); returns the new token and the seat.
        A table whose seats are handed out (:func:`handed_out`) is joined only through
        :meth:`hand_seat` (``handed``). With ``thash`` the seat's token is the one of
        that hash, which the caller's player holds (play now's ticket): "" is returned."""
        if handed_out(table) and not handed:
            raise Refused("forbidden", "this is a tournament's table: its seats are taken "
                          "with the link the organiser gives each player", 403,
                          say=Message("error.seat_handed_out"))
        check_name(name, self.limits.name_length)
        async with self.master.locked(table):
            if table.row.status != "lobby":
                raise Refused("bad_command", "the game has started: watch it as a spectator", 409,
                              say=Message("error.join.started"))
            open_seats = [s.seat for s in table.seats if s.kind == "open"]
            if not open_seats:
                raise Refused("bad_command", "the table is full: watch it as a spectator, or "
                              "find another table in the lobby", 409,
                              say=Message("error.join.full"))
            if seat is None:
                seat = open_seats[0]
            elif seat not in open_seats:
                raise Refused("bad_command", f"seat {seat} is not open (open: "
                              f"{', '.join(map(str, open_seats))})", 409,
                              say=Message("error.join.seat_taken", {"n": seat + 1}))
            token = secrets.token_urlsafe(24) if thash is None else ""
            new = Seat(seat, "human", name=name, token_hash=thash or token_hash(token))
            changed: dict[int, Seat] = {}
            for s in table.seats:  # a bot with the newcomer's name takes another
                if s.kind == "bot" and s.name and skeleton(s.name) == skeleton(name):
                    changed[s.seat] = Seat(s.seat, "bot", name=table.bot_name(s.seat, but=name),
                                           bot=s.bot)
            changed[seat] = new
            players = self._starts(table, changed)
            # the seats and (a full autostart table) the start: one transaction
            await self.storage.set_seats(table.id, [c.row() for c in changed.values()],
                                         players)
            for c in changed.values():
                table.seats[c.seat] = c
            self.tokens[new.token_hash or ""] = table.id
            if players is not None:
                self._begin(table, players)
            else:
                self.master.broadcast_table(table)
        if players is not None:
            self.next(table)
        return token, seat

    async def hand_seat(self, table: Table, name: str, seat: int) -> tuple[str, int]:
        """A seat its maker hands out (:func:`handed_out`) goes to ``name``: an open seat
        is taken; a seat ``name`` holds already gets a new token, also during the game
        (the same player on another phone: the old token stops working and its sockets
        lose the seat). The caller has checked that ``name`` may have this seat."""
        if table.seats[seat].kind == "open":
            return await self.join(table, name, seat, handed=True)
        async with self.master.locked(table):
            old = table.seats[seat]
            if old.kind != "human" or old.name != name:
                raise Refused("bad_command", f"seat {seat} is not open", 409)
            if table.row.status == "over":
                raise Refused("over", "the game is over", 409)
            token = secrets.token_urlsafe(24)
            new = dataclasses.replace(old, token_hash=token_hash(token))
            await self.storage.set_seats(table.id, [new.row()])
            table.seats[seat] = new
            if old.token_hash:
                self.tokens.pop(old.token_hash, None)
            self.tokens[new.token_hash or ""] = table.id
            for c in list(table.clients):
                if c.seat == seat:
                    c.seat = None
                    if not c.host:
                        c.close()
            self.master.broadcast_table(table)
        self.next(table)
        return token, seat

    async def set_seat(self, table: Table, seat: int, new: Seat) -> None:
        """Give ``seat`` to ``new`` before the start (under the table's lock): the old
        token stops working and its sockets lose the seat."""
        if table.row.status != "lobby":
            raise Refused("bad_command", "seats change only before the start", 409)
        old = table.seats[seat]
        players = self._starts(table, {seat: new})
        await self.storage.set_seats(table.id, [new.row()], players)  # one transaction
        table.seats[seat] = new
        self.bots.release(table, seat)
        if old.token_hash and old.token_hash != new.token_hash:
            if old.token_hash != table.row.host_hash:
                self.tokens.pop(old.token_hash, None)
            for c in list(table.clients):
                if c.seat == seat:
                    c.seat = None
                    if not c.host:
                        c.close()
        if players is not None:
            self._begin(table, players)
        else:
            self.master.broadcast_table(table)

    async def leave(self, table: Table, seat: int) -> None:
        """A player gives up a seat before the start."""
        if table.row.status != "lobby":
            raise Refused("bad_command", "the game has started: your seat stays yours")
        async with self.master.locked(table):
            await self.set_seat(table, seat, Seat(seat))

    async def host_command(self, table: Table, command: Any, seat: Any, bot: Any) -> None:
        """``start``, ``add_bot``, ``remove_bot``, ``remove_seat`` (Refused if not now)."""
        if not isinstance(command, str):
            raise Refused("bad_message", "command: start, add_bot, remove_bot or remove_seat")
        if command == "start":
            await self.start(table)
            return
        if command not in HOST_COMMANDS:
            raise Refused("bad_message", f"command: unknown {command!r}")
        seat = check_seat(seat, table.row.size)
        async with self.master.locked(table):
            s = table.seats[seat]
            if command == "add_bot":
                if not isinstance(bot, str):
                    raise Refused("bad_message", "bot: a bot name is needed")
                if s.kind == "bot":
                    raise Refused("bad_command", f"seat {seat} already has a bot")
                if s.kind == "human" and table.connected(seat):
                    raise Refused("bad_command", f"seat {seat}'s player is here")
                try:
                    name = self.bots.resolve(bot)
                except ValueError as e:
                    raise Refused("bad_message", f"bot: {e}") from None
                await self.set_seat(table, seat, Seat(seat, "bot", name=table.bot_name(seat),
                                                      bot=name))
            elif command == "remove_bot":
                if s.kind != "bot":
                    raise Refused("bad_command", f"seat {seat} has no bot")
                await self.set_seat(table, seat, Seat(seat))
            else:
                if s.kind != "human":
                    raise Refused("bad_command", f"seat {seat} has no player")
                if table.connected(seat):
                    raise Refused("bad_command", f"seat {seat}'s player is still here")
                await self.set_seat(table, seat, Seat(seat))
        self.next(table)  # a seat that filled an autostart table started its game
