"""The clubs' and tournaments' HTTP endpoints (``docs/clubs.md``).

Reading is open to all; changing needs ``Authorization: Bearer KEY``: a club admin's key
for a club, the organiser's key (or a club admin's) for a tournament. Keys are handed
out once, when made; the server keeps only their hashes and never logs them.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field
from sqlalchemy.engine import Engine

from .... import tourney
from ....engine import Game
from ....tally import Sheet
from ...protocol import SMALL, Refused, check_name, name_length
from ...tables.lobby import HANDED_OUT, Lobby
from ...tables.table import Table, token_hash
from ..accounts import Accounts
from ..accounts.routes import created as seated_account
from ..accounts.routes import player as logged_in
from ..qr import qr_svg
from ..scoresheets import Sheets, create_sheet, sheets_of
from . import store
from .store import Club, Member, TournamentRow
from .tournament import ClubRefused, Tournament, check_rules, key, rules_options

router = APIRouter()
Authorization = Annotated[str | None, Header()]
T = TypeVar("T")
CREATOR = HANDED_OUT
"""The ``creator`` of a tournament's online tables, before the tournament's id: the lobby
hands their seats out only through :func:`take_seat`."""
NAME_LENGTH = 60
"""Characters a club's or a tournament's name may have."""


class Clubs:
    """The running server's clubs: the storage thread, the lobby, a lock per tournament."""

    def __init__(self, lobby: Lobby, sheets: Sheets) -> None:
        self.lobby = lobby
        self.sheets = sheets
        self.locks: dict[str, asyncio.Lock] = {}
        lobby.master.on_over.append(self.game_over)

    async def game_over(self, table: Table) -> None:
        """A game has ended: if it is a tournament's table, its result is taken now (a
        result missed, by a restart between the game's end and this, is taken on the
        tournament's next read)."""
        creator = table.row.creator
        if creator.startswith(CREATOR):
            await current(self, creator[len(CREATOR):])

    @property
    def engine(self) -> Engine:
        return self.lobby.storage.store.engine

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        return await self.lobby.storage.run(fn, self.engine, *args)

    def lock(self, tournament_id: str) -> asyncio.Lock:
        return self.locks.setdefault(tournament_id, asyncio.Lock())


def clubs_of(request: Request) -> Clubs:
    state = request.app.state
    found: Clubs | None = getattr(state, "clubs", None)
    if found is None or found.lobby is not state.lobby:  # a new lifespan: a new lobby
        found = state.clubs = Clubs(state.lobby, sheets_of(request))
    return found


def new_id() -> str:
    return secrets.token_hex(6)


def new_key() -> str:
    return secrets.token_urlsafe(24)


def season_now() -> str:
    return str(datetime.now(UTC).year)


def checked_name(name: Any, limit: int) -> str:
    try:
        return check_name(name, limit)
    except Refused as e:
        raise ClubRefused("bad_name", f"name: {e.message}", name=str(name)[:80],
                          n=limit) from None


TITLE_PUNCTUATION = frozenset(" '-_.,:;!?&/+#()\"@")
"""What a club's, tournament's or season's name may hold beyond letters, digits and
emoji (``De Kroeg & Co``, ``2026/27``): no markup, no control or formatting character."""


def checked_title(title: Any, limit: int) -> str:
    """A club's, tournament's or season's name, or ClubRefused ``bad_title``."""
    ok = (isinstance(title, str) and title == title.strip() and len(title) <= 8 * limit
          and 1 <= name_length(title) <= limit)
    if ok:
        try:
            check_name("".join(ch for ch in title if ch not in TITLE_PUNCTUATION) or "x",
                       8 * limit)
        except Refused:
            ok = False
    if not ok:
        raise ClubRefused("bad_title", f"name: 1 to {limit} characters: letters, digits, "
                          "emoji, spaces and common punctuation, no space at either end",
                          name=str(title)[:80], n=limit)
    assert isinstance(title, str)
    return title


