"""What the table master and the lobby need of a server's optional parts: the cluster
(``--redis``, :mod:`~toepen.server.cluster.core`) and the metrics
(:mod:`~toepen.server.http.metrics`), as typing protocols.

The master and the lobby depend on these, not on the modules that implement them, so
that those modules may read the lobby without an import cycle (tests/test_layering.py).
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from .table import Table


class Hold:
    """The table's lock while a change is made; what to publish when it is let go."""

    def __init__(self, table: Table, token: str, n: int, ver: int) -> None:
        self.table = table
        self.token = token
        self.n = n
        self.ver = ver
        self.message: dict[str, Any] | None = None


class ClusterPort(Protocol):
    """The cluster as the master and the lobby use it
    (:class:`~toepen.server.cluster.core.Cluster`)."""

    def hold(self, table: Table) -> AbstractAsyncContextManager[Hold]: ...

    def seats_message(self, table: Table) -> dict[str, Any]: ...

    def presence(self, table: Table) -> None: ...

    def flags(self, table: Table) -> None: ...

    def raw(self, table: Table, text: str) -> None: ...

    def created(self, table: Table) -> None: ...

    def claim_soon(self, table: Table) -> None: ...

    def owns(self, table_id: str) -> bool: ...

    def holds(self, table_id: str) -> bool: ...

    def fence(self, table_id: str) -> int | None: ...

    def fenced(self, table: Table, epoch: int | None) -> None: ...

    def evicted(self, table_id: str) -> None:
        """A finished table left this process's memory: its lease, if held, let go."""

    async def relay(self, table: Table, seat: int, text: str, state: int, by: str) -> bool:
        """Send an action to the table's owner; False if this process took the lease."""

    async def offer(self, table: Table, seat: int | None, host: bool, preset: Any,
                    options: Any) -> dict[str, Any] | None:
        """Send a ``rematch`` request to the table's lease holder, which holds the offer;
        its answer (``rematch``: the next table's id once made), or None when this
        process is to take it (no other holder)."""

    def offered(self, table: Table) -> None:
        """Tell the other processes' clients the offer and the next table's id here."""

    async def once(self, key: str, value: str) -> str:
        """``value`` if this is the first call of ``key`` in the cluster, else the value
        the first call gave."""

    def frames(self, table: Table, n: int, by_proc: dict[str, dict[int | None, str | bytes]],
               fresh: bool = False) -> None: ...


class MetricsPort(Protocol):
    """The metrics as the master uses them (:class:`~toepen.server.http.metrics.Metrics`)."""

    def committed(self, seconds: float, by: str = "any") -> None: ...

    def bot_incident(self, kind: str) -> None:
        """Count a bot answer that the fallback replaced (:class:`toepen.match.Incident`)."""
