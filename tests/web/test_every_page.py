"""Every page, phone first (issue 38): the lobby, the invite page, the table (waiting room and
a hand in play), the result, the review dialog, the replay, the score sheet for real cards
(new, kept, followed), clubs, a tournament and its projector view, log in, the account, a
profile, the leaderboard, and the rules with the first-game guide, at 320x568, 360x640,
390x844, 800x600 and 1280x800: no sideways scroll, no text cut off without a way to read
it (a title or a tap that expands it), every button at least 44 px tall and the header one
row on a phone, the page's main action on the first screen (tests/web/sweep.js).

Every page in all five languages at every size (about 50 s): each page is opened once and
its language switched in place (no reload), its window resized in place."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page

from .conftest import Server
from .helpers import wait_ready
from .layout import settle
from .table_states import READY

SIZES = ((320, 568), (360, 640), (390, 844), (800, 600), (1280, 800))
LANGS = ("en", "nl", "de", "it", "nb")
CHECK = Path(__file__).with_name("sweep.js").read_text().split("\n", 3)[3]
PASSWORD = "kaarten op tafel"


def check(page: Page, main: str | None, phone: bool) -> list[str]:
    settle(page)
    got: list[str] = page.evaluate(CHECK, {"main": main, "phone": phone})
    return got


def set_lang(page: Page, lang: str) -> None:
    """The page's language menu set to ``lang`` (through the menu's own change event: the
    projector hides the header that holds it)."""
    page.evaluate("""l => { const s = document.querySelector("#lang");
        if (s.value !== l) { s.value = l; s.dispatchEvent(new Event("change")); } }""", lang)
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)


def sweep(page: Page, where: str, main: str | None, bad: dict[str, list[str]]) -> None:
    """The page in every language and size of the module's text."""
    for lang in LANGS:
        set_lang(page, lang)
        page.wait_for_timeout(60)  # a page that redraws after fetching (a tournament)
        for w, h in SIZES:
            page.set_viewport_size({"width": w, "height": h})
            got = check(page, main, w <= 600)
            if got:
                bad[f"{where} {lang} {w}x{h}"] = got
    set_lang(page, "en")


def open_page(ctx: BrowserContext, url: str, ready: str | None = None) -> Page:
    page = ctx.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    wait_ready(page)
    if ready:
        page.wait_for_selector(ready)
    return page


def seat(ctx: BrowserContext, server: Server, table_id: str, joined: dict[str, Any]) -> None:
    """The seat ``joined`` gave, kept in the context's storage as the lobby keeps it."""
    page = open_page(ctx, server.url + "/?rules")
    page.evaluate("""([id, j]) => {
        const all = JSON.parse(localStorage.getItem("toepen.seats") || "{}");
        all[id] = {token: j.token, seat: j.seat, host: !!j.host};
        localStorage.setItem("toepen.seats", JSON.stringify(all));
    }""", [table_id, joined])
    page.close()


def finished_table(server: Server) -> dict[str, Any]:
    """A session of Ann (her stand-in plays) and three bots, played to its end."""
    made: dict[str, Any] = server.post("/api/tables", {
        "preset": "rulebook", "size": 4, "name": "Ann", "idle_seconds": 0.1,
        "bots": {"1": "random", "2": "random", "3": "random"}, "options": {"lives": 1}})
    server.post(f"/api/tables/{made['table']['id']}/start", {}, token=made["token"])
    return made


