"""A closed tab and a reload in Chromium (issue 38, point 8): the page's own close (1001)
hands the seat to a stand-in after the server's short grace (``--away-grace``, 10 s by
default), not after the table's idle clock (300 s here); a reload keeps the seat."""

from __future__ import annotations

import time

from playwright.sync_api import Browser

from .conftest import Server
from .table_states import seat_page

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "locale": "en-GB"}
GRACE = 10.0


def standin(server: Server, table_id: str) -> bool:
    return bool(server.get(f"/api/tables/{table_id}")["seats"][0]["standin"])


def test_a_reload_keeps_the_seat_a_closed_tab_gets_a_standin(browser: Browser,
                                                              server: Server) -> None:
    made = server.post("/api/tables", {
        "preset": "rulebook", "size": 4, "name": "Ann", "idle_seconds": 300, "autostart": True,
        "bots": {"1": "random", "2": "random", "3": "random"}, "options": {"lives": 30}})
    tid = made["table"]["id"]
    page = seat_page(browser, server, tid, made, PHONE)
    page.wait_for_function("() => window.toepenState && window.toepenState.view")
    began = time.monotonic()
    page.reload()
    page.wait_for_function("() => window.toepenState && window.toepenState.view"
                           " && window.toepenState.seat === 0")
    back = time.monotonic() - began
    print(f"reload to the seat's view again: {back:.2f} s")  # noqa: T201 (a figure for the docs)
    end = time.monotonic() + 1.5 * GRACE
    while time.monotonic() < end:
        assert not standin(server, tid)
        time.sleep(0.5)
    assert server.get(f"/api/tables/{tid}")["seats"][0]["connected"] is True
    page.context.close()  # the tab closed
    end = time.monotonic() + 6 * GRACE
    while not standin(server, tid):
        assert time.monotonic() < end, "no stand-in after the tab was closed"
        time.sleep(0.5)
