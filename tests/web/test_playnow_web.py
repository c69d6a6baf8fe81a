"""Play now in a real browser (Debian's Chromium): two people pressing Play now for the
same preset and size sit at one table; "at once" gets bots at once; leaving the queue
takes you out of it; a second tab replaces the first."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import Server


def lobby(context: BrowserContext, server: Server, name: str) -> Page:
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", name)
    return page


def choose(page: Page, preset: str, size: int, wait: str, bot: str | None = None) -> None:
    page.select_option("#pn-preset", preset)
    page.select_option("#pn-size", str(size))
    page.select_option("#pn-wait", wait)
    if bot is not None:
        page.select_option("#pn-bot", bot)
    page.click("#pn-go")


def waiting(server: Server, key: str) -> int:
    n: int = server.get("/api/playnow/counts")["counts"].get(key, {}).get("waiting", 0)
    return n


def until_waiting(server: Server, key: str, n: int) -> None:
    end = time.monotonic() + 10
    while waiting(server, key) != n:
        assert time.monotonic() < end, f"{key}: not {n} waiting"
        time.sleep(0.1)


def table_of(page: Page) -> str:
    page.wait_for_url(re.compile(r"\?table="))
    return page.url.split("table=")[1]


def test_two_browsers_sit_together(browser: Browser, server: Server) -> None:
    ctxs = [browser.new_context(locale="en-GB") for _ in range(2)]
    try:
        ann = lobby(ctxs[0], server, "Ann")
        choose(ann, "classic", 2, "")
        expect(ann.locator("#pn-status")).to_contain_text("Waiting")
        until_waiting(server, "classic/2", 1)
        bob = lobby(ctxs[1], server, "Bob")
        expect(bob.locator("#pn-counts")).to_contain_text("1 waiting")
        choose(bob, "classic", 2, "")
        table = table_of(ann)
        assert table_of(bob) == table
        info: dict[str, Any] = server.get(f"/api/tables/{table}")
        assert sorted(s["name"] for s in info["seats"]) == ["Ann", "Bob"]
        assert info["status"] == "playing"
        # each browser holds its own seat's token: its hand is shown
        for page in (ann, bob):
            expect(page.locator(".hand .card").first).to_be_visible()
    finally:
        for c in ctxs:
            c.close()


def test_at_once_gets_bots(context: BrowserContext, server: Server) -> None:
    page = lobby(context, server, "Cas")
    choose(page, "rulebook", 4, "0", "beginner")
    info: dict[str, Any] = server.get(f"/api/tables/{table_of(page)}")
    assert sorted(s["kind"] for s in info["seats"]) == ["bot", "bot", "bot", "human"]
    assert {s["bot"] for s in info["seats"] if s["kind"] == "bot"} == {"beginner"}


def test_leaving_and_a_second_tab(context: BrowserContext, server: Server) -> None:
    page = lobby(context, server, "Dirk")
    choose(page, "teams", 4, "")
    until_waiting(server, "teams/4", 1)
    page.click("#pn-leave")
    expect(page.locator("#pn-status")).to_have_text("You left the queue.")
    until_waiting(server, "teams/4", 0)
    # the same browser in two tabs: the second ticket replaces the first
    choose(page, "teams", 4, "")
    until_waiting(server, "teams/4", 1)
    other = lobby(context, server, "Dirk")
    choose(other, "teams", 4, "")
    expect(page.locator("#pn-status")).to_have_text("You are now waiting in another tab.")
    expect(page.locator("#pn-go")).to_be_enabled()
    until_waiting(server, "teams/4", 1)
    other.close()  # closing the tab: its beacon leaves the queue
    until_waiting(server, "teams/4", 0)


REGISTER = """async ([name]) => {
  const me = await (await fetch('/api/account')).json();
  const r = await fetch('/api/account/register', {method: 'POST', headers: {'Content-Type':
    'application/json', 'X-CSRF-Token': me.csrf}, body: JSON.stringify({name, password:
    'correct horse battery'})});
  return r.status;
}"""


def test_invite_a_friend_in_the_browser(browser: Browser, server: Server) -> None:
    """Ann follows Bob in the lobby and invites him to her table; Bob accepts on his
    lobby page and sits at it. A guest watching the lobby is counted, not named."""
    ctxs = [browser.new_context(locale="en-GB") for _ in range(3)]
    try:
        ann, bob, guest = (lobby(c, server, n) for c, n in zip(ctxs, ("x", "y", "Geheim"),
                                                                strict=True))
        for page, name in ((ann, "annweb"), (bob, "bobweb")):
            assert page.evaluate(REGISTER, [name]) == 201
            page.reload()
            page.wait_for_selector("body[data-ready='1']")
        ann.fill("#here-follow-name", "bobweb")
        ann.click("#here-follow button")
        friend = ann.locator("#here-friends li[data-name='bobweb']")
        expect(friend).to_contain_text("online")
        ann.select_option("#size", "3")
        ann.select_option("select[name='seat1']", "")  # open: for Bob
        ann.click("#create")
        table = table_of(ann)
        ann.goto(server.url + "/")
        ann.locator("#here-friends li[data-name='bobweb'] .here-invite").click()
        bob.wait_for_timeout(200)
        bob.reload()
        invite = bob.locator("#here-invitations li")
        expect(invite).to_contain_text("annweb invites you")
        invite.locator(".here-accept").click()
        assert table_of(bob) == table
        expect(bob.locator("#app")).to_contain_text("annweb")
        info: dict[str, Any] = server.get(f"/api/tables/{table}")
        assert "bobweb" in [s["name"] for s in info["seats"]]
        guest.reload()
        guest.wait_for_selector("#here-online")
        expect(guest.locator("#here-online")).to_contain_text("annweb")
        assert "Geheim" not in guest.locator(".here").inner_text()
    finally:
        for c in ctxs:
            c.close()