def bearer(authorization: str | None) -> str | None:
    """The hash of an ``Authorization: Bearer KEY`` header's key, or None without one."""
    if not authorization or not authorization.startswith("Bearer "):
        return None
    return token_hash(authorization[7:].strip())


def no_key() -> ClubRefused:
    return ClubRefused("auth", "Authorization: Bearer KEY (an admin's or the organiser's key), "
                       "or logging in as an admin, is needed", 401)


# -- clubs -------------------------------------------------------------------------


class HouseRules(BaseModel):
    """A named house-rule set: a preset and its options, checked by ``toepen.rules``."""

    name: str = ""
    """Empty: the set has no name of its own; every page says "house rules" in its
    reader's language."""
    preset: str = "rulebook"
    options: dict[str, Any] = Field(default_factory=dict)


class CreateClub(BaseModel):
    name: str
    admin: str | None = None
    """The founding admin's name (a member of the club); a logged-in person's own by
    default, and the member is linked to their account."""
    house_rules: HouseRules = HouseRules()
    scheme: Any = "beaten"


class UpdateClub(BaseModel):
    house_rules: HouseRules | None = None
    scheme: Any = None


class AddMember(BaseModel):
    name: str | None = None
    """A plain name, or (with ``account``) the account's name by default."""
    account: str | None = Field(None, max_length=64)
    """The member's account (its user name), when the server has accounts."""
    admin: bool = False


async def account_of(request: Request, name: str) -> str:
    """The user name of the account ``name`` (its own spelling), or ClubRefused."""
    accounts: Accounts | None = getattr(request.app.state, "accounts", None)
    user = await accounts.user(name) if accounts is not None else None
    if user is None or user.kind != "person":
        raise ClubRefused("no_account", f"no account {name!r}", 404, name=name[:64])
    return user.name


def house_json(h: HouseRules) -> dict[str, Any]:
    rules = check_rules(h.preset, h.options)
    name = checked_title(h.name, NAME_LENGTH) if h.name != "" else ""
    return {"name": name, "rules": rules.to_json()}


def scheme_of(data: Any) -> tourney.Scheme:
    try:
        return tourney.Scheme.from_json(data)
    except ValueError as e:
        raise ClubRefused("scheme", str(e), detail=str(e)) from None


async def club_or_404(clubs: Clubs, club_id: str) -> Club:
    found = await clubs.db(store.club, club_id)
    if found is None:
        raise ClubRefused("no_club", f"no club {club_id!r}", 404, id=club_id[:20])
    return found


async def club_admin(clubs: Clubs, club_id: str, authorization: str | None,
                     request: Request) -> Member:
    """The admin behind a request: by the key of ``Authorization``, or the logged-in
    account of an admin member; ClubRefused 401 with neither, 403 if not an admin."""
    found = await admin_of(clubs, club_id, authorization, request)
    if found is None:
        if authorization is None and await logged_in(request) is None:
            raise no_key()
        raise ClubRefused("forbidden", "this key is not an admin's of this club", 403)
    return found


async def admin_of(clubs: Clubs, club_id: str, authorization: str | None,
                   request: Request) -> Member | None:
    thash = bearer(authorization)
    admins = [m for m in await clubs.db(store.members, club_id) if m.admin]
    if thash is not None:
        for m in admins:
            if m.key_hash and secrets.compare_digest(m.key_hash, thash):
                return m
        return None
    user = await logged_in(request)
    if user is not None:
        for m in admins:
            if m.account is not None and key(m.account) == key(user.name):
                return m
    return None


def member_json(m: Member) -> dict[str, Any]:
    return {"id": m.id, "name": m.name, "admin": m.admin, "account": m.account}


def rows_json(rows: list[tourney.Row]) -> list[dict[str, Any]]:
    return [{"place": r.place, "player": r.player, "points": r.points, "wins": r.wins,
             "opponents": r.opponents, "played": r.played} for r in rows]


