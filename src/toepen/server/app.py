"""The FastAPI application: HTTP endpoints, the WebSocket, static files.

:func:`create_app` builds the app for a configuration; the lifespan opens the storage
(applying migrations), rebuilds every table and starts the bot pool. See
``docs/protocol.md`` for the protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.responses import JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from ..rules import Rules
from . import extras
from .botpool import BotPool, available_bots, default_bot
from .external import ExternalBots
from .store import Store
from .tables import PROTOCOL, Client, Limits, Lobby, RateLimiter, Refused, Room, _dumps

log = logging.getLogger("toepen.server")
STATIC = Path(__file__).parent / "static"


@dataclass
class ServerConfig:
    """What ``toepen serve`` was asked for."""

    db: str | None = None
    bot_workers: int = 2
    bot_pool: str = "process"
    bot_delay: float = 0.0
    limits: Limits = field(default_factory=Limits)
    public_url: str | None = None
    ws_deflate: bool = False
    external_bots: dict[str, str] = field(default_factory=dict)
    """External bots the operator registered: name -> command (``--bot NAME=cmd:COMMAND``)."""
    bot_timeout: float | None = None
    """Seconds per decision for external bots (None: the ExternalBot default, 5 s)."""


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``."""

    preset: str = Field("rulebook", max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    size: int = Field(4, ge=2, le=16)
    bots: dict[int, str] = Field(default_factory=dict)
    name: str | None = Field(None, max_length=100)
    idle_seconds: float = 60.0
    autostart: bool = False


class JoinTable(BaseModel):
    """Body of ``POST /api/tables/{id}/join``."""

    name: str = Field(max_length=100)
    seat: int | None = None


class JoinCode(BaseModel):
    """Body of ``POST /api/join``."""

    code: str = Field(max_length=20)
    name: str = Field(max_length=100)


def _client_key(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The toepen server as an ASGI application."""
    cfg = config or ServerConfig()
    limits = cfg.limits
    external = ExternalBots(dict(cfg.external_bots), cfg.bot_timeout)  # checked now
    state: dict[str, Lobby] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store.open, cfg.db)
        pool = BotPool(cfg.bot_workers, cfg.bot_pool)
        pool.warm()
        lobby = Lobby(store, pool, limits, bot_delay=cfg.bot_delay, external=external)
        for name, command in external.commands.items():
            log.info("toepen server: external bot %s is cmd:%s", name, command)
        count = await lobby.load()
        log.info("toepen server: %d tables loaded from storage", count)
        state["lobby"] = lobby
        try:
            yield
        finally:
            await lobby.close()
            pool.close()
            store.close()

    app = FastAPI(title="toepen server", version=str(PROTOCOL), lifespan=lifespan,
                  description="Toepen tables over HTTP and WebSocket; see docs/protocol.md.")

    def lobby() -> Lobby:
        return state["lobby"]

    @app.exception_handler(Refused)
    async def refused(_request: Request, exc: Refused) -> JSONResponse:
        return JSONResponse({"detail": exc.message}, status_code=exc.status)

    app.add_middleware(BodyLimit, limit=limits.max_body)
    extras.register(app, lobby, lambda: lobby().bots)  # hint, replay, catalogs

    def joined(request: Request, room: Room, token: str, seat: int | None,
               host: bool) -> dict[str, Any]:
        base = cfg.public_url or str(request.base_url).rstrip("/")
        return {"table": room.info(), "seat": seat, "token": token, "host": host,
                "invite": f"{base}/join/{room.row.code}"}

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """Liveness."""
        return {"ok": True, "protocol": PROTOCOL}

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        """Presets, rule options and bots a table can have (the operator's external bots
        by name, after the built-in ones)."""
        bots = await asyncio.to_thread(available_bots)
        return {"presets": list(Rules.preset_names()), "options": list(Rules.option_names()),
                "bots": [*bots, *external.names()], "default_bot": default_bot()}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Create a table; the answer holds the host's token (keep it)."""
        room, token, seat = await lobby().create(
            preset=body.preset, options=body.options, size=body.size, bots=body.bots,
            name=body.name, idle_seconds=body.idle_seconds, autostart=body.autostart,
            creator=_client_key(request))
        return joined(request, room, token, seat, True)

    @app.get("/api/tables")
    async def list_tables(status: str | None = None) -> dict[str, Any]:
        """Tables, newest first (at most 200), optionally of one status."""
        if status not in (None, "lobby", "playing", "over"):
            raise Refused("bad_message", f"status: lobby, playing or over, not {status!r}")
        rooms = [r for r in lobby().rooms.values() if status is None or r.row.status == status]
        rooms.sort(key=lambda r: r.row.created, reverse=True)
        return {"tables": [r.info() for r in rooms[:200]]}

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> dict[str, Any]:
        """One table."""
        return lobby().get(table_id).info()

    @app.get("/api/codes/{code}")
    async def get_code(code: str) -> dict[str, Any]:
        """The table a code stands for."""
        return lobby().by_code(code).info()

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, body: JoinTable, request: Request) -> dict[str, Any]:
        """Take a seat; the answer holds the seat's token (keep it)."""
        room = lobby().get(table_id)
        token, seat = await lobby().join(room, body.name, body.seat)
        return joined(request, room, token, seat, False)

    @app.post("/api/join")
    async def join_code(body: JoinCode, request: Request) -> dict[str, Any]:
        """Take a seat at the table of a code."""
        room = lobby().by_code(body.code)
        token, seat = await lobby().join(room, body.name)
        return joined(request, room, token, seat, False)

    @app.post("/api/tables/{table_id}/start")
    async def start_table(table_id: str,
                          authorization: str | None = Header(None)) -> dict[str, Any]:
        """Start the game (host only: ``Authorization: Bearer TOKEN``)."""
        room = lobby().get(table_id)
        if not authorization or not authorization.startswith("Bearer "):
            raise Refused("auth", "Authorization: Bearer TOKEN (the host's) is needed", 401)
        _seat, host = lobby().who(room, authorization[7:].strip())
        if not host:
            raise Refused("forbidden", "only the host may start the game", 403)
        await lobby().start(room)
        return room.info()

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> JSONResponse:
        """The ``toepen-record/1`` of a finished game."""
        room = lobby().get(table_id)
        if room.row.status != "over" or room.game is None:
            raise Refused("bad_command", "the game is not over: its record would show hidden "
                          "cards", 409)
        rec = room.game.record(meta={"table": room.id, "server": "toepen serve"})
        return JSONResponse(rec, headers={
            "Content-Disposition": f'attachment; filename="toepen-{room.id}.json"'})

    @app.get("/join/{code}")
    async def invite(code: str) -> RedirectResponse:
        """The invite link: the browser client with the code to join."""
        room = lobby().by_code(code)
        return RedirectResponse(f"/?join={room.row.code}", status_code=307)

    @app.websocket("/ws/{table_id}")
    async def ws(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        room = lobby().rooms.get(table_id)
        if room is None:
            await websocket.close(4004, "no such table")
            return
        await Connection(lobby(), room, websocket, limits).run()

    if STATIC.is_dir():
        app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    return app


class BodyLimit:
    """Refuse HTTP bodies over ``limit`` bytes with 413 (a plain ASGI middleware)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == b"content-length" and (not value.isdigit()
                                                  or int(value) > self.limit):
                    response = JSONResponse(
                        {"detail": f"body larger than {self.limit} bytes"}, status_code=413)
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def _error(code: str, message: str, msg_id: Any = None) -> str:
    out: dict[str, Any] = {"v": PROTOCOL, "type": "error", "code": code, "message": message}
    if isinstance(msg_id, (str, int)) and not isinstance(msg_id, bool):
        out["id"] = msg_id
    return _dumps(out)


class Connection:
    """One WebSocket client: reads, checks and dispatches; a writer task sends."""

    def __init__(self, lobby: Lobby, room: Room, websocket: WebSocket, limits: Limits) -> None:
        self.lobby = lobby
        self.room = room
        self.ws = websocket
        self.limits = limits
        self.rate = RateLimiter(limits.messages_per_second)
        self.client: Client | None = None

    async def receive(self) -> str | None:
        """The next text frame (None when the socket closed)."""
        msg = await self.ws.receive()
        if msg["type"] == "websocket.disconnect":
            return None
        text = msg.get("text")
        if text is None:
            data = msg.get("bytes") or b""
            try:
                text = data.decode()
            except UnicodeDecodeError:
                return "\x00"  # not UTF-8: reported as bad JSON
        return str(text)

    def parse(self, text: str) -> dict[str, Any]:
        if len(text.encode()) > self.limits.max_message:
            raise Refused("too_large", f"message longer than {self.limits.max_message} bytes")
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            raise Refused("bad_json", "the message is not JSON") from None
        if not isinstance(msg, dict):
            raise Refused("bad_json", "the message must be a JSON object")
        if msg.get("v") != PROTOCOL:
            raise Refused("unsupported_version", f"v: this server speaks version {PROTOCOL}, "
                          f"not {msg.get('v')!r}")
        kind = msg.get("type")
        if kind not in ("hello", "act", "back", "leave", "host", "ping"):
            raise Refused("bad_message", f"type: unknown message type {kind!r}")
        return msg

    async def run(self) -> None:
        try:
            await self._hello()
        except WebSocketDisconnect:
            return
        if self.client is None:
            return
        writer = asyncio.get_running_loop().create_task(self._writer(self.client))
        try:
            await self._loop()
        except WebSocketDisconnect:
            pass
        finally:
            self.lobby.detach(self.room, self.client)
            self.client.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2.0)
            writer.cancel()

    async def _hello(self) -> None:
        try:
            text = await asyncio.wait_for(self.receive(), 30.0)
        except TimeoutError:
            await self.ws.close(4000, "no hello")
            return
        if text is None:
            return
        try:
            msg = self.parse(text)
        except Refused as e:
            await self.ws.send_text(_error(e.code, e.message))
            await self.ws.close(4000, "no hello")
            return
        if msg["type"] != "hello":
            await self.ws.send_text(_error("need_hello", "the first message must be hello"))
            await self.ws.close(4000, "no hello")
            return
        token = msg.get("token")
        seat: int | None = None
        host = False
        if token is not None:
            try:
                if not isinstance(token, str) or len(token) > 200:
                    raise Refused("auth", "token: must be the text the server gave")
                seat, host = self.lobby.who(self.room, token)
            except Refused as e:
                await self.ws.send_text(_error("auth", e.message))
                await self.ws.close(4001, "unknown token")
                return
        client = Client(seat, host, self.limits.send_queue)
        try:
            self.lobby.attach(self.room, client)
        except Refused as e:
            await self.ws.send_text(_error(e.code if e.code != "limit" else "forbidden", e.message))
            await self.ws.close(4029, "too many spectators")
            return
        self.client = client
        if seat is not None:
            await self.lobby.back(self.room, seat)

    async def _writer(self, client: Client) -> None:
        try:
            while True:
                text = await client.queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
        except Exception:  # the socket is gone: the reader ends too
            pass
        with contextlib.suppress(Exception):
            await self.ws.close()

    async def _loop(self) -> None:
        client = self.client
        assert client is not None
        while not client.dropped:
            text = await self.receive()
            if text is None:
                return
            msg_id: Any = None
            try:
                if not self.rate.allow():
                    raise Refused("rate_limited", f"more than {self.limits.messages_per_second} "
                                  "messages in one second; this one was dropped")
                msg = self.parse(text)
                msg_id = msg.get("id")
                await self._dispatch(client, msg)
            except Refused as e:
                client.send(_error(e.code, e.message, msg_id))

    async def _dispatch(self, client: Client, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        room = self.room
        if kind == "ping":
            out: dict[str, Any] = {"v": PROTOCOL, "type": "pong"}
            if isinstance(msg.get("id"), (str, int)) and not isinstance(msg.get("id"), bool):
                out["id"] = msg["id"]
            client.send(_dumps(out))
        elif kind == "hello":
            raise Refused("bad_message", "hello: only as the first message")
        elif kind == "act":
            if client.seat is None:
                raise Refused("forbidden", "you have no seat at this table (a spectator)")
            if "action" not in msg or "state" not in msg:
                raise Refused("bad_message", "act: needs 'action' and 'state'")
            await self.lobby.back(room, client.seat)
            await self.lobby.act(room, client.seat, msg["action"], msg["state"], "player")
        elif kind == "back":
            if client.seat is None:
                raise Refused("forbidden", "you have no seat at this table (a spectator)")
            await self.lobby.back(room, client.seat)
        elif kind == "leave":
            if client.seat is None:
                raise Refused("forbidden", "you have no seat at this table (a spectator)")
            if room.row.status != "lobby":
                raise Refused("bad_command", "the game has started: your seat stays yours")
            await self.lobby.leave(room, client.seat)
            client.close()
        elif kind == "host":
            if not client.host:
                raise Refused("forbidden", "only the host may do that")
            command = msg.get("command")
            if not isinstance(command, str):
                raise Refused("bad_message", "command: start, add_bot, remove_bot or remove_seat")
            await self.lobby.host_command(room, command, msg.get("seat"), msg.get("bot"))
