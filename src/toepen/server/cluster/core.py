"""Many server processes, one game: PostgreSQL holds the tables, Redis joins the processes.

``toepen serve --db postgresql://... --redis redis://...`` runs any number of processes
that share the database (the source of truth: tables, seats, actions) and one Redis:

- **the owner applies, the others relay**: at any moment one process holds a table's
  game, the holder of its lease (``toepen:lease:<id>``, renewed every second, expiring
  after :attr:`Cluster.lease_ms`). It checks, commits, applies each action and encodes
  each receiver's frame once (its own clients' and the other processes' clients', by the
  presence each process publishes). Any other process with clients of the table only
  relays: an ``act`` of its clients goes to the owner on the owner's own channel
  (``toepen:p:<proc>``) and the answer comes back on its own (done: in the head of
  the frames of the state it made, one message for both); the owner's frames come
  back the same way, each process getting only the frames of the seats (and the
  spectators) connected there. No card leaves the owner except to its own seat's
  clients, wherever they are connected. A relaying process's copy of the game is
  brought up to date from the database only when it is needed (a client connects, a
  record is asked for, the game ends, it takes the lease): :meth:`Host.sync`;
- **the transport** is Redis pub/sub, with state numbers: every frame carries the
  state number it shows, and a client's process sends it only to a client one state
  behind it. A gap (a frame missed, a seat's frame missing) or a broken subscription
  (a Redis restart) makes the process read what it lacks from the database at once,
  never from Redis. What a process publishes goes out in order, from one queue, a
  write per batch with Redis' replies off (:class:`Publisher`), and is sent again until
  Redis surely took it. Streams were not chosen: the database already keeps every
  action, and a second log in Redis' memory would be a second truth to keep in step;
  pub/sub costs a write per batch and nothing to trim;
- **seats, presence, chat**: a change of the seats (or the start) is made under the
  table's Redis lock (``SET NX PX``, released by its token) by whichever process the
  client talks to, which reads the table's row from the database first; what changed is
  published on one channel (``toepen:t``) with the stand-in flags, the presence of
  each process's clients, and any public text a table's clients get (chat);
- **play again**: a table's one offer is held by its lease holder; a ``rematch`` at
  another process goes to it (:meth:`Cluster.offer`), its offer is told to every process
  (:meth:`Cluster.offered`), and the next table is made once (:meth:`Cluster.once`);
- **ownership**: leases go by rendezvous hashing over the live processes
  (``toepen:proc:<id>``, a heartbeat), so tables spread evenly; when a process dies,
  its leases expire and the next process takes each table over, reads it from the
  database, sends every client the state it lacks and lets the bots act again. A
  process with a client's action for a table nobody holds takes the lease itself.
  **A lease follows the clients**: an owner with no client of a table hands it to the
  live process with the most of them (:meth:`Cluster._follow_clients`, a takeover like
  any other), so behind a proxy that routes each table to one process nothing is relayed;
- **few round trips**: every lease of a process is renewed by one script call per
  second, the leases of the tables it does not own are looked at with one ``MGET``, and
  a relayed action goes first to the owner last seen (a wrong guess is answered
  ``moved``, then Redis is asked);
- **leases a busy process keeps**: the heartbeat and every lease are renewed by a thread
  of their own (:class:`Renewer`, its own Redis connection, every third of a lease), so
  an event loop busy with game work (or blocked) does not lose them; a lease counts as
  held only until a margin before it could have expired (:meth:`Cluster.owns`);
- **fencing**: taking a lease raises the table's lease epoch in the database
  (:meth:`~toepen.server.db.store.Store.take_lease`), and every action the lease holder
  writes carries its epoch (:meth:`Cluster.fence`): the database stores it only while
  the table's epoch is still that one. An owner that lost its lease without knowing it
  (frozen, cut off from Redis, Redis restarted) cannot store anything once another
  process took the table: its write is refused (``stale``), it lets the lease go and
  catches up. What the fence guarantees: for each table, the actions stored while a
  process held epoch ``e`` were all written by that process, no action is stored under
  an epoch older than the table's, and a process that took epoch ``e`` reads (after
  taking it) every action stored under older epochs.

Without ``--redis`` none of this runs and one process serves as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import asdict
from datetime import datetime
from typing import Any

import orjson
import redis
import redis.asyncio as aioredis

from ...narration import Message
from ..db.commit import Fenced
from ..db.store import SeatRow, TableRow
from ..protocol import Refused
from ..tables.seam import Host
from ..tables.table import Table, views

log = logging.getLogger("toepen.server")

CHANNEL = "toepen:t"
OWN = "toepen:p:"
"""The channel of one process (the prefix of): relayed actions, answers, frames."""
ACQUIRE = """
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local v = redis.call('hmget', KEYS[2], 'n', 'ver')
  return {1, v[1] or '0', v[2] or '0'}
end
return {0, '0', '0'}
"""
"""Take a table's lock; with it, the table's state number and seat version."""
RELEASE = """
if ARGV[2] ~= '' then redis.call('hset', KEYS[2], 'n', ARGV[2], 'ver', ARGV[3]) end
if ARGV[4] ~= '' then redis.call('publish', KEYS[3], ARGV[4]) end
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) return 1 end
return 0
"""
"""Record the new numbers, publish what changed, and let go of the lock (if still ours)."""
RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then out[i] = redis.call('pexpire', key, ARGV[2])
  else out[i] = 0 end
end
return out
"""
"""Renew each lease of ``KEYS`` still ours: one command for all of a process's leases."""
RENEW_CHUNK = 500
"""Leases renewed per command (a script holds Redis for its length)."""
DROP = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class Hold:
    """The table's lock while a change is made; what to publish when it is let go."""

    def __init__(self, table: Table, token: str, n: int, ver: int) -> None:
        self.table = table
        self.token = token
        self.n = n
        self.ver = ver
        self.message: dict[str, Any] | None = None