async def club_json(clubs: Clubs, c: Club, season: str | None = None,
                    you_admin: bool = False) -> dict[str, Any]:
    members = await clubs.db(store.members, c.id)
    everything = await clubs.db(store.tournaments, c.id, None)
    seasons = sorted({t.season for t in everything} | {season_now()}, reverse=True)
    season = season or seasons[0]
    names = {m.id: m.name for m in members}
    rounds: list[list[list[str]]] = []
    for t in everything:
        if t.season != season:
            continue
        doc = Tournament(t.state)
        alias = {p["name"]: names.get(p["member"] or "", p["name"]) for p in doc.players}
        for r in doc.results():
            rounds.append([[alias.get(n, n) for n in order] for order in r])
    scheme = scheme_of(c.scheme)
    house = c.house_rules
    return {
        "id": c.id, "name": c.name, "created": c.created.isoformat(),
        "house_rules": {"name": house["name"], "rules": house["rules"],
                        "preset": house["rules"] if isinstance(house["rules"], str)
                        else house["rules"].get("preset", "rulebook")},
        "scheme": scheme.to_json(),
        "members": [member_json(m) for m in members],
        "tournaments": [{"id": t.id, "name": t.name, "season": t.season, "status": t.status,
                         "created": t.created.isoformat()} for t in everything],
        "seasons": seasons, "season": season, "tie_breaks": list(tourney.TIE_BREAKS),
        "standings": rows_json(tourney.standings(rounds, scheme)),
        "you_admin": you_admin,
    }


@router.get("/api/clubs")
async def list_clubs(request: Request) -> dict[str, Any]:
    """Every club, by name."""
    clubs = clubs_of(request)
    return {"clubs": [{"id": c.id, "name": c.name} for c in await clubs.db(store.clubs)]}


@router.post("/api/clubs", status_code=201)
async def create_club(body: CreateClub, request: Request) -> dict[str, Any]:
    """A new club; the answer holds its founding admin's key (shown once: keep it)."""
    clubs = clubs_of(request)
    name = checked_title(body.name, NAME_LENGTH)
    user = await logged_in(request)
    if body.admin is None and user is None:
        raise ClubRefused("bad_name", "admin: the founding admin's name is needed", name="",
                          n=clubs.lobby.limits.name_length)
    admin = checked_name(body.admin if body.admin is not None else user.name if user else "",
                         clubs.lobby.limits.name_length)
    house = house_json(body.house_rules)
    scheme = scheme_of(body.scheme)
    secret = new_key()
    c = Club(new_id(), name, house, scheme.to_json(), datetime.now(UTC))
    founder = Member(new_id(), c.id, admin, True, user.name if user else None,
                     token_hash(secret))
    if not await clubs.db(store.create_club, c, founder):
        raise ClubRefused("club_taken", f"there is a club called {name} already", 409,
                          name=name)
    return {"club": await club_json(clubs, c), "key": secret, "member": member_json(founder)}


@router.get("/api/clubs/{club_id}")
async def get_club(club_id: str, request: Request, season: str | None = None,
                   authorization: Authorization = None) -> dict[str, Any]:
    """A club: members, house rules, tournaments and the standings of a season;
    ``you_admin``: whether the asker (key or login) is one of its admins."""
    clubs = clubs_of(request)
    c = await club_or_404(clubs, club_id)
    admin = await admin_of(clubs, club_id, authorization, request)
    return await club_json(clubs, c, season, admin is not None)


