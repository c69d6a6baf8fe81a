"""Two defects the refreshed screenshots showed (issue 25): the lobby's "Leave the queue"
button stood there before anyone was in the queue (its ``hidden`` lost to ``button {
display: inline-block }``), and the replay at 1280x800 ran below the window (the board
took the window's height under the replay's bar)."""

from __future__ import annotations

import time

from playwright.sync_api import Browser, expect

from .conftest import Server
from .helpers import wait_ready


def test_leave_the_queue_shows_only_while_in_the_queue(browser: Browser, server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = ctx.new_page()
    page.goto(server.url + "/")
    wait_ready(page)
    leave = page.locator("#pn-leave")
    expect(page.locator("#pn-go")).to_be_visible()
    expect(leave).to_be_hidden()
    page.fill("#name", "Ann")
    page.select_option("#pn-wait", "")
    page.click("#pn-go")
    expect(leave).to_be_visible()
    leave.click()
    expect(page.locator("#pn-status")).to_have_text("You left the queue.")
    expect(leave).to_be_hidden()
    ctx.close()


def test_the_replay_fits_a_desktop_window(browser: Browser, server: Server) -> None:
    """A session played out by bots (Ann's seat by her stand-in); its replay at 1280x800
    and 1366x768, at every step shown: the page does not scroll, the felt and its seats
    are inside the window."""
    made = server.post("/api/tables", {
        "preset": "rulebook", "size": 4, "name": "Ann", "idle_seconds": 0.1,
        "bots": {"1": "random", "2": "random", "3": "random"}, "options": {"lives": 1}})
    table_id = made["table"]["id"]
    server.post(f"/api/tables/{table_id}/start", {}, token=made["token"])
    end = time.monotonic() + 60
    while server.get(f"/api/tables/{table_id}")["status"] != "over":
        assert time.monotonic() < end, "the session did not end"
        time.sleep(0.2)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = ctx.new_page()
    page.goto(f"{server.url}/?replay={table_id}&seat=all&step=3")
    page.wait_for_selector("#rboard .felt .seat")
    fits = """() => {
      const inside = (el) => { const b = el.getBoundingClientRect();
        return b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth; };
      const doc = document.scrollingElement;
      return {scroll: doc.scrollHeight - innerHeight, wide: doc.scrollWidth - innerWidth,
              out: [...document.querySelectorAll("#rboard .felt, #rboard .seat")]
                .filter((el) => !inside(el)).map((el) => el.className)}; }"""
    for width, height in ((1280, 800), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => "
                      "requestAnimationFrame(r)))")
        got = page.evaluate(fits)
        assert got == {"scroll": 0, "wide": 0, "out": []}, (width, height, got)
    ctx.close()
