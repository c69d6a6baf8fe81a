"""The FastAPI application: the HTTP endpoints, the WebSocket and the static files.

:func:`create_app` builds the app for a configuration; its lifespan opens the storage
(applying migrations), starts the bot pool and rebuilds every table into the lobby
(``app.state.lobby``). The endpoints are in :mod:`~toepen.server.http.routes`,
:mod:`~toepen.server.http.extras` and :mod:`~toepen.server.socket.connection`; the protocol is
``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from .config import ServerConfig
from .db.store import Store
from .http import extras, metrics, pwa, replays, review_jobs, routes
from .http.guard import RequestGuard, validation_error
from .http.metrics import Metrics
from .protocol import PROTOCOL, Refused
from .site import accounts, clubs, playnow, presence, scoresheets
from .socket import connection
from .tables.botpool import BotPool
from .tables.external_bots import ExternalBots
from .tables.host import LobbyHost
from .tables.lobby import Lobby
from .tables.seam import LocalSeam, Seam

log = logging.getLogger("toepen.server")
STATIC = Path(__file__).parent / "static"


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the storage and the bot pool, rebuild the tables; at the end close it all."""
    cfg: ServerConfig = app.state.config
    store = await asyncio.to_thread(Store.open, cfg.db)
    pool = BotPool(cfg.bot_workers, cfg.bot_pool)
    pool.warm()
    # where the tables live, chosen once: this process alone, or a cluster (the master,
    # the lobby and the scheduler call the seam either way: tables/seam.py)
    seam: Seam = LocalSeam()
    cluster = None
    if cfg.redis:  # the Redis client is imported only for a cluster
        from .cluster.core import Cluster
        from .cluster.seam import ClusterSeam

        cluster = Cluster(cfg.redis)
        await cluster.connect()
        seam = ClusterSeam(cluster)
    lobby = Lobby(store, pool, cfg.limits, bot_delay=cfg.bot_delay, external=app.state.external,
                  seam=seam)
    for name, command in app.state.external.commands.items():
        log.info("toepen server: external bot %s is cmd:%s", name, command)
    if cluster is not None:
        app.state.metrics.cluster = cluster
        await cluster.start(LobbyHost(lobby))  # the one door back into the tables
    app.state.metrics.lobby = lobby
    lobby.master.metrics = app.state.metrics
    count = await lobby.load()
    log.info("toepen server: %d tables loaded from storage", count)
    if cluster is not None:
        cluster.run_leases()
        log.info("toepen server: in the cluster of %s as %s", cfg.redis, cluster.proc)
    app.state.lobby = lobby
    await accounts.start(app, lobby)
    await playnow.start(app, lobby)
    await presence.start(app, lobby)
    if cfg.own_process:
        tune_collector()
    try:
        yield
    finally:
        await presence.stop(app)
        await playnow.stop(app)
        await accounts.stop(app)
        if cluster is not None:
            await cluster.close()
        await lobby.close()
        pool.close()


GC_YOUNG = 10_000
"""Allocations between two passes of the garbage collector over its youngest objects
(Python's default is 700): a game's action makes a few hundred short-lived objects, and
with the default a pass ran every few actions; see ``docs/server.md``."""
GC_MIDDLE = 2
"""Young passes between two passes over the middle generation (Python's default is 10).
With 10 the middle generation holds up to ten young passes' survivors, nearly all still
alive (a game's history outlives the young passes), and its pass was one stall of 19 to
32 ms of CPU at 100 tables (57 ms in a process of a busy cluster); at 2, passes of 6 to
10 ms, about the same work in all. Measured in ``docs/server.md`` (the collector, under
"CPU per action, before and after")."""


def tune_collector() -> None:
    """What start-up made lives as long as the server: out of the collector's sight
    (``gc.freeze``, as Python's documentation advises for a server once started), so
    that its full passes look only at newer objects; its young passes less often, its middle
    ones more often and so shorter."""
    gc.collect()
    gc.freeze()
    old = gc.get_threshold()[2]
    gc.set_threshold(GC_YOUNG, GC_MIDDLE, old)


async def refused(_request: Request, exc: Exception) -> JSONResponse:
    """A refusal over HTTP: ``{"detail": message}`` with its status."""
    assert isinstance(exc, Refused)
    headers = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
    return JSONResponse({"detail": exc.message, "code": exc.code, "say": exc.say_json()},
                        status_code=exc.status, headers=headers)


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The toepen server as an ASGI application."""
    cfg = config or ServerConfig()
    app = FastAPI(title="toepen server", version=str(PROTOCOL), lifespan=lifespan,
                  description="Toepen tables over HTTP and WebSocket; see docs/protocol.md.")
    app.state.config = cfg
    app.state.metrics = Metrics()
    app.state.replays = replays.Replays()
    app.state.external = ExternalBots(dict(cfg.external_bots), cfg.bot_timeout)  # checked now
    app.add_exception_handler(Refused, refused)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_middleware(RequestGuard, limit=cfg.limits.max_body)
    for module in (routes, extras, replays, review_jobs, connection, metrics, playnow, presence):
        app.include_router(module.router)
    accounts.install(app)
    clubs.install(app)
    scoresheets.install(app)
    app.include_router(pwa.router)
    if STATIC.is_dir():
        app.state.shell = pwa.Shell(STATIC)  # the service worker's shell, hashed once
        app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    return app