@router.put("/api/clubs/{club_id}")
async def update_club(club_id: str, body: UpdateClub, request: Request,
                      authorization: Authorization = None) -> dict[str, Any]:
    """Change the club's default rules (a named house-rule set) or scoring scheme."""
    clubs = clubs_of(request)
    c = await club_or_404(clubs, club_id)
    await club_admin(clubs, club_id, authorization, request)
    house = house_json(body.house_rules) if body.house_rules is not None else c.house_rules
    scheme = scheme_of(body.scheme).to_json() if body.scheme is not None else c.scheme
    await clubs.db(store.set_club, club_id, house, scheme)
    return await club_json(clubs, await club_or_404(clubs, club_id))


@router.post("/api/clubs/{club_id}/members", status_code=201)
async def add_member(club_id: str, body: AddMember, request: Request,
                     authorization: Authorization = None) -> dict[str, Any]:
    """A member by name; an admin gets a key (in the answer, once)."""
    clubs = clubs_of(request)
    await club_or_404(clubs, club_id)
    await club_admin(clubs, club_id, authorization, request)
    account = await account_of(request, body.account) if body.account is not None else None
    name = checked_name(body.name if body.name is not None else account,
                        clubs.lobby.limits.name_length)
    if account is not None and any(m.account is not None and key(m.account) == key(account)
                                   for m in await clubs.db(store.members, club_id)):
        raise ClubRefused("member_taken", f"{account} is a member already", 409, name=account)
    secret = new_key() if body.admin else None
    m = Member(new_id(), club_id, name, body.admin, account,
               token_hash(secret) if secret else None)
    if not await clubs.db(store.add_member, m):
        raise ClubRefused("member_taken", f"{name} is a member already", 409, name=name)
    out: dict[str, Any] = {"member": member_json(m)}
    if secret:
        out["key"] = secret
    return out


@router.delete("/api/clubs/{club_id}/members/{member_id}")
async def remove_member(club_id: str, member_id: str, request: Request,
                        authorization: Authorization = None) -> dict[str, Any]:
    """A member leaves the club (their results stay, under their name)."""
    clubs = clubs_of(request)
    await club_or_404(clubs, club_id)
    await club_admin(clubs, club_id, authorization, request)
    members = await clubs.db(store.members, club_id)
    target = next((m for m in members if m.id == member_id), None)
    if target is None:
        raise ClubRefused("no_member", f"no member {member_id!r}", 404, id=member_id[:20])
    if target.admin and sum(m.admin for m in members) == 1:
        raise ClubRefused("last_admin", "the last admin cannot leave the club", 409)
    await clubs.db(store.remove_member, member_id)
    return {"removed": member_id}


# -- tournaments -------------------------------------------------------------------


class CreateTournament(BaseModel):
    name: str
    club: str | None = Field(None, max_length=20)
    """The club it counts for (its admin's key is needed; its house rules are the default)."""
    season: str | None = Field(None, max_length=20)
    house_rules: HouseRules | None = None
    scheme: Any = None
    target: int = Field(tourney.DEFAULT_TARGET, ge=0, le=SMALL)


class PlayerName(BaseModel):
    name: str


class DrawRound(BaseModel):
    mode: str = "cards"


class TableMode(BaseModel):
    round: int = Field(ge=0, le=SMALL)
    table: int = Field(ge=0, le=SMALL)
    mode: str


class TableResult(BaseModel):
    round: int = Field(ge=0, le=SMALL)
    table: int = Field(ge=0, le=SMALL)
    order: list[str]


class TakeSeat(BaseModel):
    """``{key}``: the seat whose key the organiser handed out; or ``{round, table, name}``
    logged in as the account that player is registered with (a club member's)."""

    key: str | None = Field(None, max_length=64)
    round: int | None = Field(None, ge=0, le=SMALL)
    table: int | None = Field(None, ge=0, le=SMALL)
    name: str | None = Field(None, max_length=200)


async def tournament_or_404(clubs: Clubs, tournament_id: str) -> TournamentRow:
    found = await clubs.db(store.tournament, tournament_id)
    if found is None:
        raise ClubRefused("no_tournament", f"no tournament {tournament_id!r}", 404,
                          id=tournament_id[:20])
    return found


