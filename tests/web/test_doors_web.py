"""Who is here in a real browser (issue 37, point 7): a guest who shows its name is
listed as a guest, in the reader's language; one who takes an account's name is told
so once, unticked, and not listed."""

from __future__ import annotations

from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import Server
from .helpers import create_table
from .test_playnow_web import REGISTER


def lobby(context: BrowserContext, server: Server, name: str) -> Page:
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#name", name)
    return page


def test_a_visible_guest_is_marked_and_an_accounts_name_is_refused(
        browser: Browser, server: Server) -> None:
    ctxs = [browser.new_context(locale=loc) for loc in ("nl-NL", "en-GB", "en-GB")]
    try:
        reader, guest, poser = (lobby(c, server, n) for c, n in zip(
            ctxs, ("Lezer", "Wietske", "doorsacct"), strict=True))
        assert reader.evaluate(REGISTER, ["doorsacct"]) == 201  # Lezer is now doorsacct
        reader.reload()
        reader.wait_for_selector("#here-online")
        guest.check("#here-visible")
        poser.check("#here-visible")
        expect(poser.locator("#toast")).to_contain_text("doorsacct is the name of an account")
        expect(poser.locator("#here-visible")).not_to_be_checked()
        reader.reload()
        reader.wait_for_selector("#here-online")
        online = reader.locator("#here-online")
        expect(online).to_contain_text("Wietske (gast)")
        expect(online).to_contain_text("doorsacct")
        assert "doorsacct (gast)" not in online.inner_text()
    finally:
        for c in ctxs:
            c.close()


def test_a_fifth_tab_of_a_seat_stops_the_first_which_says_so(
        browser: Browser, server: Server) -> None:
    """Tabs of one seat past --sockets-per-seat (4): the newest plays, the oldest is
    told why it stopped and does not reconnect (which would push the newest out)."""
    ctx = browser.new_context(locale="en-GB")
    try:
        first = ctx.new_page()
        first.set_default_timeout(15000)
        table = create_table(first, server.url, "Tabby", {1: "random"}, size=2)
        expect(first.locator("#conn")).to_have_attribute("data-state", "open")
        tabs = []
        for _ in range(4):
            tab = ctx.new_page()
            tab.set_default_timeout(15000)
            tab.goto(f"{server.url}/?table={table}")
            expect(tab.locator("#conn")).to_have_attribute("data-state", "open")
            tabs.append(tab)
        expect(first.locator("#toast")).to_contain_text("opened in another tab or window")
        expect(first.locator("#conn")).to_have_attribute("data-state", "closed")
        first.wait_for_timeout(2000)  # more than its first reconnection's delay
        expect(first.locator("#conn")).to_have_attribute("data-state", "closed")
        for tab in tabs:
            expect(tab.locator("#conn")).to_have_attribute("data-state", "open")
    finally:
        ctx.close()
