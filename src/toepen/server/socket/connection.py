"""The WebSocket of one client: ``hello``, then its messages, one at a time.

:class:`Connection` reads frames, has :mod:`~toepen.server.protocol` check them and
hands each message to the lobby (seats, host commands) or the table master (actions,
coming back); a writer task sends the client's queue. Every refusal is answered with
an ``error`` and changes nothing.

:class:`Sockets` bounds them (issue 37, point 6): at most
:attr:`~toepen.server.protocol.Limits.sockets_per_address` open from one address (one
more is told ``limit`` and closed, 4029), ``hello`` within
:attr:`~toepen.server.protocol.Limits.hello_timeout` seconds (else closed, 4000), and at
most :attr:`~toepen.server.protocol.Limits.sockets_per_seat` per seat: a newer one closes
the oldest, which is told ``replaced`` (4009; the page stops reconnecting and says so).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from typing import Any

from fastapi import APIRouter, FastAPI, WebSocket
from starlette.websockets import WebSocketDisconnect

from ...narration import Message
from .. import protocol
from ..protocol import Limits, Refused
from ..tables.lobby import Lobby
from ..tables.social import Social
from ..tables.table import Client, Table
from . import wire

router = APIRouter()


@router.websocket("/ws/{table_id}")
async def ws(websocket: WebSocket, table_id: str) -> None:
    """One client of a table (see ``docs/protocol.md``)."""
    await websocket.accept()
    lobby: Lobby = websocket.app.state.lobby
    sockets = sockets_of(websocket.app, lobby.limits)
    address = websocket.client.host if websocket.client else "unknown"
    if not sockets.open(address):
        most = lobby.limits.sockets_per_address
        await websocket.send_text(protocol.error(
            "limit", f"more than {most} sockets open from your address",
            say=Message("error.sockets.address", {"n": most}).to_json()))
        await websocket.close(4029, "too many sockets")
        return
    try:
        try:
            table = await lobby.find(table_id)  # in a cluster: also one made at another server
        except Refused:
            await websocket.close(4004, "no such table")
            return
        await Connection(lobby, table, websocket, sockets).run()
    finally:
        sockets.close(address)


class Sockets:
    """The open WebSockets of this process: how many from each client address (from the
    handshake to the close) and which of each seat (oldest first)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.per_address: collections.Counter[str] = collections.Counter()
        self.per_seat: dict[tuple[str, int], list[Connection]] = {}

    def open(self, address: str) -> bool:
        """Count a new socket from ``address`` (False: one too many, not counted)."""
        if self.per_address[address] >= self.limits.sockets_per_address:
            return False
        self.per_address[address] += 1
        return True

    def close(self, address: str) -> None:
        self.per_address[address] -= 1
        if self.per_address[address] <= 0:
            del self.per_address[address]

    def seat(self, conn: Connection, table_id: str, seat: int) -> list[Connection]:
        """``conn`` is a socket of ``seat``: the older ones it pushes past the cap."""
        held = self.per_seat.setdefault((table_id, seat), [])
        held.append(conn)
        extra = len(held) - self.limits.sockets_per_seat
        if extra <= 0:
            return []
        old, held[:extra] = held[:extra], []
        return old

    def unseat(self, conn: Connection, table_id: str, seat: int) -> None:
        held = self.per_seat.get((table_id, seat))
        if held is not None and conn in held:
            held.remove(conn)
            if not held:
                del self.per_seat[(table_id, seat)]


def sockets_of(app: FastAPI, limits: Limits) -> Sockets:
    """The app's :class:`Sockets` (made with the first socket)."""
    sockets: Sockets | None = getattr(app.state, "sockets", None)
    if sockets is None:
        sockets = app.state.sockets = Sockets(limits)
    return sockets


class RateLimiter:
    """At most ``rate`` events per second (a one-second sliding count)."""

    def __init__(self, rate: int) -> None:
        self.rate = rate
        self.stamps: list[float] = []

    def allow(self) -> bool:
        now = time.monotonic()
        self.stamps = [t for t in self.stamps if now - t < 1.0]
        if len(self.stamps) >= self.rate:
            return False
        self.stamps.append(now)
        return True