async def organiser(clubs: Clubs, row: TournamentRow, authorization: str | None,
                    request: Request) -> None:
    """The organiser's key, or a club admin's (key or logged-in account), or refused."""
    thash = bearer(authorization)
    if thash is not None and secrets.compare_digest(row.key_hash, thash):
        return
    if row.club_id is not None and await admin_of(clubs, row.club_id, authorization,
                                                  request) is not None:
        return
    if thash is None and (row.club_id is None or await logged_in(request) is None):
        raise no_key()
    raise ClubRefused("forbidden", "this key is not the organiser's", 403)


def finishing_order(game: Game) -> list[int]:
    """The seats of a finished game in finishing order: the engine's
    (``game.places()``: the order out, or under rubbers rules.md D16), partners of a
    pair next to each other, the lower seat first."""
    return [s for p in game.places() for s in p.seats]


async def sync(clubs: Clubs, doc: Tournament) -> bool:
    """Take the results of the online tables and score sheets that have finished;
    whether any came."""
    changed = False
    for r in doc.rounds:
        for t in r["tables"]:
            if t["result"] is not None:
                continue
            order: list[int] | None = None
            pot: Sequence[int] = ()
            if t["table_id"] is not None:
                table = clubs.lobby.tables.get(t["table_id"])
                if table is None:  # finished and out of memory: read from storage
                    with contextlib.suppress(Refused):
                        table = await clubs.lobby.find(t["table_id"])
                if table is not None and table.row.status == "over" and table.game is not None:
                    order = finishing_order(table.game)
                    pot = table.game.pot_balances()
            elif t.get("sheet") is not None:
                try:
                    sheet, _hash = await clubs.sheets.get(t["sheet"])
                except Refused:
                    continue
                if sheet.is_over:
                    order = [st.seat for st in sheet.standings()]
                    pot = sheet.pot_balances()
            if order is not None:
                t["result"] = [t["seats"][s] for s in order]
                t["by"] = "game" if t["table_id"] is not None else "sheet"
                if doc.rules.pot_cents:  # pot toepen: what each won less what each put in
                    t["pot"] = {t["seats"][s]: cents for s, cents in enumerate(pot)}
                changed = True
    return changed


def pending(doc: Tournament) -> bool:
    """Whether a table waits for a game or a sheet to end."""
    return any((t["table_id"] or t.get("sheet")) and t["result"] is None
               for r in doc.rounds for t in r["tables"])


def status_of(doc: Tournament) -> str:
    return "over" if doc.state["finished"] else "open"


async def current(clubs: Clubs, tournament_id: str) -> tuple[TournamentRow, Tournament]:
    """The tournament, with finished online tables' results taken in (and stored)."""
    row = await tournament_or_404(clubs, tournament_id)
    doc = Tournament(row.state)
    if pending(doc):
        async with clubs.lock(tournament_id):
            row = await tournament_or_404(clubs, tournament_id)
            doc = Tournament(row.state)
            if await sync(clubs, doc):
                await clubs.db(store.save_tournament, row.id, doc.state, status_of(doc))
    return row, doc


async def accounts_of(clubs: Clubs, row: TournamentRow) -> dict[str, str]:
    """The account of each club member with one, by member id."""
    if row.club_id is None:
        return {}
    return {m.id: m.account for m in await clubs.db(store.members, row.club_id)
            if m.account is not None}


async def tournament_json(clubs: Clubs, row: TournamentRow, doc: Tournament) -> dict[str, Any]:
    club = await clubs.db(store.club, row.club_id) if row.club_id else None
    public = doc.public()
    linked = await accounts_of(clubs, row)
    for p in public["players"]:  # a member's account is public on the club's page too
        p["account"] = linked.get(p["member"] or "")
    return {"id": row.id, "name": row.name, "season": row.season, "status": status_of(doc),
            "club": {"id": club.id, "name": club.name} if club else None,
            "created": row.created.isoformat(), **public}


