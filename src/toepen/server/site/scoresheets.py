"""Score sheets for real cards over HTTP (``docs/tally.md``): one phone keeps the sheet,
everyone else follows it by its link.

A sheet is a :class:`toepen.tally.Sheet` kept as its record (migration ``t1_sheets``):
``POST /api/sheets`` makes one and hands out its keeper's key once (the server keeps only
its hash); entries and undo need ``Authorization: Bearer KEY``; reading is open to anyone
with the link, and ``GET /api/sheets/{id}?after=VERSION`` waits (long poll) until the sheet
has changed, so followers see every entry at once. Every state carries the log in
narration's messages and what may be entered next: the page holds no rule.

For other parts of the server (a tournament's real-card tables), the same in Python:
:func:`create_sheet`, :func:`load_sheet` and :func:`sheet_result` run in the storage
thread (``await storage.run(create_sheet, engine, sheet)``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import DateTime, Integer, String, Text, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Mapped, Session, mapped_column

from ...narration import Message, describe
from ...record import dumps
from ...rules import Rules, RulesError
from ...tally import IllegalEntry, Sheet, english
from ...tally import refusal_message as sheet_refusal_message
from ..db.store import Base
from ..protocol import MAX_INT, SMALL, Refused, check_name
from ..tables.table import token_hash

__all__ = [
    "SheetModel", "SheetRefused", "create_sheet", "install", "load_sheet", "router",
    "save_sheet", "sheet_result", "sheet_state",
]

router = APIRouter()


class SheetRefused(Refused):
    """A sheet's refusal: ``{"detail": English, "code", "say": {id, params}}``, and for
    an entry the rules forbid ``"refusal": {code, params}``."""

    def __init__(self, code: str, message: str, status: int = 400, *,
                 refusal: dict[str, Any] | None = None, say: Message) -> None:
        super().__init__(code, message, status, refusal)
        self.sheet_say = say

    def say_json(self) -> dict[str, Any]:
        return self.sheet_say.to_json()


async def refused(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, SheetRefused)
    body: dict[str, Any] = {"detail": exc.message, "code": exc.code, "say": exc.say_json()}
    if exc.refusal is not None:
        body["refusal"] = exc.refusal
    return JSONResponse(body, status_code=exc.status)


def install(app: FastAPI) -> None:
    """The sheets' endpoints and their refusals' shape."""
    app.add_exception_handler(SheetRefused, refused)
    app.include_router(router)


Authorization = Annotated[str | None, Header()]
CACHE_SIZE = 2000
"""Sheets kept in memory; the least recently read is forgotten (it stays on disk)."""
WAIT_LIMIT = 30.0
"""The longest a follower's read waits for a change (seconds)."""
NAME_LENGTH = 24


class SheetModel(Base):
    __tablename__ = "toepen_sheets"
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer)
    """The sheet's revision: 0 when made, one more at every change (an entry or an undo);
    a change must name the revision it saw."""
    record: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# -- storage: one transaction each, in the storage thread -------------------------------


def create_sheet(engine: Engine, sheet: Sheet) -> tuple[str, str]:
    """Store a new sheet; return its id and its keeper's key (not kept: only its hash)."""
    sheet_id, key = secrets.token_hex(6), secrets.token_urlsafe(24)
    now = datetime.now(UTC)
    with Session(engine) as s, s.begin():
        s.add(SheetModel(id=sheet_id, key_hash=token_hash(key), version=0,
                         record=json.dumps(sheet.to_record(), ensure_ascii=False),
                         created=now, updated=now))
    return sheet_id, key


def load_sheet(engine: Engine, sheet_id: str) -> tuple[Sheet, str] | None:
    """The stored sheet and its key's hash, or None if there is no such sheet."""
    found = load_revision(engine, sheet_id)
    return None if found is None else (found[0], found[1])


def load_revision(engine: Engine, sheet_id: str) -> tuple[Sheet, str, int] | None:
    """The stored sheet, its key's hash and its revision, or None."""
    with Session(engine) as s:
        row = s.get(SheetModel, sheet_id)
        if row is None:
            return None
        return Sheet.from_record(json.loads(row.record)), row.key_hash, row.version