class Connection:
    """One WebSocket client: reads, checks and dispatches; a writer task sends."""

    def __init__(self, lobby: Lobby, table: Table, websocket: WebSocket,
                 sockets: Sockets | None = None) -> None:
        self.lobby = lobby
        self.sockets = sockets or Sockets(lobby.limits)
        self.closing: tuple[int, str | None] = (1000, None)
        """The close code and reason the writer closes the socket with."""
        self.closed_by: int | None = None
        """The close code the client's own close frame gave (None: no close frame came,
        or the server closed first)."""
        self.master = lobby.master
        self.table = table
        self.ws = websocket
        self.limits: Limits = lobby.limits
        self.rate = RateLimiter(self.limits.messages_per_second)
        self.client: Client | None = None
        self.social = Social(lobby, self.limits)
        self.wire = wire.of(websocket.scope)
        """The socket's side door (:mod:`~toepen.server.socket.wire`), when the server has
        one (``toepen serve`` gives uvicorn the wire's protocol unless its start-up check,
        :func:`wire.protocol`, finds uvicorn lacking: then every frame goes plain ASGI)."""
        if self.wire is not None:
            self.wire.take()

    async def receive(self) -> str | None:
        """The next text frame (None when the socket closed)."""
        if self.wire is not None:
            text = await self.wire.receive()
            if text is None:  # uvicorn's disconnect event, with the code, is queued
                with contextlib.suppress(Exception):
                    self._closed(await asyncio.wait_for(self.ws.receive(), 1.0))
            return text
        msg = await self.ws.receive()
        if msg["type"] == "websocket.disconnect":
            self._closed(msg)
            return None
        text = msg.get("text")
        return str(text) if text is not None else wire.text_of(msg.get("bytes"))

    def _closed(self, msg: Any) -> None:
        if isinstance(msg, dict) and msg.get("type") == "websocket.disconnect":
            code = msg.get("code")
            self.closed_by = code if isinstance(code, int) else None

    async def run(self) -> None:
        try:
            self.client = await self._hello()
        except WebSocketDisconnect:
            self._unseat()  # gone after its seat was counted
            return
        except BaseException:
            self._unseat()
            raise
        if self.client is None:
            return
        writer = asyncio.get_running_loop().create_task(self._writer(self.client))
        try:
            await self._loop(self.client)
        except WebSocketDisconnect as e:
            self.closed_by = e.code
        finally:
            self._unseat()
            self.master.detach(self.table, self.client)
            self._gone(self.client)
            if self.client.seat is not None and not self.table.connected(self.client.seat):
                with contextlib.suppress(RuntimeError):
                    self.social.left(self.table)
            self.client.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2.0)
            writer.cancel()

    def _gone(self, client: Client) -> None:
        """A seat's player closed this socket themselves (close code 1000 or 1001: a tab
        closed, the page left) and it was the seat's last one: its short grace begins
        (:meth:`~toepen.server.tables.scheduler.Scheduler.gone`). A socket lost without a close
        frame (a dropped network, close code 1005 or 1006) or closed by the server
        (replaced, left) keeps the idle clock."""
        seat = client.seat
        if (seat is None or client.dropped or self.closed_by not in (1000, 1001)
                or self.table.connected(seat)):
            return
        with contextlib.suppress(RuntimeError):  # no loop: the server stops
            self.lobby.bots.gone(self.table, seat, self.limits.away_grace)

    def _unseat(self) -> None:
        if self.client is not None and self.client.seat is not None:
            self.sockets.unseat(self, self.table.id, self.client.seat)

    def replace(self) -> None:
        """A newer socket of this seat pushed this one past the cap: tell it, close it."""
        client = self.client
        if client is None or client.dropped:
            return
        self.closing = (4009, "replaced")
        client.send(protocol.error(
            "replaced", "this seat was opened in another tab or window; this one is closed",
            say=Message("error.replaced").to_json()))
        client.close()

    async def _refuse(self, code: str, message: str, close: int, reason: str) -> None:
        await self.ws.send_text(protocol.error(code, message))
        await self.ws.close(close, reason)

    async def _hello(self) -> Client | None:
        """The client of a first message that is ``hello`` (None: refused and closed)."""
        try:
            text = await asyncio.wait_for(self.receive(), self.limits.hello_timeout)
        except TimeoutError:
            await self.ws.close(4000, "no hello")
            return None
        if text is None:
            return None
        try:
            msg = protocol.parse(text, self.limits)
        except Refused as e:
            await self._refuse(e.code, e.message, 4000, "no hello")
            return None
        if msg["type"] != "hello":
            await self._refuse("need_hello", "the first message must be hello", 4000, "no hello")
            return None
        token = msg.get("token")
        seat: int | None = None
        host = False
        if token is not None:
            try:
                if not isinstance(token, str) or len(token) > 200:
                    raise Refused("auth", "token: must be the text the server gave")
                try:
                    seat, host = self.lobby.who(self.table, token)
                except Refused:  # a seat just taken at another server of the cluster?
                    if not await self.lobby.refresh(self.table):
                        raise
                    seat, host = self.lobby.who(self.table, token)
            except Refused as e:
                await self._refuse("auth", e.message, 4001, "unknown token")
                return None
        client = Client(seat, host, self.limits.send_queue)
        await self.lobby.fresh_copy(self.table)  # at a relay: the database's, not its lag
        try:
            self.master.attach(self.table, client)
        except Refused as e:
            await self._refuse("forbidden", e.message, 4029, "too many spectators")
            return None
        self.client = client
        if seat is not None:
            for old in self.sockets.seat(self, self.table.id, seat):
                old.replace()
            await self.master.back(self.table, seat)
        return client

    async def _writer(self, client: Client) -> None:
        """Send what the client's queue holds, in order; from now on a frame that finds
        the queue empty goes out at once (:meth:`Client.send`)."""
        client.sink = self.ws.send_text
        if self.wire is not None:
            client.direct = self.wire.send
        try:
            while True:
                item = await client.queue.get()
                if item is None:
                    break
                client.writing = True
                if isinstance(item, str):
                    await self.ws.send_text(item)
                elif isinstance(item, bytes):
                    await self.ws.send_text(item.decode())
                else:  # a frame begun at once that had to wait
                    await item
                client.writing = False
        except Exception:  # the socket is gone: the reader ends too
            pass
        client.sink = None
        client.direct = None
        with contextlib.suppress(Exception):
            await self.ws.close(*self.closing)

    async def _loop(self, client: Client) -> None:
        while not client.dropped:
            text = await self.receive()
            if text is None:
                return
            msg_id: str | int | None = None
            try:
                if not self.rate.allow():
                    raise Refused("rate_limited", f"more than {self.limits.messages_per_second} "
                                  "messages in one second; this one was dropped")
                msg = protocol.parse(text, self.limits)
                msg_id = protocol.message_id(msg)
                await self.dispatch(client, msg)
            except Refused as e:
                client.send(protocol.refused(e, msg_id if msg_id is not None else e.msg_id))

    @staticmethod
    def seated(client: Client) -> int:
        if client.seat is None:
            raise Refused("forbidden", "you have no seat at this table (a spectator)")
        return client.seat

    async def dispatch(self, client: Client, msg: dict[str, Any]) -> None:
        """Do what one (parsed) client message asks."""
        kind = msg["type"]
        table = self.table
        if kind == "ping":
            client.send(protocol.pong(protocol.message_id(msg)))
        elif kind == "hello":
            raise Refused("bad_message", "hello: only as the first message")
        elif kind == "act":
            seat = self.seated(client)
            if "action" not in msg or "state" not in msg:
                raise Refused("bad_message", "act: needs 'action' and 'state'")
            await self.master.back(table, seat)
            await self.master.act(table, seat, msg["action"], msg["state"], "player")
        elif kind == "back":
            await self.master.back(table, self.seated(client))
        elif kind == "leave":
            await self.lobby.leave(table, self.seated(client))
            client.close()
        elif kind == "chat":
            self.social.chat(table, client, msg.get("text"))
        elif kind == "react":
            self.social.react(table, client, msg.get("react"))
        elif kind == "rematch":
            await self.social.rematch(table, client, msg.get("preset"), msg.get("options"))
        elif kind == "host":
            if not client.host:
                raise Refused("forbidden", "only the host may do that")
            await self.lobby.host_command(table, msg.get("command"), msg.get("seat"),
                                          msg.get("bot"))
