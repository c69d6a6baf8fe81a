"""Bot scheduling: who acts next at each table, and when.

After every change of a table (the master's :attr:`~toepen.server.master.Master.on_change`)
:meth:`Scheduler.kick` arranges what happens next: a bot seat's move (thought in the bot
pool, or asked of the seat's external program), a stand-in's move for an idle human, or
the idle clock of a human seat. A bot acts through the master like anyone else (checked,
committed, broadcast), with the state number it thought about: a move that arrives
late is refused as ``stale`` and dropped.

A bot's decision is seeded one way from the table's secret seed and the state number
(:func:`toepen.seeds.derive_seed`), so a table rebuilt after a restart makes the same
decisions.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from ..bots.base import CMD_PREFIX, DEFAULT_WORD, LAST_RESORT
from ..engine import Action, Game
from ..seeds import derive_seed
from ..view import View, observe
from .botpool import BotPool, available_bots, resolve_bot
from .external import FALLBACK, ExternalBots, ExternalSeat, public_incident
from .master import Master
from .protocol import Refused
from .table import Table

log = logging.getLogger("toepen.server")


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
        self.owns: Callable[[str], bool] | None = None
        """In a cluster: whether this server holds a table's lease (runs its bots)."""

    # -- bot names -------------------------------------------------------------------

    def knows(self, name: str) -> bool:
        """Whether ``name`` is a bot of this server (built in, or registered external)."""
        return name in self.external or name in available_bots()

    def choices(self) -> list[str]:
        """Bot names a table may use here, ``default`` last."""
        return [*available_bots(), *self.external.names(), DEFAULT_WORD]

    def resolve(self, name: str) -> str:
        """A bot name a table may use (``default`` resolved), or ValueError naming it.

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
    def standin_bot() -> str:
        """The bot that plays for an idle human: the default one."""
        try:
            return resolve_bot(DEFAULT_WORD)
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
        if self.owns is not None and not self.owns(table.id):
            return  # another server of the cluster runs this table's bots and clocks
        seat = table.seats[game.turn]
        state = len(game.actions)
        if seat.kind == "bot":
            bot = seat.fallback or seat.bot or LAST_RESORT
            table.pending = self.spawn(self._bot_move(table, seat.seat, bot, state, "bot"))
        elif seat.standin:
            table.pending = self.spawn(self._bot_move(table, seat.seat, self.standin_bot(),
                                                      state, "standin"))
        else:  # a timer, not a task: a person's every action re-arms it
            self.timers[table.id] = asyncio.get_running_loop().call_later(
                table.row.idle_seconds, self._idle_fired, table, seat.seat, state)

    def _idle_fired(self, table: Table, seat: int, state: int) -> None:
        self.timers.pop(table.id, None)
        table.pending = self.spawn(self._idle(table, seat, state))

    async def _bot_move(self, table: Table, seat: int, bot: str, state: int, by: str) -> None:
        game = table.game
        if game is None:
            return
        if self.delay:
            await asyncio.sleep(self.delay)
        view = observe(game, seat)
        try:
            if by == "bot" and bot in self.external:
                got = await self._external_move(table, seat, bot, game, view)
                if got is None:  # the seat was closed meanwhile (the server stops)
                    return
                choice = got
            else:
                seed = derive_seed(table.row.seed, "bot", state)
                choice = await self.pool.decide(bot, seed, view)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s failed at table %s; playing its first legal action", bot,
                          table.id)
            choice = view.legal[0]
        try:
            await self.master.act(table, seat, str(choice), state, by)
        except Refused as e:
            if e.code == "server_error":  # try again a little later
                await asyncio.sleep(0.5)
                self.kick(table)
            elif e.code not in ("stale", "over"):
                log.error("bot %s at table %s refused: %s", bot, table.id, e.message)

    async def _idle(self, table: Table, seat: int, state: int) -> None:
        async with table.lock:
            if table.game is None or len(table.game.actions) != state:
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
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        for task in list(self.background):
            task.cancel()
        await self.stop_external(tables)
