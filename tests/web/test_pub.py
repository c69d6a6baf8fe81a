"""The pub evening in Chromium (issue 39): the site installs as an app, its service worker
keeps the shell (never an API answer) and hands a new release to an installed client; QR
codes that decode to their links on a phone; the screen kept awake; the result shared;
the standings said aloud.

Headless Chromium has no screen, no share sheet and no voice: ``navigator.wakeLock``,
``navigator.share`` and ``speechSynthesis`` are stubs that record their calls."""

from __future__ import annotations

import io
import json
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import zxingcpp
from chromium import CHROMIUM, CHROMIUM_ARGS
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect
from server_bench import free_port

import toepen.server.app as server_app
from toepen.server.config import ServerConfig

from .conftest import Server, screenshot
from .helpers import wait_ready

PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 640}, "is_mobile": True,
                         "has_touch": True, "locale": "en-GB"}

WORKER_READY = """async () => {  // at most 10 s: no worker is a failure, never a hang
  const reg = await Promise.race([navigator.serviceWorker.ready,
                                  new Promise((r) => setTimeout(() => r({ scope: null }), 10000))]);
  for (let i = 0; i < 100 && !navigator.serviceWorker.controller; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return { scope: reg.scope, controlled: Boolean(navigator.serviceWorker.controller),
           caches: await caches.keys() };
}"""

STUBS = """
window.__wake = []; window.__shared = []; window.__said = [];
let __vis = "visible";
const proto = Document.prototype;
Object.defineProperty(proto, "visibilityState", { configurable: true, get: () => __vis });
Object.defineProperty(proto, "hidden", { configurable: true, get: () => __vis !== "visible" });
window.__setVisible = (v) => {
  __vis = v ? "visible" : "hidden";
  document.dispatchEvent(new Event("visibilitychange"));
};
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: async (type) => {
    window.__wake.push(`request ${type}`);
    const s = new EventTarget();
    s.released = false;
    s.release = async () => {
      if (s.released) return;
      s.released = true;
      window.__wake.push("release");
      s.dispatchEvent(new Event("release"));
    };
    return s;
  } } });
Object.defineProperty(navigator, "share", { configurable: true,
  value: async (data) => { window.__shared.push(data); } });
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  speak: (u) => window.__said.push({ text: u.text, lang: u.lang }), cancel: () => {} } });
"""


def phone(browser: Browser, stubs: bool = False, **kw: Any) -> tuple[BrowserContext, Page]:
    ctx = browser.new_context(**{**PHONE, **kw})
    if stubs:
        ctx.add_init_script(STUBS)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return ctx, page


def decode(page: Page, selector: str) -> str:
    """The text of the QR code at ``selector``, as a phone's camera would read it from the
    screen: the element's screenshot, decoded by zxing-cpp."""
    shot = page.locator(selector).screenshot(animations="disabled")
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(shot)).convert("L"))
    assert len(found) == 1, f"{selector}: {len(found)} codes"
    assert found[0].format == zxingcpp.BarcodeFormat.QRCode
    text: str = found[0].text
    return text


def big_enough(page: Page, selector: str) -> None:
    """On a 360 px wide phone the code is at least 200 px wide, and wholly on the screen."""
    box = page.locator(selector).bounding_box()
    assert box is not None and box["width"] >= 200 and box["x"] >= 0
    assert box["x"] + box["width"] <= 360


def finished_sheet(server: Server) -> tuple[str, str]:
    """A sheet of three players with two lives, played to its end (Bas wins)."""
    made = server.post("/api/sheets", {"preset": "rulebook", "options": {"lives": 2},
                                       "players": ["Ann", "Bas", "Cor"]})
    sid, key = made["id"], made["key"]
    for version, entry in enumerate(["1 claim", "2 challenge false", "1 knock", "2 stay",
                                     "0 fold", "2 last", "0 last"]):
        server.post(f"/api/sheets/{sid}/entries", {"entry": entry, "version": version}, key)
    return sid, key


# --- 1. installable ---------------------------------------------------------------------------

