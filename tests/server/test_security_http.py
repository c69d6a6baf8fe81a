"""The HTTP door (issue 23, docs/security.md): bodies limited while they are read
(chunked too), lone surrogates refused with a clear error, numeric parameters bounded,
security headers on every answer, forwarded headers believed only from named proxies;
each over a real server, with its log read for tracebacks and secrets."""

from __future__ import annotations

import json
import re
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import Player, Server, create

PASSWORD = "hunter2-secret-pw"


@pytest.fixture(scope="module")
def loud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that logs everything (info: every request line too)."""
    db = tmp_path_factory.mktemp("db") / "toepen.sqlite3"
    srv = Server(f"sqlite:///{db}", "--log-level", "info").start()
    yield srv
    srv.stop()


def full_log(server: Server) -> str:
    return server.logpath.read_text(errors="replace")


def assert_clean_log(server: Server, *secrets: str) -> None:
    """No traceback, no error line, no secret in the server's whole log."""
    text = full_log(server)
    assert "Traceback" not in text and "ERROR" not in text, text[-3000:]
    for secret in secrets:
        assert secret not in text, f"{secret!r} is in the log"


def rss_mb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no VmRSS")


def chunked_post(server: Server, path: str, total: int,
                 headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """POST ``total`` bytes to ``path`` in 64 KiB chunks (``Transfer-Encoding:
    chunked``, no length), stopping as soon as an answer comes: how much was sent, and
    the answer."""
    head = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    sock = socket.create_connection(("127.0.0.1", server.port))
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                 f"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n{head}"
                 "\r\n".encode())
    data = b'{"name": "' + b"a" * (65536 - 10)
    frame = f"{len(data):x}\r\n".encode() + data + b"\r\n"
    sent = 0
    answer = b""
    try:
        while sent < total:
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                break
            sock.sendall(frame)
            sent += len(data)
        else:
            sock.sendall(b'"}' + b"\r\n0\r\n\r\n")
        sock.settimeout(30)
        while b"\r\n\r\n" not in answer:
            more = sock.recv(65536)
            if not more:
                break
            answer += more
    except OSError:
        pass
    finally:
        sock.close()
    return sent, answer


def test_a_chunked_body_is_refused_while_it_is_read(loud: Server) -> None:
    assert loud.proc is not None
    before = rss_mb(loud.proc.pid)
    sent, answer = chunked_post(loud, "/api/tables", 200 * 2**20)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert sent < 16 * 2**20, f"{sent} bytes were read before the answer"
    assert rss_mb(loud.proc.pid) - before < 40
    sent, answer = chunked_post(loud, "/api/account/login", 50 * 2**20)
    assert answer.startswith(b"HTTP/1.1 413") and sent < 16 * 2**20
    assert loud.get("/api/health").status_code == 200


def test_every_endpoint_refuses_a_long_chunked_body(loud: Server) -> None:
    paths = loud.get("/openapi.json").json()["paths"]
    posts = [p.replace("{", "").replace("}", "") for p, ops in paths.items()
             if {"post", "put"} & set(ops)]
    assert len(posts) > 15
    for path in [*posts, "/no/such/path", "/"]:
        sent, answer = chunked_post(loud, path, 4 * 2**20)
        assert answer.startswith(b"HTTP/1.1 413"), (path, answer[:200])
    # A chunked body within the limit is read as before.
    r = httpx.post(loud.url + "/api/tables", content=iter([b'{"name": ', b'"Chunky"}']),
                   headers={"content-type": "application/json"})
    assert r.status_code == 201, r.text
    assert r.json()["table"]["seats"][0]["name"] == "Chunky"


class Browser:
    def __init__(self, server: Server) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=20)
        self.csrf = self.http.get("/api/account").json()["csrf"]

    def raw(self, path: str, text: str) -> httpx.Response:
        return self.http.post(path, content=text.encode(), headers={
            "X-CSRF-Token": self.csrf, "content-type": "application/json"})


SURROGATE_BODIES = [
    ("/api/account/login", f'{{"name": "ann\\ud800", "password": "{PASSWORD}"}}'),
    ("/api/account/login", f'{{"name": "Ann", "password": "{PASSWORD}\\ud800"}}'),
    ("/api/account/register", f'{{"name": "Annie", "password": "{PASSWORD}\\udfff"}}'),
    ("/api/tables", '{"name": "Ann", "request": "abcdefgh\\ud800"}'),
    ("/api/tables", '{"name": "Ann", "options": {"\\ud800": 1}}'),
    ("/api/join", '{"code": "\\ud800", "name": "Ann"}'),
    ("/api/clubs", '{"name": "De Kroeg\\ud800", "admin": "Ann"}'),
    ("/api/tournaments", '{"name": "Avond", "season": "2026\\ud800"}'),
    ("/api/sheets", '{"players": ["A", "B", "C"], "meta": {"pub": "\\ud800"}}'),
    ("/api/sheets", '{"players": ["A", "B", "C"], "meta": {"\\udc00": [1, {"x": "y"}]}}'),
]


