"""The accounts' HTTP endpoints (``docs/accounts.md``, ``docs/protocol.md``).

Every request that changes something (``POST``) must carry the header ``X-CSRF-Token``
with the token ``GET /api/account`` gave this browser, and must not come from another
site (``Origin``, ``Sec-Fetch-Site``); otherwise 403 and nothing changes. The session
cookie (``toepen_session``) is HTTP-only and ``SameSite=Lax``; the pre-login cookie
(``toepen_csrf``) HTTP-only and ``SameSite=Strict``.

An error is ``{"detail": English, "say": {"id": "account.error....", "params": {...}}}``:
the catalog message for the page to show in its language.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ...protocol import Refused
from ...tables.table import Table
from .core import Accounts, accounts_of
from .security import (
    check_password,
    check_username,
    csrf_of,
    hash_password,
    name_key,
    new_token,
    same,
    token_hash,
    verify_password,
)
from .service import SESSION_DAYS, User

router = APIRouter()
SESSION_COOKIE = "toepen_session"
CSRF_COOKIE = "toepen_csrf"
CSRF_HEADER = "X-CSRF-Token"
BAD_LOGIN = "wrong user name or password"


class AccountError(Refused):
    """A refusal with its catalog message (``say``) for the page."""

    def __init__(self, status: int, msg_id: str, english: str, **params: Any) -> None:
        super().__init__("account", english, status)
        self.message_json = {"id": msg_id, "params": params}


async def account_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AccountError)
    return JSONResponse({"detail": exc.message, "code": exc.code, "say": exc.message_json},
                        status_code=exc.status)


def _accounts(request: Request) -> Accounts:
    return accounts_of(request.app)


AccountsDep = Annotated[Accounts, Depends(_accounts)]


class Credentials(BaseModel):
    name: str = Field(max_length=200)
    password: str = Field(max_length=1024)


class NewPassword(BaseModel):
    old: str = Field(max_length=1024)
    new: str = Field(max_length=1024)


class Password(BaseModel):
    password: str = Field(max_length=1024)


class Deletion(Password):
    check: bool = False
    """Only check the password (the page asks "are you sure?" after it): nothing is deleted."""


class Claim(BaseModel):
    table: str = Field(max_length=40)
    token: str = Field(max_length=200)


# -- sessions and CSRF -------------------------------------------------------------------


def _secure(request: Request) -> bool:
    public = request.app.state.config.public_url or ""
    return request.url.scheme == "https" or public.startswith("https://")


def _cross_site(request: Request) -> bool:
    """The request comes from a page of another site."""
    if request.headers.get("sec-fetch-site") == "cross-site":
        return True
    origin = request.headers.get("origin")
    if origin is None:
        return False
    host = request.headers.get("host", "")
    public = (request.app.state.config.public_url or "").rstrip("/")
    return origin not in (f"http://{host}", f"https://{host}", public)


async def current(request: Request, accounts: Accounts) -> tuple[User, str] | None:
    """The logged-in person of the session cookie and its token hash, or None."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token or len(token) > 100:
        return None
    thash = token_hash(token)
    user = await accounts.run(accounts.db.session_user, thash)
    return (user, thash) if user is not None else None


def expected_csrf(request: Request, logged_in: bool) -> str | None:
    cookie = request.cookies.get(SESSION_COOKIE if logged_in else CSRF_COOKIE)
    return csrf_of(cookie) if cookie and len(cookie) <= 100 else None


def guard(request: Request, logged_in: bool) -> None:
    """Refuse (403) a cross-site request or one without this browser's CSRF token."""
    if _cross_site(request):
        raise AccountError(403, "account.error.cross_site", "cross-site request refused")
    want = expected_csrf(request, logged_in)
    got = request.headers.get(CSRF_HEADER, "")
    if want is None or not same(want, got):
        raise AccountError(403, "account.error.csrf", f"{CSRF_HEADER}: missing or wrong "
                           "(GET /api/account gives it)")


