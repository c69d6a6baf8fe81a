"""The game's WebSocket frames without the ASGI round trip: uvicorn's own WebSocket
protocol, with a side door for the frames of a game.

Every frame of a game goes through Starlette's ``WebSocket``, the ASGI ``send`` and
``receive`` calls (a message dict each, a coroutine chain, an ``asyncio.Queue`` and a
pause and resume of the socket per received frame) before uvicorn's WebSocket protocol
frames it with the ``websockets`` library. Measured with the load benchmark that was
about half of the server's CPU per action, where the socket's own read and four writes
take about 20 µs.

:class:`WireProtocol` is uvicorn's sans-I/O WebSocket protocol (the one ``ws="auto"``
picks) with one addition: the scope of each WebSocket carries a :class:`Wire` in
``scope["extensions"]["toepen.wire"]`` (the ASGI way for a server to offer more than
the specification). The handshake, pings, closes, limits and compression stay
uvicorn's and the ``websockets`` library's; a :class:`Wire` only

- sends a text frame at once, framed by the same ``websockets`` connection object
  (:meth:`Wire.send`; it declines, and the caller queues, while the socket's buffer is
  full or the socket is closing), and
- once :meth:`Wire.take` is called, hands each received text frame to the app
  directly (:meth:`Wire.receive`), reading paused only while many wait unread.

An app that never looks for the extension gets plain ASGI.

uvicorn's protocol class is not an API: the wire subclasses it and reads its state. So
``pyproject.toml`` pins uvicorn and ``websockets`` to the range this is tested on, and
``toepen serve`` asks :func:`protocol` for uvicorn's ``ws``: :class:`WireProtocol` once
:func:`missing` found everything it uses there (the methods it overrides, the state it
reads, of a real instance), else None, uvicorn's own ``auto`` (plain ASGI, logged once).
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
from typing import Any

try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import (
        WebSocketsSansIOProtocol as _Base,
    )
except ImportError:  # pragma: no cover - an older or newer uvicorn: plain ASGI
    _Base = None  # type: ignore[assignment,misc]

log = logging.getLogger("toepen.server")

METHODS = ("handle_connect", "send_receive_event_to_app")
"""The methods of uvicorn's protocol that :class:`WireProtocol` overrides."""
STATE = ("transport", "queue", "close_sent", "disconnected", "handshake_complete",
         "writable", "read_paused", "frames", "conn")
"""The state of uvicorn's protocol that the wire reads or sets."""
CONN = ("send_text", "data_to_send")
"""What the wire calls on the protocol's ``websockets`` connection."""

EXTENSION = "toepen.wire"
"""The scope extension's name."""

UNREAD = 64
"""Received frames waiting unread above which the socket stops reading (until read)."""


class Wire:
    """The side door of one WebSocket (see the module's documentation)."""

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol
        self._inbox: collections.deque[str] = collections.deque()
        self._waiter: asyncio.Future[None] | None = None
        self.taken = False
        """The app reads through :meth:`receive` (uvicorn's queue gets no frames)."""
        self.ended = False
        """The socket is closed, or closing: :meth:`receive` answers None once empty."""

    # -- sending ---------------------------------------------------------------------

    def send(self, text: str | bytes) -> bool:
        """Send a text frame (its text, or the text's UTF-8 bytes) now (True), or
        decline (False) while the socket's buffer is full or the socket is closed or
        closing: then the caller sends it the ASGI way, which waits for the buffer, or
        learns that the socket is gone."""
        p = self._protocol
        if (p.close_sent or p.disconnected or not p.handshake_complete
                or not p.writable.is_set()):
            return False
        conn = p.conn
        try:
            conn.send_text(text if isinstance(text, bytes) else text.encode())
        except Exception:  # not open (a close under way): the ASGI way says so
            return False
        p.transport.write(b"".join(conn.data_to_send()))
        return True

    # -- receiving -------------------------------------------------------------------

    def take(self) -> None:
        """From now on received text frames come through :meth:`receive` (call once the
        WebSocket is accepted); what came before is moved over, in order."""
        self.taken = True
        p = self._protocol
        queue = p.queue
        while not queue.empty():
            item = queue.get_nowait()
            if item["type"] == "websocket.receive":
                text = item.get("text")
                self._inbox.append(text if text is not None else text_of(item.get("bytes")))
            elif item["type"] == "websocket.disconnect":
                self.ended = True
                queue.put_nowait(item)  # uvicorn's own reads still see it
                break
        self._resume()

    async def receive(self) -> str | None:
        """The next received text frame (binary: decoded as UTF-8; not UTF-8: ``"\\x00"``),
        None once the socket is closed or closing and every frame was read."""
        inbox = self._inbox
        while not inbox:
            if self.ended:
                return None
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        text = inbox.popleft()
        if len(inbox) < UNREAD // 2:
            self._resume()
        return text

    def _resume(self) -> None:
        """Read the socket again if the wire paused it (not once the app closed it:
        uvicorn reads on for the peer's close then)."""
        p = self._protocol
        if p.read_paused and not p.close_sent:
            p.read_paused = False
            p.transport.resume_reading()

    def _deliver(self, text: str) -> None:
        self._inbox.append(text)
        self._wake()
        p = self._protocol
        if len(self._inbox) >= UNREAD and not p.read_paused:
            p.read_paused = True
            p.transport.pause_reading()

    def _end(self) -> None:
        self.ended = True
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


