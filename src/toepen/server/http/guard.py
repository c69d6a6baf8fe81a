"""The door of every HTTP request (``docs/security.md``): a plain ASGI middleware.

:class:`RequestGuard` reads a request's body itself before the application sees it,
counting the bytes as they come, whatever the framing (``Content-Length`` or
``Transfer-Encoding: chunked``): past ``limit`` bytes the request is answered 413 at
once and the rest is never read. A JSON body whose strings hold a lone surrogate
(``"\\ud800"``: JSON can write it, Unicode text cannot hold it) is refused 400 before
any handler sees it. Every answer gets the security headers (:data:`SECURITY_HEADERS`:
the Content-Security-Policy the browser client passes without ``unsafe-inline``, no
framing, no MIME sniffing, no referrer to other sites).

:func:`validation_error` answers a request the endpoints' models refused (422) with
where and what, never the value sent (a password, a key).
"""

from __future__ import annotations

import json
import re

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ...narration import Message as Say
from ..protocol import Refused, lone_surrogate

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; media-src 'self'; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
"""The browser client's Content-Security-Policy: its own scripts, styles and sockets
only (no inline script, style or handler), never inside another site's frame."""

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
"""Headers on every HTTP answer."""

_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


def _answer(refusal: Refused) -> JSONResponse:
    return JSONResponse({"detail": refusal.message, "code": refusal.code,
                         "say": refusal.say_json()}, status_code=refusal.status)


def body_refusal(body: bytes) -> Refused | None:
    """Why a body may not reach the endpoints (a lone surrogate in its JSON), or None.
    A body that is not JSON is left to the endpoint, which says so."""
    if not _ESCAPED_SURROGATE.search(body):
        return None
    try:
        doc = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if lone_surrogate(doc):
        return Refused("bad_message", "text with a lone surrogate (such as \\ud800) is not "
                       "Unicode text", 400, say=Say("error.unicode"))
    return None


class RequestGuard:
    """Every HTTP request's body read here first (at most ``limit`` bytes, however it
    is framed), then checked (:func:`body_refusal`); every answer with the security
    headers. WebSockets pass untouched (their frames have their own limits)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        too_large = Refused("too_large", f"body larger than {self.limit} bytes", 413)
        for name, value in scope["headers"]:
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await _answer(too_large)(scope, receive, send_guarded)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its body was read
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:  # answered now: the rest is never read
                await _answer(too_large)(scope, receive, send_guarded)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        refusal = body_refusal(body)
        if refusal is not None:
            await _answer(refusal)(scope, receive, send_guarded)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()  # after the body: the disconnect, when it comes
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send_guarded)


async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
    """A body or parameter the endpoint's model refused: 422 naming where and what is
    wrong, never echoing the value (it may be a password or a key)."""
    assert isinstance(exc, RequestValidationError)
    problems: list[str] = []
    for error in exc.errors()[:5]:
        where = ".".join(str(part)[:40] for part in error.get("loc", ()) if part != "body")
        problems.append(f"{where or 'body'}: {error.get('msg', 'invalid')}")
    detail = ("; ".join(problems) or "the request is not valid").encode(
        "utf-8", "backslashreplace").decode()
    return JSONResponse({"detail": detail, "code": "bad_message",
                         "say": Say("error.bad_message").to_json()}, status_code=422)