@pytest.mark.parametrize(("path", "body"), SURROGATE_BODIES)
def test_a_lone_surrogate_gets_a_clear_400(loud: Server, path: str, body: str) -> None:
    b = Browser(loud)
    tables = len(loud.get("/api/tables").json()["tables"])
    r = b.raw(path, body)
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "bad_message" and r.json()["say"]["id"] == "error.unicode"
    assert "surrogate" in r.json()["detail"]
    assert len(loud.get("/api/tables").json()["tables"]) == tables
    # A real pair (an emoji written as two escapes) is text like any other.
    ok = b.raw("/api/tables", '{"name": "Ann \\ud83c\\udf7a"}')
    assert ok.status_code == 201 and ok.json()["table"]["seats"][0]["name"] == "Ann 🍺"
    time.sleep(0.1)
    assert_clean_log(loud, PASSWORD)


def test_a_refused_body_never_echoes_a_password(loud: Server) -> None:
    b = Browser(loud)
    for body in ('{"password": "' + PASSWORD + '"}',  # no name: the model refuses
                 '{"name": ["Ann"], "password": "' + PASSWORD + '"}',
                 '{"name": "Ann", "password": "' + PASSWORD + '", "x": ' + "[" * 3000 + "}",
                 '{"name": "Ann", "password": "' + PASSWORD + '"'):
        for path in ("/api/account/login", "/api/account/register"):
            r = b.raw(path, body)
            assert r.status_code in (400, 422), r.text
            assert PASSWORD not in r.text and r.json()["detail"]
    time.sleep(0.1)
    assert_clean_log(loud, PASSWORD)


HUGE = ["9223372036854775808", "-9223372036854775809", "1" + "0" * 40, "1e400", "nan",
        "inf", "-1", "x"]


def numeric_parameters(server: Server) -> list[tuple[str, str, str]]:
    """Every numeric query or path parameter of a GET endpoint: (path, where, name)."""
    out = []
    for path, ops in server.get("/openapi.json").json()["paths"].items():
        for param in ops.get("get", {}).get("parameters", []):
            schema = param.get("schema", {})
            kinds = {schema.get("type")} | {s.get("type") for s in schema.get("anyOf", [])}
            if kinds & {"integer", "number"}:
                out.append((path, param["in"], param["name"]))
    return out


def test_numeric_parameters_out_of_range_get_a_clear_4xx(loud: Server) -> None:
    found = numeric_parameters(loud)
    assert ("/api/leaderboard", "query", "size") in found
    assert ("/api/players/{name}/history", "query", "offset") in found
    sheet = httpx.post(loud.url + "/api/sheets", json={"players": ["A", "B", "C"]}).json()
    for path, where, name in found:
        base = (path.replace("{name}", "Nobody").replace("{sheet_id}", sheet["id"])
                .replace("{table_id}", "nope"))
        for value in HUGE:
            url = base.replace("{" + name + "}", value) if where == "path" \
                else f"{base}?{name}={value}"
            r = httpx.get(loud.url + url, timeout=10)
            assert 400 <= r.status_code < 500, (url, r.status_code, r.text)
    r = loud.get("/api/leaderboard?size=9223372036854775808")
    assert r.status_code == 422 and "size" in r.json()["detail"]
    r = loud.get("/api/leaderboard?size=4")
    assert r.status_code == 200
    for seat in ("²", "9" * 30, "-1"):  # a replay's seat is text: digits of any script
        r = loud.get(f"/api/tables/nope/replay?seat={seat}")
        assert 400 <= r.status_code < 500
    time.sleep(0.1)
    assert_clean_log(loud)


PAGES = ["/", "/index.html", "/?page=leaderboard", "/js/app.js", "/css/style.css",
         "/favicon.svg", "/api/health", "/api/presets", "/api/tables/nope", "/nope",
         "/openapi.json", "/join/NOPE"]


def test_security_headers_on_every_answer(loud: Server) -> None:
    for path in PAGES:
        r = httpx.get(loud.url + path, timeout=10)
        csp = r.headers.get("content-security-policy", "")
        assert "default-src 'self'" in csp and "script-src 'self'" in csp, (path, r.headers)
        assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
        assert "frame-ancestors 'none'" in csp
        assert r.headers.get("x-frame-options") == "DENY"
        assert r.headers.get("x-content-type-options") == "nosniff"
        assert r.headers.get("referrer-policy") == "same-origin"
    r = httpx.post(loud.url + "/api/tables", json={"name": "Ann"})
    assert r.status_code == 201 and "content-security-policy" in r.headers


