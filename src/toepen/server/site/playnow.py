"""Play now: a queue per preset and table size that seats waiting people together.

A player asks for a game (``POST /api/playnow``: preset, size, how long to wait for
people, which bot fills the empty seats) and gets a *ticket*: a secret that is also the
seat token of the seat it will get (the queue keeps only its hash, so no token is stored
or sent between processes). The browser asks ``GET /api/playnow`` with the ticket as
its bearer token about once a second; the answer is ``waiting`` (with the counts),
``seated`` (the table and seat: the ticket is now the seat's token), ``replaced`` (the
same person asked again, in another tab), ``gone`` (left, or not asked for so long that
the tab was closed) or ``failed``.

The matcher (:meth:`PlayNow.match_once`, every :data:`TICK` seconds while anyone waits,
at once when someone asks; in a cluster in one process at a time, under a Redis lock)
seats, for each preset and size:

- ``size`` waiting people together as soon as there are that many: the one waiting
  longest and those closest to its rating (logged-in players with a rating of the
  preset and size; the others after them, longest waiting first);
- once someone's wait is over (``0``: at once, ``15``, ``60`` seconds; ``None``: as long
  as it takes, never with bots), that person with the others waiting for the same game
  who accept bots at all, and the bot that person chose in the empty seats.

The queue lives in this process (:class:`MemoryQueue`) or, with ``--redis``, in Redis
(:class:`RedisQueue`), shared by every process: a person's second ticket replaces the
first, wherever it was made. The tables are ordinary autostart lobby tables (casual),
made by the process that matched them; in a cluster the other processes read them from
the database when their players connect.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Annotated, Any, Protocol

from fastapi import APIRouter, FastAPI, Header, Request
from pydantic import BaseModel, Field

from ...narration import Message
from ...rules import Rules, RulesError
from ..protocol import Refused, check_name
from ..tables.lobby import ASKED, Lobby
from ..tables.table import Table, token_hash
from .accounts import Accounts
from .accounts import routes as accounts_routes
from .accounts.limits import MemoryWindow, RedisWindow, Window, client_key

log = logging.getLogger("toepen.server")

WAITS: tuple[int | None, ...] = (0, 15, 60, None)
"""How long a player waits for people before bots fill the empty seats (seconds; None:
as long as it takes)."""
TICK = 0.3
"""Seconds between two rounds of the matcher while anyone waits."""
STALE = 12.0
"""A ticket not asked about for this long is dropped (its tab was closed)."""
RESULT_KEPT = 300
"""Seconds an answer (seated, replaced...) is kept for its ticket."""
CREATOR = ASKED
"""The start of the ``creator`` of a table the queue made (then the first asker's
address: the table counts against it for ``tables_per_client``, :func:`lobby.owners`)."""
MAX_TICKETS = 10_000
"""At most this many people wait at once (bounded memory)."""
SEATING = {"status": "waiting", "seating": True}
"""The answer for a ticket the matcher took, until its table is made."""


def refused(code: str, english: str, status: int = 400, **params: Any) -> Refused:
    """A refusal of the queue with its catalog message ``playnow.error.<code>``."""
    return Refused("bad_message" if status == 400 else "playnow", english, status,
                   say=Message(f"playnow.error.{code}", params))


@dataclass
class Ticket:
    """One person waiting (``id`` is the hash of the ticket's secret)."""

    id: str
    person: str
    name: str
    account: str | None
    rating: float | None
    preset: str
    size: int
    wait: int | None
    bot: str
    since: float
    address: str = ""
    """The asker's client address (its tables count against it)."""

    @property
    def key(self) -> tuple[str, int]:
        return self.preset, self.size

    @property
    def owners(self) -> frozenset[str]:
        """Whom the ticket's table counts against: its address and its account."""
        return asker_keys(self.address, self.account)

    def due(self, now: float) -> bool:
        """The wait for people is over: bots may fill the empty seats."""
        return self.wait is not None and now - self.since >= self.wait

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def of(cls, text: str) -> Ticket:
        return cls(**json.loads(text))


def asker_keys(address: str, account: str | None) -> frozenset[str]:
    """The keys a play-now table counts against (:func:`toepen.server.tables.lobby.owners`):
    the client's address, and ``u:NAME`` for a logged-in player.

    >>> sorted(asker_keys("10.0.0.1", "Ann")), sorted(asker_keys("10.0.0.1", None))
    (['10.0.0.1', 'u:Ann'], ['10.0.0.1'])
    """
    return frozenset(k for k in (address, f"u:{account}" if account else "") if k)


def choose(waiting: list[Ticket], size: int, now: float) -> tuple[list[Ticket], str | None]:
    """The next group to seat from ``waiting`` (one preset and size, longest waiting
    first) and the bot for its empty seats (None: no bots); ``[]`` if none yet.

    >>> t = lambda i, r=None, w=60, s=0.0: Ticket(str(i), str(i), str(i), None, r, "x", 3,
    ...                                           w, "random", s)
    >>> [x.id for x in choose([t(1, 20), t(2, 5), t(3, 19), t(4, 21)], 3, 1.0)[0]]
    ['1', '3', '4']
    >>> choose([t(1), t(2)], 3, 1.0)
    ([], None)
    >>> g, bot = choose([t(1, s=-100), t(2, w=None), t(3)], 4, 1.0)  # three of four: bots
    >>> [x.id for x in g], bot
    (['1', '3'], 'random')
    """
    if not waiting:
        return [], None
    if len(waiting) >= size:
        first = waiting[0]
        return [first, *near(first, waiting[1:])[:size - 1]], None
    due = [t for t in waiting if t.due(now)]
    if not due:
        return [], None
    first = due[0]
    others = [t for t in waiting if t is not first and t.wait is not None]
    return [first, *near(first, others)[:size - 1]], first.bot


def near(first: Ticket, others: list[Ticket]) -> list[Ticket]:
    """``others`` closest to ``first``'s rating first (those without one after them),
    longest waiting first among equals."""
    def distance(t: Ticket) -> tuple[int, float, float]:
        if first.rating is None or t.rating is None:
            return 1, 0.0, t.since
        return 0, abs(t.rating - first.rating), t.since
    return sorted(others, key=distance)


class QueueStore(Protocol):
    """Where the tickets are: this process, or Redis for a cluster."""

    async def put(self, ticket: Ticket) -> str | None:
        """Add ``ticket``; a ticket of the same person is replaced (its id returned)."""
        ...

    async def touch(self, tid: str) -> bool:
        """The ticket was asked about (False: it is not waiting)."""
        ...

    async def get(self, tid: str) -> Ticket | None: ...

    async def drop(self, tid: str) -> bool:
        """Remove a waiting ticket (False: it was not waiting)."""
        ...

    async def take(self, tickets: list[Ticket]) -> bool:
        """Remove all of ``tickets`` at once, or (one is no longer waiting) none."""
        ...

    async def waiting(self) -> list[tuple[Ticket, float]]:
        """Every waiting ticket with when it was last asked about."""
        ...

    async def tell(self, tid: str, answer: dict[str, Any]) -> None: ...

    async def answer(self, tid: str) -> dict[str, Any] | None: ...

    def matcher(self) -> contextlib.AbstractAsyncContextManager[bool]:
        """Whether this process matches now (one at a time)."""
        ...

    async def anyone(self) -> bool:
        """Whether anyone is waiting (the matcher has work)."""
        ...

    count_every: float
    """Counts at most this old are answered as they are (counted on demand)."""
    idle_every: float
    """Seconds between two looks at an empty queue (a person asking here wakes the
    matcher at once; the look finds the tickets of a process that is gone)."""
    publish_every: float
    """Seconds between two publications of this process's counts of people playing
    (0: none, one process)."""

    async def playing(self, mine: dict[str, int]) -> dict[str, int]:
        """Publish this process's counts of people playing (``preset/size``: n) and
        answer the sum over every process."""
        ...


class MemoryQueue:
    """The queue of one server process."""

    def __init__(self) -> None:
        self.tickets: dict[str, Ticket] = {}
        self.seen: dict[str, float] = {}
        self.people: dict[str, str] = {}
        self.answers: dict[str, tuple[float, dict[str, Any]]] = {}

    async def put(self, ticket: Ticket) -> str | None:
        if len(self.tickets) >= MAX_TICKETS:
            raise refused("full", "too many people are waiting: try again soon", 503)
        old = self.people.get(ticket.person)
        if old is not None and old in self.tickets:
            await self.drop(old)
            await self.tell(old, {"status": "replaced"})
        self.tickets[ticket.id] = ticket
        self.seen[ticket.id] = time.time()
        self.people[ticket.person] = ticket.id
        return old

    async def touch(self, tid: str) -> bool:
        if tid not in self.tickets:
            return False
        self.seen[tid] = time.time()
        return True

    async def get(self, tid: str) -> Ticket | None:
        return self.tickets.get(tid)

    async def drop(self, tid: str) -> bool:
        ticket = self.tickets.pop(tid, None)
        self.seen.pop(tid, None)
        if ticket is None:
            return False
        if self.people.get(ticket.person) == tid:
            del self.people[ticket.person]
        return True

    async def take(self, tickets: list[Ticket]) -> bool:
        if any(t.id not in self.tickets for t in tickets):
            return False
        for t in tickets:
            await self.drop(t.id)
            await self.tell(t.id, SEATING)
        return True

    async def waiting(self) -> list[tuple[Ticket, float]]:
        return [(t, self.seen.get(tid, 0.0)) for tid, t in self.tickets.items()]

    async def tell(self, tid: str, answer: dict[str, Any]) -> None:
        now = time.time()
        self.answers[tid] = (now, answer)
        for old in [k for k, (at, _) in self.answers.items() if now - at > RESULT_KEPT]:
            del self.answers[old]

    async def answer(self, tid: str) -> dict[str, Any] | None:
        kept = self.answers.get(tid)
        return kept[1] if kept else None

    count_every = TICK
    idle_every = 2.0
    publish_every = 0.0

    @contextlib.asynccontextmanager
    async def matcher(self) -> AsyncIterator[bool]:
        yield True

    async def anyone(self) -> bool:
        return bool(self.tickets)

    async def playing(self, mine: dict[str, int]) -> dict[str, int]:
        return mine


PUT = """
local old = redis.call('hget', KEYS[3], ARGV[2])
if old and redis.call('hdel', KEYS[1], old) == 1 then
  redis.call('hdel', KEYS[2], old)
  redis.call('set', ARGV[5] .. old, '{"status": "replaced"}', 'EX', ARGV[6])
else
  old = false
end
if redis.call('hlen', KEYS[1]) >= tonumber(ARGV[7]) then return {0, ''} end
redis.call('hset', KEYS[1], ARGV[1], ARGV[3])
redis.call('hset', KEYS[2], ARGV[1], ARGV[4])
redis.call('hset', KEYS[3], ARGV[2], ARGV[1])
return {1, old or ''}
"""
"""Add a ticket (ARGV: id, person, json, now, answer prefix, answer seconds, most),
replacing the person's older one."""
TAKE = """
for i = 1, #ARGV, 2 do
  if redis.call('hexists', KEYS[1], ARGV[i]) == 0 then return 0 end
end
for i = 1, #ARGV, 2 do
  redis.call('hdel', KEYS[1], ARGV[i])
  redis.call('hdel', KEYS[2], ARGV[i])
  if redis.call('hget', KEYS[3], ARGV[i + 1]) == ARGV[i] then
    redis.call('hdel', KEYS[3], ARGV[i + 1])
  end
  redis.call('set', KEYS[4] .. ARGV[i], KEYS[5], 'EX', 300)
end
return 1
"""
"""Remove the tickets (ARGV: id, person, id, person...) all at once, or none; each
answered "being seated" until its seat is told (KEYS[4]: the answers' prefix, KEYS[5]:
the answer)."""
TOUCH = """
if redis.call('hexists', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('hset', KEYS[2], ARGV[1], ARGV[2])
return 1
"""
UNLOCK = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class RedisQueue:
    """The queue in Redis, shared by every process of a cluster (``--redis``). Keys:
    ``toepen:pn:t`` (ticket id: ticket), ``toepen:pn:seen``, ``toepen:pn:who`` (person:
    ticket id), ``toepen:pn:a:<id>`` (an answer), ``toepen:pn:lock`` (the matcher),
    ``toepen:pn:play`` (process: its counts of people playing)."""

    T, SEEN, WHO, LOCK, PLAY, ANSWER = ("toepen:pn:t", "toepen:pn:seen", "toepen:pn:who",
                                        "toepen:pn:lock", "toepen:pn:play", "toepen:pn:a:")
    count_every = 1.0
    """A count is a few round trips: at most once a second, and only when asked for."""
    idle_every = 2.0
    """An idle process looks at the empty queue every 2 s (every matcher tick, 0.3 s,
    these looks and the counts once a second were 7 of an idle process's 8 Redis
    commands a second, and about a fifth of its CPU)."""
    publish_every = 5.0
    """Each process publishes its counts of people playing every 5 s (the sum leaves out
    a process silent for three times as long: gone)."""

    def __init__(self, redis: Any, proc: str) -> None:
        self.redis = redis
        self.proc = proc
        self._put = redis.register_script(PUT)
        self._take = redis.register_script(TAKE)
        self._touch = redis.register_script(TOUCH)
        self._unlock = redis.register_script(UNLOCK)

    async def put(self, ticket: Ticket) -> str | None:
        ok, old = await self._put(keys=[self.T, self.SEEN, self.WHO], args=[
            ticket.id, ticket.person, ticket.to_json(), time.time(), self.ANSWER,
            RESULT_KEPT, MAX_TICKETS])
        if not int(ok):
            raise refused("full", "too many people are waiting: try again soon", 503)
        return str(old) or None

    async def touch(self, tid: str) -> bool:
        return bool(int(await self._touch(keys=[self.T, self.SEEN], args=[tid, time.time()])))

    async def get(self, tid: str) -> Ticket | None:
        text = await self.redis.hget(self.T, tid)
        return Ticket.of(text) if text else None

    async def drop(self, tid: str) -> bool:
        ticket = await self.get(tid)
        if ticket is None:
            return False
        return await self.take([ticket])

    async def take(self, tickets: list[Ticket]) -> bool:
        args = [x for t in tickets for x in (t.id, t.person)]
        keys = [self.T, self.SEEN, self.WHO, self.ANSWER, json.dumps(SEATING)]
        return bool(int(await self._take(keys=keys, args=args)))

    async def waiting(self) -> list[tuple[Ticket, float]]:
        tickets = await self.redis.hgetall(self.T)
        seen = await self.redis.hgetall(self.SEEN)
        return [(Ticket.of(text), float(seen.get(tid, 0.0))) for tid, text in tickets.items()]

    async def tell(self, tid: str, answer: dict[str, Any]) -> None:
        await self.redis.set(self.ANSWER + tid, json.dumps(answer), ex=RESULT_KEPT)

    async def answer(self, tid: str) -> dict[str, Any] | None:
        text = await self.redis.get(self.ANSWER + tid)
        return json.loads(text) if text else None

    async def anyone(self) -> bool:
        return bool(await self.redis.hlen(self.T))

    @contextlib.asynccontextmanager
    async def matcher(self) -> AsyncIterator[bool]:
        mine = secrets.token_hex(8)
        got = await self.redis.set(self.LOCK, mine, nx=True, px=5000)
        try:
            yield bool(got)
        finally:
            if got:
                await self._unlock(keys=[self.LOCK], args=[mine])

    async def playing(self, mine: dict[str, int]) -> dict[str, int]:
        now = time.time()
        await self.redis.hset(self.PLAY, self.proc, json.dumps({"at": now, "n": mine}))
        total: dict[str, int] = {}
        for proc, text in (await self.redis.hgetall(self.PLAY)).items():
            kept = json.loads(text)
            if now - kept["at"] > 3 * self.publish_every:  # a process gone
                await self.redis.hdel(self.PLAY, proc)
                continue
            for k, n in kept["n"].items():
                total[k] = total.get(k, 0) + int(n)
        return total


Seated = Callable[[Table, int, str], Awaitable[None]]
"""Told that a logged-in player (by account name) got a seat (the accounts link it)."""


class PlayNow:
    """The play-now queue of a server: tickets, the matcher, the counts."""

    def __init__(self, lobby: Lobby, store: QueueStore | None = None,
                 seated: Seated | None = None) -> None:
        self.lobby = lobby
        self.store: QueueStore = store or MemoryQueue()
        self.seated = seated
        self.counts: dict[str, dict[str, int]] = {}
        """``preset/size``: ``waiting`` and ``playing`` (the last count's: see
        :meth:`fresh_counts`)."""
        self._counted = -1e9
        self._counting = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._idle = False
        """The matcher sleeps the long sleep of an empty queue (:meth:`nudge` wakes it)."""
        self.asks: Window = MemoryWindow(60, 60.0)
        """Requests for a game per client address."""
        self.polls: Window = MemoryWindow(600, 60.0)
        """Questions about a ticket (status, leave) per client address."""
        self._seating: list[Ticket] = []
        """Tickets taken by the matcher whose table is being made (still promised)."""

    # -- the player's requests ------------------------------------------------------------

    def check(self, preset: Any, size: Any, wait: Any, bot: Any) -> tuple[str, int, int | None,
                                                                          str]:
        """The request's preset, size, wait and bot, or Refused naming what is wrong."""
        if not isinstance(preset, str) or len(preset) > 40:
            raise refused("preset", "preset: a preset's name is needed", preset="")
        try:
            rules = Rules.preset(preset)
        except RulesError:
            raise refused("preset", f"preset: no preset {preset!r}", preset=preset) from None
        allowed = rules.allowed_table_sizes()
        if not isinstance(size, int) or isinstance(size, bool) or size not in allowed:
            sizes = ", ".join(map(str, allowed))
            raise refused("size", f"size: {sizes} for {preset}, not {size!r}",
                          size=str(size), sizes=sizes)
        if wait not in WAITS or isinstance(wait, bool):
            raise refused("wait", f"wait: 0, 15, 60 or null (as long as it takes), not {wait!r}")
        if not isinstance(bot, str) or len(bot) > 40:
            raise refused("bot", "bot: a bot's name is needed", bot="")
        try:
            bot = self.lobby.bots.resolve(bot)
        except ValueError:
            raise refused("bot", f"bot: no bot {bot!r}", bot=bot) from None
        return rules.name, size, wait, bot

    async def ask(self, *, preset: str, size: int, wait: int | None, bot: str, name: str,
                  person: str, account: str | None, rating: float | None,
                  address: str = "") -> str:
        """Put a person in the queue; answer the ticket's secret (its seat token).

        The table a ticket will get counts against the asker (``address``, and the
        account) as a created table does: refused (429) when its open tables, its other
        waiting tickets and those being seated reach ``tables_per_client``."""
        check_name(name, self.lobby.limits.name_length)
        keys = asker_keys(address, account)
        if keys:
            self.lobby.check_tables(keys, await self.promised(keys, person))
        secret = secrets.token_urlsafe(24)
        await self.store.put(Ticket(id=token_hash(secret), person=person, name=name,
                                    account=account, rating=rating, preset=preset, size=size,
                                    wait=wait, bot=bot, since=time.time(), address=address))
        self.start()
        self._wake.set()  # a round now (after the one under way, if any)
        return secret

    async def promised(self, keys: frozenset[str], person: str | None = None) -> int:
        """Tables promised to the client of ``keys`` (an address, an account): its
        waiting tickets (but ``person``'s, which a new ask replaces) and those being
        seated."""
        waiting = [t for t, _seen in await self.store.waiting()
                   if t.person != person and keys & t.owners]
        return len(waiting) + sum(1 for t in self._seating if keys & t.owners)

    async def status(self, secret: str) -> dict[str, Any]:
        """Where a ticket stands (``waiting`` with the counts, or its answer)."""
        tid = token_hash(secret)
        if await self.store.touch(tid):
            ticket = await self.store.get(tid)
            if ticket is not None:
                self.nudge()  # (the process that took it may be gone)
                counts = await self.fresh_counts()
                return {"status": "waiting", "preset": ticket.preset, "size": ticket.size,
                        "waited": round(time.time() - ticket.since, 1),
                        "counts": counts.get(f"{ticket.preset}/{ticket.size}",
                                             {"waiting": 0, "playing": 0})}
        answer = await self.store.answer(tid)
        if answer is None:
            raise refused("ticket", "no such ticket: it expired or was never made", 404)
        return answer

    async def leave(self, secret: str) -> dict[str, Any]:
        """Leave the queue (a seat already given stays: its answer is returned)."""
        tid = token_hash(secret)
        if await self.store.drop(tid):
            await self.store.tell(tid, {"status": "gone"})
            return {"status": "gone"}
        return await self.status(secret)

    # -- the matcher ----------------------------------------------------------------------

    def start(self) -> None:
        """Run the matcher (once; it runs until :meth:`close`)."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())

    def nudge(self) -> None:
        """Someone waits (a ticket was asked after): a matcher asleep on an empty queue
        looks now; one that runs its rounds already is left to them (a person asking
        wakes it in any case)."""
        if self._idle:
            self._wake.set()

    async def close(self) -> None:
        """Stop the matcher. Cancelled again until it ends: a cancellation that
        arrives as ``asyncio.wait_for`` finishes (its wake-up set just then) is lost
        in Python 3.11, and the matcher would go on (the server's shutdown hung)."""
        task = self._task
        while task is not None and not task.done():
            task.cancel()
            await asyncio.wait([task], timeout=1.0)
        if task is not None and not task.cancelled():
            with contextlib.suppress(Exception):
                task.result()

    async def _run(self) -> None:
        """The matcher: a round every :data:`TICK` while anyone waits; on an empty
        queue a look every ``idle_every`` seconds, or at once when nudged (someone asks,
        or asks after a ticket, here). Every ``publish_every`` seconds the counts, which
        publish this process's players to the others."""
        published = -1e9
        loop = asyncio.get_running_loop()
        while True:
            self._wake.clear()
            busy = True
            try:
                busy = await self.store.anyone()
                if busy:  # an empty queue: no lock to take
                    async with self.store.matcher() as mine:
                        if mine:
                            await self.match_once()
                every = self.store.publish_every
                if every and loop.time() - published >= every:
                    published = loop.time()
                    await self.fresh_counts(0.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - one bad round must not stop the queue
                log.exception("play now: the matcher failed this round")
            self._idle = not busy
            try:
                await asyncio.wait_for(self._wake.wait(),
                                       self.store.idle_every if self._idle else TICK)
            except TimeoutError:
                pass
            finally:
                self._idle = False

    async def fresh_counts(self, most: float | None = None) -> dict[str, dict[str, int]]:
        """The counts, counted again if older than ``most`` seconds (the store's
        ``count_every``): one count at a time; a failed count leaves the last one."""
        async with self._counting:
            now = asyncio.get_running_loop().time()
            if now - self._counted >= (self.store.count_every if most is None else most):
                try:
                    await self.count()
                except Exception:  # noqa: BLE001 - the last counts stand
                    log.exception("play now: counting failed")
                self._counted = asyncio.get_running_loop().time()
        return self.counts

    async def count(self) -> None:
        """The counts of people waiting and playing per preset and size."""
        playing: dict[str, int] = {}
        owns = self.lobby.seam.owns  # in a cluster each table counted by its owner only
        for table in self.lobby.tables.values():
            if table.row.status != "playing" or not owns(table.id):
                continue
            k = f"{table.row.preset}/{table.row.size}"
            playing[k] = playing.get(k, 0) + sum(1 for s in table.seats if s.kind == "human")
        playing = await self.store.playing(playing)
        waiting: dict[str, int] = {}
        for ticket, _seen in await self.store.waiting():
            k = f"{ticket.preset}/{ticket.size}"
            waiting[k] = waiting.get(k, 0) + 1
        self.counts = {k: {"waiting": waiting.get(k, 0), "playing": playing.get(k, 0)}
                       for k in sorted({*waiting, *playing})}

    async def match_once(self) -> int:
        """One round: drop the closed tabs' tickets, seat every group that is ready;
        answers how many tables were made."""
        now = time.time()
        groups: dict[tuple[str, int], list[Ticket]] = {}
        for ticket, seen in await self.store.waiting():
            if now - seen > STALE:
                if await self.store.drop(ticket.id):
                    await self.store.tell(ticket.id, {"status": "gone"})
                continue
            groups.setdefault(ticket.key, []).append(ticket)
        made = 0
        for (_preset, size), waiting in groups.items():
            waiting.sort(key=lambda t: t.since)
            while True:
                group, bot = choose(waiting, size, now)
                if not group:
                    break
                for t in group:
                    waiting.remove(t)
                if await self.store.take(group):
                    self._seating.extend(group)
                    try:
                        await self.seat(group, bot)
                    finally:
                        self._seated(group)
                    made += 1
        return made

    def _seated(self, group: list[Ticket]) -> None:
        """The tickets of ``group`` are no longer being seated (their table is made, or
        failed)."""
        self._seating = [t for t in self._seating if all(t is not g for g in group)]

    async def seat(self, group: list[Ticket], bot: str | None) -> Table | None:
        """A table for ``group`` (bots in the other seats); each ticket told its seat."""
        first = group[0]
        try:
            # counted against its askers when they asked (the tickets promised it)
            table, _host, _ = await self.lobby.create(
                preset=first.preset, options={}, size=first.size,
                bots={i: bot for i in range(len(group), first.size) if bot is not None},
                name=None, idle_seconds=60.0, autostart=True,
                creator=f"{CREATOR}{first.address or first.id[:16]}"[:64], per_client=False)
            table.askers = frozenset().union(*(t.owners for t in group))
            self._seated(group)  # no longer promised: the table counts now
            for seat, t in enumerate(group):
                await self.lobby.join(table, t.name, seat, thash=t.id)
                if t.account is not None and self.seated is not None:
                    await self.seated(table, seat, t.account)
        except Refused as e:
            log.warning("play now: no table for %d players: %s", len(group), e.message)
            for t in group:
                await self.store.tell(t.id, {"status": "failed", "detail": e.message,
                                             "say": e.say_json()})
            return None
        for seat, t in enumerate(group):
            await self.store.tell(t.id, {"status": "seated", "table": table.id, "seat": seat,
                                         "bots": first.size - len(group)})
        return table


def person_of(user_id: int | None, client: str | None, secretless: str) -> str:
    """Who a ticket is for: an account, else the browser's own id (a second tab of the
    same browser replaces the first), else nobody else (``secretless``)."""
    if user_id is not None:
        return f"u:{user_id}"
    if client:
        return "g:" + hashlib.sha256(client.encode()).hexdigest()[:32]
    return "n:" + secretless


# -- over HTTP -------------------------------------------------------------------------------

router = APIRouter()


class Ask(BaseModel):
    """Body of ``POST /api/playnow``; every field is checked by :meth:`PlayNow.check`
    (so that a wrong one is named in the player's language)."""

    preset: Any = "rulebook"
    size: Any = 4
    wait: Any = 15
    """Seconds to wait for people before bots fill the empty seats: 0, 15, 60, or null
    (as long as it takes)."""
    bot: Any = "default"
    name: Any = None
    """A guest's name (a logged-in player plays under the account's)."""
    client: str | None = Field(None, min_length=8, max_length=64)
    """The browser's own random id: its second ticket replaces the first (a second tab)."""


class Leave(BaseModel):
    """Body of ``POST /api/playnow/leave`` (a closing tab's beacon)."""

    ticket: str = Field(max_length=100)


def playnow_of(request: Request) -> PlayNow:
    queue: PlayNow = request.app.state.playnow
    return queue


def ticket_of(authorization: str | None) -> str:
    if not authorization or not authorization.startswith("Bearer ") or len(authorization) > 120:
        raise refused("ticket", "Authorization: Bearer TICKET (the ticket POST /api/playnow "
                      "gave) is needed", 401)
    return authorization[7:].strip()


async def limited(request: Request, window: Window, what: str, key: str | None = None,
                  area: str = "playnow") -> None:
    """Count a request of the client's address (or ``key``) in ``window``; past its limit
    Refused 429 with ``<area>.error.rate_limited``."""
    wait = await window.take(key or (request.client.host if request.client else "unknown"))
    if wait > 0:
        seconds = max(1, int(wait + 0.999))
        raise Refused(area, f"too many {what}: try again in {seconds} s", 429,
                      say=Message(f"{area}.error.rate_limited", {"seconds": seconds}),
                      retry_after=seconds)


@router.post("/api/playnow", status_code=201)
async def ask(body: Ask, request: Request) -> dict[str, Any]:
    """Join the queue of a preset and size; the answer's ``ticket`` is the bearer token
    of ``GET``/``DELETE /api/playnow`` and, once seated, the seat's token."""
    queue = playnow_of(request)
    await limited(request, queue.asks, "requests for a game")
    preset, size, wait, bot = queue.check(body.preset, body.size, body.wait, body.bot)
    user = await accounts_routes.player(request)
    rating = None
    accounts: Accounts | None = getattr(request.app.state, "accounts", None)
    if user is not None and accounts is not None:
        profile = await accounts.run(accounts.db.profile, user.name)
        for r in (profile or {}).get("ratings", []):
            if r["preset"] == preset and r["size"] == size:
                rating = float(r["rating"])
    name = user.name if user is not None else body.name
    if name is None:
        raise refused("name", "name: a guest's name is needed")
    secret = secrets.token_urlsafe(8)
    person = person_of(user.id if user else None, body.client, secret)
    ticket = await queue.ask(preset=preset, size=size, wait=wait, bot=bot, name=name,
                             person=person, account=user.name if user else None,
                             rating=rating, address=client_key(request))
    return {"ticket": ticket, "status": "waiting", "preset": preset, "size": size,
            "wait": wait, "bot": bot}


@router.get("/api/playnow")
async def status(request: Request, authorization: Annotated[str | None, Header()] = None
                 ) -> dict[str, Any]:
    """Where this ticket stands: ``waiting``, ``seated`` (``table``, ``seat``),
    ``replaced``, ``gone`` or ``failed``."""
    queue = playnow_of(request)
    await limited(request, queue.polls, "questions")
    return await queue.status(ticket_of(authorization))


@router.delete("/api/playnow")
async def leave(request: Request, authorization: Annotated[str | None, Header()] = None
                ) -> dict[str, Any]:
    """Leave the queue."""
    queue = playnow_of(request)
    await limited(request, queue.polls, "questions")
    return await queue.leave(ticket_of(authorization))


@router.post("/api/playnow/leave")
async def leave_beacon(body: Leave, request: Request) -> dict[str, Any]:
    """Leave the queue (a tab's ``navigator.sendBeacon`` as it closes: no header)."""
    queue = playnow_of(request)
    await limited(request, queue.polls, "questions")
    return await queue.leave(body.ticket)


@router.get("/api/playnow/counts")
async def counts(request: Request) -> dict[str, Any]:
    """How many wait and play per preset and size (``"rulebook/4": {waiting, playing}``)."""
    queue = playnow_of(request)
    queue.start()
    return {"counts": await queue.fresh_counts()}


async def start(app: FastAPI, lobby: Lobby) -> PlayNow:
    """The server's queue on ``app.state.playnow`` (in Redis with ``--redis``)."""
    accounts: Accounts | None = getattr(app.state, "accounts", None)
    store: QueueStore = MemoryQueue()
    if accounts is not None and accounts.redis is not None and lobby.seam.shared:
        store = RedisQueue(accounts.redis, f"{socket.gethostname()}:{os.getpid()}")

    async def seated(table: Table, seat: int, account: str) -> None:
        if accounts is not None:
            user = await accounts.user(account)
            if user is not None:
                await accounts.seated(table, seat, user)

    queue = PlayNow(lobby, store, seated)
    lobby.promised = queue.promised
    redis = accounts.redis if accounts is not None else None

    def window(name: str, most: int, seconds: float) -> Window:
        return MemoryWindow(most, seconds) if redis is None else RedisWindow(
            redis, name, most, seconds)

    queue.asks = window("playnow-ask", 60, 60.0)
    queue.polls = window("playnow-poll", 600, 60.0)
    app.state.playnow = queue
    queue.start()
    return queue


async def stop(app: FastAPI) -> None:
    queue: PlayNow | None = getattr(app.state, "playnow", None)
    if queue is not None:
        await queue.close()
