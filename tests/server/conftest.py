"""Real servers for the server tests: uvicorn in a subprocess, real SQLite/PostgreSQL.

``Server`` starts ``python -m toepen.server`` on a free port and can be SIGKILLed and
started again on the same database. ``Player`` is a synchronous WebSocket client that
keeps every message it receives and reconnects on its own, as docs/protocol.md asks. Every
frame a test receives over a table's socket is validated against docs/protocol.schema.json
(``schema.py``, :func:`every_frame_checked`).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import zygote
from server_bench import free_port as free_port  # the tests import it here
from services import throwaway_postgres
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from .schema import check_server_message

ROOT = Path(__file__).resolve().parents[2]
TLS = ssl.create_default_context()
"""One TLS context for every request of the test client: a request by ``httpx.get`` builds
its client, and with it a context of its own from the CA file (about 20 ms a request);
the test servers speak plain HTTP, so it is never used, only not rebuilt."""


class Server:
    """``toepen serve`` in a subprocess."""

    def __init__(self, db: str, *extra: str, faults: dict[str, str] | None = None) -> None:
        self.db = db
        self.extra = extra
        self.faults = faults
        """A crash test's faults (tests/faults.py), installed in the process at each start."""
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | zygote.Forked | None = None
        fd, name = tempfile.mkstemp(prefix="toepen-serve-", suffix=".log")
        os.close(fd)
        self.logpath = Path(name)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        args = ["--port", str(self.port), "--db", self.db,
                "--bot-delay", "0", "--bot-workers", "1", "--log-level", "warning",
                "--rate", "1000", "--sockets-per-address", "100000",  # all at 127.0.0.1
                *self.extra]
        self.proc = zygote.start(args, self.logpath, ROOT, self.faults)  # forked: imported
        if self.proc is None:
            run = ["-m", "toepen.server"] if not self.faults else [
                str(ROOT / "tests" / "faults.py"), json.dumps(self.faults)]
            with self.logpath.open("ab") as log:
                self.proc = subprocess.Popen([sys.executable, *run, *args],
                                             stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/api/health", timeout=1,
                             verify=TLS).status_code == 200:
                    return self
            time.sleep(0.1)
        self.proc.kill()
        self.proc.wait(10)
        self.proc = None
        raise RuntimeError(f"server did not start: {self.log()}")

    def children(self) -> list[int]:
        """Pids of the server's child processes (its bot workers)."""
        assert self.proc is not None
        out = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                    out.append(int(stat.parent.name))
        return out

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
            self.proc = None
        self.logpath.unlink(missing_ok=True)

    def log(self) -> str:
        return self.logpath.read_text(errors="replace")[-4000:]

    def post(self, path: str, body: dict[str, Any], **kw: Any) -> httpx.Response:
        return httpx.post(self.url + path, json=body, timeout=10, **{"verify": TLS, **kw})

    def get(self, path: str) -> httpx.Response:
        return httpx.get(self.url + path, timeout=10, verify=TLS)


class Player:
    """A WebSocket client that records every message and reconnects by itself."""

    def __init__(self, server: Server, table_id: str, token: str | None = None) -> None:
        self.server = server
        self.table_id = table_id
        self.token = token
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.conn: ClientConnection | None = None
        self.state: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self.reconnects = 0
        self.connect()

    def connect(self, deadline: float = 30.0) -> None:
        delay = 0.05
        end = time.monotonic() + deadline
        while True:
            try:
                self.conn = connect(f"{self.server.ws}/ws/{self.table_id}", open_timeout=5,
                                    max_size=2**20).__enter__()
                hello: dict[str, Any] = {"v": 1, "type": "hello"}
                if self.token is not None:
                    hello["token"] = self.token
                self.conn.send(json.dumps(hello))
                self.wait(lambda m: m["type"] == "welcome", 10, reconnect=False)
                return
            except (OSError, ConnectionClosed, TimeoutError):
                if time.monotonic() > end:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, 1.0)

    def send(self, msg: dict[str, Any] | str) -> None:
        text = msg if isinstance(msg, str) else json.dumps(msg)
        assert self.conn is not None
        try:
            self.conn.send(text)
        except ConnectionClosed:
            self.reconnect()

    def reconnect(self) -> None:
        self.reconnects += 1
        with contextlib.suppress(Exception):
            if self.conn is not None:
                self.conn.close()
        self.connect()

    def _take(self, text: str) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(text)  # checked by the schema as it came in
        self.raw.append(text)
        self.messages.append(msg)
        if msg["type"] == "state":
            self.state = msg
        elif msg["type"] == "welcome":
            self.welcome = msg
        return msg

    def poll(self, timeout: float = 0.0, reconnect: bool = True) -> dict[str, Any] | None:
        """The next message, or None if none came within ``timeout``."""
        assert self.conn is not None
        try:
            return self._take(str(self.conn.recv(timeout=timeout)))
        except TimeoutError:
            return None
        except ConnectionClosed:
            if not reconnect:
                raise
            self.reconnect()
            return None

    def wait(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0,
             reconnect: bool = True) -> dict[str, Any]:
        """Read until a message satisfies ``pred``."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message; last: {self.messages[-3:]}")
            msg = self.poll(min(left, 0.5), reconnect=reconnect)
            if msg is not None and pred(msg):
                return msg

    def drain(self, seconds: float = 0.2) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.poll(0.05)

    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None, "no state yet"
        view: dict[str, Any] = self.state["view"]
        return view

    def my_turn(self) -> bool:
        return self.state is not None and bool(self.view["legal"])

    def close(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()


@pytest.fixture(autouse=True)
def every_frame_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text frame a test receives over a table's WebSocket (``/ws/...``), through
    ``Player`` or a socket of its own, is validated against docs/protocol.schema.json: a
    frame the schema does not allow fails the test that received it."""
    recv = ClientConnection.recv

    def checked(self: ClientConnection, timeout: float | None = None,
                decode: bool | None = None) -> Any:
        data = recv(self, timeout, decode)
        request = self.request
        if isinstance(data, str) and request is not None and request.path.startswith("/ws/"):
            check_server_message(json.loads(data))
        return data

    monkeypatch.setattr(ClientConnection, "recv", checked)


@pytest.fixture
def sqlite_db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'toepen.sqlite3'}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server per test module (starting one costs seconds); tables are independent."""
    db = tmp_path_factory.mktemp("db") / "toepen.sqlite3"
    srv = Server(f"sqlite:///{db}").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster in a temp folder on a free port."""
    with throwaway_postgres() as url:
        yield url


def create(server: Server, **body: Any) -> dict[str, Any]:
    """POST /api/tables, asserting success."""
    r = server.post("/api/tables", body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


@contextlib.contextmanager
def registered_bot(name: str, factory: Any) -> Iterator[str]:
    """A test's own bot in the registry (and the bot pool's list) for one test, then gone."""
    from toepen.bots.base import BOTS, register_bot
    from toepen.server.tables import botpool
    register_bot(name)(factory)
    botpool.available_bots.cache_clear()
    try:
        yield name
    finally:
        del BOTS[name]
        botpool.available_bots.cache_clear()
