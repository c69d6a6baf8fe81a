"""Health, readiness and Prometheus metrics: ``/api/health``, ``/api/ready``, ``/metrics``.

``/api/health`` (in :mod:`~toepen.server.http.routes`) says the process answers;
``/api/ready`` that it can serve: its database answers and, in a cluster, its Redis.
``/metrics`` is the Prometheus text format (``prometheus_client``): tables by status,
connections, actions, commit latency, the bot queue, bot incidents (an answer the
fallback bot replaced, by kind: ``error``, ``illegal``, ``timeout``), and in a cluster
the leases this process holds and the messages it exchanged. No metric carries a card,
a name or a token.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import text

if TYPE_CHECKING:
    from ..cluster.core import Cluster
    from ..site.scoresheets import Sheets
    from ..tables.lobby import Lobby

router = APIRouter()


class Metrics:
    """One server's metrics, in a registry of its own (one per application)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.actions = Counter("toepen_actions", "Actions committed by this process.",
                               ["by"], registry=self.registry)
        self.commit = Histogram(
            "toepen_commit_seconds", "From handing an action to storage to its commit.",
            buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
            registry=self.registry)
        self.incidents = Counter(
            "toepen_bot_incidents", "Bot answers that could not be played and were the "
            "fallback bot's (toepen.match.ask), by kind.", ["kind"], registry=self.registry)
        self.lobby: Lobby | None = None
        self.cluster: Cluster | None = None
        """The cluster this process is part of (``--redis``), or None."""
        self.sheets: Sheets | None = None
        """The score sheets this process keeps in memory (once a sheet was asked for)."""
        self.registry.register(_LobbyCollector(self))

    def committed(self, seconds: float, by: str = "any") -> None:
        self.actions.labels(by).inc()
        self.commit.observe(seconds)

    def bot_incident(self, kind: str) -> None:
        self.incidents.labels(kind).inc()

    def text(self) -> bytes:
        return generate_latest(self.registry)


class _LobbyCollector(Collector):
    """Gauges read from the lobby when scraped."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Any]:
        lobby = self.metrics.lobby
        if lobby is None:
            return
        tables = GaugeMetricFamily("toepen_tables", "Tables in memory, by status.",
                                   labels=["status"])
        counts = {"lobby": 0, "playing": 0, "over": 0}
        clients = 0
        waiting = 0
        for t in list(lobby.tables.values()):
            counts[t.row.status] = counts.get(t.row.status, 0) + 1
            clients += len(t.clients)
            if t.pending is not None and not t.pending.done():
                waiting += 1
        for status, n in counts.items():
            tables.add_metric([status], n)
        yield tables
        yield GaugeMetricFamily("toepen_connections", "WebSockets open at this process.",
                                value=clients)
        yield CounterMetricFamily("toepen_tables_evicted",
                                  "Finished tables that left this process's memory (read "
                                  "again from the database when asked for).",
                                  value=lobby.evicted)
        yield GaugeMetricFamily("toepen_bot_queue",
                                "Tables whose bot or stand-in is thinking or waiting.",
                                value=waiting)
        sheets = self.metrics.sheets
        if sheets is not None:
            held = GaugeMetricFamily("toepen_sheet_entries",
                                     "Score sheets' entries in this process's memory, by kind.",
                                     labels=["kind"])
            for kind, n in (("cached", len(sheets.cache)), ("locks", len(sheets.locks)),
                            ("waits", len(sheets.changed)), ("makers", len(sheets.made))):
                held.add_metric([kind], n)
            yield held
        cluster = self.metrics.cluster
        if cluster is not None:
            yield GaugeMetricFamily("toepen_cluster_owned_tables",
                                    "Tables whose lease this process holds.",
                                    value=len(cluster.owned))
            yield GaugeMetricFamily("toepen_cluster_processes", "Live processes seen.",
                                    value=len(cluster.live))
            messages = CounterMetricFamily("toepen_cluster_messages",
                                           "Messages to and from the other processes.",
                                           labels=["direction"])
            messages.add_metric(["published"], cluster.published)
            messages.add_metric(["received"], cluster.received)
            yield messages
            yield CounterMetricFamily("toepen_cluster_takeovers",
                                      "Leases this process took.", value=cluster.takeovers)


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """The Prometheus text format."""
    m: Metrics = request.app.state.metrics
    return Response(m.text(), media_type="text/plain; version=0.0.4; charset=utf-8")


@router.get("/api/ready")
async def ready(request: Request) -> JSONResponse:
    """Readiness: 200 when the database (and in a cluster, Redis) answer, else 503
    naming what does not."""
    lobby: Lobby | None = getattr(request.app.state, "lobby", None)
    if lobby is None:
        return JSONResponse({"ready": False, "problem": "starting"}, status_code=503)
    problems = []

    def ping_db() -> None:
        with lobby.storage.store.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    try:
        await asyncio.wait_for(lobby.storage.run(ping_db), 5)
    except Exception as e:  # noqa: BLE001 - reported, not raised
        problems.append(f"database: {type(e).__name__}")
    metrics: Metrics | None = getattr(request.app.state, "metrics", None)
    cluster = metrics.cluster if metrics is not None else None
    if cluster is not None:
        try:
            await asyncio.wait_for(cluster.redis.ping(), 5)
        except Exception as e:  # noqa: BLE001
            problems.append(f"redis: {type(e).__name__}")
    body: dict[str, Any] = {"ready": not problems, "tables": len(lobby.tables)}
    if cluster is not None:
        body["cluster"] = cluster.stats()
    if problems:
        body["problem"] = "; ".join(problems)
    return JSONResponse(body, status_code=503 if problems else 200)
