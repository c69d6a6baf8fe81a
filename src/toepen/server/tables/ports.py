"""What the table master needs of the server's metrics
(:mod:`~toepen.server.http.metrics`), as a typing protocol.

The master depends on this, not on the module that implements it, so that the metrics may
read the lobby without an import cycle (tests/test_layering.py). Where the tables live (one
process, or a cluster) is the other interface the tables use: :mod:`.seam`.
"""

from __future__ import annotations

from typing import Protocol


class MetricsPort(Protocol):
    """The metrics as the master uses them (:class:`~toepen.server.http.metrics.Metrics`)."""

    def committed(self, seconds: float, by: str = "any") -> None: ...

    def bot_incident(self, kind: str) -> None:
        """Count a bot answer that the fallback replaced (:class:`toepen.match.Incident`)."""