@router.post("/api/tournaments", status_code=201)
async def create_tournament(body: CreateTournament, request: Request,
                            authorization: Authorization = None) -> dict[str, Any]:
    """A tournament (an evening or a season); the answer holds the organiser's key."""
    clubs = clubs_of(request)
    name = checked_title(body.name, NAME_LENGTH)
    season = checked_title(body.season, 20) if body.season is not None else season_now()
    club: Club | None = None
    if body.club is not None:
        club = await club_or_404(clubs, body.club)
        await club_admin(clubs, club.id, authorization, request)
    if body.house_rules is not None:
        house = house_json(body.house_rules)
    elif club is not None:
        house = club.house_rules
    else:
        house = house_json(HouseRules())
    scheme = scheme_of(body.scheme if body.scheme is not None
                       else (club.scheme if club else "beaten"))
    rules = check_rules(*_preset_options(house["rules"]))
    doc = Tournament.new(rules, house["name"], scheme, secrets.randbits(62), body.target)
    secret = new_key()
    row = TournamentRow(new_id(), club.id if club else None, name, season, "open",
                        token_hash(secret), doc.state, datetime.now(UTC))
    await clubs.db(store.create_tournament, row)
    return {"tournament": await tournament_json(clubs, row, doc), "key": secret}


def _preset_options(data: Any) -> tuple[str, dict[str, Any]]:
    if isinstance(data, str):
        return data, {}
    options = dict(data)
    return str(options.pop("preset", "rulebook")), options


@router.get("/api/tournaments/{tournament_id}")
async def get_tournament(tournament_id: str, request: Request) -> dict[str, Any]:
    """A tournament: players, rounds and tables, results, standings, the next round's
    table sizes and the measured spread of opponents."""
    clubs = clubs_of(request)
    row, doc = await current(clubs, tournament_id)
    return await tournament_json(clubs, row, doc)


async def change(request: Request, tournament_id: str, authorization: str | None,
                 what: Callable[[Clubs, TournamentRow, Tournament], Any]) -> dict[str, Any]:
    """Apply ``what`` to a copy of the tournament under its lock and store it whole; a
    refusal stores nothing."""
    clubs = clubs_of(request)
    row = await tournament_or_404(clubs, tournament_id)
    await organiser(clubs, row, authorization, request)
    async with clubs.lock(tournament_id):
        row = await tournament_or_404(clubs, tournament_id)
        doc = Tournament(row.state).copy()
        await sync(clubs, doc)
        result = what(clubs, row, doc)
        if asyncio.iscoroutine(result):
            await result
        await clubs.db(store.save_tournament, row.id, doc.state, status_of(doc))
    return await tournament_json(clubs, row, doc)


@router.post("/api/tournaments/{tournament_id}/players")
async def register(tournament_id: str, body: PlayerName, request: Request,
                   authorization: Authorization = None) -> dict[str, Any]:
    """Register a player (before the first round or between rounds: a late arrival
    plays from the next round); a player who left comes back the same way."""

    async def go(clubs: Clubs, row: TournamentRow, doc: Tournament) -> None:
        name = checked_name(body.name, clubs.lobby.limits.name_length)
        member = None
        if row.club_id is not None:
            for m in await clubs.db(store.members, row.club_id):
                if key(m.name) == key(name):
                    member, name = m.id, m.name
        doc.register(name, member)

    return await change(request, tournament_id, authorization, go)


@router.post("/api/tournaments/{tournament_id}/drop")
async def drop(tournament_id: str, body: PlayerName, request: Request,
               authorization: Authorization = None) -> dict[str, Any]:
    """A player leaves between rounds: not drawn again, results kept."""
    return await change(request, tournament_id, authorization,
                        lambda _c, _r, doc: doc.drop(body.name))