def save_sheet(engine: Engine, sheet_id: str, sheet: Sheet, version: int) -> bool:
    """Store the sheet if the stored one is still at revision ``version`` (it goes to
    ``version + 1``); False if it was not."""
    with Session(engine) as s, s.begin():
        done = s.execute(
            update(SheetModel)
            .where(SheetModel.id == sheet_id, SheetModel.version == version)
            .values(record=json.dumps(sheet.to_record(), ensure_ascii=False),
                    version=version + 1, updated=datetime.now(UTC))
        )
        return bool(getattr(done, "rowcount", 0))


def sheet_result(sheet: Sheet) -> dict[str, Any]:
    """What a sheet came to: over or not, the winner and the places (for standings)."""
    return {
        "over": sheet.is_over,
        "winner": sheet.winner,
        "hands": sheet.hand_no if not sheet.is_over else sheet.hands_played,
        "lives": sheet.lives,
        "eliminated": sheet.eliminated,
        "drinks": sheet.drinks,
        "rubbers_won": sheet.rubbers_won,
        "toepkoning": sheet.toepkoning,
        "standings": [asdict(s) for s in sheet.standings()],
    }


def sheet_state(sheet_id: str, sheet: Sheet, version: int = 0) -> dict[str, Any]:
    """A sheet as every client gets it at revision ``version``: its state, its log (each
    event's ``say``)."""
    log = []
    for entry_no, event in sheet.events():
        say = describe(event, None)
        if say is not None:
            log.append({"entry": entry_no, "kind": event.kind.value, "say": say.to_json()})
    return {"id": sheet_id, "version": version, "sheet": sheet.to_json(),
            "log": log, "result": sheet_result(sheet)}


# -- the running server's sheets ---------------------------------------------------------


class Sheets:
    """Sheets in memory (by id, with their version), a lock and a change signal each.

    Nothing here grows with requests for sheets that do not exist: an id is looked up
    (and refused) before it gets a lock or a signal, and a lock or signal is dropped as
    soon as no request holds or waits on it. The cache holds at most ``CACHE_SIZE``
    sheets, the count of sheets made per address only the last hour's."""

    def __init__(self, request: Request) -> None:
        self.lobby = request.app.state.lobby
        self.cache: dict[str, tuple[Sheet, str]] = {}
        """Sheets read or written by this process: (sheet, its key's hash); see :meth:`keep`."""
        self.revisions: dict[str, int] = {}
        """Their revisions (a sheet made and cached elsewhere is at 0)."""
        self.locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        """The lock of each sheet being changed now, with how many requests hold or want
        it (the entry goes when that comes to 0)."""
        self.changed: dict[str, tuple[asyncio.Event, list[int]]] = {}
        """The change signal of each sheet a follower waits on now, with how many wait."""
        self.made: dict[str, list[float]] = {}
        """When each client address made its sheets of the last hour (a bound on making)."""
        metrics = getattr(request.app.state, "metrics", None)
        if metrics is not None:
            metrics.sheets = self

    @property
    def engine(self) -> Engine:
        engine: Engine = self.lobby.storage.store.engine
        return engine

    def keep(self, sheet_id: str, sheet: Sheet, key_hash: str, revision: int) -> None:
        """Cache a sheet at ``revision``; the least recently cached goes past
        ``CACHE_SIZE`` (it stays on disk)."""
        self.cache.pop(sheet_id, None)
        while len(self.cache) >= CACHE_SIZE:
            oldest = next(iter(self.cache))
            self.cache.pop(oldest)
            self.revisions.pop(oldest, None)
        self.cache[sheet_id] = (sheet, key_hash)
        self.revisions[sheet_id] = revision

    async def get(self, sheet_id: str) -> tuple[Sheet, str]:
        found = self.cache.get(sheet_id)
        if found is None:
            loaded = await self.lobby.storage.run(load_revision, self.engine, sheet_id) if (
                _plausible(sheet_id)) else None
            if loaded is None:
                raise SheetRefused("sheet_not_found", f"no sheet {sheet_id!r}", 404,
                                   say=Message("web.tally.error.not_found"))
            self.keep(sheet_id, loaded[0], loaded[1], loaded[2])
            found = (loaded[0], loaded[1])
        return found

    def revision(self, sheet_id: str) -> int:
        return self.revisions.get(sheet_id, 0)

    def state(self, sheet_id: str, sheet: Sheet) -> dict[str, Any]:
        return sheet_state(sheet_id, sheet, self.revision(sheet_id))

    @contextlib.asynccontextmanager
    async def locked(self, sheet_id: str) -> AsyncIterator[None]:
        """The sheet's lock (the caller has found the sheet first)."""
        lock, users = self.locks.setdefault(sheet_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self.locks[sheet_id]

    def signal(self, sheet_id: str) -> None:
        found = self.changed.pop(sheet_id, None)
        if found is not None:
            found[0].set()

    async def wait(self, sheet_id: str, timeout: float) -> None:
        """Until the sheet changes or ``timeout`` seconds pass (the caller has found it)."""
        found = self.changed.setdefault(sheet_id, (asyncio.Event(), [0]))
        event, waiting = found
        waiting[0] += 1
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout)
        finally:
            waiting[0] -= 1
            if not waiting[0] and self.changed.get(sheet_id) is found:
                del self.changed[sheet_id]

    def count_made(self, client: str, limit: int) -> bool:
        """Count a sheet made by ``client`` now, unless it made ``limit`` this hour
        (False); addresses with nothing this hour are forgotten."""
        now = time.monotonic()
        for address in [a for a, times in self.made.items() if now - times[-1] >= 3600]:
            del self.made[address]
        recent = [t for t in self.made.get(client, []) if now - t < 3600]
        if len(recent) >= limit:
            return False
        self.made[client] = [*recent, now]
        return True