async def player(request: Request) -> User | None:
    """The logged-in person behind a table request (create, join), or None for a guest.
    The session counts only from this site: with this browser's CSRF token, or with the
    browser's own ``Sec-Fetch-Site: same-origin`` (a header no page can set: the table
    page's plain requests); so another site cannot seat a person at a table (a guest's
    request is not changed by this)."""
    accounts: Accounts | None = getattr(request.app.state, "accounts", None)
    if accounts is None or SESSION_COOKIE not in request.cookies:
        return None
    found = await current(request, accounts)
    if found is None:
        return None
    if request.headers.get("sec-fetch-site") == "same-origin" and not _cross_site(request):
        return found[0]
    try:
        guard(request, True)
    except AccountError:
        return None
    return found[0]


def _session_cookie(request: Request, response: Response, token: str) -> None:
    response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_DAYS * 86400, httponly=True,
                        samesite="lax", secure=_secure(request), path="/")


def _me(user: User, token: str) -> dict[str, Any]:
    return {"user": user.to_json(), "csrf": csrf_of(token)}


async def _log_in(request: Request, response: Response, accounts: Accounts,
                  user: User) -> dict[str, Any]:
    token = new_token()
    await accounts.run(accounts.db.open_session, user.id, token_hash(token))
    _session_cookie(request, response, token)
    return _me(user, token)


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _limited(wait: float) -> AccountError:
    seconds = max(1, int(wait + 0.999))
    return AccountError(429, "account.error.rate_limited",
                        f"too many failed logins: try again in {seconds} s", seconds=seconds)


def _refused(e: Refused) -> AccountError:
    """A name or password refusal of the checks, with its catalog message."""
    text = e.message
    if text.startswith("name: ") and " looks like " in text:
        fake, like = text[len("name: "):].split(" looks like ", 1)
        return AccountError(e.status, "account.error.name_lookalike", text,
                            char=fake.strip("'\""), like=like.split(":", 1)[0].strip("'\""))
    if text.startswith("name: ") and "bot" in text:
        return AccountError(e.status, "account.error.name_bot", text)
    if text.startswith("name: ") and "reserved" in text:
        return AccountError(e.status, "account.error.name_reserved", text)
    if text.startswith("name: ") and "characters, not" in text:
        return AccountError(e.status, "account.error.name_length", text, min=3, max=20)
    if text.startswith("name: "):
        return AccountError(e.status, "account.error.name_chars", text)
    if "user name" in text:
        return AccountError(e.status, "account.error.password_name", text)
    return AccountError(e.status, "account.error.password_length", text, min=8, max=256)


# -- the endpoints -------------------------------------------------------------------------


@router.get("/api/account")
async def me(request: Request, response: Response, accounts: AccountsDep) -> dict[str, Any]:
    """Who is logged in (``user``: null for a guest) and the CSRF token of this browser."""
    found = await current(request, accounts)
    if found is not None:
        token = request.cookies[SESSION_COOKIE]
        return _me(found[0], token)
    pre = request.cookies.get(CSRF_COOKIE)
    if not pre or len(pre) > 100:
        pre = new_token()
        response.set_cookie(CSRF_COOKIE, pre, httponly=True, samesite="strict",
                            secure=_secure(request), path="/")
    if request.cookies.get(SESSION_COOKIE):  # a session that is gone: forget its cookie
        response.delete_cookie(SESSION_COOKIE, path="/")
    return {"user": None, "csrf": csrf_of(pre)}


@router.post("/api/account/register", status_code=201)
async def register(body: Credentials, request: Request, response: Response,
                   accounts: AccountsDep) -> dict[str, Any]:
    """A new account (logged in at once)."""
    guard(request, False)
    try:
        name = check_username(body.name, accounts.bot_names())
        password = check_password(body.password, name)
    except Refused as e:
        raise _refused(e) from None
    address = _address(request)
    wait = await accounts.registrations.take(address)  # counted now: see .limits
    if wait:
        raise AccountError(429, "account.error.rate_limited",
                           "too many new accounts from here: try again later",
                           seconds=int(wait) + 1)
    hashed = await asyncio.to_thread(hash_password, password)
    user = await accounts.run(accounts.db.register, name, hashed)
    if user is None:
        await accounts.registrations.give_back(address)
        raise AccountError(409, "account.error.name_taken", f"name: {name!r} is taken")
    response.status_code = 201
    return await _log_in(request, response, accounts, user)