def test_chromium_finds_the_site_installable(playwright_: Playwright, server: Server,
                                             tmp_path: Path) -> None:
    # a profile of its own: Chromium installs no app from an incognito context
    ctx = playwright_.chromium.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE)
    page = ctx.new_page()
    errors_seen: list[str] = []
    page.on("pageerror", lambda e: errors_seen.append(str(e)))
    page.goto(server.url + "/")
    wait_ready(page)
    ready = page.evaluate(WORKER_READY)
    assert ready["scope"] == server.url + "/" and ready["controlled"]
    cdp = ctx.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == server.url + "/manifest.webmanifest" and manifest["errors"] == []
    data = json.loads(manifest["data"])
    assert data["display"] == "standalone" and data["start_url"] == "/"
    assert {(i["sizes"], i["purpose"]) for i in data["icons"]} == {
        ("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in [*data["icons"], {"src": "/icons/apple-touch-icon.png", "sizes": "180x180"}]:
        got = httpx.get(server.url + icon["src"], timeout=10)
        assert got.headers["content-type"] == "image/png"
        w, h = Image.open(io.BytesIO(got.content)).size
        assert f"{w}x{h}" == icon["sizes"]
    touch = page.locator('link[rel="apple-touch-icon"]').get_attribute("href")
    assert touch == "/icons/apple-touch-icon.png"
    assert errors_seen == []
    ctx.close()


def test_offline_the_shell_is_kept_and_no_api_answer(browser: Browser, server: Server) -> None:
    sid, _key = finished_sheet(server)
    ctx, page = phone(browser)
    page.goto(f"{server.url}/?sheet={sid}")
    wait_ready(page)
    expect(page.locator(".tally-status")).to_have_text("Bas wins the session.")
    ready = page.evaluate(WORKER_READY)
    assert ready["controlled"] and len(ready["caches"]) == 1
    kept = page.evaluate("""async () => {
      const cache = await caches.open((await caches.keys())[0]);
      return (await cache.keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search);
    }""")
    assert "/js/app.js" in kept and "/i18n/nl.json" in kept and "/offline.html" in kept
    assert not [k for k in kept if k.startswith("/api") or "?" in k], kept

    ctx.set_offline(True)  # no-store: past the HTTP cache, only the worker may answer
    offline = page.evaluate("""async (sid) => {
      const out = {};
      for (const p of ["/js/site/tally.js", "/css/style.css", "/i18n/de.json",
                       "/icons/icon-192.png", "/api/health", `/api/sheets/${sid}`,
                       `/api/sheets/${sid}/qr`]) {
        try { out[p] = (await fetch(p, { cache: "no-store" })).status; } catch {
          out[p] = "failed";
        }
      }
      return out;
    }""", sid)
    assert offline == {"/js/site/tally.js": 200, "/css/style.css": 200, "/i18n/de.json": 200,
                       "/icons/icon-192.png": 200, "/api/health": "failed",
                       f"/api/sheets/{sid}": "failed", f"/api/sheets/{sid}/qr": "failed"}
    # a page opened offline: the offline page, in the reader's language
    page.evaluate("localStorage.setItem('toepen.lang', 'nl')")
    page.goto(f"{server.url}/?sheet={sid}")
    expect(page.locator("h1")).to_have_text("Geen verbinding")
    expect(page.locator(".offline p")).to_contain_text("Het spel gaat verder")
    screenshot(page, "pub-offline")
    # the connection back: the page asked for, at once
    ctx.set_offline(False)
    expect(page.locator(".tally-status")).to_have_text("Bas wint het spel.", timeout=15000)
    assert page.errors == []  # type: ignore[attr-defined]
    ctx.close()


class InProcess:
    """A server in this process on a fixed port, serving a copy of the browser client."""

    def __init__(self, db: Path, static: Path, port: int) -> None:
        self.static, self.port = static, port
        self.config = ServerConfig(db=f"sqlite:///{db}", bot_workers=1, bot_pool="thread")
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    def start(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(server_app, "STATIC", self.static)
        app = server_app.create_app(self.config)
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        self.server.should_exit = True
        self.thread.join(20)


@pytest.fixture()
def two_releases(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """The browser client as released (one) and a release that changed one script (two)."""
    one, two = tmp_path / "one", tmp_path / "two"
    shutil.copytree(server_app.STATIC, one)
    shutil.copytree(server_app.STATIC, two)
    with (two / "js" / "ui" / "util.js").open("a") as f:
        f.write('\nwindow.__release = "two";\n')
    yield one, two


def test_a_new_release_reaches_an_installed_client(
    browser: Browser, tmp_path: Path, two_releases: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    one, two = two_releases
    port = free_port()
    first = InProcess(tmp_path / "t.db", one, port)
    first.start(monkeypatch)
    ctx, page = phone(browser)
    try:
        page.goto(f"http://127.0.0.1:{port}/?rules")
        wait_ready(page)
        before = page.evaluate(WORKER_READY)["caches"]
        page.reload()  # the installed client: its shell from the worker's cache
        wait_ready(page)
        assert page.evaluate("window.__release") is None
        first.stop()
        second = InProcess(tmp_path / "t.db", two, port)
        second.start(monkeypatch)
        try:
            page.reload()
            page.wait_for_function("() => window.__release === 'two'", timeout=15000)
            wait_ready(page)
            after = page.evaluate(WORKER_READY)["caches"]
            assert len(before) == len(after) == 1 and before != after  # the old cache gone
            assert page.errors == []  # type: ignore[attr-defined]
        finally:
            second.stop()
    finally:
        ctx.close()


# --- 2. QR codes ------------------------------------------------------------------------------

def test_qr_codes_decode_to_their_links_on_a_phone(browser: Browser, server: Server) -> None:
    made = server.post("/api/tables", {"name": "Ann", "size": 3})
    table = made["table"]
    made_sheet = server.post("/api/sheets", {"preset": "rulebook", "players": ["Ann", "Bas"]})
    club = httpx.post(f"{server.url}/api/clubs", json={"name": "De Gouden Leeuw", "admin": "Ann"},
                      timeout=10).json()
    tn = httpx.post(f"{server.url}/api/tournaments", json={"name": "Kroegavond"},
                    timeout=10).json()
    tid, key = tn["tournament"]["id"], tn["key"]
    auth = {"Authorization": f"Bearer {key}"}
    for name in ("Ann", "Bas", "Cor"):
        httpx.post(f"{server.url}/api/tournaments/{tid}/players", json={"name": name},
                   headers=auth, timeout=10).raise_for_status()
    drawn = httpx.post(f"{server.url}/api/tournaments/{tid}/rounds", json={"mode": "online"},
                       headers=auth, timeout=10)
    drawn.raise_for_status()
    handed = drawn.json()["rounds"][0]["tables"][0]["table_id"]

    ctx, page = phone(browser)
    page.goto(f"{server.url}/?table={table['id']}")
    wait_ready(page)
    big_enough(page, "#invite-qr")
    page.locator("#invite-qr").scroll_into_view_if_needed()
    screenshot(page, "pub-table-qr")
    assert decode(page, "#invite-qr") == f"{server.url}/join/{table['code']}"

    page.goto(f"{server.url}/?sheet={made_sheet['id']}")
    wait_ready(page)
    big_enough(page, "#sheet-qr")
    page.locator("#sheet-qr").scroll_into_view_if_needed()
    screenshot(page, "pub-sheet-qr")
    assert decode(page, "#sheet-qr") == f"{server.url}/?sheet={made_sheet['id']}"

    page.goto(f"{server.url}/?club={club['club']['id']}")
    wait_ready(page)
    big_enough(page, "#club-qr")
    assert decode(page, "#club-qr") == f"{server.url}/?club={club['club']['id']}"

    keys = json.dumps({f"tournament:{tid}": key})
    page.evaluate("k => localStorage.setItem('toepen.keys', k)", keys)
    page.goto(f"{server.url}/?tournament={tid}")
    wait_ready(page)
    bas = page.locator('#current li[data-player="Bas"]')
    link = bas.locator(".seat-link").get_attribute("href")
    assert link is not None and "#seat=" in link
    bas.locator(".seat-qr summary").click()
    big_enough(page, '#current li[data-player="Bas"] .seat-qr svg')
    assert decode(page, '#current li[data-player="Bas"] .seat-qr svg') == link
    assert page.errors == []  # type: ignore[attr-defined]
    ctx.close()
    # the server draws only its own objects' links: an unknown one is a 404 in words
    for path in (f"/api/tables/{'Z' * 8}/qr", "/api/sheets/nosuchsheet/qr", "/api/clubs/nope/qr"):
        got = httpx.get(server.url + path, timeout=10)
        assert got.status_code == 404 and got.json()["detail"].startswith("no "), path
    # a tournament's table is joined by its seat links, never by an invite: no invite code
    got = httpx.get(f"{server.url}/api/tables/{handed}/qr", timeout=10)
    assert got.status_code == 403 and got.json()["say"]["id"] == "error.seat_handed_out"


# --- 3, 4, 6: awake, share, aloud -------------------------------------------------------------

def test_the_screen_is_kept_awake_while_shown(browser: Browser, server: Server) -> None:
    made = server.post("/api/sheets", {"preset": "rulebook", "players": ["Ann", "Bas"]})
    ctx, page = phone(browser, stubs=True)
    page.goto(f"{server.url}/?sheet={made['id']}#key={made['key']}")
    wait_ready(page)
    expect(page.locator("#awake")).to_be_checked()
    page.wait_for_function("() => window.__wake.length === 1")
    page.evaluate("__setVisible(false)")
    page.wait_for_function("() => window.__wake.length === 2")
    page.evaluate("__setVisible(true)")
    page.wait_for_function("() => window.__wake.length === 3")
    assert page.evaluate("window.__wake") == ["request screen", "release", "request screen"]
    page.locator("#awake").uncheck()  # the toggle: released, and not taken again
    page.wait_for_function("() => window.__wake.length === 4")
    page.evaluate("__setVisible(false); __setVisible(true)")
    page.reload()
    wait_ready(page)
    expect(page.locator("#awake")).not_to_be_checked()
    page.locator("#awake").check()
    page.wait_for_function("() => window.__wake.length === 1")
    # at a table too
    table = server.post("/api/tables", {"name": "Ann", "size": 3})["table"]
    page.goto(f"{server.url}/?table={table['id']}")
    wait_ready(page)
    page.wait_for_function("() => window.__wake.length === 1")
    assert page.evaluate("window.__wake") == ["request screen"]
    assert page.errors == []  # type: ignore[attr-defined]
    ctx.close()


def test_a_finished_sheet_and_game_share_the_result(browser: Browser, server: Server) -> None:
    sid, _ = finished_sheet(server)
    ctx, page = phone(browser, stubs=True)
    page.goto(f"{server.url}/?sheet={sid}")
    wait_ready(page)
    page.click("#share-result")
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    assert shared["url"] == f"{server.url}/?sheet={sid}"
    lines = shared["text"].split("\n")
    assert lines[0] == shared["title"] and len(lines) == 4
    assert lines[1].startswith("1.") and "Bas" in lines[1]
    # a finished game's result dialog: the standings and the replay's link
    body = {"preset": "rulebook", "size": 2, "bots": {"0": "random", "1": "random"},
            "autostart": True, "options": {"lives": 1}}
    tid = server.post("/api/tables", body)["table"]["id"]
    deadline = time.monotonic() + 30
    while server.get(f"/api/tables/{tid}")["status"] != "over":
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.05)
    page.goto(f"{server.url}/?table={tid}")
    wait_ready(page)
    page.click("#share-result")
    page.wait_for_function("() => window.__shared.length === 1")
    shared = page.evaluate("window.__shared[0]")
    assert shared["url"] == f"{server.url}/?replay={tid}"
    screenshot(page, "pub-result-share")
    standings = page.locator("#result .standings li").all_inner_texts()
    assert len(standings) == 2 and shared["text"].split("\n")[1:] == standings
    assert page.errors == []  # type: ignore[attr-defined]
    ctx.close()
    # without the Web Share API: a copy button that copies the same
    ctx, page = phone(browser)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{server.url}/?sheet={sid}")
    wait_ready(page)
    expect(page.locator("#share-result")).to_have_text("Copy the result")
    page.click("#share-result")
    expect(page.locator("#toast")).to_have_text("The result and its link are copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.endswith(f"\n{server.url}/?sheet={sid}") and "Bas" in copied
    ctx.close()


def test_the_sheet_says_the_standings_aloud_in_dutch(browser: Browser, server: Server) -> None:
    made = server.post("/api/sheets", {"preset": "rulebook", "options": {"lives": 2},
                                       "players": ["Ann", "Bas", "Cor"]})
    ctx, page = phone(browser, stubs=True, locale="nl-NL")
    page.goto(f"{server.url}/?sheet={made['id']}#key={made['key']}")
    wait_ready(page)
    expect(page.locator("#speak")).not_to_be_checked()  # off until asked for
    page.locator("#speak").check()
    for entry in ["1 claim", "2 challenge false", "1 knock", "2 stay", "0 fold", "2 last"]:
        version = int(page.locator(".tally").get_attribute("data-version") or "0")
        page.click(f'[data-entry="{entry}"]')
        expect(page.locator(".tally")).to_have_attribute("data-version", str(version + 1))
    page.wait_for_function("() => window.__said.length === 1")
    screenshot(page, "pub-sheet-speak")
    assert page.evaluate("window.__said") == [{
        "text": "Na ronde 1. Ann, 1 leven. Bas, 1 leven. Ann staat op het laatste leven. "
                "Bas staat op het laatste leven", "lang": "nl"}]
    page.click('[data-entry="0 last"]')
    page.wait_for_function("() => window.__said.length === 2")
    assert page.evaluate("window.__said[1].text") == page.locator(".tally-status").inner_text()
    assert page.errors == []  # type: ignore[attr-defined]
    ctx.close()
