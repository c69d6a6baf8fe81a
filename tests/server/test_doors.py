"""Issue 37's smaller doors (docs/security.md, "Issue 37 point by point"): every integer
from outside bounded at parse time (the OpenAPI and the protocol's schema walked), a
message id past 64 bits, an invitation id past 64 bits; each over a real server whose log
is read for tracebacks."""

from __future__ import annotations

import contextlib
import json
import math
import select
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from toepen.server.site.presence import GUESTS_PER_ADDRESS

from .conftest import Player, Server, create
from .schema import SCHEMA

PASSWORD = "correct horse battery"
MAX_INT = 2**53 - 1  # JavaScript's Number.MAX_SAFE_INTEGER: protocol.MAX_INT


def assert_no_traceback(server: Server) -> None:
    text = server.logpath.read_text(errors="replace")
    assert "Traceback" not in text and "ERROR" not in text, text[-3000:]


def unbounded(schema: dict[str, Any], where: str, defs: dict[str, Any],
              seen: frozenset[str] = frozenset()) -> list[str]:
    """Every integer of a JSON schema (OpenAPI's or the protocol's) without both a
    minimum and a maximum: where it is."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return []
        return unbounded(defs[name], where, defs, seen | {name})
    out: list[str] = []
    types = schema.get("type")
    integer = types == "integer" or (isinstance(types, list) and "integer" in types)
    bounded = ({"minimum", "exclusiveMinimum"} & set(schema)
               and {"maximum", "exclusiveMaximum"} & set(schema))
    if integer and not bounded:
        out.append(where)
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, []):
            out += unbounded(sub, where, defs, seen)
    for name, sub in schema.get("properties", {}).items():
        out += unbounded(sub, f"{where}.{name}", defs, seen)
    if isinstance(schema.get("items"), dict):
        out += unbounded(schema["items"], f"{where}[]", defs, seen)
    if isinstance(schema.get("additionalProperties"), dict):
        out += unbounded(schema["additionalProperties"], f"{where}{{}}", defs, seen)
    return out


def test_every_integer_of_the_openapi_is_bounded() -> None:
    """Every integer parameter (query, path, header) and every integer property of a
    request body has a minimum and a maximum: checked by the models before any handler."""
    from toepen.server.app import create_app

    spec = create_app().openapi()
    defs = spec.get("components", {}).get("schemas", {})
    found: list[str] = []
    params = 0
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            for param in op.get("parameters", []):
                params += 1
                found += unbounded(param.get("schema", {}),
                                   f"{method.upper()} {path} {param['in']}:{param['name']}", defs)
            for content in op.get("requestBody", {}).get("content", {}).values():
                found += unbounded(content.get("schema", {}), f"{method.upper()} {path} body",
                                   defs)
    assert params > 10  # the walk reached the parameters
    assert unbounded({"type": "integer", "minimum": 0}, "probe", defs) == ["probe"]
    assert found == [], found


def test_every_integer_of_a_client_message_is_bounded() -> None:
    """The protocol's schema bounds every integer of every client message, and the
    bounds are the ones ``protocol.parse`` holds them to (INT_FIELDS)."""
    from toepen.server import protocol
    defs = SCHEMA["$defs"]
    kinds = [ref["$ref"].rsplit("/", 1)[-1] for ref in defs["client_message"]["oneOf"]]
    found: list[str] = []
    bounds: dict[str, tuple[int, int]] = {}
    for kind in kinds:
        found += unbounded(defs[kind], kind, defs)
        for name, prop in defs[kind]["properties"].items():
            prop = defs["id"] if prop.get("$ref") == "#/$defs/id" else prop
            if "integer" in json.dumps(prop.get("type")):
                bounds[name] = (prop["minimum"], prop["maximum"])
    assert len(kinds) == 9 and found == [], found
    assert bounds == protocol.INT_FIELDS and protocol.MAX_INT == MAX_INT


def test_a_huge_message_id_is_a_clear_error_and_the_socket_lives_on(server: Server) -> None:
    t = create(server, name="Ann", size=2, bots={"1": "random"})
    ann = Player(server, t["table"]["id"], t["token"])
    for text in ('{"v":1,"type":"ping","id":18446744073709551616}',
                 '{"v":1,"type":"ping","id":-18446744073709551616}',
                 '{"v":1,"type":"ping","id":' + "9" * 4000 + "}",
                 '{"v":1,"type":"act","action":"knock","state":18446744073709551616}',
                 '{"v":1,"type":"host","command":"add_bot","seat":18446744073709551616}',
                 '{"v":1,"type":"rematch","options":{"lives":18446744073709551616}}'):
        ann.send(text)
        msg = ann.wait(lambda m: m["type"] == "error")
        assert msg["code"] == "bad_message" and msg["say"]["id"] == "error.integer", msg
        assert "an integer from" in msg["message"] and "id" not in msg
        assert msg["say"]["params"]["high"] == MAX_INT
    ann.send({"v": 1, "type": "ping", "id": MAX_INT})
    assert ann.wait(lambda m: m["type"] == "pong")["id"] == MAX_INT
    ann.send({"v": 1, "type": "ping", "id": -MAX_INT})
    assert ann.wait(lambda m: m["type"] == "pong")["id"] == -MAX_INT
    assert ann.reconnects == 0
    ann.close()
    time.sleep(0.1)
    assert_no_traceback(server)


def test_a_huge_invitation_id_is_a_clear_4xx(server: Server) -> None:
    http = httpx.Client(base_url=server.url, timeout=10)
    csrf = http.get("/api/account").json()["csrf"]
    r = http.post("/api/account/register", json={"name": "Inge", "password": PASSWORD},
                  headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    csrf = r.json()["csrf"]
    for inv in ("99999999999999999999", "2147483648", "-1", "0"):
        for answer in ("accept", "decline"):
            r = http.post(f"/api/invitations/{inv}/{answer}", headers={"X-CSRF-Token": csrf})
            assert r.status_code == 422, (inv, r.text)
            assert r.json()["detail"].startswith("path.inv:"), r.text
    r = http.post("/api/invitations/2147483647/accept", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 404 and r.json()["say"]["id"] == "here.error.invitation"
    time.sleep(0.1)
    assert_no_traceback(server)


REQUEST_TIMEOUT = 2.0


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with a short deadline for reading a request."""
    db = tmp_path_factory.mktemp("strict") / "toepen.sqlite3"
    srv = Server(f"sqlite:///{db}", "--request-timeout", str(REQUEST_TIMEOUT)).start()
    yield srv
    srv.stop()


