"""The accounts of a running server: :class:`Accounts` ties the account store to the
lobby (seats of accounts, rated tables, results and ratings at every game's end).

Other parts of the server (clubs, tallies) use :meth:`Accounts.get_user` /
:meth:`Accounts.user` and :func:`accounts_of`; see ``docs/accounts.md``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import FastAPI

from ...protocol import Refused
from ...tables.lobby import Lobby
from ...tables.master import past
from ...tables.table import Table
from .limits import MemoryWindow, RedisWindow, Window
from .results import seat_results
from .service import AccountStore, SeatEntry, User

log = logging.getLogger("toepen.server")
T = TypeVar("T")


class Accounts:
    """Accounts, ratings and results of one server (``app.state.accounts``)."""

    def __init__(self, lobby: Lobby, redis: Any = None) -> None:
        self.lobby = lobby
        self.db = AccountStore(lobby.storage.store.engine)
        self.redis = redis
        """The cluster's Redis client (``--redis``), which keeps the limits, or None."""

        def window(name: str, most: int, seconds: float) -> Window:
            if redis is None:
                return MemoryWindow(most, seconds)
            return RedisWindow(redis, name, most, seconds)

        self.failed_names = window("login-name", 5, 300.0)
        """Failed logins per user name: 5 in 5 minutes."""
        self.failed_addresses = window("login-address", 20, 300.0)
        """Failed logins per client address: 20 in 5 minutes."""
        self.failed_passwords = window("password", 5, 300.0)
        """Wrong passwords of a logged-in account (changing the password, deleting the
        account): 5 in 5 minutes."""
        self.registrations = window("register", 30, 3600.0)
        """New accounts per client address: 30 an hour."""
        self._background: set[asyncio.Task[None]] = set()
        self.ready = asyncio.Event()
        """Set once the loaded tables are marked (a game that ends before waits for it)."""
        lobby.master.on_over.append(self.game_over)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """A store call in the storage thread (failure: Refused ``server_error``)."""
        return await self.lobby.storage.run(fn, *args)

    # -- the API for the rest of the server ---------------------------------------------

    def get_user(self, name: str) -> User | None:
        """The account of a name (a person or a bot), letter case ignored, or None.
        Synchronous: call it from a thread (``asyncio.to_thread``) or use :meth:`user`."""
        return self.db.user(name)

    async def user(self, name: str) -> User | None:
        """:meth:`get_user` in the storage thread."""
        return await self.run(self.db.user, name)

    def bot_names(self) -> tuple[str, ...]:
        """The operator's external bots (nobody may register their names)."""
        return tuple(self.lobby.bots.external.names())

    # -- start-up ----------------------------------------------------------------------

    async def attach(self) -> None:
        """Mark the loaded tables: rated ones, seats of accounts (and each table read
        from storage later: :meth:`mark`); record games that ended but were not recorded
        (a crash in between, or before accounts existed)."""
        rated = await self.run(self.db.rated_tables)
        seats = await self.run(self.db.seat_accounts)
        recorded = await self.run(self.db.recorded_tables)
        for table in self.lobby.tables.values():
            self._marked(table, rated, seats)
        self.lobby.on_adopt.append(self.mark)
        self.ready.set()
        # finished tables are not in memory (the lobby reads them when asked for)
        missing = [t for t in await self.lobby.storage.finished_ids() if t not in recorded]
        if missing:
            task = asyncio.get_running_loop().create_task(self._record_all(missing))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    @staticmethod
    def _marked(table: Table, rated: set[str], seats: dict[tuple[str, int], str]) -> None:
        table.rated = table.id in rated
        for s in table.seats:
            s.account = seats.get((table.id, s.seat)) if s.kind == "human" else None

    async def mark(self, table: Table) -> None:
        """Mark a table read from storage after start-up (the lobby's ``on_adopt``)."""
        rated = await self.run(self.db.rated_tables, table.id)
        seats = await self.run(self.db.seat_accounts, table.id)
        self._marked(table, rated, seats)

    async def _record_all(self, table_ids: list[str]) -> None:
        for table_id in table_ids:
            try:
                table = await self.lobby.find(table_id)
            except Refused:
                continue
            if table.game is not None:
                await self.game_over(table)

    # -- tables ------------------------------------------------------------------------

    async def created(self, table: Table, seat: int | None, user: User | None) -> None:
        """A table was made (or joined): keep its rated flag and the seat's account."""
        if table.rated:
            await self.run(self.db.set_rated, table.id)
        if user is not None and seat is not None:
            await self.seated(table, seat, user)
        elif seat is not None:
            await self.run(self.db.unlink_seat, table.id, seat)  # a guest took it

    async def seated(self, table: Table, seat: int, user: User, claimed: bool = False) -> None:
        """``user`` plays ``seat`` (logged in, or claiming it afterwards)."""
        await self.run(self.db.link_seat, table.id, seat, user.id, claimed)
        table.seats[seat].account = user.name
        self.lobby.master.broadcast_table(table)

    def check_seat_free(self, table: Table, user: User) -> None:
        if any(s.account == user.name for s in table.seats):
            raise Refused("bad_command", f"{user.name} already plays at this table", 409)

    async def game_over(self, table: Table) -> None:
        """Record a finished game's result per seat; a rated game moves the ratings."""
        await self.ready.wait()
        game = table.game
        if game is None or not game.is_over:
            return
        results = seat_results(game, past(table))  # the kept events: no replay
        entries = [SeatEntry(r, table.seats[r.seat].kind == "human") for r in results]
        bots = {s.seat: s.bot for s in table.seats if s.kind == "bot" and s.bot}
        await self.run(self.db.record, table.id, table.row.preset, table.row.size,
                       table.rated, entries, bots)

    # -- deleting an account -------------------------------------------------------------

    async def delete(self, user: User) -> int:
        """Delete ``user``: its games stay, its seats renamed (in storage and in memory;
        a game is rebuilt under its new names). How many seats were renamed."""
        anon, seats = await self.run(self.db.delete, user.id)
        for table_id, seat in seats:
            table = self.lobby.tables.get(table_id)
            if table is None:
                continue
            async with table.lock:
                s = table.seats[seat]
                s.name = anon
                s.account = None
                if table.row.players and seat < len(table.row.players):
                    table.row.players[seat] = anon
                if table.game is not None:
                    game = table.new_game()
                    for who, act in table.game.actions:
                        game.apply(who, act)
                    table.game = game
            self.lobby.master.broadcast_table(table)
        return len(seats)


def accounts_of(app: FastAPI) -> Accounts:
    """The running server's accounts."""
    accounts: Accounts = app.state.accounts
    return accounts