def encode(message: dict[str, Any]) -> bytes:
    """A message between the processes: compact JSON, UTF-8 (orjson, as the frames)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


def rank(table_id: str, proc: str) -> bytes:
    """Rendezvous hashing: the live process with the highest rank owns the table."""
    return hashlib.blake2b(f"{table_id}/{proc}".encode(), digest_size=8).digest()


def row_json(row: TableRow) -> dict[str, Any]:
    """A stored table as JSON for the other processes (token hashes, never tokens)."""
    out = asdict(row)
    out["created"] = row.created.isoformat()
    return out


def row_of(data: dict[str, Any]) -> TableRow:
    data = dict(data)
    data["created"] = datetime.fromisoformat(data["created"])
    data["seats"] = [SeatRow(**s) for s in data["seats"]]
    return TableRow(**data)


class Cluster:
    """This process's part in a cluster of servers behind one Redis."""

    def __init__(self, url: str, lease_ms: int = 3000, lock_ms: int = 5000) -> None:
        self.url = url
        self.redis: aioredis.Redis = aioredis.from_url(url, decode_responses=True)
        self.bus: aioredis.Redis = aioredis.from_url(url)
        """The messages between the processes, as bytes both ways (published as encoded
        once; received, a frame is forwarded to the socket as it came, never decoded)."""
        self.proc = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        """This process's name in the cluster (host, pid and a nonce)."""
        self.lease_ms = lease_ms
        self.lock_ms = lock_ms
        self.relay_s = lease_ms / 1000 + 1.0
        """How long a relayed action waits for the owner's answer (then the database is
        asked, and the lease looked at again)."""
        self.owned: set[str] = set()
        """Tables whose lease this process holds: their games, bots and clocks run here."""
        self.live: list[str] = [self.proc]
        self.host: Host | None = None
        """This process's tables (:class:`~toepen.server.tables.seam.Host`): all the
        cluster asks of them."""
        self.tasks: list[asyncio.Task[None]] = []
        self._acquire = self.redis.register_script(ACQUIRE)
        self._release = self.redis.register_script(RELEASE)
        self._drop = self.redis.register_script(DROP)
        self.unowned: dict[str, float] = {}
        self.epochs: dict[str, int] = {}
        """The lease epoch of each owned table (stored with each action written here)."""
        self.valid: dict[str, float] = {}
        """Until when (monotonic) each owned lease surely holds (a margin before Redis
        could let it expire); kept by the :class:`Renewer`."""
        self.renewer: Renewer | None = None
        self.fenced_writes = 0
        self.published = 0
        self.received = 0
        self.takeovers = 0
        self.relayed = 0
        self.resyncs = 0
        self.comebacks = 0
        self.handovers = 0
        self.handed: dict[str, float] = {}
        """Tables this process handed over lately (:meth:`_follow_clients`), and when."""
        self.hints: dict[str, str] = {}
        """The owner of each table this process does not own, as last seen."""
        self.outbox: list[tuple[str, bytes]] = []
        """What to publish, in order (:meth:`_send`)."""
        self._wake = asyncio.Event()
        self.publisher: Publisher | None = None
        """What :meth:`_sender` publishes with, once it runs."""
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        """Relayed actions waiting for their owner's answer, by request id."""
        self.acks: dict[str, list[tuple[str, str, int, int, str]]] = {}
        """Relayed actions being done here, by table: (sender, request id, the state
        number the action makes, its seat and action). Done, the answer rides on the
        frames of that state to the sender (:meth:`frames`) instead of a message of its
        own; only frames of a state this very action made (another seat's action that
        got there first is not its answer: it is refused, and told so)."""
        self.loaded = asyncio.Event()
        """Set once the lobby holds every stored table: messages wait for it."""
        self._connects = 0

    # -- start and stop ------------------------------------------------------------------

    async def connect(self) -> None:
        """Check that Redis answers (a clear error at start-up if not)."""
        try:
            await self.redis.ping()
        except Exception as e:
            raise RuntimeError(f"--redis {self.url}: Redis does not answer ({e})") from None
        await self.redis.set(f"toepen:proc:{self.proc}", "1", px=self.lease_ms)

    async def start(self, host: Host) -> None:
        """Listen to the other processes and keep the leases (call after :meth:`connect`;
        subscribes before the lobby loads, so nothing published meanwhile is missed:
        what comes waits until the lobby holds every table). ``host``: this process's
        tables, the one door the cluster calls them through."""
        self.host = host
        pubsub = self.bus.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(CHANNEL, OWN + self.proc)
        assert pubsub.connection is not None
        pubsub.connection.register_connect_callback(self._on_connect)
        loop = asyncio.get_running_loop()
        self.tasks.append(loop.create_task(self._listen(pubsub)))
        self.tasks.append(loop.create_task(self._sender()))

    def run_leases(self) -> None:
        """Start keeping leases (once the lobby holds every table)."""
        self.loaded.set()
        self.renewer = Renewer(self, asyncio.get_running_loop())
        self.renewer.start()
        self.tasks.append(asyncio.get_running_loop().create_task(self._leases()))
        self.publish({"k": "hello"})

    async def close(self) -> None:
        """Let go of every lease now (the others take the tables over at once)."""
        with contextlib.suppress(Exception):  # what is queued goes out first
            await asyncio.wait_for(self._flush(), 1.0)
        if self.renewer is not None:
            self.renewer.stop()
        for task in self.tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            for tid in list(self.owned):
                await self._drop(keys=[f"toepen:lease:{tid}"], args=[self.proc])
            await self.redis.delete(f"toepen:proc:{self.proc}")
            await self.redis.hdel("toepen:presence", self.proc)
        self.owned.clear()
        with contextlib.suppress(Exception):
            await self.bus.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # -- one writer of the seats at a time ------------------------------------------------

    @contextlib.asynccontextmanager
    async def hold(self, table: Table) -> AsyncIterator[Hold]:
        """The table's Redis lock, the table read again from the database first; on the
        way out the new seat version is recorded and the change published."""
        token = secrets.token_hex(8)
        keys = [f"toepen:lock:{table.id}", f"toepen:tv:{table.id}"]
        deadline = time.monotonic() + 1.6 * self.lock_ms / 1000  # past a dead holder's
        delay = 0.001
        while True:
            try:
                got, n, ver = await self._acquire(keys=keys, args=[token, self.lock_ms])
            except Exception as e:
                raise Refused("server_error", f"the cluster does not answer "
                              f"({type(e).__name__}); nothing changed", 503) from None
            if int(got):
                break
            if time.monotonic() > deadline:
                raise Refused("server_error", "the table is busy on another server; "
                              "nothing changed", 503)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.05)
        held = Hold(table, token, int(n), int(ver))
        released = False
        try:
            assert self.host is not None
            await self.host.catch_up(table, held.n, held.ver)
            yield held
            message = ""
            if held.message is not None:
                held.message.update(p=self.proc, t=table.id)
                message = encode(held.message).decode()
                self.published += 1
            await self._release(keys=[*keys, CHANNEL],
                                args=[token, table.state, table.version, message])
            released = True
        finally:
            if not released:
                with contextlib.suppress(Exception):
                    await self._release(keys=[*keys, CHANNEL], args=[token, "", "", ""])

    # -- fan-out -------------------------------------------------------------------------

    def publish(self, message: dict[str, Any], to: str | None = None) -> None:
        """Tell the other processes (``to``: one of them), in order, in the background."""
        message["p"] = self.proc
        self._queue(CHANNEL if to is None else OWN + to, encode(message))

    def _queue(self, channel: str, data: bytes) -> None:
        self.published += 1
        self.outbox.append((channel, data))
        self._wake.set()

    async def _sender(self) -> None:
        """Publish the outbox in order, on a connection of its own whose replies are off
        (:class:`Publisher`: a write per batch, no reply to wait for); what Redis did
        not surely take is sent again (the receivers read anything they still miss
        from the database)."""
        pub = Publisher(self.bus)
        self.publisher = pub
        loop = asyncio.get_running_loop()
        due: asyncio.TimerHandle | None = None
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                try:
                    while self.outbox:
                        batch = self.outbox[:500]
                        del self.outbox[:len(batch)]
                        await pub.send(batch)  # kept by pub until confirmed
                    if pub.unconfirmed and (
                            len(pub.unconfirmed) > CONFIRM_AFTER
                            or loop.time() - pub.confirmed >= CONFIRM_S):
                        await pub.confirm(self.relay_s)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.warning("cluster: publishing failed; again shortly", exc_info=True)
                    self.outbox[:0] = await pub.reset()  # not surely taken: again, first
                    if len(self.outbox) > 100_000:  # Redis is gone for long: keep the newest
                        del self.outbox[:len(self.outbox) - 100_000]
                    await asyncio.sleep(0.2)
                    self._wake.set()
                    continue
                if pub.unconfirmed and (due is None or due.cancelled()
                                        or due.when() < loop.time()):
                    due = loop.call_at(pub.confirmed + CONFIRM_S, self._wake.set)
        finally:
            if due is not None:
                due.cancel()
            await pub.reset()

    async def _flush(self) -> None:
        """Until what is queued went out and Redis surely took it."""
        while self.outbox or (self.publisher is not None and self.publisher.unconfirmed):
            self._wake.set()
            await asyncio.sleep(0.01)

    def _forget(self, task: asyncio.Task[None]) -> None:
        with contextlib.suppress(ValueError):
            self.tasks.remove(task)

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.append(task)
        task.add_done_callback(self._forget)

    async def _on_connect(self, connection: Any) -> None:
        """The subscription's connection is (re)made: after the first time, whatever was
        published meanwhile is lost, so every table here is read from the database."""
        self._connects += 1
        if self._connects > 1:
            log.warning("cluster: the subscription was made again; reading every table "
                        "with clients here from the database")
            self.spawn(self._resync_twice())

    async def _resync_twice(self) -> None:
        """Read the tables again at once and once more a lease later: what was published
        between the first read and the subscription being made again is lost too (a
        Redis restart mid-game left a relay two states behind, its person's turn unseen)."""
        await self.resync()
        await asyncio.sleep(self.lease_ms / 1000)
        await self.resync()

    async def resync(self) -> None:
        """Bring every table with clients here (or owned here) up to the database, and
        tell the others again who is connected here."""
        host = self.host
        assert host is not None
        await self.loaded.wait()
        self.resyncs += 1
        for table in host.tables():
            if table.clients or table.id in self.owned:
                try:
                    await host.sync(table)
                except Exception:
                    log.warning("cluster: reading table %s failed", table.id, exc_info=True)
            if table.clients:
                self.presence(table)
        self.publish({"k": "hello"})

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                async for item in pubsub.listen():
                    if item.get("type") != "message":
                        continue
                    if not self.loaded.is_set():
                        await self.loaded.wait()
                    data: bytes = item["data"]
                    if data.startswith(b"F"):
                        self.received += 1
                        try:
                            self._frames(data)
                        except Exception:
                            log.exception("cluster: frames failed")
                        continue
                    msg = orjson.loads(data)
                    if msg.get("p") == self.proc:
                        continue
                    self.received += 1
                    try:
                        await self._handle(msg)
                    except Exception:
                        log.exception("cluster: a message from %s failed: %s",
                                      msg.get("p"), str(msg.get("k")))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("cluster: the subscription broke; again in a second",
                            exc_info=True)
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(CHANNEL, OWN + self.proc)
                self.spawn(self.resync())

    async def _handle(self, msg: dict[str, Any]) -> None:
        host = self.host
        assert host is not None
        kind = msg.get("k")
        if kind == "hello":  # a process came up: tell it who is connected here
            for each in host.tables():
                if each.clients:
                    self.presence(each)
            return
        if kind == "r":  # the owner's answer to an action relayed from here
            self._answered(msg.get("id", ""), msg)
            return
        table = host.table(msg.get("t", ""))
        if kind == "new":
            if table is None:
                await host.adopt(row_of(msg["row"]))
            return
        if kind == "do":  # a client's action relayed to this process, the owner
            self.spawn(self._do(table, msg))
            return
        if kind == "offer":  # a rematch request relayed to this process, the holder
            self.spawn(self._offer(table, msg))
            return
        if kind == "take":  # the owner handed this table over: its clients are here
            if (table is not None and table.row.status == "playing"
                    and table.id not in self.owned):
                self.spawn(self._claim(table))
            return
        if table is None:
            return
        if kind == "seats":
            await host.seats_changed(table, int(msg["ver"]), row_of(msg["row"]))
        elif kind == "flags":
            host.flags_changed(table, msg["flags"])
        elif kind == "presence":
            proc = msg["p"]
            seats = frozenset(msg["seats"])
            before = table.elsewhere.get(proc)
            table.elsewhere[proc] = (seats, int(msg["spectators"]), bool(msg["host"]))
            host.elsewhere_changed(table)
            if self.owns(table.id) and table.game is not None:
                # a client there may have missed a frame sent before this came: its state
                keys = views(seats, int(msg["spectators"]))
                if before is not None:
                    keys -= views(before[0], before[1])
                if keys:
                    self.frames(table, table.state,
                                {proc: dict(host.fresh_frames(table, keys))},
                                fresh=True)
        elif kind == "offered":  # the offer's holder: the offer, the next table's id
            host.offer_shown(table, msg.get("offer"), str(msg["p"]), msg.get("rematch"))
        elif kind == "raw":
            host.said(table, msg["text"])  # a chat line said at another server

    # -- the owner applies, the others relay ---------------------------------------------

    async def holder(self, table_id: str, hint: bool = False) -> str | None:
        """The process holding the table's lease now, if any (``hint``: as the last
        lease round or the owner's last frames said, when that process is live; a wrong
        hint costs a ``moved`` answer or a wait, then Redis is asked)."""
        if hint:
            known = self.hints.get(table_id)
            if known is not None and known in self.live:
                return known
        got = await self.redis.get(f"toepen:lease:{table_id}")
        return None if got is None else str(got)

    async def relay(self, table: Table, seat: int, text: str, state: int, by: str) -> bool:
        """A client's action at a table this process does not own: sent to its owner,
        whose answer is this one's (Refused as the owner refused it). False when there
        is no owner and this process took the lease: the caller applies it itself."""
        end = time.monotonic() + 2.5 * self.relay_s
        hint = True  # the first look trusts the owner last seen
        while time.monotonic() < end:
            try:
                proc, hint = await self.holder(table.id, hint=hint), False
                if proc is None:
                    if await self.claim(table):
                        return False
                    continue
            except Refused:
                raise
            except Exception as e:
                raise Refused("server_error", f"the cluster does not answer "
                              f"({type(e).__name__}); nothing changed", 503) from None
            if proc == self.proc:
                if table.id in self.epochs:  # ours, its renewal late: written under the fence
                    return False
                await self._let_go(table.id)  # held without an epoch: take it properly
                continue
            rid = secrets.token_hex(8)
            fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.waiting[rid] = fut
            self.relayed += 1
            self.publish({"k": "do", "t": table.id, "id": rid, "seat": seat, "a": text,
                          "s": state, "by": by, "at": time.time()}, to=proc)
            try:
                answer = await asyncio.wait_for(fut, self.relay_s)
            except TimeoutError:
                if await self._stored(table, seat, text, state):
                    return True
                continue  # the owner is slow, frozen or dead: look at the lease again
            finally:
                self.waiting.pop(rid, None)
            if answer.get("moved"):
                await asyncio.sleep(0.05)
                continue
            error = answer.get("e")
            if error is not None:
                raise Refused(error["code"], error["message"], int(error["status"]),
                              refusal=error.get("refusal"))
            return True
        if await self._stored(table, seat, text, state):
            return True
        raise Refused("server_error", "the table's server does not answer; nothing changed",
                      503)

    async def _stored(self, table: Table, seat: int, text: str, state: int) -> bool:
        """After an owner did not answer: whether the database holds this very action
        as number ``state`` (then it was done; this process's clients are told). If it
        holds another one there, the action is stale."""
        assert self.host is not None
        try:
            stored = await self.host.stored_actions(table.id, state)
        except Exception:
            return False
        if not stored:
            return False
        self.spawn(self.host.sync(table))
        if stored[0][0] == seat and stored[0][1] == text:
            return True
        raise Refused("stale", f"state {state} is stale: the game is at state "
                      f"{state + len(stored)}")

    def _answered(self, rid: str, msg: dict[str, Any]) -> None:
        fut = self.waiting.get(rid)
        if fut is not None and not fut.done():
            fut.set_result(msg)

    async def _do(self, table: Table | None, msg: dict[str, Any]) -> None:
        """Apply an action another process relayed (this process owns the table), and
        answer it. A request older than half its wait is not done: its sender no longer
        counts on this answer. Done, the answer is the frames of the new state to the
        sender (it has the acting client, so it gets them), when they go; a message of
        its own otherwise (a refusal, or no frames for the sender)."""
        rid, sender = str(msg.get("id")), str(msg["p"])
        reply: dict[str, Any] = {"k": "r", "id": rid}
        assert self.host is not None
        if (table is None or not self.owns(table.id)
                or time.time() - float(msg.get("at", 0)) > self.relay_s / 2):
            reply["moved"] = 1
        else:
            ack = (sender, rid, int(msg["s"]) + 1, int(msg["seat"]), str(msg["a"]))
            self.acks.setdefault(table.id, []).append(ack)
            try:
                await self.host.act(table, int(msg["seat"]), msg["a"], int(msg["s"]),
                                    str(msg["by"]))
            except Fenced:  # the lease moved meanwhile, nothing stored: ask the new owner
                reply["moved"] = 1
            except Refused as e:
                reply["e"] = {"code": e.code, "message": e.message, "status": e.status,
                              "refusal": e.refusal}
            except Exception as e:  # nothing was stored (the commit raised)
                log.exception("cluster: a relayed action failed")
                reply["e"] = {"code": "server_error", "status": 503,
                              "message": f"the table's server failed ({type(e).__name__})"}
            pending = self.acks.get(table.id, [])
            answered = ack not in pending  # by the frames of the state it made: done
            if not answered:
                pending.remove(ack)
            if not pending:
                self.acks.pop(table.id, None)
            if answered:
                return
        self.publish(reply, to=sender)

    async def offer(self, table: Table, seat: int | None, host: bool, preset: Any,
                    options: Any) -> dict[str, Any] | None:
        """A client's ``rematch`` request at a table this process does not hold: sent to
        the lease holder, which holds the table's one offer; its answer (``rematch``:
        the next table's id once made; Refused as the holder refused it). None when this
        process is to take the request itself: nobody held the lease (a finished table's
        lease can lapse) and this process took it, so that the table keeps one offer (two
        processes each taking clicks made two offers, and the next table began with a
        stand-in for whoever had clicked at the other one); or the holder died (its lease
        not yet expired: :meth:`once` keeps it to one table)."""
        for attempt in range(4):
            # Nobody holding the lease (a finished table's can lapse): this process takes
            # it, so that the table keeps one offer; else whoever took it just now holds it.
            try:
                proc = await self.holder(table.id)
                if proc is None and not await self.claim(table):
                    proc = await self.holder(table.id)
            except Exception as e:
                raise Refused("server_error", f"the cluster does not answer "
                              f"({type(e).__name__}); nothing changed", 503) from None
            if proc is None or proc == self.proc or proc not in self.live:
                return None  # held here now, or a holder that died (lease not expired)
            rid = secrets.token_hex(8)
            fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.waiting[rid] = fut
            self.publish({"k": "offer", "t": table.id, "id": rid, "seat": seat,
                          "host": host, "preset": preset, "options": options}, to=proc)
            try:
                answer = await asyncio.wait_for(fut, self.relay_s)
            except TimeoutError:
                raise Refused("server_error", "the table's server does not answer; "
                              "nothing changed", 503) from None
            finally:
                self.waiting.pop(rid, None)
            if answer.get("moved"):  # not its holder (any more, or not yet: a process
                await asyncio.sleep(0.05 * (attempt + 1))  # taking the lease this very
                continue  # moment holds it once its epoch is stored): who holds it now?
            error = answer.get("e")
            if error is not None:
                say = error.get("say")
                raise Refused(error["code"], error["message"], int(error["status"]),
                              say=Message.from_json(say) if isinstance(say, dict) else None)
            return answer
        return None

    async def _offer(self, table: Table | None, msg: dict[str, Any]) -> None:
        """Take a ``rematch`` request another process relayed (this process holds the
        table's lease, so its offer), and answer it."""
        assert self.host is not None
        reply: dict[str, Any] = {"k": "r", "id": str(msg.get("id"))}
        if table is None or not self.holds(table.id):
            reply["moved"] = 1
        else:
            seat = msg.get("seat")
            try:
                reply["rematch"] = await self.host.offer(
                    table, seat if isinstance(seat, int) else None, bool(msg.get("host")),
                    msg.get("preset"), msg.get("options"))
            except Refused as e:
                reply["e"] = {"code": e.code, "message": e.message, "status": e.status,
                              "say": e.say_json()}
            except Exception as e:
                log.exception("cluster: a relayed rematch failed")
                reply["e"] = {"code": "server_error", "status": 503,
                              "message": f"the table's server failed ({type(e).__name__})"}
        self.publish(reply, to=str(msg["p"]))

    def offered(self, table: Table) -> None:
        """Tell the other processes the offer held here and the next table's id."""
        self.publish({"k": "offered", "t": table.id,
                      "offer": table.offer.info(table) if table.offer is not None else None,
                      "rematch": table.rematch})

    async def once(self, key: str, value: str) -> str:
        """``value`` if this is the first call of ``key`` in the cluster (kept a day),
        else the value the first call gave."""
        name = f"toepen:once:{key}"
        if await self.redis.set(name, value, nx=True, ex=86400):
            return value
        got = await self.redis.get(name)
        return value if got is None else str(got)

    def frames(self, table: Table, n: int, by_proc: dict[str, dict[int | None, str | bytes]],
               fresh: bool = False) -> None:
        """Send each process the frames of its clients' seats for state ``n`` (``fresh``:
        whole states, for clients any number of states behind): one message per process,
        ``F`` + a JSON head, then each frame's key and its bytes as the owner encoded them
        (``\\x00`` between parts, ``\\x01`` after a key; JSON text holds neither), so
        that the relaying process forwards each frame to its sockets without parsing or
        encoding it again."""
        head: dict[str, Any] = {"t": table.id, "n": n, "p": self.proc}
        if fresh:
            head["x"] = 1
        if table.row.status == "over":
            head["o"] = 1
            head["w"] = table.row.winner
        top = b"F" + encode(head)
        acks = self.acks.get(table.id, []) if not fresh else []
        made: tuple[int, str] | None = None  # the action that made state n
        if acks and table.game is not None and len(table.game.actions) == n:
            seat, action = table.game.actions[n - 1]
            made = (seat, str(action))
        parts: dict[int | None, bytes] = {}  # each frame's part made once, for every process
        for proc, frames in by_proc.items():
            if not frames:
                continue
            first = top
            done = [a for a in acks if a[0] == proc and a[2] == n
                    and (a[3], a[4]) == made] if made else []
            if done:  # relayed actions from there that made this state: their answer
                for a in done:
                    acks.remove(a)
                first = b"F" + encode({**head, "r": [a[1] for a in done]})
            out = [first]
            for key, frame in frames.items():
                part = parts.get(key)
                if part is None:
                    name = b"s" if key is None else str(key).encode()
                    body = frame.encode() if isinstance(frame, str) else frame
                    part = parts[key] = name + b"\x01" + body
                out.append(part)
            self._queue(OWN + proc, b"\x00".join(out))

    def _frames(self, data: bytes) -> None:
        """The owner's frames for this process's clients of a table (:meth:`frames`): the
        head parsed, each frame sent on as the bytes it came as."""
        host = self.host
        assert host is not None
        parts = data[1:].split(b"\x00")
        head = orjson.loads(parts[0])
        for rid in head.get("r", ()):  # relayed actions from here that made this state
            self._answered(rid, {"k": "r", "id": rid})
        table = host.table(head["t"])
        if table is None:
            return
        frames: dict[int | None, bytes] = {}
        for part in parts[1:]:
            key, _, frame = part.partition(b"\x01")
            frames[None if key == b"s" else int(key)] = frame
        n = int(head["n"])
        fresh = bool(head.get("x"))
        if isinstance(head.get("p"), str):
            self.hints[table.id] = head["p"]  # the owner: where to relay actions
        behind = host.deliver(table, n, frames, fresh)
        if head.get("o") and table.row.status != "over":
            host.game_over(table, head.get("w"))  # with the game-over state, everywhere
            behind = True  # the whole game here too (its record, a rematch)
        if behind:
            self.spawn(host.sync(table))

    def presence(self, table: Table) -> None:
        """Tell the others who is connected to ``table`` here."""
        seats = sorted({c.seat for c in table.clients if c.seat is not None})
        spectators = sum(1 for c in table.clients if c.seat is None)
        host = any(c.host for c in table.clients)
        self.publish({"k": "presence", "t": table.id, "seats": seats,
                      "spectators": spectators, "host": host})

    def flags(self, table: Table) -> None:
        """Tell the others the stand-ins and fallbacks of ``table`` (not stored)."""
        self.publish({"k": "flags", "t": table.id,
                      "flags": [[s.standin, s.fallback, s.incident] for s in table.seats]})

    def raw(self, table: Table, text: str) -> None:
        """A public text every client of ``table`` gets, on every process."""
        self.publish({"k": "raw", "t": table.id, "text": text})

    def created(self, table: Table) -> None:
        self.publish({"k": "new", "t": table.id, "row": row_json(self._row(table))})

    @staticmethod
    def _row(table: Table) -> TableRow:
        row = table.row
        return TableRow(**{**asdict(row), "created": row.created,
                           "seats": [s.row() for s in table.seats]})

    def seats_message(self, table: Table) -> dict[str, Any]:
        return {"k": "seats", "ver": table.version, "row": row_json(self._row(table))}

    # -- ownership -----------------------------------------------------------------------

    def owns(self, table_id: str) -> bool:
        """Whether this process holds the table's lease, surely (a margin before it could
        expire: a lease its renewer could not renew lately is not counted on)."""
        return table_id in self.owned and time.monotonic() < self.valid.get(table_id, 0.0)

    def holds(self, table_id: str) -> bool:
        """Whether this process took the table's lease and has not heard it lost (its
        frames go to the other processes: it is the table's writer)."""
        return table_id in self.owned

    def fence(self, table_id: str) -> int | None:
        """The lease epoch an action written here now carries (None: not the owner)."""
        return self.epochs.get(table_id) if table_id in self.owned else None

    def fenced(self, table: Table, epoch: int | None) -> None:
        """A write of ours was refused by the fence: another process took the table.
        The lease is let go (if Redis still says it is ours) and its bots stop here."""
        self.fenced_writes += 1
        log.warning("cluster: table %s: a write under epoch %s was refused, another "
                    "process holds the lease now", table.id, epoch)
        self.lost(table.id, epoch)
        task = asyncio.get_running_loop().create_task(self._let_go(table.id))
        self.tasks.append(task)
        task.add_done_callback(self._forget)

    async def _let_go(self, table_id: str) -> None:
        with contextlib.suppress(Exception):
            await self._drop(keys=[f"toepen:lease:{table_id}"], args=[self.proc])

    def evicted(self, table_id: str) -> None:
        """A finished table left this process's memory (the lobby's ``trim``): nothing
        of it is kept here, and its lease, if held here, is let go (a finished game needs
        no owner; the lease was renewed for nothing)."""
        self.unowned.pop(table_id, None)
        self.handed.pop(table_id, None)
        self.acks.pop(table_id, None)
        if table_id in self.owned:
            self.owned.discard(table_id)
            self.epochs.pop(table_id, None)
            self.valid.pop(table_id, None)
            self.spawn(self._let_go(table_id))

    def came_back(self) -> None:
        """This process's heartbeat had lapsed (it was frozen or starved): the others
        dropped what it told them; read its tables again and tell them again who is
        connected here (:meth:`resync`)."""
        self.comebacks += 1
        log.warning("cluster: this process was counted dead (its heartbeat lapsed); "
                    "telling the others again who is connected here")
        self.spawn(self.resync())

    def held_again(self, table_id: str) -> None:
        """A lease not renewed for a while (not counted on: its bots stopped) is
        renewed again: what comes next is arranged again."""
        table = self.host.table(table_id) if self.host is not None else None
        if table is not None and self.host is not None and self.owns(table_id):
            self.host.next(table)

    def lost(self, table_id: str, epoch: int | None = None) -> None:
        """The table's lease is not ours (any more): its bots and clocks stop here
        (``epoch``: only if we still hold that epoch, not one taken again since)."""
        if table_id not in self.owned or (epoch is not None
                                          and self.epochs.get(table_id) != epoch):
            return
        self.owned.discard(table_id)
        self.epochs.pop(table_id, None)
        self.valid.pop(table_id, None)
        log.warning("cluster: lost the lease of table %s", table_id)
        table = self.host.table(table_id) if self.host is not None else None
        if table is not None and self.host is not None:
            self.host.next(table)  # not ours: stops its bots and clocks here

    def top(self, table_id: str) -> bool:
        """Whether this process ranks first for ``table_id`` among the live ones."""
        return max(self.live, key=lambda p: rank(table_id, p)) == self.proc

    async def _leases(self) -> None:
        period = self.lease_ms / 3000
        while True:
            try:
                await self._lease_round()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("cluster: keeping leases failed; again shortly", exc_info=True)
            await asyncio.sleep(period)

    async def _lease_round(self) -> None:
        host = self.host
        assert host is not None
        r = self.redis
        live = sorted([k.split(":", 2)[2] async for k in r.scan_iter("toepen:proc:*",
                                                                      count=1000)])
        self.live = live if self.proc in live else [*live, self.proc]
        # the presence of a process that died goes with it
        for each in host.tables():
            gone = [p for p in each.elsewhere if p not in self.live]
            for p in gone:
                del each.elsewhere[p]
            if each.shown_by is not None and each.shown_by not in self.live:
                each.shown_offer = each.shown_by = None  # its holder died: it lapsed
                gone.append(each.id)
            if gone:
                host.tell_table(each)
        now = time.monotonic()
        grace = 2 * self.lease_ms / 1000
        for tid, at in list(self.handed.items()):
            if now - at > grace:
                del self.handed[tid]
        await self._follow_clients()
        playing = [t for t in host.tables()
                   if t.row.status == "playing" and t.id not in self.owned]
        self.hints = {}
        if not playing:
            return
        held: list[Any] = []
        for at in range(0, len(playing), RENEW_CHUNK):  # one command per chunk of tables
            held += await r.mget([f"toepen:lease:{t.id}" for t in playing[at:at + RENEW_CHUNK]])
        for t, holder in zip(playing, held, strict=True):
            if holder is not None:
                self.unowned.pop(t.id, None)
                self.hints[t.id] = str(holder)
                continue
            since = self.unowned.setdefault(t.id, now)
            # the first-ranked live process takes it at once (unless it just handed the
            # table to the process its clients are at), any other after a grace
            if (self.top(t.id) and t.id not in self.handed) or now - since > grace:
                await self.claim(t)

    async def _follow_clients(self) -> None:
        """A lease follows the table's clients: an owner with no client of a table hands
        its lease to the live process with the most of them, so that a proxy that routes
        each table's clients to one process (docs/deploy.md) leaves nothing to relay.
        The handover is a takeover like any other (the taker raises the epoch and reads
        the table from the database); the owner stops acting first."""
        host = self.host
        assert host is not None
        for tid in list(self.owned):
            table = host.table(tid)
            if table is None or table.row.status != "playing" or table.clients:
                continue
            counts = [(len(seats) + spectators, rank(tid, proc), proc)
                      for proc, (seats, spectators, _host) in table.elsewhere.items()
                      if proc in self.live and proc != self.proc and (seats or spectators)]
            if not counts:
                continue
            to = max(counts)[2]
            self.handovers += 1
            self.handed[tid] = time.monotonic()
            self.lost(tid)  # its bots and clocks stop here first
            await self._let_go(tid)
            log.info("cluster: table %s handed to %s, where its clients are", tid, to)
            self.publish({"k": "take", "t": tid}, to=to)

    async def claim(self, table: Table) -> bool:
        """Take the table's lease if nobody holds it: raise its epoch in the database
        (the fence), then catch up from the database and act."""
        started = time.monotonic()
        got = await self.redis.set(f"toepen:lease:{table.id}", self.proc, nx=True,
                                   px=self.lease_ms)
        if not got:
            return False
        host = self.host
        assert host is not None
        try:
            epoch = await host.take_lease(table.id)
        except Exception:
            log.warning("cluster: table %s: the lease's epoch could not be stored; "
                        "let go", table.id)
            await self._let_go(table.id)
            return False
        self.unowned.pop(table.id, None)
        self.epochs[table.id] = epoch
        self.valid[table.id] = started + self.lease_ms / 1000 * (1 - MARGIN)
        self.owned.add(table.id)
        self.takeovers += 1
        log.info("cluster: %s owns table %s (epoch %d)", self.proc, table.id, epoch)
        # the database is the truth (never Redis' memory): read what this copy lacks,
        # what was stored before the epoch was raised too; tell every client what it
        # lacks (here and at the other processes); then what comes next
        await host.sync(table, takeover=True)
        return True

    def claim_soon(self, table: Table) -> None:
        """A game began: its first-ranked process takes it now (not at the next round)."""
        if (table.row.status == "playing" and self.top(table.id)
                and table.id not in self.owned):
            task = asyncio.get_running_loop().create_task(self._claim(table))
            self.tasks.append(task)
            task.add_done_callback(self._forget)

    async def _claim(self, table: Table) -> None:
        try:
            await self.claim(table)
        except Exception:
            log.warning("cluster: claiming table %s failed", table.id, exc_info=True)

    def stats(self) -> dict[str, Any]:
        return {"proc": self.proc, "live": len(self.live), "owned": len(self.owned),
                "published": self.published, "received": self.received,
                "takeovers": self.takeovers, "fenced": self.fenced_writes,
                "relayed": self.relayed, "resyncs": self.resyncs,
                "comebacks": self.comebacks, "handovers": self.handovers}