def test_every_page_fits_every_window_in_every_language(browser: Browser, server: Server) -> None:
    base = server.url
    bad: dict[str, list[str]] = {}
    pages: list[tuple[str, Page, str | None]] = []
    done = finished_table(server)
    guest = browser.new_context(viewport={"width": 360, "height": 640}, locale="en-GB",
                                reduced_motion="reduce")
    # a table waiting for players (the host's page, and the invite page), a hand in play
    waiting = server.post("/api/tables", {"preset": "rulebook", "size": 4, "name": "Ann",
                                          "bots": {"1": "random"}})
    seat(guest, server, waiting["table"]["id"], waiting)
    playing = server.post("/api/tables", {
        "preset": "rulebook", "size": 4, "name": "Ann", "idle_seconds": 300,
        "bots": {"1": "random", "2": "random", "3": "random"}, "options": {"lives": 3}})
    seat(guest, server, playing["table"]["id"], playing)
    server.post(f"/api/tables/{playing['table']['id']}/start", {}, token=playing["token"])
    seat(guest, server, done["table"]["id"], done)
    # a score sheet kept here, a tournament organised here (its round drawn)
    sheet = server.post("/api/sheets", {"preset": "classic", "options": {"lives": 3},
                                        "players": ["Ann", "Bas", "Cor", "Dirk"]})
    made = httpx.post(f"{base}/api/tournaments", json={"name": "Vrijdagavond"}, timeout=10)
    tid, key = made.json()["tournament"]["id"], made.json()["key"]
    for name in ("Ann", "Bas", "Cor", "Dirk", "Els"):
        httpx.post(f"{base}/api/tournaments/{tid}/players", json={"name": name},
                   headers={"Authorization": f"Bearer {key}"}, timeout=10)
    httpx.post(f"{base}/api/tournaments/{tid}/rounds", json={"mode": "cards"},
               headers={"Authorization": f"Bearer {key}"}, timeout=10)
    keys = json.dumps({f"tournament:{tid}": key})
    guest.add_init_script(f"localStorage.setItem('toepen.keys', {json.dumps(keys)})")

    def add(where: str, ctx: BrowserContext, path: str, ready: str, main: str) -> Page:
        page = open_page(ctx, base + path, ready)
        pages.append((where, page, main))
        return page

    wait_id, play_id, done_id = (x["table"]["id"] for x in (waiting, playing, done))
    add("lobby", guest, "/", "#pn-go", "#pn-go")
    add("invite", guest, f"/?join={waiting['table']['code']}", "#join-btn", "#join-btn")
    add("waiting room", guest, f"/?table={wait_id}", "#start", "#start")
    add("table", guest, f"/?table={play_id}", ".felt",
        ".actions button.act, .hand .card.playable").wait_for_function(READY)
    end = time.monotonic() + 60
    while server.get(f"/api/tables/{done_id}")["status"] != "over":
        assert time.monotonic() < end, "the session did not end"
        time.sleep(0.2)
    add("result", guest, f"/?table={done_id}", ".result-panel .standings li", "#rematch")
    add("replay", guest, f"/?replay={done_id}&seat=all&step=3", "#rboard .felt .seat", "#next")
    add("review", guest, f"/?replay={done_id}&seat=all&step=3", "#review-open",
        "#review-go").click("#review-open")
    add("new sheet", guest, "/?sheet", "#tally-form", "#tally-form button[type=submit]")
    # followed first: opening the keeper's link keeps the key in this browser
    add("followed sheet", guest, f"/?sheet={sheet['id']}", ".tally-table", ".tally-status")
    add("kept sheet", guest, sheet["keep"], ".tally-entry", ".tally-entry button")
    add("clubs", guest, "/?clubs", "#tn-create", "#tn-create")
    add("tournament", guest, f"/?tournament={tid}", "#current .ttable", "#current .ttable h3")
    add("projector", guest, f"/?projector={tid}", ".proj-standings", ".proj-standings h2")
    add("rules and guide", guest, "/?rules", ".guide dt", ".preset-tabs")
    add("log in", guest, "/?page=login", "#acct-submit", "#acct-submit")
    member = browser.new_context(viewport={"width": 360, "height": 640}, locale="en-GB",
                                 reduced_motion="reduce")
    reg = open_page(member, base + "/?page=register", "#acct-submit")
    reg.fill("#acct-name", "Annelies")
    reg.fill("#acct-password", PASSWORD)
    reg.click("#acct-submit")
    reg.wait_for_url(base + "/")
    reg.close()
    add("account", member, "/?page=account", "#acct-profile", "#acct-profile")
    add("profile", member, "/?player=Annelies", "#figures", "h1")
    add("leaderboard", member, "/?page=leaderboard", "#lb-form", "#lb-form")
    add("lobby, logged in", member, "/", "#pn-go", "#pn-go")

    for where, page, main in pages:
        page.bring_to_front()
        sweep(page, where, main, bad)
    errors = [e for _, page, _ in pages for e in page.errors]  # type: ignore[attr-defined]
    guest.close()
    member.close()
    assert not bad, "\n".join(f"{where}: {g}" for where, got in bad.items() for g in got)
    assert errors == [], errors
