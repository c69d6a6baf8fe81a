"""A deadline for reading each HTTP request (``toepen serve --request-timeout``), and a
bound on the size of its head.

uvicorn closes a connection idle between two requests (``timeout_keep_alive``,
``--keep-alive``) but sets no deadline while a request is being read: a client that sends
its headers or its body a byte at a time holds the connection as long as it likes (a
"slowloris"; issue 37, point 9). :class:`DeadlineProtocol` is uvicorn's own HTTP protocol
(httptools) with one timer more: a request must be read whole, its headers and its body,
within ``request_timeout`` seconds of its first byte (and a new connection must send that
first byte within as long). Past the deadline a request whose headers are not in gets
``408 Request Timeout``, and the connection is closed; one whose headers are in (its
handler waiting for the body) is closed, which the handler reads as the client gone.
A request read whole is not timed any more (a long poll answers when it likes), nor is
a connection that became a WebSocket (its ``hello`` has its own deadline).

httptools sets no bound on the size of a request's head either (uvicorn's h11 has
``h11_max_incomplete_event_size``, httptools nothing): 400 MiB of header lines sent in
0.9 s grew a server from 101 to 496 MiB before the deadline cut them off. So the request
line and headers together may hold at most :data:`MAX_HEAD` bytes (64 KiB, as h11's
default 16 KiB and nginx's 8 KiB lines, with room): one more is answered
``431 Request Header Fields Too Large`` and the connection closed. (The body is bounded
by the guard: 413 past ``max_body``.)

What it uses of uvicorn: the protocol class ``HttpToolsProtocol`` (uvicorn's ``http``
option takes a class; ``pyproject.toml`` pins uvicorn to the tested range), the asyncio
``Protocol`` methods (``connection_made``, ``connection_lost``) and the httptools parser's
callbacks (``on_message_begin``, ``on_headers_complete``, ``on_message_complete``), each
calling uvicorn's own first. :func:`protocol` checks they are there; if not, the server
runs with uvicorn's ``auto`` and says so in its log.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Base
except ImportError:  # pragma: no cover - no httptools: uvicorn's own, no deadline
    _Base = None  # type: ignore[assignment,misc]

log = logging.getLogger("toepen.server")

HOOKS = ("connection_made", "connection_lost", "on_message_begin", "on_url", "on_header",
         "on_headers_complete", "on_body", "on_message_complete")
"""What :class:`DeadlineProtocol` overrides (each calls uvicorn's first)."""

_SAID = b"the request was not sent in time"
TIMEOUT = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
           b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_SAID), _SAID))
"""The answer to a request whose headers did not come in time (uvicorn's own plain style,
as its ``400 Invalid HTTP request``)."""
MAX_HEAD = 65536
"""Bytes of a request's line and headers (names and values) at most."""
_LONG = b"request line and headers longer than %d bytes" % MAX_HEAD
TOO_LONG = (b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
            b"content-type: text/plain; charset=utf-8\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_LONG), _LONG))


if _Base is not None:

    class DeadlineProtocol(_Base):
        """uvicorn's HTTP protocol with a deadline for reading each request."""

        request_timeout = 10.0
        """Seconds to read one request whole (set by :func:`protocol`'s subclass)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._deadline: asyncio.TimerHandle | None = None
            self._headers_in = False
            self._head = 0
            """Bytes of the request line and headers read so far."""
            self._refused = False
            """Answered 431 and closing: what the parser still reads is dropped."""

        def _arm(self) -> None:
            self._disarm()
            self._deadline = asyncio.get_running_loop().call_later(
                self.request_timeout, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            transport: asyncio.Transport | None = getattr(self, "transport", None)
            if transport is None or transport.is_closing() or transport.get_protocol() is not self:
                return  # gone, or a WebSocket now
            if not self._headers_in:
                transport.write(TIMEOUT)
            log.info("a request not read whole in %g s: its connection is closed",
                     self.request_timeout)
            transport.close()

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()  # the first request's first byte, within the deadline too

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._headers_in = False
            self._head = 0
            self._arm()

        def _count(self, n: int) -> bool:
            """Count ``n`` bytes of the head: False (answered 431, closed) past the bound."""
            self._head += n
            if self._head <= MAX_HEAD and not self._refused:
                return True
            transport: asyncio.Transport | None = getattr(self, "transport", None)
            if not self._refused and transport is not None and not transport.is_closing():
                self._disarm()
                transport.write(TOO_LONG)
                transport.close()
            self._refused = True
            return False

        def on_url(self, url: bytes) -> None:
            if self._count(len(url)):
                super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            if self._count(len(name) + len(value) + 4):
                super().on_header(name, value)

        def on_headers_complete(self) -> None:
            self._headers_in = True
            if not self._refused:
                super().on_headers_complete()

        def on_body(self, body: bytes) -> None:
            if not self._refused:
                super().on_body(body)

        def on_message_complete(self) -> None:
            self._disarm()
            if not self._refused:
                super().on_message_complete()

    BASE: type[Any] | None = DeadlineProtocol
else:  # pragma: no cover
    BASE = None


def missing() -> list[str]:
    """What :class:`DeadlineProtocol` overrides and uvicorn's protocol lacks (empty: all
    there)."""
    if _Base is None:
        return ["uvicorn.protocols.http.httptools_impl.HttpToolsProtocol"]
    return [f"HttpToolsProtocol.{m}()" for m in HOOKS if not callable(getattr(_Base, m, None))]


@functools.cache
def protocol(request_timeout: float) -> type[Any] | None:
    """uvicorn's ``http`` for ``toepen serve``: :class:`DeadlineProtocol` with this
    deadline, or None (uvicorn's ``auto``, no deadline: said in the log) when what it
    needs of uvicorn is not there."""
    gone = missing()
    if gone or BASE is None:
        log.warning("no deadline for reading a request: uvicorn lacks %s; put a proxy with "
                    "one in front (docs/deploy.md)", ", ".join(gone))
        return None
    return type("DeadlineProtocol", (BASE,), {"request_timeout": request_timeout})