CONFIRM_S = 0.25
"""How long a message published with the replies off waits, at most, for the next
confirmation that Redis took it (:class:`Publisher`)."""
CONFIRM_AFTER = 1000
"""Or as many messages."""


REPLIES_OFF_NEEDS = ("connect", "disconnect", "send_command", "send_packed_command",
                     "pack_commands", "read_response")
"""What :class:`Publisher` uses of a redis-py connection: public methods of its
``Connection``, below the client's commands (tested with redis-py 8.x)."""


def replies_off_supported(client: aioredis.Redis) -> bool:
    """Whether this redis-py is the tested one (8.x) and its connections have what
    :class:`Publisher` writes with; else it publishes the usual way (checked at start)."""
    major = str(getattr(redis, "__version__", "0")).partition(".")[0]
    pool = client.connection_pool
    cls = getattr(pool, "connection_class", None)
    return (major == "8" and callable(getattr(pool, "make_connection", None))
            and cls is not None
            and all(callable(getattr(cls, name, None)) for name in REPLIES_OFF_NEEDS))


class Publisher:
    """Publishes with Redis' replies off (``CLIENT REPLY OFF``), on a connection of its
    own made by the client's pool: a ``PUBLISH`` is one write, with no reply to read and
    no wake-up for it (at a human pace, waiting for each reply cost a wake-up of the
    event loop per message, as much as the message itself). What was written is kept
    until a confirmation (``CLIENT REPLY ON``, answered ``OK``, then off again; in
    order on one connection, so Redis read everything before it) at most
    :data:`CONFIRM_S` later; if the connection fails, :meth:`reset` gives back what was
    not confirmed, to send again on a new one (a message may then come twice, as one of
    a failed pipeline could: the receivers take a frame once by its state number, a
    relayed action twice is refused as stale, presence, flags and seats say a state, not
    a change; only a chat line could show twice)."""

    def __init__(self, client: aioredis.Redis) -> None:
        self.client = client
        self.connection: Any = None
        self.plain = False
        """Redis refused ``CLIENT REPLY`` (a managed Redis may): each batch is published
        as usual, its replies awaited (nothing kept)."""
        if not replies_off_supported(client):
            log.warning("cluster: redis-py %s is outside the tested range (8.x) for "
                        "publishing with replies off; publishing with its replies",
                        getattr(redis, "__version__", "?"))
            self.plain = True
        self.unconfirmed: list[tuple[str, bytes]] = []
        self.confirmed = 0.0
        """When (the event loop's clock) the last confirmation came."""

    async def _connect(self) -> Any:
        if self.connection is None:
            connection = self.client.connection_pool.make_connection()  # type: ignore[no-untyped-call]
            await connection.connect()
            await connection.send_command("CLIENT", "REPLY", "OFF")
            self.connection = connection
            self.confirmed = asyncio.get_running_loop().time()
        return self.connection

    async def send(self, batch: list[tuple[str, bytes]]) -> None:
        """Write ``batch`` (channel, message), in order; kept until confirmed (if this
        fails, :meth:`reset` gives it back)."""
        if self.plain:
            async with self.client.pipeline(transaction=False) as pipe:
                for channel, data in batch:
                    pipe.publish(channel, data)
                await pipe.execute()
            return
        self.unconfirmed.extend(batch)
        connection = await self._connect()
        await connection.send_packed_command(
            connection.pack_commands([("PUBLISH", channel, data) for channel, data in batch]),
            check_health=False)

    async def confirm(self, timeout: float) -> None:
        """Wait until Redis read everything written so far (one round trip). Redis
        refusing ``CLIENT REPLY`` (its error comes first): :attr:`plain` from now on, and
        the error raised (what was written is sent again; it may come twice)."""
        if self.plain:
            self.unconfirmed.clear()
            return
        taken = len(self.unconfirmed)
        connection = await self._connect()
        await connection.send_packed_command(connection.pack_commands(
            [("CLIENT", "REPLY", "ON"), ("CLIENT", "REPLY", "OFF")]), check_health=False)
        try:
            answer = await connection.read_response(timeout=timeout)
            if answer not in (b"OK", "OK"):
                raise redis.ResponseError(f"CLIENT REPLY ON answered {answer!r}")
        except redis.ResponseError:
            log.warning("cluster: Redis refuses CLIENT REPLY; publishing with its replies")
            self.plain = True
            raise
        del self.unconfirmed[:taken]
        self.confirmed = asyncio.get_running_loop().time()

    async def reset(self) -> list[tuple[str, bytes]]:
        """Close the connection; what was not confirmed, to send again."""
        connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.disconnect()
        out, self.unconfirmed = self.unconfirmed, []
        return out