def _plausible(sheet_id: str) -> bool:
    return 1 <= len(sheet_id) <= 16 and sheet_id.isalnum()


def sheets_of(request: Request) -> Sheets:
    state = request.app.state
    found: Sheets | None = getattr(state, "sheets", None)
    if found is None or found.lobby is not state.lobby:  # a new lifespan: a new lobby
        found = state.sheets = Sheets(request)
    return found


def _bad(message: str) -> SheetRefused:
    return SheetRefused("bad_sheet", message, 400,
                   say=Message("web.tally.error.bad", {"detail": message}))


class NewSheet(BaseModel):
    preset: str = "rulebook"
    options: dict[str, Any] = Field(default_factory=dict)
    players: list[str]
    dealer: int = Field(0, ge=0, le=SMALL)
    display: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)


class NewEntry(BaseModel):
    entry: str
    version: int | None = Field(None, ge=0, le=MAX_INT)
    """The version the keeper saw; a change to a newer sheet is refused as stale."""


class Undo(BaseModel):
    version: int | None = Field(None, ge=0, le=MAX_INT)


def build_sheet(body: NewSheet, name_length: int = NAME_LENGTH) -> Sheet:
    """The sheet a request asks for (Refused ``bad_sheet`` naming the fault)."""
    try:
        rules = Rules.preset(body.preset, **body.options)
    except (RulesError, TypeError) as e:
        raise _bad(f"rules: {e}") from None
    names = []
    for name in body.players:
        try:
            names.append(check_name(name, name_length))
        except Refused as e:
            raise _bad(f"players: {e.message}") from None
    if len({n.casefold() for n in names}) != len(names):
        raise _bad("players: two players have the same name")
    try:
        rules.check_table(len(names))
        return Sheet.new(rules, names, dealer=body.dealer, display=body.display,
                         meta=body.meta)
    except (RulesError, ValueError) as e:
        raise _bad(f"players: {e}" if isinstance(e, RulesError) else str(e)) from None


@router.post("/api/sheets", status_code=201)
async def new_sheet(body: NewSheet, request: Request) -> dict[str, Any]:
    """Make a sheet: ``{preset, options, players, dealer, display, meta}``; the answer
    holds its ``key`` (once) and the links to keep and to follow it."""
    sheets = sheets_of(request)
    limits = request.app.state.config.limits
    sheet = build_sheet(body, limits.name_length)
    client = request.client.host if request.client else "unknown"
    if not sheets.count_made(client, limits.tables_per_client):
        raise SheetRefused("limit", f"at most {limits.tables_per_client} sheets an hour from "
                           "one address (--tables-per-client)", 429,
                           say=Message("web.tally.error.limit",
                                       {"n": limits.tables_per_client}))
    sheet_id, key = await sheets.lobby.storage.run(create_sheet, sheets.engine, sheet)
    sheets.keep(sheet_id, sheet, token_hash(key), 0)
    return {**sheets.state(sheet_id, sheet), "key": key,
            "follow": f"/?sheet={sheet_id}", "keep": f"/?sheet={sheet_id}#key={key}"}


