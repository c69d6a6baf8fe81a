"""A small pub tournament on a phone in Chromium: create it, register players, draw,
enter results (a wrong one refused in words), a drop-out and a late arrival, the
standings, and the projector view in another language.

Run with ``TOEPEN_SCREENSHOTS=1`` to (re)write ``docs/screenshots/tournament-*.png``.
"""

from __future__ import annotations

import os

from playwright.sync_api import Browser, Page, expect

from toepen.tourney import SCHEMES

from .conftest import SHOTS, Server
from .helpers import wait_ready

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True, "locale": "en-GB"}
PLAYERS = ["Ann", "Bas", "Cor", "Dirk", "Els", "Fien"]


def shot(page: Page, name: str, full: bool = False) -> None:
    if os.environ.get("TOEPEN_SCREENSHOTS") == "1":
        page.evaluate("document.getElementById('toast').hidden = true")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"tournament-{name}.png"), full_page=full,
                        animations="disabled")


def tables_of(page: Page) -> list[list[str]]:
    out = []
    for table in page.locator("#current .ttable").all():
        out.append(table.locator(".seatlist li").evaluate_all(
            "lis => lis.map(li => li.dataset.player)"))
    return out


def enter(page: Page, table: int, order: list[str]) -> None:
    form = page.locator(f'#current .ttable[data-no="{table}"] form.enter')
    for place, name in enumerate(order):
        form.locator(f'select[data-place="{place}"]').select_option(name)
    form.locator("button[type=submit]").click()


def test_a_pub_evening_on_a_phone(browser: Browser, server: Server) -> None:
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/?clubs")
    wait_ready(page)
    page.fill("#tn-name", "Vrijdagavond")
    # the scoring schemes are the server's (GET /api/presets: schemes), in words
    schemes = server.get("/api/presets")["schemes"]
    assert [s["name"] for s in schemes] == list(SCHEMES)
    options = page.locator("#tn-scheme option")
    assert options.evaluate_all("os => os.map(o => o.value)") == list(SCHEMES)
    assert options.all_inner_texts() == [
        "a point for each player finishing below", "10-7-5-3-2-1 by place",
        "one point for the winner"]
    page.select_option("#tn-scheme", "ladder")
    page.click("#tn-create")
    expect(page.locator("#t-name")).to_have_text("Vrijdagavond")
    expect(page.locator(".tourney")).to_contain_text("Points: 10-7-5-3-2-1 by place")
    expect(page.locator(".keynote .key")).to_be_visible()  # the organiser's key, once
    for name in PLAYERS:
        page.fill("#p-name", name)
        page.press("#p-name", "Enter")
        expect(page.locator("#players li", has_text=name)).to_have_count(1)
    # a name twice is refused, in words, and changes nothing
    page.fill("#p-name", "ann")
    page.press("#p-name", "Enter")
    expect(page.locator("#toast")).to_have_text("Ann is already registered.")
    expect(page.locator("#players li")).to_have_count(6)
    expect(page.locator("#draw-btn")).to_have_text("Draw round 1")
    page.click("#draw-btn")
    expect(page.locator("#current .ttable")).to_have_count(2)
    first = tables_of(page)
    assert sorted(len(t) for t in first) == [3, 3]
    assert sorted(p for t in first for p in t) == sorted(PLAYERS)
    shot(page, "draw")
    # one player twice in an order: refused with the reason, nothing stored
    t1 = first[0]
    enter(page, 1, [t1[0], t1[0], t1[2]])
    expect(page.locator("#toast")).to_contain_text("Table 1: give each of")
    assert set(page.locator("#standings tbody td:nth-child(3)").all_inner_texts()) == {"0"}
    enter(page, 1, [t1[2], t1[0], t1[1]])
    expect(page.locator('#current .ttable[data-no="1"] .result-line')).to_contain_text(
        f"1. {t1[2]}")
    enter(page, 2, first[1])
    # round 1 complete: standings (ladder: 10, 7, 5), the next draw offered
    expect(page.locator("#draw-btn")).to_have_text("Draw round 2")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(6)
    top = rows.nth(0).locator("td").all_inner_texts()
    assert top[0] == "1" and top[1] in (t1[2], first[1][0]) and top[2] == "10"
    # a drop-out and a late arrival between rounds
    gone = t1[1]
    page.click(f'[data-drop="{gone}"]')
    expect(page.locator("#players li", has_text=gone)).to_contain_text("left after round 1")
    page.fill("#p-name", "Gijs")
    page.press("#p-name", "Enter")
    expect(page.locator("#players li", has_text="Gijs")).to_contain_text("from round 2")
    page.click("#draw-btn")
    expect(page.locator("#current h2")).to_contain_text("Round 2")
    second = tables_of(page)
    seated = [p for t in second for p in t]
    assert gone not in seated and "Gijs" in seated and len(seated) == 6
    shot(page, "phone", full=True)
    url = page.url
    tid = url.split("tournament=")[1]

    # the projector: standings and the tables of the round to play, live, in Dutch
    proj = ctx.new_page()
    proj.add_init_script("localStorage.setItem('toepen.lang', 'nl')")
    proj.goto(f"{server.url}/?projector={tid}")
    wait_ready(proj)
    expect(proj.locator(".proj-standings h2")).to_have_text("Stand")
    expect(proj.locator("#proj-tables h2")).to_have_text("Ronde 2")
    expect(proj.locator("#proj-tables .ttable")).to_have_count(2)
    expect(proj.locator(".proj-standings tbody tr")).to_have_count(7)
    # a result entered on the phone shows on the projector by itself
    enter(page, 1, second[0])
    expect(proj.locator("#proj-tables .ttable.done")).to_have_count(1, timeout=10000)
    shot(proj, "projector-phone")
    big = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    wide = big.new_page()
    wide.goto(f"{server.url}/?projector={tid}")
    wait_ready(wide)
    expect(wide.locator("#proj-tables .ttable")).to_have_count(2)
    shot(wide, "projector")
    big.close()
    assert errors == []
    ctx.close()


