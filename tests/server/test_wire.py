"""The WebSocket side door (``toepen.server.socket.wire``), on a real uvicorn and real sockets.

A tiny ASGI app behind uvicorn with :data:`wire.PROTOCOL` takes the wire and answers
what a test client sends; the game server itself (every other server test) uses it the
same way. Here uvicorn and the client agree on compression (both libraries' default), so
the wire's frames go through ``permessage-deflate`` too; ``toepen serve`` has it off
unless ``--ws-deflate``. Also: a server whose start-up check finds uvicorn lacking what the
wire uses (the one way the server goes without it) plays a whole game over plain ASGI.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from websockets.sync.client import connect

from toepen.server.socket import wire

from .audit import audit, timeline
from .conftest import Player, Server, free_port
from .test_session import new_table, over, play_until


def test_the_server_has_the_wire() -> None:
    """uvicorn's sans-I/O protocol is there to build on (a uvicorn without it would
    leave the server on plain ASGI: this test says so)."""
    assert wire.PROTOCOL is not None


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Accept, take the wire and answer each text: ``echo X`` sends X back through the
    wire, ``stall`` marks the socket unwritable and reports what a send then says,
    ``count`` sends back how many texts came before it, ``close`` closes."""
    if scope["type"] == "lifespan":
        while True:
            msg = await receive()
            if msg["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif msg["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    assert scope["type"] == "websocket"
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    door = wire.of(scope)
    assert door is not None
    path = scope["path"]
    if path.startswith("/late"):
        await asyncio.sleep(0.3)  # the client's first frames wait in uvicorn's queue
    door.take()
    seen: list[str] = []
    while True:
        text = await door.receive()
        if text is None:
            RESULTS.append((path, "ended", seen))
            return
        seen.append(text)
        if text.startswith("echo "):
            assert door.send(text[5:].encode() if "bytes" in text else text[5:])
        elif text == "stall":
            protocol = door._protocol
            protocol.writable.clear()
            declined = not door.send("never")
            protocol.writable.set()
            assert door.send(f"declined {declined}")
        elif text == "count":
            assert door.send(f"count {len(seen) - 1}")
        elif text == "close":
            await send({"type": "websocket.close", "code": 1000})
            after = door.send("after close")
            RESULTS.append((path, "closed", [str(after), str(await door.receive())]))
            return


RESULTS: list[tuple[str, str, list[str]]] = []
"""(path, what, texts) as the app's sockets end, each test at a path of its own."""


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, ws=wire.PROTOCOL,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    yield f"ws://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def wait_for(path: str, kind: str) -> list[str]:
    deadline = time.monotonic() + 5
    while True:
        for p, k, value in RESULTS:
            if p == path and k == kind:
                return value
        assert time.monotonic() < deadline, f"no {kind} result at {path}"
        time.sleep(0.01)


def test_frames_go_through_the_wire_both_ways(url: str) -> None:
    with connect(url + "/both") as ws:
        assert [e.name for e in ws.protocol.extensions] == ["permessage-deflate"]
        ws.send("echo hallo")
        assert ws.recv(timeout=5) == "hallo"
        ws.send("echo bytes é")
        assert ws.recv(timeout=5) == "bytes é"  # UTF-8 bytes go out as a text frame
        ws.send(b"echo binary")  # a binary frame of UTF-8 is read as its text
        assert ws.recv(timeout=5) == "binary"
        ws.send(b"\xff\xfe")  # not UTF-8: read as "\x00" (the server says bad JSON)
        ws.send("count")
        assert ws.recv(timeout=5) == "count 4"
    assert wait_for("/both", "ended") == ["echo hallo", "echo bytes é", "echo binary", "\x00",
                                 "count"]


def test_frames_sent_before_the_wire_is_taken_come_first_in_order(url: str) -> None:
    with connect(url + "/late") as ws:
        for i in range(5):
            ws.send(f"early {i}")
        ws.send("count")
        assert ws.recv(timeout=5) == "count 5"
    assert wait_for("/late", "ended")[:5] == [f"early {i}" for i in range(5)]


def test_many_frames_at_once_all_arrive_in_order(url: str) -> None:
    n = 5 * wire.UNREAD  # more than the wire keeps unread before it pauses the socket
    with connect(url + "/many") as ws:
        for i in range(n):
            ws.send(f"echo {i}")
        assert [ws.recv(timeout=5) for _ in range(n)] == [str(i) for i in range(n)]


def test_a_full_socket_buffer_makes_the_wire_decline(url: str) -> None:
    with connect(url + "/stall") as ws:
        ws.send("stall")
        assert ws.recv(timeout=5) == "declined True"  # and "never" was not sent
        ws.send("echo next")
        assert ws.recv(timeout=5) == "next"


def test_after_a_close_the_wire_sends_nothing_and_reads_the_end(url: str) -> None:
    with connect(url + "/close") as ws:
        ws.send("close")
        with contextlib.suppress(Exception):
            while True:
                ws.recv(timeout=5)  # the close, then the socket ends
    assert wait_for("/close", "closed") == ["False", "None"]


def test_the_client_going_away_ends_the_read(url: str) -> None:
    sock = socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])))
    sock.sendall(b"GET /lost HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                 b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 b"Sec-WebSocket-Version: 13\r\n\r\n")
    assert b"101" in sock.recv(1024)
    sock.close()  # no close frame: the connection is simply lost
    assert wait_for("/lost", "ended") == []


def test_a_uvicorn_without_what_the_wire_needs_falls_back_to_plain_asgi(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The start-up check (:func:`wire.missing`) finds everything the wire uses in this
    uvicorn; made to look for a piece this uvicorn lacks (as a newer uvicorn might, the
    class's state renamed), ``toepen serve`` says so once in its log and serves on
    uvicorn's own protocol: a whole game of two people and two bots over WebSockets,
    every frame audited."""
    assert wire.missing() == []
    assert wire.protocol() is wire.PROTOCOL
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import toepen.server.socket.wire as w\n"
        "w.STATE = (*w.STATE, 'state_a_newer_uvicorn_renamed')\n")
    monkeypatch.setenv("PYTHONPATH", str(site))
    srv = Server(f"sqlite:///{tmp_path / 'fallback.sqlite3'}")
    srv.start()
    monkeypatch.delenv("PYTHONPATH")
    try:
        said = [line for line in srv.log().splitlines() if "side door is off" in line]
        assert len(said) == 1 and "state_a_newer_uvicorn_renamed" in said[0], srv.log()
        host, bas = new_table(srv)
        tid = host["table"]["id"]
        a, b = Player(srv, tid, host["token"]), Player(srv, tid, bas["token"])
        r = srv.post(f"/api/tables/{tid}/start", {},
                     headers={"Authorization": "Bearer " + host["token"]})
        assert r.status_code == 200, r.text
        play_until([a, b], random.Random(3), lambda: over(a) and over(b))
        games = timeline(srv.get(f"/api/tables/{tid}/record").json())
        for p, seat in ((a, 0), (b, 1)):
            assert audit(p.messages, seat, games) > 10
        said = [line for line in srv.log().splitlines() if "side door is off" in line]
        assert len(said) == 1  # once, not per connection
        a.close()
        b.close()
    finally:
        srv.stop()