async def play_as(clubs: Clubs, row: TournamentRow, doc: Tournament, round_no: int,
                  table_no: int, mode: str) -> str | None:
    """Give a drawn table its score sheet or online table (``mode``); the sheet's keeper
    key, if one was made."""
    t = doc.table(round_no, table_no)
    rules = doc.rules
    if mode == "sheet":
        sheet = Sheet.new(rules, t["seats"], meta={
            "tournament": row.id, "round": round_no, "table": table_no})
        sheet_id, secret = await clubs.lobby.storage.run(create_sheet, clubs.engine, sheet)
        clubs.sheets.keep(sheet_id, sheet, token_hash(secret), 0)
        t["sheet"] = sheet_id
        return secret
    if mode == "online":
        doc.seat_secret()  # made with the first online table, stored with this change
        table, _host_key, _seat = await clubs.lobby.create(
            preset=rules.name, options=rules_options(rules), size=len(t["seats"]),
            bots={}, name=None, idle_seconds=120.0, autostart=True,
            creator=f"{CREATOR}{row.id}")
        t["table_id"], t["code"] = table.id, table.row.code
    return None


@router.post("/api/tournaments/{tournament_id}/rounds")
async def draw_round(tournament_id: str, body: DrawRound, request: Request,
                     authorization: Authorization = None) -> dict[str, Any]:
    """Draw the next round. ``mode``: ``cards`` (the organiser enters each table's
    finishing order), ``sheet`` (a score sheet per table, kept on a phone there: the
    answer holds each sheet's keeper key, once) or ``online`` (a lobby table per table)."""

    keys: dict[str, str] = {}

    async def go(clubs: Clubs, row: TournamentRow, doc: Tournament) -> None:
        new = doc.draw(body.mode)
        for i in range(1, len(new["tables"]) + 1):
            secret = await play_as(clubs, row, doc, len(doc.rounds), i, body.mode)
            if secret is not None:
                keys[str(i)] = secret

    out = await change(request, tournament_id, authorization, go)
    if keys:
        out["sheet_keys"] = keys  # each table's keeper key, shown to the organiser once
    return out


@router.post("/api/tournaments/{tournament_id}/tables")
async def table_mode(tournament_id: str, body: TableMode, request: Request,
                     authorization: Authorization = None) -> dict[str, Any]:
    """One table of the round being played goes on a score sheet or online (a round may
    mix them): only a real-card table without a result. A sheet's key comes once."""

    keys: dict[str, str] = {}

    async def go(clubs: Clubs, row: TournamentRow, doc: Tournament) -> None:
        doc.switch(body.round, body.table, body.mode)
        secret = await play_as(clubs, row, doc, body.round, body.table, body.mode)
        if secret is not None:
            keys[str(body.table)] = secret

    out = await change(request, tournament_id, authorization, go)
    if keys:
        out["sheet_keys"] = keys
    return out


@router.post("/api/tournaments/{tournament_id}/results")
async def enter_result(tournament_id: str, body: TableResult, request: Request,
                       authorization: Authorization = None) -> dict[str, Any]:
    """A table's finishing order (winner first), entered by the organiser (a real-card
    table, or an online one that could not finish); may correct an earlier entry."""
    return await change(request, tournament_id, authorization,
                        lambda _c, _r, doc: doc.enter(body.round, body.table, body.order,
                                                      "organiser"))


@router.post("/api/tournaments/{tournament_id}/finish")
async def finish(tournament_id: str, request: Request,
                 authorization: Authorization = None) -> dict[str, Any]:
    """Close the tournament: no more players, rounds or results."""
    return await change(request, tournament_id, authorization,
                        lambda _c, _r, doc: doc.finish())


def seat_link(request: Request, tournament_id: str, seat_key: str) -> str:
    """The link that takes a seat: the tournament's page with the key after ``#`` (never
    sent to the server by the browser, so never in a log or a ``Referer``)."""
    base = request.app.state.config.public_url or str(request.base_url).rstrip("/")
    return f"{base}/?tournament={tournament_id}#seat={seat_key}"


