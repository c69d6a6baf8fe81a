"""Bot scheduling: who acts next at each table, and when.

After every change of a table (the master's :attr:`~toepen.server.tables.master.Master.on_change`)
:meth:`Scheduler.kick` arranges what happens next: a bot seat's move (thought in the bot
pool, or asked of the seat's external program), a stand-in's move for an idle human, or
the idle clock of a human seat. A bot acts through the master like anyone else (checked,
committed, broadcast), with the state number it thought about: a move that arrives
late is refused as ``stale`` and dropped.

Bots are asked as in every other venue (:mod:`toepen.match`): under ``knock_anytime``
each bot (or stand-in) that may knock out of turn is first offered a knock window
(:func:`~toepen.match.asked`; a person knocks when they like), and an answer that cannot
be played (the bot raised or chose an illegal action) is the fallback bot's, logged and
counted in the metrics (``toepen_bot_incidents``). A seat's bot is seeded one way from
the table's secret seed (:func:`toepen.match.seat_seed`) and decides from its view, so a
table rebuilt after a restart makes the same decisions, and so does the same table in
the arena or the terminal.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from ...bots.base import CMD_PREFIX, DEFAULT_WORD, LAST_RESORT, standin_level
from ...engine import PASS, Action, Game
from ...match import Incident, asked, fall_back, seat_seed, view_for
from ...seeds import derive_seed
from ...view import View, observe
from ..protocol import Refused
from .botpool import BotPool, available_bots, available_levels, resolve_bot
from .external_bots import FALLBACK, ExternalBots, ExternalSeat, public_incident
from .master import Master
from .table import Table

log = logging.getLogger("toepen.server")


def owner(table: Table) -> str:
    """Whose turn a table's bot move waits for in the pool (:class:`~toepen.server.tables.botpool.
    Lanes`): the client that made the table (play now's, ``playnow:ADDRESS``: its first
    asker, as ``lobby.owners`` counts it)."""
    return table.row.creator.removeprefix("playnow:")


LATE = 1.0
"""Seconds an idle clock may run out after it was due and still count (beyond: the
process was frozen or starved, and the person gets that time once more)."""


class Scheduler:
    """The bots of every table: built-in ones in the pool, external ones in their seats."""

    def __init__(self, master: Master, pool: BotPool, external: ExternalBots | None = None,
                 delay: float = 0.0) -> None:
        self.master = master
        self.pool = pool
        self.external = external or ExternalBots()
        self.delay = delay
        self.external_seats: set[ExternalSeat] = set()
        """Every external bot not yet stopped (the server stops them all at the end)."""
        self.background: set[asyncio.Task[None]] = set()
        self.timers: dict[str, asyncio.TimerHandle] = {}
        """The idle clock of each table whose person is to act."""
        self.seam = master.seam
        """Where the tables live: only a table's owner runs its bots and clocks
        (:meth:`~toepen.server.tables.seam.Seam.owns`; a lone server owns every table)."""
        self.away_timers: dict[tuple[str, int], asyncio.TimerHandle] = {}
        """The grace of each seat whose player closed their last socket (:meth:`gone`)."""

    # -- bot names -------------------------------------------------------------------

    def knows(self, name: str) -> bool:
        """Whether ``name`` is a bot of this server (built in, or registered external)."""
        return name in self.external or name in available_bots()

    def choices(self) -> list[str]:
        """Bot names a table may use here: the levels, the bots, ``default`` last."""
        return [*(lv["name"] for lv in available_levels()), *available_bots(),
                *self.external.names(), DEFAULT_WORD]

    def resolve(self, name: str) -> str:
        """A bot name a table may use (``default`` and a level resolved to their bot), or
        ValueError naming it.

        Only names: a command (``cmd:...``) is never accepted from a client; the
        operator registers external programs (``toepen serve --bot NAME=cmd:COMMAND``).
        """
        if name in self.external:
            return name
        shown = name if len(name) <= 40 else name[:37] + "..."
        if name.startswith(CMD_PREFIX):
            raise ValueError(f"unknown bot {shown!r}: a table names a bot, never a command "
                             f"(available: {', '.join(self.choices())})")
        try:
            return resolve_bot(name)
        except ValueError:
            raise ValueError(f"unknown bot {shown!r} (available: "
                             f"{', '.join(self.choices())})") from None

    @staticmethod
    def standin_bot(table: Table | None = None) -> str:
        """The bot that plays for an idle human: at the level of the table's bots (the
        level most of them play at; ``good`` where none has a level,
        :func:`toepen.bots.base.standin_level`)."""
        bots = [s.bot for s in table.seats if s.kind == "bot" and s.bot] if table else []
        try:
            return resolve_bot(standin_level(bots).bot)
        except (RuntimeError, ValueError):
            return LAST_RESORT

    def check_seats(self, table: Table) -> None:
        """After a restart: a seat whose bot this server does not have (an external bot
        not registered again) is played by the fallback, and that is said."""
        for s in table.seats:
            if s.kind == "bot" and s.bot and not self.knows(s.bot):
                s.fallback = FALLBACK
                s.incident = f"unregistered: no bot {s.bot!r} at this server"
                log.warning("table %s seat %d: bot %r is not registered at this server; "
                            "%s plays the seat", table.id, s.seat, s.bot, FALLBACK)

    # -- what happens next -----------------------------------------------------------

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``coro`` in the background (cancelled by :meth:`close`)."""
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    def kick(self, table: Table) -> None:
        """Arrange what happens next: a bot move, or the idle clock of a human seat; at
        the end of the game, the external bots get their result and stop."""
        if table.pending is not None and not table.pending.done():
            table.pending.cancel()
        table.pending = None
        timer = self.timers.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        game = table.game
        if game is not None and game.is_over:
            for s, ext in list(table.external.items()):  # the result, then stop
                del table.external[s]
                self.spawn(self._finish_external(ext, observe(game, s)))
        if game is None or game.is_over or game.turn < 0:
            return
        if not self.seam.owns(table.id):
            return  # another server of the cluster runs this table's bots and clocks
        state = len(game.actions)
        if table.passed[0] != state:
            table.passed = (state, set())
        people = [s.seat for s in table.seats if s.kind != "bot" and not s.standin]
        at, window = asked(game, table.passed[1], people)
        seat = table.seats[at]
        if seat.kind == "bot":
            bot = seat.fallback or seat.bot or LAST_RESORT
            table.pending = self.spawn(self._bot_move(table, seat.seat, bot, state, "bot",
                                                      window))
        elif seat.standin:
            table.pending = self.spawn(self._bot_move(table, seat.seat, self.standin_bot(table),
                                                      state, "standin", window))
        else:  # a timer, not a task: a person's every action re-arms it
            loop = asyncio.get_running_loop()
            self.timers[table.id] = loop.call_later(
                table.row.idle_seconds, self._idle_fired, table, seat.seat, state,
                loop.time() + table.row.idle_seconds)

    def gone(self, table: Table, seat: int, grace: float) -> None:
        """The player of ``seat`` closed their last socket of the table cleanly (a tab
        closed, the page left): unless one of the seat's sockets is back within ``grace``
        seconds (a reload), a stand-in plays the seat from then on, without waiting for
        the idle clock. Their next action (or ``back``, or a new socket) ends it."""
        key = (table.id, seat)
        old = self.away_timers.pop(key, None)
        if old is not None:
            old.cancel()
        self.away_timers[key] = asyncio.get_running_loop().call_later(
            grace, self._away_fired, table, seat)

    def _away_fired(self, table: Table, seat: int) -> None:
        self.away_timers.pop((table.id, seat), None)
        game = table.game
        if (game is None or game.is_over or table.connected(seat)
                or table.seats[seat].kind != "human" or table.seats[seat].standin):
            return
        self.spawn(self._away(table, seat, game))

    async def _away(self, table: Table, seat: int, game: Game) -> None:
        async with table.lock:
            if (table.game is not game or game.is_over or table.connected(seat)
                    or table.seats[seat].standin):
                return
            table.seats[seat].standin = True
            self.master.flags_changed(table)
        self.kick(table)

    def _idle_fired(self, table: Table, seat: int, state: int, due: float | None = None
                    ) -> None:
        """The idle clock ran out. One that runs out more than :data:`LATE` seconds after
        it was due (this process was frozen or starved meanwhile, and the person's action
        may be waiting unread in her socket or at another process) gives her once more as
        long as it was late, at most the table's ``idle_seconds``; then a stand-in plays."""
        self.timers.pop(table.id, None)
        loop = asyncio.get_running_loop()
        late = 0.0 if due is None else loop.time() - due
        if late > LATE:
            wait = min(late, table.row.idle_seconds)
            self.timers[table.id] = loop.call_later(wait, self._idle_fired, table, seat, state)
            return
        table.pending = self.spawn(self._idle(table, seat, state))

    def incident(self, table: Table, incident: Incident) -> None:
        """A bot's answer the fallback replaced: logged with the table (in a thread pool
        :func:`toepen.match.fall_back` has logged it already) and counted."""
        if self.pool.kind == "process":
            log.warning("table %s: %s", table.id, incident)
        if self.master.metrics is not None:
            self.master.metrics.bot_incident(incident.kind)

    async def _bot_move(self, table: Table, seat: int, bot: str, state: int, by: str,
                        window: bool = False) -> None:
        game = table.game
        if game is None:
            return
        if self.delay:
            await asyncio.sleep(self.delay)
        view = view_for(game, seat, window)
        seed = seat_seed(table.row.seed, seat)
        try:
            if by == "bot" and bot in self.external:
                got = await self._external_move(table, seat, bot, game, view)
                if got is None:  # the seat was closed meanwhile (the server stops)
                    return
                choice = got
                if choice not in view.legal:
                    choice = await self._failed(table, view, bot, "illegal",
                                                f"chose {choice!r}", seed)
            else:
                choice = await self.pool.decide(bot, seed, view,
                                                lambda i: self.incident(table, i),
                                                owner=owner(table))
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the pool itself failed (a worker died): as match.ask does
            choice = await self._failed(table, view, bot, "error", f"{type(e).__name__}: {e}",
                                        seed)
        if window and choice is PASS:  # not an action: the next seat's window, or the turn
            if table.passed[0] == state and table.game is game:
                table.passed[1].add(seat)
                if table.pending is asyncio.current_task():
                    table.pending = None
                self.kick(table)
            return
        try:
            await self.master.act(table, seat, str(choice), state, by)
        except Refused as e:
            if e.code == "server_error":  # try again a little later
                await asyncio.sleep(0.5)
                self.kick(table)
            elif e.code == "stale":  # the table moved on: what now, unless that is arranged
                if table.pending is asyncio.current_task():
                    table.pending = None
                    self.kick(table)
            elif e.code != "over":
                log.error("bot %s at table %s refused: %s", bot, table.id, e.message)

    async def _failed(self, table: Table, view: View, bot: str, kind: str, detail: str,
                      seed: int) -> Action:
        """The fallback's decision when asking ``bot`` failed (:func:`toepen.match.fall_back`,
        off the event loop), the incident reported."""
        incident = await asyncio.to_thread(fall_back, view, bot, kind, detail, seed)
        self.incident(table, incident)
        return incident.action

    async def _idle(self, table: Table, seat: int, state: int) -> None:
        """The idle clock of ``seat`` ran out at ``state``: a stand-in plays it. Only the
        table's lease holder, surely (:meth:`Seam.owns`): a clock overdue in a process
        that was frozen or starved, and does not know yet that another process took the
        table (where the person plays on), starts no stand-in for her."""
        if not self.seam.owns(table.id):
            return  # not ours (any more): the owner's clock decides; ours again, re-armed
        async with table.lock:
            if table.game is None or len(table.game.actions) != state:
                return
            if not self.seam.owns(table.id):
                return
            table.seats[seat].standin = True
            self.master.flags_changed(table)
        self.kick(table)

    # -- external bots ---------------------------------------------------------------

    async def _external_move(self, table: Table, seat: int, name: str, game: Game,
                             view: View) -> Action | None:
        """The decision of the external bot ``name`` at ``seat``: its program is started at
        the seat's first decision and asked in the seat's own thread."""
        ext = table.external.get(seat)
        if ext is None:
            # One-way from the table's secret seed; 53 bits, so that any language reads it.
            ext = ExternalSeat(name, self.external.commands[name], seat=seat,
                               seed=derive_seed(table.row.seed, "external", seat) >> 11,
                               timeout=self.external.timeout)
            table.external[seat] = ext
            self.external_seats.add(ext)
        choice = await ext.act(table.rules, game.players, view)
        self._report(table, seat, ext)
        return choice

    def _report(self, table: Table, seat: int, ext: ExternalSeat) -> None:
        """An incident of an external bot: log it (in full), tell the table (its kind
        only), and let the fallback play the seat in the bot pool from now on."""
        fresh = ext.new_incidents()
        if not fresh:
            return
        incident = fresh[0]
        log.warning("external bot %s at table %s seat %d: %s; %s plays the seat for the "
                    "rest of the game", ext.name, table.id, seat, incident, FALLBACK)
        s = table.seats[seat]
        if s.kind == "bot" and s.bot == ext.name:
            s.fallback = FALLBACK
            s.incident = public_incident(incident.kind, ext.timeout)
        if table.external.get(seat) is ext:
            del table.external[seat]
        self.spawn(self._finish_external(ext, None))
        self.master.flags_changed(table)

    def release(self, table: Table, seat: int) -> None:
        """The seat changed hands: its external bot (if one runs) stops."""
        ext = table.external.pop(seat, None)
        if ext is not None:
            self.spawn(self._finish_external(ext, None))

    async def _finish_external(self, ext: ExternalSeat, view: View | None) -> None:
        await ext.finish(view)
        # Not in a ``finally``: if this is cancelled (shutdown), stop_external stops it.
        self.external_seats.discard(ext)

    async def stop_external(self, tables: list[Table]) -> None:
        """Stop every external bot's program now (at shutdown), all at once."""
        running = list(self.external_seats)
        for table in tables:
            table.external.clear()
        if running:
            await asyncio.gather(*(asyncio.to_thread(ext.kill) for ext in running),
                                 return_exceptions=True)
        self.external_seats.difference_update(running)

    async def close(self, tables: list[Table]) -> None:
        """Cancel every pending move and clock; stop the external bots."""
        for table in tables:
            if table.pending is not None:
                table.pending.cancel()
        for timer in [*self.timers.values(), *self.away_timers.values()]:
            timer.cancel()
        self.timers.clear()
        self.away_timers.clear()
        for task in list(self.background):
            task.cancel()
        await self.stop_external(tables)
