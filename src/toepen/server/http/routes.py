"""The HTTP endpoints around a game: tables, seats, presets, records, invite links.

The handlers only read the request, ask the lobby, and answer; every check is the
lobby's (or the rules'), so the same input gets the same answer wherever it comes from.
The running server's lobby and configuration are on ``app.state`` (see
:func:`toepen.server.app.create_app`).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import JSONResponse, RedirectResponse
from pydantic import BaseModel, Field

from ...record import to_record
from ..protocol import PROTOCOL, SMALL, Refused
from ..site.accounts import routes as accounts
from ..site.accounts.limits import client_key
from ..tables.botpool import available_bots, available_levels, default_bot
from ..tables.lobby import Lobby
from ..tables.presets import presets_json
from ..tables.table import Table

router = APIRouter()


def lobby_of(request: Request) -> Lobby:
    """The running server's lobby."""
    lobby: Lobby = request.app.state.lobby
    return lobby


LobbyDep = Annotated[Lobby, Depends(lobby_of)]
Authorization = Annotated[str | None, Header()]


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``. Sizes and names are checked by the rules and the
    server's limits (one home for each), not here."""

    preset: str = Field("rulebook", max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    size: int = Field(4, ge=0, le=SMALL)
    bots: dict[Annotated[int, Field(ge=0, le=SMALL)], str] = Field(default_factory=dict)
    name: str | None = None
    idle_seconds: float = 60.0
    autostart: bool = False
    request: str | None = Field(None, min_length=8, max_length=64)
    """The client's id of this creation: sent again, it gets the same table (idempotent)."""
    rated: bool = False
    """The game counts for ratings: only logged-in players and bots sit (docs/accounts.md)."""


class JoinTable(BaseModel):
    """Body of ``POST /api/tables/{id}/join``."""

    name: str
    seat: int | None = Field(None, ge=0, le=SMALL)


class JoinCode(BaseModel):
    """Body of ``POST /api/join``."""

    code: str = Field(max_length=20)
    name: str


def joined(request: Request, table: Table, token: str, seat: int | None,
           host: bool) -> dict[str, Any]:
    """The protocol's ``Joined``."""
    base = request.app.state.config.public_url or str(request.base_url).rstrip("/")
    return {"table": table.info(), "seat": seat, "token": token, "host": host,
            "invite": f"{base}/join/{table.row.code}"}


@router.get("/api/health")
async def health() -> dict[str, Any]:
    """Liveness."""
    return {"ok": True, "protocol": PROTOCOL}


@router.get("/api/presets")
async def presets(lobby: LobbyDep) -> dict[str, Any]:
    """Presets, rule options and bots a table can have (the operator's external bots by
    name, after the built-in ones), the levels people pick bots by (``{"name", "bot"}``,
    weakest first: what the lobby offers, with the operator's programs, ``external``), and
    the server's display-name limit."""
    bots = await asyncio.to_thread(available_bots)
    return {**presets_json(), "name_length": lobby.limits.name_length,
            "bots": [*bots, *lobby.bots.external.names()], "default_bot": default_bot(),
            "levels": available_levels(), "external": lobby.bots.external.names()}


@router.post("/api/tables", status_code=201)
async def create_table(body: CreateTable, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """Create a table; the answer holds the host's token (keep it). A logged-in host
    sits under the account's name."""
    user = await accounts.player(request)
    accounts.check_rated(body.rated, user)
    table, token, seat = await lobby.create(
        preset=body.preset, options=body.options, size=body.size, bots=body.bots,
        name=user.name if user and body.name is not None else body.name,
        idle_seconds=body.idle_seconds, autostart=body.autostart,
        creator=client_key(request), request=body.request, rated=body.rated)
    await accounts.created(request, table, seat, user)
    return joined(request, table, token, seat, True)


@router.get("/api/tables")
async def list_tables(lobby: LobbyDep, status: str | None = None) -> dict[str, Any]:
    """Tables, newest first (at most 200), optionally of one status."""
    return {"tables": [t.info() for t in lobby.listed(status)]}


@router.get("/api/tables/{table_id}")
async def get_table(table_id: str, lobby: LobbyDep) -> dict[str, Any]:
    """One table."""
    table = await lobby.find(table_id)
    await lobby.fresh_copy(table)
    return table.info()


@router.get("/api/codes/{code}")
async def get_code(code: str, lobby: LobbyDep) -> dict[str, Any]:
    """The table a code stands for."""
    return (await lobby.find_code(code)).info()


@router.post("/api/tables/{table_id}/join")
async def join_table(table_id: str, body: JoinTable, request: Request,
                     lobby: LobbyDep) -> dict[str, Any]:
    """Take a seat; the answer holds the seat's token (keep it)."""
    table = await lobby.find(table_id)
    user = await accounts.joining(request, table)
    token, seat = await lobby.join(table, user.name if user else body.name, body.seat)
    await accounts.created(request, table, seat, user)
    return joined(request, table, token, seat, False)


@router.post("/api/join")
async def join_code(body: JoinCode, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    """Take a seat at the table of a code."""
    table = await lobby.find_code(body.code)
    user = await accounts.joining(request, table)
    token, seat = await lobby.join(table, user.name if user else body.name)
    await accounts.created(request, table, seat, user)
    return joined(request, table, token, seat, False)


@router.post("/api/tables/{table_id}/start")
async def start_table(table_id: str, lobby: LobbyDep,
                      authorization: Authorization = None) -> dict[str, Any]:
    """Start the game (host only: ``Authorization: Bearer TOKEN``)."""
    table = await lobby.find(table_id)
    _seat, host = lobby.bearer(table, authorization, "the host's")
    if not host:
        raise Refused("forbidden", "only the host may start the game", 403)
    await lobby.start(table)
    return table.info()


@router.get("/api/tables/{table_id}/record")
async def record(table_id: str, lobby: LobbyDep) -> JSONResponse:
    """The ``toepen-record/1`` of a finished game."""
    table = await lobby.find(table_id)
    await lobby.fresh_copy(table)
    if table.row.status != "over" or table.game is None:
        raise Refused("bad_command", "the game is not over: its record would show hidden "
                      "cards", 409)
    bots = [s.bot if s.kind == "bot" else None for s in table.seats]
    rec = to_record(table.game, meta={"table": table.id, "server": "toepen serve",
                                      "bots": bots})
    return JSONResponse(rec, headers={
        "Content-Disposition": f'attachment; filename="toepen-{table.id}.json"'})


@router.get("/join/{code}")
async def invite(code: str, lobby: LobbyDep) -> RedirectResponse:
    """The invite link: the browser client with the code to join. A code of no table
    (mistyped, or its game gone) goes to the same page, which says so in the reader's
    language with the way back to the lobby (never a JSON error in a browser)."""
    try:
        code = (await lobby.find_code(code)).row.code
    except Refused:
        code = code.strip().upper()[:20]
    return RedirectResponse(f"/?join={quote(code, safe='')}", status_code=307)