@router.get("/api/sheets/{sheet_id}")
async def read_sheet(sheet_id: str, request: Request,
                     after: Annotated[int | None, Query(ge=0, le=2**53)] = None,
                     wait: Annotated[float, Query(ge=0.0, le=3600.0)] = 0.0) -> dict[str, Any]:
    """The sheet; with ``after=VERSION`` and ``wait=S`` (at most 30), wait until it is
    at another revision than ``after`` or ``S`` seconds have passed."""
    sheets = sheets_of(request)
    sheet, _ = await sheets.get(sheet_id)
    if after is not None and sheets.revision(sheet_id) == after and wait > 0:
        await sheets.wait(sheet_id, min(wait, WAIT_LIMIT))
        sheet, _ = await sheets.get(sheet_id)
    return sheets.state(sheet_id, sheet)


@router.get("/api/sheets/{sheet_id}/result")
async def read_result(sheet_id: str, request: Request) -> dict[str, Any]:
    """What the sheet came to (also while in progress): winner, lives, standings."""
    sheet, _ = await sheets_of(request).get(sheet_id)
    return sheet_result(sheet)


@router.get("/api/sheets/{sheet_id}/record")
async def download_record(sheet_id: str, request: Request) -> Response:
    """The sheet's record (``toepen-record/1`` of kind ``sheet``) as a download."""
    sheet, _ = await sheets_of(request).get(sheet_id)
    return Response(dumps(sheet.to_record()), media_type="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="toepen-sheet-{sheet_id}.json"'})


async def _change(request: Request, sheet_id: str, authorization: str | None,
                  version: int | None, change: str) -> dict[str, Any]:
    sheets = sheets_of(request)
    await sheets.get(sheet_id)  # an unknown id is refused before it gets a lock
    async with sheets.locked(sheet_id):
        sheet, key_hash = await sheets.get(sheet_id)
        given = authorization[7:].strip() if authorization and authorization.startswith(
            "Bearer ") else ""
        if not given or not secrets.compare_digest(token_hash(given), key_hash):
            raise SheetRefused("sheet_key", "Authorization: Bearer KEY (the keeper's key) is "
                               "needed", 403, say=Message("web.tally.error.key"))
        before = sheets.revision(sheet_id)
        if version is not None and version != before:
            raise SheetRefused("stale", f"the sheet is at version {before}, not {version}", 409,
                               say=Message("web.tally.error.stale"))
        copy = sheet.copy()
        try:
            if change == "undo":
                copy.undo()
            else:
                copy.add(change)
        except IllegalEntry as e:
            raise SheetRefused("illegal_entry", english(e.refusal), 409,
                               refusal=e.refusal.to_json(),
                               say=sheet_refusal_message(e.refusal, copy)) from None
        ok = await sheets.lobby.storage.run(save_sheet, sheets.engine, sheet_id, copy, before)
        if not ok:  # another server process changed it: read it again
            sheets.cache.pop(sheet_id, None)
            raise SheetRefused("stale", "the sheet changed meanwhile", 409,
                               say=Message("web.tally.error.stale"))
        sheets.keep(sheet_id, copy, key_hash, before + 1)
    sheets.signal(sheet_id)
    return sheets.state(sheet_id, copy)


@router.post("/api/sheets/{sheet_id}/entries")
async def add_entry(sheet_id: str, body: NewEntry, request: Request,
                    authorization: Authorization = None) -> dict[str, Any]:
    """Enter one fact (``{"entry": "2 knock", "version": 7}``); the keeper's key."""
    return await _change(request, sheet_id, authorization, body.version, body.entry)


@router.post("/api/sheets/{sheet_id}/undo")
async def undo_entry(sheet_id: str, body: Undo, request: Request,
                     authorization: Authorization = None) -> dict[str, Any]:
    """Take back the last entry; the keeper's key."""
    return await _change(request, sheet_id, authorization, body.version, "undo")