MARGIN = 1 / 3
"""The part of a lease not counted on: a lease renewed at ``t`` is held (for
:meth:`Cluster.owns`) until ``t + (1 - MARGIN) * lease``, though Redis keeps it until
``t + lease`` at the earliest."""


class Renewer(threading.Thread):
    """Renews this process's heartbeat and every lease it holds, every third of a lease,
    in a thread of its own with its own Redis connection: a busy event loop (game work,
    a long encode, a blocked call) does not starve it. A lease Redis no longer holds for
    us is reported to the event loop (:meth:`Cluster.lost`)."""

    def __init__(self, cluster: Cluster, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(name="toepen-leases", daemon=True)
        self.cluster = cluster
        self.loop = loop
        period = cluster.lease_ms / 3000
        self.period = period
        self.client = redis.Redis.from_url(cluster.url, decode_responses=True,
                                           socket_timeout=period, socket_connect_timeout=period)
        self._halt = threading.Event()
        self.failing = False

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=2 * self.period + 1)
        with contextlib.suppress(Exception):
            self.client.close()

    def run(self) -> None:
        while not self._halt.is_set():
            try:
                self.round()
                if self.failing:
                    log.warning("cluster: renewing leases works again")
                self.failing = False
            except Exception as e:
                if not self.failing:  # once per outage, not every third of a second
                    log.warning("cluster: renewing leases failed (%s); again shortly",
                                type(e).__name__)
                self.failing = True
            self._halt.wait(self.period)

    def round(self) -> None:
        c = self.cluster
        owned = [(tid, c.epochs.get(tid)) for tid in list(c.owned)]
        started = time.monotonic()
        pipe = self.client.pipeline(transaction=False)
        pipe.set(f"toepen:proc:{c.proc}", "1", px=c.lease_ms, get=True)
        for at in range(0, len(owned), RENEW_CHUNK):  # a command per chunk, not per lease
            keys = [f"toepen:lease:{tid}" for tid, _ in owned[at:at + RENEW_CHUNK]]
            # EVAL with the script's text: a registered script in a pipeline costs a
            # SCRIPT EXISTS round trip before every execute
            pipe.eval(RENEW, len(keys), *keys, c.proc, c.lease_ms)
        heartbeat, *chunks = pipe.execute()
        answers = [ok for chunk in chunks for ok in chunk]
        if heartbeat is None:
            # Our heartbeat had expired (this process was frozen or starved, or Redis
            # forgot it): the others counted us dead and dropped our clients' presence,
            # so the owners send their frames elsewhere; say it all again (a frozen
            # relay's people never saw their turn and a stand-in played for them).
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(c.came_back)
        until = started + c.lease_ms / 1000 * (1 - MARGIN)
        for (tid, epoch), ok in zip(owned, answers, strict=True):
            if int(ok):
                if tid in c.owned and c.epochs.get(tid) == epoch:
                    lapsed = c.valid.get(tid, 0.0) < started
                    c.valid[tid] = until
                    if lapsed:  # its bots stopped meanwhile (owns was False): again
                        with contextlib.suppress(RuntimeError):
                            self.loop.call_soon_threadsafe(c.held_again, tid)
            else:
                with contextlib.suppress(RuntimeError):  # the loop is closed: shutting down
                    self.loop.call_soon_threadsafe(c.lost, tid, epoch)