@router.post("/api/account/login")
async def login(body: Credentials, request: Request, response: Response,
                accounts: AccountsDep) -> dict[str, Any]:
    """Log in. A wrong password and an unknown name get the same answer (401)."""
    guard(request, False)
    address = _address(request)
    name = body.name.strip()
    key = name_key(name)
    # Checked and counted in one step before the argon2 check, so that parallel guesses
    # cannot all pass the check before any is counted; a success is given back.
    wait = await accounts.failed_names.take(key)
    if wait:
        raise _limited(wait)
    wait = await accounts.failed_addresses.take(address)
    if wait:
        await accounts.failed_names.give_back(key)
        raise _limited(wait)
    user, stored = await accounts.run(accounts.db.password_hash, name)
    ok = await asyncio.to_thread(verify_password, stored, body.password)
    if not ok or user is None:
        raise AccountError(401, "account.error.bad_login", BAD_LOGIN)
    await accounts.failed_names.give_back(key)
    await accounts.failed_addresses.give_back(address)
    return await _log_in(request, response, accounts, user)


@router.post("/api/account/logout")
async def logout(request: Request, response: Response, accounts: AccountsDep) -> dict[str, Any]:
    """End this session (its cookie stops working)."""
    found = await _need(request, accounts)
    await accounts.run(accounts.db.close_session, found[1])
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"ok": True}


async def _need(request: Request, accounts: Accounts) -> tuple[User, str]:
    found = await current(request, accounts)
    if found is None:
        raise AccountError(401, "account.error.not_logged_in", "not logged in")
    guard(request, True)
    return found


async def _check_password(accounts: Accounts, user: User, password: str) -> None:
    """The account's own password, or 403; 429 after 5 wrong ones in 5 minutes (counted
    before the check, as a login's)."""
    key = str(user.id)
    wait = await accounts.failed_passwords.take(key)
    if wait:
        seconds = max(1, int(wait + 0.999))
        raise AccountError(429, "account.error.rate_limited",
                           f"too many wrong passwords: try again in {seconds} s",
                           seconds=seconds)
    stored = await accounts.run(accounts.db.password_hash_of, user.id)
    if not await asyncio.to_thread(verify_password, stored, password):
        raise AccountError(403, "account.error.wrong_password", "wrong password")
    await accounts.failed_passwords.give_back(key)


@router.post("/api/account/password")
async def change_password(body: NewPassword, request: Request, response: Response,
                          accounts: AccountsDep) -> dict[str, Any]:
    """A new password (the old one is needed); every other session ends, this one
    gets a new cookie."""
    user, thash = await _need(request, accounts)
    try:
        new = check_password(body.new, user.name)
    except Refused as e:
        raise _refused(e) from None
    await _check_password(accounts, user, body.old)
    hashed = await asyncio.to_thread(hash_password, new)
    token = new_token()
    await accounts.run(accounts.db.set_password, user.id, hashed, token_hash(token))
    await accounts.run(accounts.db.open_session, user.id, token_hash(token))
    await accounts.run(accounts.db.close_session, thash)
    _session_cookie(request, response, token)
    return _me(user, token)


@router.post("/api/account/delete")
async def delete_account(body: Deletion, request: Request, response: Response,
                         accounts: AccountsDep) -> dict[str, Any]:
    """Delete the account (the password is needed). Its games stay, anonymised. With
    ``check`` only the password is checked (a wrong one counts as any wrong password)."""
    user, _thash = await _need(request, accounts)
    await _check_password(accounts, user, body.password)
    if body.check:
        return {"ok": True, "deleted": False}
    seats = await accounts.delete(user)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"ok": True, "anonymised": seats}