def test_a_club_page_on_a_phone(browser: Browser, server: Server) -> None:
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    server.post("/api/clubs", {"name": "De Kroon", "admin": "Kees"})
    page.goto(server.url + "/?clubs")
    wait_ready(page)
    expect(page.locator("#club-list li", has_text="De Kroon")).to_have_count(1)
    page.fill("#cl-name", "de kroon")  # taken: refused in words, nothing made
    page.fill("#cl-admin", "Ann")
    page.fill("#cl-rules-name", "Leeuwenregels")
    page.select_option("#cl-preset", "classic")
    page.fill("#cl-lives", "15")
    page.click("#cl-create")
    expect(page.locator("#toast")).to_have_text("There is already a club called de kroon.")
    page.fill("#cl-name", "De Gouden Leeuw")
    page.click("#cl-create")
    expect(page.locator("#club-name")).to_have_text("De Gouden Leeuw")
    expect(page.locator(".keynote .key")).to_be_visible()
    expect(page.locator(".clubpage")).to_contain_text("Leeuwenregels (Classic, 15 lives)")
    for name in ("Bas", "Cor"):
        page.fill("#am-name", name)
        page.press("#am-name", "Enter")
        expect(page.locator("#members li", has_text=name)).to_have_count(1)
    # the house rules change; the club's tournament takes them
    page.click("#rules-box summary")
    page.fill("#cr-lives", "12")
    page.click("#cr-save")
    expect(page.locator(".clubpage")).to_contain_text("Leeuwenregels (Classic, 12 lives)")
    page.fill("#nt-name", "Dinsdag")
    page.press("#nt-name", "Enter")
    expect(page.locator("#t-name")).to_have_text("Dinsdag")
    expect(page.locator(".tourney")).to_contain_text("De Gouden Leeuw")
    expect(page.locator(".tourney")).to_contain_text("Leeuwenregels (Classic, 12 lives)")
    for n, name in enumerate(("Ann", "bas", "Cor"), 1):
        page.fill("#p-name", name)
        page.press("#p-name", "Enter")
        expect(page.locator("#players li")).to_have_count(n)
    expect(page.locator("#players li").nth(1)).to_contain_text("Bas")  # the member's name
    page.click("#draw-btn")
    expect(page.locator("#current .ttable")).to_have_count(1)
    seats = tables_of(page)[0]
    enter(page, 1, seats)
    expect(page.locator("#draw-btn")).to_have_text("Draw round 2")  # round 1 complete
    page.click(".tourney a[href^='/?club=']")
    expect(page.locator("#club-name")).to_have_text("De Gouden Leeuw")
    first = page.locator(".standings tbody tr").nth(0).locator("td").all_inner_texts()
    assert first[:3] == ["1", seats[0], "2"]
    shot(page, "club", full=True)
    assert errors == []
    ctx.close()