def test_the_static_client_has_nothing_inline() -> None:
    """What the CSP would block: inline scripts, styles, handlers, ``javascript:`` links
    and style attributes written into the page (the browser test checks the rest)."""
    static = Path(__file__).resolve().parents[2] / "src" / "toepen" / "server" / "static"
    for page in static.rglob("*.html"):
        text = page.read_text()
        assert "<style" not in text and "style=" not in text, page
        for tag in text.split("<script")[1:]:
            assert "src=" in tag.split(">")[0], f"inline script in {page}"
        assert not re.search(r"\son[a-z]+\s*=", text), f"inline handler in {page}"
    for js in static.rglob("*.js"):
        text = js.read_text()
        assert "style=" not in text, f"{js.name} writes a style attribute"
        assert "javascript:" not in text and "eval(" not in text and "new Function" not in text
        assert not re.search(r"<[^>]*\son[a-z]+\s*=", text), f"{js.name}: inline handler"


def test_forwarded_headers_only_from_a_named_proxy(tmp_path: Path) -> None:
    fake = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}
    plain = Server(f"sqlite:///{tmp_path / 'a.sqlite3'}", "--tables-per-client",
                   "1").start()
    try:
        first = httpx.post(plain.url + "/api/tables", json={"name": "Ann"},
                           headers=fake, timeout=10)
        assert first.status_code == 201
        assert first.json()["invite"].startswith("http://127.0.0.1")  # not https
        other = {"X-Forwarded-For": "198.51.100.9"}
        r = httpx.post(plain.url + "/api/tables", json={"name": "Bob"}, headers=other,
                       timeout=10)
        assert r.status_code == 429, r.text  # the same client: its faked address ignored
    finally:
        plain.stop()
    trusted = Server(f"sqlite:///{tmp_path / 'b.sqlite3'}", "--tables-per-client", "1",
                     "--trust-proxy", "127.0.0.1").start()
    try:
        first = httpx.post(trusted.url + "/api/tables", json={"name": "Ann"},
                           headers=fake, timeout=10)
        assert first.status_code == 201
        assert first.json()["invite"].startswith("https://")
        r = httpx.post(trusted.url + "/api/tables", json={"name": "Bob"},
                       headers={"X-Forwarded-For": "198.51.100.9"}, timeout=10)
        assert r.status_code == 201, r.text  # another client behind the proxy
        r = httpx.post(trusted.url + "/api/tables", json={"name": "Cas"},
                       headers={"X-Forwarded-For": "198.51.100.9"}, timeout=10)
        assert r.status_code == 429
    finally:
        trusted.stop()


def test_a_bad_trust_proxy_is_refused() -> None:
    from typer.testing import CliRunner

    from toepen.cli import app

    out = CliRunner().invoke(app, ["serve", "--trust-proxy", "*"])
    assert out.exit_code != 0 and "not an IP address" in out.output


@pytest.mark.parametrize("db", ["/tmp/toepen.sqlite3", "toepen.db", "mysql://u@h/db"])
def test_a_database_that_is_not_a_url_is_refused_before_the_start(db: str) -> None:
    """A path where a URL is meant was a traceback from the start-up (SQLAlchemy could
    not parse it) after the server had begun: now a clear refusal, and nothing starts."""
    from typer.testing import CliRunner

    from toepen.cli import app

    out = CliRunner().invoke(app, ["serve", "--db", db])
    said = " ".join(out.output.split())
    assert out.exit_code == 2 and "--db" in said and "not a database URL" in said, out.output
    assert "sqlite:///PATH" in said and "Traceback" not in said


def test_websocket_surrogates_get_a_protocol_error(loud: Server) -> None:
    from websockets.sync.client import connect

    t = create(loud, name="Ann", size=2, bots={"1": "random"})
    tid = t["table"]["id"]
    with connect(f"{loud.ws}/ws/{tid}", open_timeout=5) as ws:
        ws.send('{"v": 1, "type": "hello", "token": "\\ud800"}')
        msg = json.loads(ws.recv(timeout=5))
        assert msg["type"] == "error" and msg["code"] == "bad_message"
        assert "surrogate" in msg["message"]
    ann = Player(loud, tid, t["token"])
    for text in ('{"v": 1, "type": "chat", "text": "hoi\\ud800"}',
                 '{"v": 1, "type": "act", "action": "\\udfff", "state": 0}',
                 '{"v": 1, "type": "ping", "id": "\\ud800"}',
                 '{"v": 1, "type": "chat", "\\ud800": 1, "text": "hoi"}'):
        ann.send(text)
        msg = ann.wait(lambda m: m["type"] == "error")
        assert msg["code"] == "bad_message" and msg["say"]["id"] == "error.unicode", msg
    ann.send({"v": 1, "type": "chat", "text": "hoi 🍺"})
    said = ann.wait(lambda m: m["type"] == "chat")
    assert "hoi 🍺" in json.dumps(said, ensure_ascii=False)
    assert ann.reconnects == 0
    ann.close()
    time.sleep(0.1)
    assert_clean_log(loud)

