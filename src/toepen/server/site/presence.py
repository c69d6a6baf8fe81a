"""Who is here: players online, the tables being played, friends and invitations.

- **online**: the lobby page says it is here every few seconds (``POST /api/here``),
  and every process says so each few seconds for the accounts connected to a seat of
  its tables (with that table). An account is online for :data:`ONLINE` seconds after.
  A guest is counted, never named, unless it asks to be (``visible`` with a name); then
  it is listed marked as a guest (``"guest": true``), under a name no account has (an
  account's name is reserved, letter case and look-alike letters ignored: ``names.skeleton``),
  and at most :data:`VISIBLE_PER_ADDRESS` visible guests from one address at a time, and
  :data:`GUESTS_PER_ADDRESS` counted (a
  guest's mark is kept under its address and its browser's id, both hashed). The marks
  are kept in this process or, with ``--redis``, in Redis (the whole cluster).
- **follows** (``toepen_follows``) and **invitations** (``toepen_invitations``, migration
  ``f1_friends``): a logged-in player follows others and sees whether each is online and
  at which table; it invites someone it follows to a table it sits at that has an open
  seat; the invited player accepts (and is seated, as by joining) or declines, and the
  inviter sees which.

The answer of ``POST /api/here`` holds only names, table ids and counts: no token.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from datetime import UTC, datetime
from typing import Annotated, Any, Protocol

import sqlalchemy as sa
from fastapi import APIRouter, FastAPI, Path, Request
from pydantic import BaseModel, Field

from ...narration import Message
from ..db.store import Base
from ..names import skeleton
from ..protocol import MAX_ROW, Refused, check_name
from ..tables.lobby import Lobby, handed_out
from .accounts import Accounts, User
from .accounts import routes as accounts_routes
from .accounts.limits import MemoryWindow, RedisWindow, Window
from .playnow import limited

log = logging.getLogger("toepen.server")

ONLINE = 30.0
"""Seconds an account (or guest) counts as online after it was last here."""
BEAT = 5.0
"""Seconds between two marks of the accounts seated and connected in this process."""
MOST_SHOWN = 100
"""At most this many online players and tables are listed (the counts are complete)."""
VISIBLE_PER_ADDRESS = 5
"""At most this many guests from one address are listed by name at a time."""
GUESTS_PER_ADDRESS = 32
"""At most this many guests (browsers) from one address are counted at a time: a pub's
phones behind one router, not a client inventing ids to inflate the count."""

follows = sa.Table(
    "toepen_follows", Base.metadata,
    sa.Column("follower_id", sa.Integer, sa.ForeignKey("toepen_users.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("followee_id", sa.Integer, sa.ForeignKey("toepen_users.id", ondelete="CASCADE"),
              primary_key=True, index=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
invitations = sa.Table(
    "toepen_invitations", Base.metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("from_id", sa.Integer, sa.ForeignKey("toepen_users.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("to_id", sa.Integer, sa.ForeignKey("toepen_users.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("table_id", sa.String(12), sa.ForeignKey("toepen_tables.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("status", sa.String(10), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)
users = sa.table("toepen_users", sa.column("id", sa.Integer), sa.column("name", sa.String),
                 sa.column("kind", sa.String))


def refused(code: str, english: str, status: int = 400, **params: Any) -> Refused:
    """A refusal with its catalog message ``here.error.<code>``."""
    return Refused("bad_message" if status == 400 else "here", english, status,
                   say=Message(f"here.error.{code}", params))


class Marks(Protocol):
    """Who was here when: accounts (name: time, table) and guests (key: time, name)."""

    async def mark(self, kind: str, key: str, table: str | None, name: str | None) -> None: ...

    async def recent(self, kind: str) -> dict[str, tuple[str | None, str | None]]:
        """Everyone of ``kind`` (``u``, ``g``) here within :data:`ONLINE` seconds:
        key: (table, name)."""
        ...


class MemoryMarks:
    def __init__(self) -> None:
        self.seen: dict[str, dict[str, tuple[float, str | None, str | None]]] = {"u": {}, "g": {}}

    async def mark(self, kind: str, key: str, table: str | None, name: str | None) -> None:
        now = time.time()
        old = self.seen[kind].get(key)
        if table is None and old is not None and now - old[0] < BEAT * 2:
            table = old[1]  # the lobby page's mark does not forget a table just marked
        self.seen[kind][key] = (now, table, name)

    async def recent(self, kind: str) -> dict[str, tuple[str | None, str | None]]:
        now = time.time()
        marks = self.seen[kind]
        for key in [k for k, (at, _, _) in marks.items() if now - at > ONLINE]:
            del marks[key]
        return {k: (table, name) for k, (_, table, name) in marks.items()}


class RedisMarks:
    """The marks in Redis hashes ``toepen:here:u`` and ``toepen:here:g`` (a guest by the
    hash of its browser's id)."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis

    async def mark(self, kind: str, key: str, table: str | None, name: str | None) -> None:
        now = time.time()
        if table is None:
            old = await self.redis.hget(f"toepen:here:{kind}", key)
            if old:
                at, was, _ = json.loads(old)
                if now - at < BEAT * 2:
                    table = was
        await self.redis.hset(f"toepen:here:{kind}", key, json.dumps([now, table, name]))

    async def recent(self, kind: str) -> dict[str, tuple[str | None, str | None]]:
        now = time.time()
        out: dict[str, tuple[str | None, str | None]] = {}
        for key, text in (await self.redis.hgetall(f"toepen:here:{kind}")).items():
            at, table, name = json.loads(text)
            if now - at > ONLINE:
                await self.redis.hdel(f"toepen:here:{kind}", key)
                continue
            out[key] = (table, name)
        return out


class FriendsDb:
    """Follows and invitations in the database (synchronous: the storage thread)."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine

    def follow(self, me: int, other: int) -> None:
        with self.engine.begin() as c:
            if c.execute(sa.select(follows.c.follower_id).where(
                    follows.c.follower_id == me, follows.c.followee_id == other)).first():
                return
            c.execute(follows.insert().values(follower_id=me, followee_id=other,
                                              created=datetime.now(UTC)))

    def unfollow(self, me: int, other: int) -> bool:
        with self.engine.begin() as c:
            return bool(c.execute(follows.delete().where(
                follows.c.follower_id == me, follows.c.followee_id == other)).rowcount)

    def followed(self, me: int) -> list[tuple[int, str]]:
        with self.engine.connect() as c:
            return [(i, n) for i, n in c.execute(
                sa.select(users.c.id, users.c.name).join(
                    follows, follows.c.followee_id == users.c.id)
                .where(follows.c.follower_id == me).order_by(users.c.name))]

    def follows_me(self, me: int) -> list[str]:
        with self.engine.connect() as c:
            return [n for (n,) in c.execute(
                sa.select(users.c.name).join(follows, follows.c.follower_id == users.c.id)
                .where(follows.c.followee_id == me).order_by(users.c.name))]

    def invite(self, me: int, other: int, table_id: str) -> int:
        with self.engine.begin() as c:
            old = c.execute(sa.select(invitations.c.id).where(
                invitations.c.from_id == me, invitations.c.to_id == other,
                invitations.c.table_id == table_id, invitations.c.status == "open")).first()
            if old is not None:
                return int(old[0])
            made = c.execute(invitations.insert().values(
                from_id=me, to_id=other, table_id=table_id, status="open",
                created=datetime.now(UTC)))
            key = made.inserted_primary_key
            assert key is not None
            return int(key[0])

    def invitation(self, inv: int) -> tuple[int, int, str, str] | None:
        """(from, to, table, status) of an invitation."""
        with self.engine.connect() as c:
            row = c.execute(sa.select(invitations.c.from_id, invitations.c.to_id,
                                      invitations.c.table_id, invitations.c.status)
                            .where(invitations.c.id == inv)).first()
            return (int(row[0]), int(row[1]), str(row[2]), str(row[3])) if row else None

    def answer(self, inv: int, to: int, status: str) -> bool:
        """Mark an open invitation to ``to`` accepted or declined (False: not open)."""
        with self.engine.begin() as c:
            return bool(c.execute(invitations.update().where(
                invitations.c.id == inv, invitations.c.to_id == to,
                invitations.c.status == "open").values(status=status)).rowcount)

    def reopen(self, inv: int) -> None:
        with self.engine.begin() as c:
            c.execute(invitations.update().where(invitations.c.id == inv).values(status="open"))

    def listed(self, me: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(to me, from me): the newest 50 invitations each way."""
        sender = users.alias("sender")
        receiver = users.alias("receiver")
        q = (sa.select(invitations.c.id, sender.c.name, receiver.c.name, invitations.c.table_id,
                       invitations.c.status)
             .join(sender, sender.c.id == invitations.c.from_id)
             .join(receiver, receiver.c.id == invitations.c.to_id)
             .order_by(invitations.c.id.desc()).limit(50))
        with self.engine.connect() as c:
            to_me = [{"id": i, "from": f, "table": t, "status": s} for i, f, _, t, s in
                     c.execute(q.where(invitations.c.to_id == me))]
            from_me = [{"id": i, "to": r, "table": t, "status": s} for i, _, r, t, s in
                       c.execute(q.where(invitations.c.from_id == me))]
        return to_me, from_me


class Here(BaseModel):
    """Body of ``POST /api/here``."""

    client: str | None = Field(None, min_length=8, max_length=64)
    """A guest's browser's own random id (counted once however many tabs)."""
    visible: bool = False
    """A guest who wants to be listed by ``name``."""
    name: Any = None


class Follow(BaseModel):
    name: str = Field(max_length=200)


class Invite(BaseModel):
    to: str = Field(max_length=200)
    table: str = Field(max_length=40)


class Presence:
    """Who is here, for one server (``app.state.presence``)."""

    def __init__(self, lobby: Lobby, accounts: Accounts, redis: Any = None) -> None:
        self.lobby = lobby
        self.accounts = accounts
        self.marks: Marks = MemoryMarks() if redis is None else RedisMarks(redis)
        self.db = FriendsDb(lobby.storage.store.engine)

        def window(name: str, most: int, seconds: float) -> Window:
            return MemoryWindow(most, seconds) if redis is None else RedisWindow(
                redis, name, most, seconds)

        self.beats = window("here", 300, 60.0)
        """Marks per client address (a page says it is here every 10 s)."""
        self.changes = window("friends", 60, 3600.0)
        """Follows, unfollows and invitations per account: 60 an hour."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                await self.mark_seated()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("presence: marking the seated accounts failed")
            await asyncio.sleep(BEAT)

    async def mark_seated(self) -> None:
        """Mark the accounts connected to a seat of a table of this process."""
        for table in list(self.lobby.tables.values()):
            if table.row.status == "over" or not table.clients:
                continue
            for seat in table.seats:
                if seat.kind == "human" and seat.account and table.connected(seat.seat):
                    await self.marks.mark("u", seat.account, table.id, None)

    async def here(self, request: Request, body: Here) -> dict[str, Any]:
        """Mark the asker here; answer who is here (and, logged in, its friends)."""
        await limited(request, self.beats, "requests", area="here")
        user = await accounts_routes.player(request)
        if user is not None:
            await self.marks.mark("u", user.name, None, None)
        elif body.client is not None:
            name = None
            if body.visible:
                if body.name is None:
                    raise refused("name", "name: a visible guest needs a name")
                name = check_name(body.name, self.lobby.limits.name_length)
            address = request.client.host if request.client else "unknown"
            where = hashlib.sha256(address.encode()).hexdigest()[:16]
            key = f"{where}:{hashlib.sha256(body.client.encode()).hexdigest()[:32]}"
            counted = await self._may_count(key, where)
            if name is not None:
                try:
                    await self._may_show(name, key, where)
                except Refused:
                    if counted:
                        await self.marks.mark("g", key, None, None)  # here, counted, unnamed
                    raise
            if counted:
                await self.marks.mark("g", key, None, name)
        online = await self.marks.recent("u")
        guests = await self.marks.recent("g")
        shown = sorted(online)[:MOST_SHOWN]
        taken = {skeleton(n) for n in online}  # an account made since the guest's mark
        named = sorted(n for _, n in guests.values() if n and skeleton(n) not in taken
                       )[:MOST_SHOWN]
        tables = [{"id": t.id, "preset": t.row.preset, "size": t.row.size,
                   "players": [s.name for s in t.seats]}
                  for t in self.lobby.listed("playing", MOST_SHOWN) if not handed_out(t)]
        out: dict[str, Any] = {
            "online": [{"name": n, "table": online[n][0], "guest": False} for n in shown],
            "guests": [{"name": n, "guest": True} for n in named],
            "counts": {"accounts": len(online), "guests": len(guests)},
            "tables": tables, "me": user.name if user else None,
        }
        if user is not None:
            out.update(await self.friends(user, online))
        return out

    async def _may_count(self, key: str, where: str) -> bool:
        """Whether the guest ``key`` is counted: already marked, or fewer than
        :data:`GUESTS_PER_ADDRESS` guests of its address are (one more is answered as
        usual, neither counted nor listed)."""
        guests = await self.marks.recent("g")
        if key in guests:
            return True
        return sum(1 for k in guests if k.startswith(f"{where}:")) < GUESTS_PER_ADDRESS

    async def _may_show(self, name: str, key: str, where: str) -> None:
        """A guest may be listed as ``name`` (else Refused): no account's name, and
        fewer than :data:`VISIBLE_PER_ADDRESS` other visible guests from its address."""
        looks = skeleton(name)
        if await self.accounts.user(name) is not None or (
                looks != name.casefold() and await self.accounts.user(looks) is not None):
            raise refused("name_taken", f"name: {name!r} is an account's; log in to use it",
                          409, name=name)
        shown = [k for k, (_, n) in (await self.marks.recent("g")).items()
                 if n and k.startswith(f"{where}:") and k != key]
        if len(shown) >= VISIBLE_PER_ADDRESS:
            raise refused("guests", f"at most {VISIBLE_PER_ADDRESS} guests from one address "
                          "are listed by name", 429, n=VISIBLE_PER_ADDRESS)

    async def friends(self, user: User, online: dict[str, tuple[str | None, str | None]]
                      ) -> dict[str, Any]:
        followed = await self.accounts.run(self.db.followed, user.id)
        followers = await self.accounts.run(self.db.follows_me, user.id)
        to_me, from_me = await self.accounts.run(self.db.listed, user.id)
        mine = [{"id": t.id, "preset": t.row.preset, "size": t.row.size}
                for t in self.lobby.tables.values()
                if t.row.status == "lobby" and not handed_out(t)
                and any(s.account == user.name for s in t.seats)
                and any(s.kind == "open" for s in t.seats)]
        return {
            "friends": [{"name": n, "online": n in online,
                         "table": online[n][0] if n in online else None}
                        for _, n in followed],
            "followers": followers, "invitations": to_me, "sent": from_me, "my_tables": mine,
        }

    async def _need(self, request: Request) -> User:
        user = await accounts_routes.player(request)
        if user is None:
            raise refused("login", "log in first: friends and invitations are for accounts",
                          401)
        await limited(request, self.changes, "changes", key=f"u:{user.id}", area="here")
        return user

    async def _other(self, me: User, name: str) -> User:
        other = await self.accounts.user(name.strip())
        if other is None or other.kind != "person":
            raise refused("no_player", f"no player {name!r}", 404, name=name[:40])
        if other.id == me.id:
            raise refused("self", "that is you")
        return other

    async def follow(self, request: Request, name: str) -> dict[str, Any]:
        me = await self._need(request)
        other = await self._other(me, name)
        await self.accounts.run(self.db.follow, me.id, other.id)
        return {"following": other.name}

    async def unfollow(self, request: Request, name: str) -> dict[str, Any]:
        me = await self._need(request)
        other = await self._other(me, name)
        await self.accounts.run(self.db.unfollow, me.id, other.id)
        return {"following": None}

    async def invite(self, request: Request, body: Invite) -> dict[str, Any]:
        me = await self._need(request)
        other = await self._other(me, body.to)
        if other.id not in {i for i, _ in await self.accounts.run(self.db.followed, me.id)}:
            raise refused("not_followed", f"follow {other.name} first to invite them", 403,
                          name=other.name)
        try:
            table = await self.lobby.find(body.table)
        except Refused:
            raise refused("table", f"no table {body.table!r}", 404) from None
        if not any(s.account == me.name for s in table.seats):
            raise refused("not_seated", "invite to a table you sit at", 403)
        self._check_open(table, other)
        inv = await self.accounts.run(self.db.invite, me.id, other.id, table.id)
        return {"id": inv, "to": other.name, "table": table.id, "status": "open"}

    def _check_open(self, table: Any, other: User) -> None:
        if table.row.status != "lobby" or not any(s.kind == "open" for s in table.seats):
            raise refused("table_full", "the table has no open seat (or has started)", 409)
        if any(s.account == other.name for s in table.seats):
            raise refused("seated", f"{other.name} already sits at this table", 409,
                          name=other.name)

    async def respond(self, request: Request, inv: int, accept: bool) -> dict[str, Any]:
        """Accept (seated: the protocol's ``Joined`` parts) or decline an invitation."""
        me = await self._need(request)
        found = await self.accounts.run(self.db.invitation, inv)
        if found is None or found[1] != me.id:
            raise refused("invitation", "no such invitation to you", 404)
        if found[3] != "open":
            raise refused("answered", f"this invitation is already {found[3]}", 409)
        if not accept:
            await self.accounts.run(self.db.answer, inv, me.id, "declined")
            return {"id": inv, "status": "declined"}
        try:
            table = await self.lobby.find(found[2])
        except Refused:
            raise refused("table", "the table is gone", 404) from None
        self._check_open(table, me)
        if not await self.accounts.run(self.db.answer, inv, me.id, "accepted"):
            raise refused("answered", "this invitation is already answered", 409)
        try:
            token, seat = await self.lobby.join(table, me.name)
        except Refused:
            await self.accounts.run(self.db.reopen, inv)
            raise
        await self.accounts.created(table, seat, me)
        return {"id": inv, "status": "accepted", "table": table.info(), "seat": seat,
                "token": token, "host": False}


router = APIRouter()
Invitation = Annotated[int, Path(ge=1, le=MAX_ROW, description="the invitation's id")]
"""An invitation's id in a path: a row id, bounded (a longer one is a 422 naming it)."""


def presence_of(request: Request) -> Presence:
    presence: Presence = request.app.state.presence
    return presence


@router.post("/api/here")
async def here(body: Here, request: Request) -> dict[str, Any]:
    """I am here (the lobby page, every 10 s); who else is."""
    return await presence_of(request).here(request, body)


@router.post("/api/follows")
async def follow(body: Follow, request: Request) -> dict[str, Any]:
    """Follow a player (logged in)."""
    return await presence_of(request).follow(request, body.name)


@router.post("/api/follows/remove")
async def unfollow(body: Follow, request: Request) -> dict[str, Any]:
    """Stop following a player."""
    return await presence_of(request).unfollow(request, body.name)


@router.post("/api/invitations", status_code=201)
async def invite(body: Invite, request: Request) -> dict[str, Any]:
    """Invite a player one follows to a table one sits at (with an open seat)."""
    return await presence_of(request).invite(request, body)


@router.post("/api/invitations/{inv}/accept")
async def accept(inv: Invitation, request: Request) -> dict[str, Any]:
    """Accept an invitation: seated at its table (the answer holds the seat's token)."""
    return await presence_of(request).respond(request, inv, True)


@router.post("/api/invitations/{inv}/decline")
async def decline(inv: Invitation, request: Request) -> dict[str, Any]:
    """Decline an invitation (its sender sees it declined)."""
    return await presence_of(request).respond(request, inv, False)


async def start(app: FastAPI, lobby: Lobby) -> Presence | None:
    """Who is here, on ``app.state.presence`` (marks in Redis with ``--redis``)."""
    accounts: Accounts | None = getattr(app.state, "accounts", None)
    if accounts is None:
        return None
    presence = Presence(lobby, accounts, accounts.redis)
    app.state.presence = presence
    presence.start()
    return presence


async def stop(app: FastAPI) -> None:
    presence: Presence | None = getattr(app.state, "presence", None)
    if presence is not None:
        await presence.close()