class _Inbox(asyncio.Queue):  # type: ignore[type-arg]
    """uvicorn's queue of ASGI receive events: a disconnect also ends the wire."""

    wire: Wire

    def put_nowait(self, item: Any) -> None:
        if item["type"] == "websocket.disconnect":
            self.wire._end()
        super().put_nowait(item)


if _Base is not None:

    class WireProtocol(_Base):
        """uvicorn's sans-I/O WebSocket protocol, each scope with a :class:`Wire`."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.wire = Wire(self)
            inbox = _Inbox()
            inbox.wire = self.wire
            self.queue = inbox

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)  # None: the handshake was refused
            if scope is not None:
                scope["extensions"][EXTENSION] = self.wire

        def send_receive_event_to_app(self) -> None:
            if not self.wire.taken:
                super().send_receive_event_to_app()
                return
            # the wire does its own pausing: no pause and resume per frame
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            self.frames = []
            if self.close_sent:
                return  # past the app's close: dropped, as uvicorn does
            self.wire._deliver(text_of(data))

    PROTOCOL: type[Any] | None = WireProtocol
else:  # pragma: no cover
    PROTOCOL = None


def missing() -> list[str]:
    """What the wire uses of uvicorn's sans-I/O protocol and cannot find there (empty:
    everything is there): its methods on the class, its state on a real instance."""
    if _Base is None:
        return ["uvicorn.protocols.websockets.websockets_sansio_impl"
                ".WebSocketsSansIOProtocol"]
    name = _Base.__name__
    out = [f"{name}.{m}()" for m in METHODS if not callable(getattr(_Base, m, None))]
    try:
        probe = _probe()
    except Exception as e:
        return [*out, f"{name}(config, server_state, app_state): {type(e).__name__}: {e}"]
    out += [f"{name}.{a}" for a in STATE if not hasattr(probe, a)]
    if hasattr(probe, "writable") and not isinstance(probe.writable, asyncio.Event):
        out.append(f"{name}.writable (an asyncio.Event)")
    if hasattr(probe, "queue") and not isinstance(probe.queue, asyncio.Queue):
        out.append(f"{name}.queue (an asyncio.Queue)")
    conn = getattr(probe, "conn", None)
    out += [f"{name}.conn.{m}()" for m in CONN if not callable(getattr(conn, m, None))]
    return out


def _probe() -> Any:
    """An instance of uvicorn's protocol as uvicorn makes one (not connected)."""
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover
        return None

    config = Config(app, log_config=None, lifespan="off", ws="websockets-sansio")
    config.load()
    loop = asyncio.new_event_loop()
    try:
        return _Base(config, ServerState(), {}, _loop=loop)
    finally:
        loop.close()


@functools.cache
def protocol() -> type[Any] | None:
    """uvicorn's ``ws`` for ``toepen serve``: :class:`WireProtocol` if what it needs of
    uvicorn is there (:func:`missing`), else None (uvicorn's ``auto``, plain ASGI: every
    frame through Starlette; said once in the log)."""
    gone = missing()
    if not gone:
        return PROTOCOL
    import uvicorn
    import websockets

    log.warning("the WebSocket side door is off: uvicorn %s with websockets %s lacks %s; "
                "frames go the plain ASGI way (slower, the same game)",
                getattr(uvicorn, "__version__", "?"), getattr(websockets, "__version__", "?"),
                ", ".join(gone))
    return None


def text_of(data: bytes | None) -> str:
    """A received frame's data as text: UTF-8, else ``"\x00"`` (which the protocol
    reports as bad JSON), the same for text and binary frames."""
    try:
        return bytes(data or b"").decode()
    except UnicodeDecodeError:
        return "\x00"


def of(scope: Any) -> Wire | None:
    """The :class:`Wire` of a WebSocket's ASGI scope, if its server offers one."""
    extensions = scope.get("extensions") or {}
    wire = extensions.get(EXTENSION)
    return wire if isinstance(wire, Wire) else None