@router.get("/api/tournaments/{tournament_id}/seats")
async def seat_keys(tournament_id: str, request: Request,
                    authorization: Authorization = None) -> dict[str, Any]:
    """The key and link of every seat at the online tables still to play, for the
    organiser (or a club admin) to hand each player their own."""
    clubs = clubs_of(request)
    row = await tournament_or_404(clubs, tournament_id)
    await organiser(clubs, row, authorization, request)
    _row, doc = await current(clubs, tournament_id)
    if "seat_secret" not in doc.state and doc.online_tables():  # drawn by an older server
        async with clubs.lock(tournament_id):
            row = await tournament_or_404(clubs, tournament_id)
            doc = Tournament(row.state)
            if "seat_secret" not in doc.state:
                doc.seat_secret()
                await clubs.db(store.save_tournament, row.id, doc.state, status_of(doc))
    tables = []
    for r, no, t in doc.online_tables():
        seats = []
        for seat, name in enumerate(t["seats"]):
            secret = doc.seat_key(t["table_id"], seat)
            link = seat_link(request, tournament_id, secret)
            seats.append({"seat": seat, "name": name, "key": secret, "link": link,
                          "qr": qr_svg(link)})
        tables.append({"round": r, "table": no, "table_id": t["table_id"], "seats": seats})
    return {"tables": tables}


@router.post("/api/tournaments/{tournament_id}/seat")
async def take_seat(tournament_id: str, body: TakeSeat, request: Request) -> dict[str, Any]:
    """A drawn player takes their seat at their online table (the lobby's ``Joined``):
    with the seat's key the organiser handed them, or logged in as the account the
    player is registered with. Again with the same key (another phone): a new token,
    and the old one stops working."""
    clubs = clubs_of(request)
    row, doc = await current(clubs, tournament_id)
    user = None
    if body.key is not None:
        found = doc.seat_of_key(body.key)
        if found is None or any(given is not None and given != want for given, want in (
                (body.round, found[0]), (body.table, found[1]))):
            raise ClubRefused("seat_key", "this key takes no seat at an online table of this "
                              "tournament that is still to play", 403)
        t = doc.table(found[0], found[1])
        seat = found[2]
        if body.name is not None and key(body.name) != key(t["seats"][seat]):
            raise ClubRefused("seat_key", "this key takes no seat at an online table of this "
                              "tournament that is still to play", 403)
    else:
        t = doc.table(body.round, body.table)
        seats = [key(s) for s in t["seats"]]
        if not isinstance(body.name, str) or key(body.name) not in seats:
            raise ClubRefused("not_at_table", f"{body.name} does not sit at table {body.table}",
                              409, name=str(body.name)[:80], table=body.table)
        if t["table_id"] is None:
            raise ClubRefused("not_online", f"table {body.table} plays with real cards", 409,
                              table=body.table)
        seat = seats.index(key(body.name))
        name = t["seats"][seat]
        user = await logged_in(request)
        if user is None:
            raise ClubRefused("seat_key_needed", "a seat is taken with the key the organiser "
                              "hands each player, or logged in as the player's account", 401)
        player = doc.player(name)
        account = (await accounts_of(clubs, row)).get(player["member"] or "")
        if account is None or key(account) != key(user.name):
            raise ClubRefused("not_your_seat", f"{name}'s seat is not {user.name}'s: it is "
                              "taken with the key the organiser hands them", 403,
                              name=name, account=user.name)
    table = await clubs.lobby.find(t["table_id"])
    token, seat = await clubs.lobby.hand_seat(table, t["seats"][seat], seat)
    if user is not None:
        await seated_account(request, table, seat, user)
    return {"table": table.info(), "seat": seat, "token": token, "host": False}