@router.post("/api/account/claim")
async def claim(body: Claim, request: Request, accounts: AccountsDep) -> dict[str, Any]:
    """Put a seat played as a guest (its token) on the account."""
    user, _thash = await _need(request, accounts)
    lobby = accounts.lobby
    table = await lobby.find(body.table)
    try:
        seat, _host = lobby.who(table, body.token)
    except Refused:
        raise AccountError(401, "account.error.bad_token",
                           "unknown token for this table") from None
    if seat is None or table.seats[seat].kind != "human":
        raise AccountError(409, "account.error.no_seat", "this token has no seat to claim")
    if table.seats[seat].account is not None:
        raise AccountError(409, "account.error.claimed", f"seat {seat} is already claimed")
    try:
        accounts.check_seat_free(table, user)
    except Refused:
        raise AccountError(409, "account.error.seated",
                           f"{user.name} already plays at this table") from None
    await accounts.seated(table, seat, user, claimed=True)
    return {"table": table.id, "seat": seat, "account": user.name}


@router.get("/api/players/{name}")
async def profile(name: str, accounts: AccountsDep) -> dict[str, Any]:
    """A player's profile: ratings, figures, favourite rules, the rating graph."""
    found = await accounts.run(accounts.db.profile, name[:64])
    if found is None:
        raise AccountError(404, "account.error.no_player", f"no player {name!r}", name=name[:64])
    return found


@router.get("/api/players/{name}/history")
async def history(name: str, accounts: AccountsDep,
                  limit: Annotated[int, Query(ge=1, le=200)] = 50,
                  offset: Annotated[int, Query(ge=0, le=10**9)] = 0) -> dict[str, Any]:
    """A player's finished games, newest first (``limit`` 1 to 200)."""
    games = await accounts.run(accounts.db.history, name[:64], limit, offset)
    if games is None:
        raise AccountError(404, "account.error.no_player", f"no player {name!r}", name=name[:64])
    return {"name": name, "games": games}


@router.get("/api/leaderboard")
async def leaderboard(request: Request, accounts: AccountsDep, preset: str | None = None,
                      size: Annotated[int | None, Query(ge=2, le=64)] = None) -> dict[str, Any]:
    """The ratings of one preset and table size, best first (at most 100). Without
    ``preset`` and ``size`` the board is chosen (``chosen`` says why): the one of the
    logged-in person's latest rated game (``last_played``), else the one most players
    are rated on (``most_players``), else rulebook at 4 (``default``)."""
    boards = await accounts.run(accounts.db.boards)
    chosen = "asked"
    if preset is None and size is None:
        found = await current(request, accounts)
        last = await accounts.run(accounts.db.last_board, found[0].id) if found else None
        if last is not None:
            (preset, size), chosen = last, "last_played"
        elif boards:
            best = max(boards, key=lambda b: b["players"])
            preset, size, chosen = best["preset"], best["size"], "most_players"
        else:
            chosen = "default"
    preset = (preset or "rulebook")[:40]
    size = size or 4
    players = await accounts.run(accounts.db.leaderboard, preset, size)
    return {"preset": preset, "size": size, "chosen": chosen, "players": players,
            "boards": boards}


# -- what the table endpoints ask (toepen.server.http.routes) -----------------------------------


def check_rated(rated: bool, user: User | None) -> None:
    """A rated table is made by a logged-in player."""
    if rated and user is None:
        raise AccountError(403, "account.error.rated_guest",
                           "rated tables are for logged-in players: log in or play casual")


async def joining(request: Request, table: Table) -> User | None:
    """Who joins ``table``: a logged-in person (one seat per account at a table), or a
    guest (None), who may not sit at a rated table."""
    user = await player(request)
    if user is None:
        check_rated(table.rated, None)
        return None
    if any(s.account == user.name for s in table.seats):
        raise AccountError(409, "account.error.seated",
                           f"{user.name} already plays at this table")
    return user


async def created(request: Request, table: Table, seat: int | None, user: User | None) -> None:
    """A table was made or joined: keep its rated flag and the seat's account."""
    accounts: Accounts | None = getattr(request.app.state, "accounts", None)
    if accounts is not None:
        await accounts.created(table, seat, user)