def trickle(server: Server, heads: list[bytes], seconds: float) -> list[tuple[float, bytes]]:
    """Each of ``heads`` sent on its own connection a byte every 0.25 s, for at most
    ``seconds``, an honest request made between the bytes: when each connection was cut
    (seconds after it opened; inf: never) and what it was answered."""
    socks = [socket.create_connection(("127.0.0.1", server.port)) for _ in heads]
    start = time.monotonic()
    cut = [math.inf] * len(heads)
    said = [b""] * len(heads)
    sent = 0
    honest = 0
    while time.monotonic() - start < seconds and math.inf in cut:
        for i, sock in enumerate(socks):
            if cut[i] < math.inf:
                continue
            with contextlib.suppress(OSError):
                sock.sendall(heads[i][sent % len(heads[i]):sent % len(heads[i]) + 1])
            while select.select([sock], [], [], 0)[0]:
                try:
                    data = sock.recv(4096)
                except OSError:
                    data = b""
                said[i] += data
                if not data:
                    cut[i] = time.monotonic() - start
                    break
        sent += 1
        assert server.get("/api/health").status_code == 200  # the server answers meanwhile
        honest += 1
        time.sleep(0.25)
    for sock in socks:
        sock.close()
    assert honest > 4
    return list(zip(cut, said, strict=True))


