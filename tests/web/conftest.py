"""Fixtures for the browser tests: a real ``toepen serve`` subprocess and Debian's Chromium.

The server runs as ``python -m toepen.server`` on a free port with its own SQLite file;
bots act after a short delay so that the tests run fast. Chromium is driven through
Playwright's Python API (Playwright's own browser download is never used).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zygote
from chromium import launch
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
from server_bench import free_port

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"


FAST = ("if (localStorage.getItem('toepen.pause') === null) "
        "localStorage.setItem('toepen.pause', '0');")


class Server:
    """``toepen serve`` as a subprocess that can be killed and started again on the same file."""

    def __init__(self, db: Path, port: int | None = None) -> None:
        self.db = db
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | zygote.Forked | None = None
        self.log = db.with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        args = ["--port", str(self.port),
                "--db", f"sqlite:///{self.db}", "--bot-delay", "0.05", "--bot-pool", "thread",
                "--bot-workers", "1", "--log-level", "warning",
                "--sockets-per-address", "100000",  # every page is at 127.0.0.1
                "--hints-per-minute", "600"]  # a test may follow every hint of a session
        self.proc = zygote.start(args, self.log, ROOT)  # forked: imported already
        if self.proc is None:
            with self.log.open("ab") as log:
                self.proc = subprocess.Popen([sys.executable, "-m", "toepen.server", *args],
                                             stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                tail = self.log.read_text()[-2000:]
                raise RuntimeError(f"server exited with {self.proc.returncode}: {tail}")
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=1) as r:
                    if json.load(r).get("ok"):
                        return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        raise RuntimeError(f"server did not answer within {timeout}s")

    def kill(self) -> None:
        """Kill the server abruptly (SIGKILL), as a crash would."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            return json.load(r)

    def post(self, path: str, body: dict[str, Any], token: str | None = None) -> Any:
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web") / "toepen.db")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def playwright_() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_: Playwright) -> Iterator[Browser]:
    b = launch(playwright_)
    new_context = b.new_context

    def fast_context(**kw: Any) -> BrowserContext:
        """A context whose pages keep no pause after a trick unless a test sets one
        (``toepen.pause``), so that games run as fast as the bots."""
        ctx = new_context(**kw)
        ctx.add_init_script(FAST)
        return ctx

    b.new_context = fast_context  # type: ignore[method-assign]
    yield b
    b.close()


@pytest.fixture()
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB")
    yield ctx
    ctx.close()


@pytest.fixture()
def page(context: BrowserContext) -> Page:
    p = context.new_page()
    p.set_default_timeout(15000)
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.errors = errors  # type: ignore[attr-defined]
    return p


def screenshot(page: Page, name: str) -> None:
    """Save docs/screenshots/web-NAME.png, only when TOEPEN_SCREENSHOTS=1."""
    if os.environ.get("TOEPEN_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"web-{name}.png"), animations="disabled")
