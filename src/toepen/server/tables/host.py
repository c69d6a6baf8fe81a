"""This process's tables as the cluster sees them: the :class:`~.seam.Host` interface,
implemented over the lobby, its master and play again.

The cluster (:mod:`toepen.server.cluster`) gets a :class:`LobbyHost` at its start
(:mod:`toepen.server.app`) and asks the tables for nothing else: every call back from
another process's message (a relayed action, a seat taken elsewhere, a chat line, a
takeover's catch-up) goes through one of these methods.
"""

from __future__ import annotations

from typing import Any

from ..db.store import TableRow
from .lobby import Lobby
from .social import Social
from .table import Table


class LobbyHost:
    """:class:`~.seam.Host` over ``lobby``."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.master = lobby.master
        self.social = Social(lobby, lobby.limits)
        """Play again, for the offers held here (:meth:`offer`, :meth:`elsewhere_changed`)."""

    def table(self, table_id: str) -> Table | None:
        return self.lobby.tables.get(table_id)

    def tables(self) -> list[Table]:
        return list(self.lobby.tables.values())

    async def adopt(self, row: TableRow) -> None:
        await self.lobby.adopt(row)

    async def catch_up(self, table: Table, n: int, ver: int) -> None:
        await self.lobby.catch_up(table, n, ver)

    async def sync(self, table: Table, takeover: bool = False) -> None:
        await self.lobby.sync(table, takeover)

    async def seats_changed(self, table: Table, ver: int, row: TableRow) -> None:
        await self.lobby.remote_seats(table, ver, row)

    def flags_changed(self, table: Table, flags: list[Any]) -> None:
        for s, (standin, fallback, incident) in zip(table.seats, flags, strict=False):
            s.standin, s.fallback, s.incident = standin, fallback, incident
        self.master.broadcast_table(table, local=True)
        self.lobby.next(table)

    def elsewhere_changed(self, table: Table) -> None:
        self.master.broadcast_table(table, local=True)
        if table.offer is not None:
            self.social.left(table)  # the offer held here waits for whoever left

    def said(self, table: Table, text: str) -> None:
        table.keep_chat(text)
        self.master.broadcast(table, text, local=True)

    def tell_table(self, table: Table) -> None:
        self.master.broadcast_table(table, local=True)

    def deliver(self, table: Table, n: int, frames: dict[int | None, bytes],
                fresh: bool) -> bool:
        return table.deliver(n, frames, fresh)

    def game_over(self, table: Table, winner: Any) -> None:
        if table.row.status != "over":
            table.row.status = "over"
            table.row.winner = winner
            self.master.broadcast_table(table, local=True)

    def offer_shown(self, table: Table, offer: Any, by: str, rematch: Any) -> None:
        if table.offer is None:
            table.shown_offer, table.shown_by = offer, by
        if isinstance(rematch, str):
            table.rematch = rematch
        self.master.broadcast_table(table, local=True)

    def next(self, table: Table) -> None:
        self.lobby.next(table)

    def fresh_frames(self, table: Table, keys: set[int | None]) -> dict[int | None, bytes]:
        return self.master.fresh_frames(table, keys)

    async def act(self, table: Table, seat: int, text: str, state: int, by: str) -> None:
        await self.master.act(table, seat, text, state, by, relayed=True)

    async def offer(self, table: Table, seat: int | None, host: bool, preset: Any,
                    options: Any) -> str | None:
        return await self.social.relayed(table, seat, host, preset, options)

    async def stored_actions(self, table_id: str, since: int) -> list[tuple[int, str, str]]:
        return await self.lobby.storage.load_actions(table_id, since)

    async def take_lease(self, table_id: str) -> int:
        return await self.lobby.storage.take_lease(table_id)
