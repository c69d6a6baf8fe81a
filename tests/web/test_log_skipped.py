"""Issue 38: a log cut short says so. The server sends at most the last 300 events of a
game as ``history`` with ``history_skipped``, the count of earlier ones left out
(docs/protocol.md); the page shows a line where those earlier events would be, in the
page's language, and none when the log is whole.

The server's frames pass through ``page.route_web_socket`` unchanged but for
``history_skipped``: a game of more than 300 events is long to play in a test."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, WebSocketRoute

from .conftest import Server
from .helpers import create_table, start_game, wait_ready

SKIPPED = ".log li.log-skipped"


def _cut(page: Page, skip: dict[str, int]) -> None:
    """Every ``state`` with a ``history`` that the page receives says ``skip["n"]``
    earlier events were left out (from the moment ``skip["n"]`` is set)."""

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda m: server.send(m))

        def down(m: str | bytes) -> None:
            if isinstance(m, str) and skip["n"]:
                msg: dict[str, Any] = json.loads(m)
                if msg.get("type") == "state" and "history" in msg:
                    msg["history_skipped"] = skip["n"]
                    m = json.dumps(msg)
            ws.send(m)

        server.on_message(down)

    page.route_web_socket("**/ws/**", route)


def _reload(page: Page) -> None:
    page.reload()
    wait_ready(page)
    page.wait_for_selector(".felt")
    page.wait_for_function("() => document.querySelectorAll('.log li').length > 0")


def test_a_cut_log_says_how_many_earlier_events_are_not_shown(
        server: Server, page: Page) -> None:
    skip = {"n": 0}
    _cut(page, skip)
    create_table(page, server.url, "Ann", {1: "random", 2: "random", 3: "random"})
    start_game(page)
    _reload(page)  # the server's own history: the whole game, nothing left out
    assert page.locator(SKIPPED).count() == 0
    skip["n"] = 12
    _reload(page)
    note = page.locator(SKIPPED)
    assert note.inner_text() == "12 earlier events are not shown."
    # below the oldest line shown: the newest is on top
    assert page.locator(".log li").last.get_attribute("class") == "log-skipped"
    skip["n"] = 1
    _reload(page)
    assert page.locator(SKIPPED).inner_text() == "1 earlier event is not shown."
    for lang, text in (("de", "12 frühere Ereignisse werden nicht angezeigt."),
                       ("nl", "12 eerdere gebeurtenissen worden niet getoond.")):
        skip["n"] = 12
        page.evaluate("l => localStorage.setItem('toepen.lang', l)", lang)
        _reload(page)
        assert page.locator(SKIPPED).inner_text() == text
    assert not page.errors  # type: ignore[attr-defined]
