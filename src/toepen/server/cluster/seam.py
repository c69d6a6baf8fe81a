"""The cluster behind the tables' seam: :class:`~toepen.server.tables.seam.Seam` for a
process of a cluster (``--redis``), over :class:`~toepen.server.cluster.core.Cluster`.

The master, the lobby, the scheduler and play again call this as they call the lone
process's :class:`~toepen.server.tables.seam.LocalSeam`; each method says what it means for
the table and hands the Redis work to the cluster (its leases, its lock, its channels).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from ..tables.seam import Frames, seating
from ..tables.table import Table
from .core import Cluster


class ClusterSeam:
    """Where the tables live in a cluster: the lease holder of a table applies its
    actions; the others relay to it and hear from it."""

    shared = True

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    @contextlib.asynccontextmanager
    async def hold(self, table: Table) -> AsyncIterator[None]:
        """The table's lock across the processes (:meth:`Cluster.hold`: the table read
        again from the database first); a change of its seats or status made meanwhile
        raises its seat version and is published with the lock's release."""
        async with self.cluster.hold(table) as held:
            before = seating(table)
            yield
            if held.message is None and seating(table) != before:
                table.version += 1
                held.message = self.cluster.seats_message(table)

    def owns(self, table_id: str) -> bool:
        return self.cluster.owns(table_id)

    def holds(self, table_id: str) -> bool:
        return self.cluster.holds(table_id)

    def fence(self, table_id: str) -> int | None:
        return self.cluster.fence(table_id)

    def fenced(self, table: Table, epoch: int | None) -> None:
        self.cluster.fenced(table, epoch)

    async def relay(self, table: Table, seat: int, text: str, state: int, by: str) -> bool:
        return await self.cluster.relay(table, seat, text, state, by)

    async def relay_offer(self, table: Table, seat: int | None, host: bool, preset: Any,
                          options: Any) -> dict[str, Any] | None:
        return await self.cluster.offer(table, seat, host, preset, options)

    def elsewhere(self, table: Table) -> dict[str, set[int | None]]:
        return table.receivers() if self.cluster.holds(table.id) else {}

    def publish_frames(self, table: Table, n: int, by_proc: dict[str, Frames],
                       fresh: bool = False) -> None:
        self.cluster.frames(table, n, by_proc, fresh)

    def publish_text(self, table: Table, text: str) -> None:
        self.cluster.raw(table, text)

    def publish_presence(self, table: Table) -> None:
        self.cluster.presence(table)

    def publish_flags(self, table: Table) -> None:
        self.cluster.flags(table)

    def publish_offer(self, table: Table) -> None:
        self.cluster.offered(table)

    def created(self, table: Table) -> None:
        self.cluster.created(table)

    def claim_soon(self, table: Table) -> None:
        self.cluster.claim_soon(table)

    def evicted(self, table_id: str) -> None:
        self.cluster.evicted(table_id)

    async def once(self, key: str, value: str) -> str:
        return await self.cluster.once(key, value)