def test_a_slow_request_is_cut_off_and_an_honest_one_works(strict: Server) -> None:
    """Headers sent a byte at a time, a body sent a byte at a time, a connection that
    sends nothing: each cut off within the deadline (408 when its headers were not in),
    while honest requests are answered all along."""
    port = strict.port
    headers = (f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
               + "X-Slow: " + "a" * 200 + "\r\n\r\n").encode()
    body = (f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 400\r\n\r\n").encode()
    heads = [headers] * 10 + [body] * 10
    results = trickle(strict, heads, 8 * REQUEST_TIMEOUT)
    for i, (when, said) in enumerate(results):
        assert when < 4 * REQUEST_TIMEOUT, (i, when, said)
        if heads[i] is headers:
            assert said.startswith(b"HTTP/1.1 408 "), said
        else:
            assert b" 201 " not in said and b" 200 " not in said, said
    idle = socket.create_connection(("127.0.0.1", port))
    idle.settimeout(4 * REQUEST_TIMEOUT)
    assert idle.recv(4096).startswith(b"HTTP/1.1 408 ")
    idle.close()
    time.sleep(0.1)
    assert_no_traceback(strict)


def test_the_deadline_spares_a_websocket_and_a_whole_request(strict: Server) -> None:
    """A socket past its handshake and a request read whole (its answer slow or not)
    are not timed: a WebSocket idle past the deadline still answers."""
    t = create(strict, name="Ann", size=2, bots={"1": "random"})
    ann = Player(strict, t["table"]["id"], t["token"])
    time.sleep(REQUEST_TIMEOUT * 1.5)
    ann.send({"v": 1, "type": "ping", "id": 7})
    assert ann.wait(lambda m: m["type"] == "pong")["id"] == 7
    assert ann.reconnects == 0
    ann.close()
    with httpx.Client(base_url=strict.url, timeout=10) as http:  # one connection, kept
        for _ in range(3):
            assert http.get("/api/health").status_code == 200
            time.sleep(REQUEST_TIMEOUT * 0.6)


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with its sockets capped low: 12 per address, hello within 1 s."""
    db = tmp_path_factory.mktemp("capped") / "toepen.sqlite3"
    srv = Server(f"sqlite:///{db}", "--sockets-per-address", "12", "--hello-timeout",
                 "1").start()
    yield srv
    srv.stop()


def hello(server: Server, table_id: str, token: str | None) -> ClientConnection:
    ws = connect(f"{server.ws}/ws/{table_id}", open_timeout=5).__enter__()
    msg: dict[str, Any] = {"v": 1, "type": "hello"}
    if token is not None:
        msg["token"] = token
    ws.send(json.dumps(msg))
    while json.loads(ws.recv(timeout=5))["type"] != "welcome":
        pass
    return ws


def until_closed(ws: ClientConnection) -> list[dict[str, Any]]:
    """Every message until the server closes the socket (it must, within 10 s)."""
    got = []
    with contextlib.suppress(ConnectionClosed):
        while True:
            got.append(json.loads(ws.recv(timeout=10)))
    return got


def test_fifty_sockets_on_one_seat_keep_the_cap_and_one_chat_budget(capped: Server) -> None:
    """A seat's sockets past --sockets-per-seat (4) close the oldest, which is told why
    (``replaced``, close code 4009); the chat budget is the seat's: 5 lines in 10 s
    whichever of its sockets sends them."""
    t = create(capped, name="Ann", size=2, bots={"1": "random"})
    tid = t["table"]["id"]
    watcher = Player(capped, tid)
    tabs: list[ClientConnection] = []
    for i in range(50):
        tabs.append(hello(capped, tid, t["token"]))
        if i >= 4:  # the oldest still open is closed, and told why
            old = tabs[i - 4]
            said = until_closed(old)
            assert [m["code"] for m in said if m["type"] == "error"] == ["replaced"], said
            assert said[-1]["say"]["id"] == "error.replaced"
            assert old.close_code == 4009
    open_tabs = tabs[-4:]
    for ws in open_tabs:  # the newest four work
        ws.send(json.dumps({"v": 1, "type": "ping", "id": 1}))
        while json.loads(ws.recv(timeout=5))["type"] != "pong":
            pass
    for i in range(20):
        open_tabs[i % 4].send(json.dumps({"v": 1, "type": "chat", "text": f"line {i}"}))
    limited = 0
    for ws in open_tabs:
        for _ in range(5):
            with contextlib.suppress(TimeoutError):
                while True:
                    m = json.loads(ws.recv(timeout=1))
                    if m["type"] == "error" and m["code"] == "rate_limited":
                        limited += 1
                        break
    watcher.drain(0.5)
    lines = [m for m in watcher.messages if m["type"] == "chat"]
    assert len(lines) == 5 and limited == 15, (len(lines), limited)
    table = capped.get(f"/api/tables/{tid}").json()
    assert table["spectators"] == 1
    for ws in open_tabs:
        ws.close()
    watcher.close()
    time.sleep(0.1)
    assert_no_traceback(capped)


def test_sockets_per_address_are_capped_and_silent_ones_closed(capped: Server) -> None:
    """Sockets that never say hello are closed after --hello-timeout; past
    --sockets-per-address (12) one more is refused with a clear error (4029), and one
    closed makes room again."""
    t = create(capped, name="Ann", size=2, bots={"1": "random"})
    tid = t["table"]["id"]
    silent = connect(f"{capped.ws}/ws/{tid}", open_timeout=5).__enter__()
    until_closed(silent)
    assert silent.close_code == 4000
    held = [hello(capped, tid, None) for _ in range(12)]
    extra = connect(f"{capped.ws}/ws/{tid}", open_timeout=5).__enter__()
    said = until_closed(extra)
    assert [m["code"] for m in said] == ["limit"], said
    assert said[0]["say"] == {"id": "error.sockets.address", "params": {"n": 12}}
    assert extra.close_code == 4029
    held.pop().close()
    deadline = time.monotonic() + 10
    while True:  # the server counts the closed one out as soon as it sees it go
        try:
            held.append(hello(capped, tid, None))
            break
        except (ConnectionClosed, TimeoutError):
            assert time.monotonic() < deadline
            time.sleep(0.1)
    assert capped.get(f"/api/tables/{tid}").json()["spectators"] == 12
    for ws in held:
        ws.close()
    time.sleep(0.1)
    assert_no_traceback(capped)


def test_guests_are_marked_never_an_accounts_name_and_capped_per_address(
        server: Server) -> None:
    """120 invented guests who ask to be listed, 60 under an offline account's name:
    the name is refused however it is written (409), at most 5 guests from one address
    are listed (429 past that, still counted), at most 32 counted, each marked as a guest;
    accounts are marked as not."""
    def browser() -> tuple[httpx.Client, str]:
        http = httpx.Client(base_url=server.url, timeout=10)
        return http, http.get("/api/account").json()["csrf"]

    owner, csrf = browser()
    r = owner.post("/api/account/register", json={"name": "Marleen", "password": PASSWORD},
                   headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    owner.post("/api/account/logout", headers={"X-CSRF-Token": r.json()["csrf"]})
    guest, csrf = browser()

    def here(body: dict[str, Any]) -> httpx.Response:
        return guest.post("/api/here", json=body, headers={"X-CSRF-Token": csrf})

    statuses: dict[int, int] = {}
    for i in range(120):
        name = ("Marleen", "marleen", "MARLEEN", "Маrleen")[i % 4] if i % 2 else f"Gast{i}"
        r = here({"client": f"invented-{i:04d}", "visible": True, "name": name})
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        if i % 2:
            assert r.status_code == 409, r.text
            assert r.json()["say"] == {"id": "here.error.name_taken", "params": {"name": name}}
        elif r.status_code == 429:
            assert r.json()["say"] == {"id": "here.error.guests", "params": {"n": 5}}
    assert statuses == {200: 5, 409: 60, 429: 55}, statuses
    seen = here({"client": "an-honest-one"}).json()
    assert all(g["guest"] is True for g in seen["guests"])
    names = [g["name"] for g in seen["guests"]]
    assert len(names) == 5 and not any("leen" in n for n in names), names
    # counted, never named, and no more than GUESTS_PER_ADDRESS of one address: 120
    # invented ids do not make 120 guests
    assert seen["counts"]["guests"] == GUESTS_PER_ADDRESS
    me, csrf_me = browser()
    r = me.post("/api/account/register", json={"name": "Hidde", "password": PASSWORD},
                headers={"X-CSRF-Token": csrf_me})
    listed = me.post("/api/here", json={}, headers={"X-CSRF-Token": r.json()["csrf"]}).json()
    assert {"name": "Hidde", "table": None, "guest": False} in listed["online"]
    again = here({"client": "invented-0002", "visible": True, "name": "Gast2"})
    assert again.status_code == 200  # a listed guest's next beat is not one too many
    # an account made under a listed guest's name: the guest is not listed beside it
    assert "Gast0" in [g["name"] for g in again.json()["guests"]]
    late, csrf_late = browser()
    r = late.post("/api/account/register", json={"name": "gast0", "password": PASSWORD},
                  headers={"X-CSRF-Token": csrf_late})
    assert r.status_code == 201, r.text
    late.post("/api/here", json={}, headers={"X-CSRF-Token": r.json()["csrf"]})
    seen = here({"client": "an-honest-one"}).json()
    assert "Gast0" not in [g["name"] for g in seen["guests"]]
    assert "gast0" in [o["name"] for o in seen["online"]]
    assert here({"client": "invented-0000", "visible": True, "name": "Gast0"}).status_code == 409


def test_a_request_head_past_64_kib_is_refused_431(strict: Server) -> None:
    """httptools bounds no head: the deadline's protocol does (MAX_HEAD, 64 KiB of request
    line and headers); past it 431 and the connection closed, however fast it came."""
    sock = socket.create_connection(("127.0.0.1", strict.port))
    sock.settimeout(10)
    sock.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{strict.port}\r\n".encode())
    sent = 0
    with contextlib.suppress(OSError):  # the server closes while it is sent
        while sent < 8 * 2**20:
            sock.sendall(b"X-Big: " + b"a" * 8000 + b"\r\n")
            sent += 8009
    said = b""
    with contextlib.suppress(OSError):
        while chunk := sock.recv(4096):
            said += chunk
    sock.close()
    assert said.startswith(b"HTTP/1.1 431 "), said[:100]
    assert sent < 8 * 2**20  # cut off long before
    near = {f"X-Near-{i}": "b" * 7000 for i in range(8)}  # 56 KiB: answered
    assert httpx.get(strict.url + "/api/health", headers=near).status_code == 200
    time.sleep(0.1)
    assert_no_traceback(strict)
