"""One wording of a failed request on every page (issue 40): the lobby, the score sheet, a
club and a profile each ask the server through the one helper (``static/js/net/http.js``), so
the same failure reads the same everywhere, in the page's language: no network, an answer
that is not JSON, a refusal with the server's catalog message, a refusal with only an error
code, a plain 404 and the server's own fault. Each request is made to fail by the browser
(``page.route``), whatever the server would have said."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Route

from .conftest import Server

CATALOGS = Path(__file__).resolve().parents[2] / "src" / "toepen" / "server" / "static" / "i18n"

PAGES = (  # (address, the request it fails on, where the page shows why)
    ("/", r"/api/tables\?status=lobby$", "#tables li.empty"),  # the lobby's open tables
    ("/?sheet=s0000000", r"/api/sheets/s0000000$", ".panel.error"),  # a score sheet
    ("/?club=c0000000", r"/api/clubs/c0000000$", ".notfound h1"),  # a club's page
    ("/?player=ann", r"/api/players/ann(/|$)", ".notfound h1"),  # a profile (accounts)
)


def _json(status: int, body: Any) -> dict[str, Any]:
    return {"status": status, "content_type": "application/json", "body": json.dumps(body)}


FAILURES: dict[str, tuple[dict[str, Any] | None, str]] = {
    # name: (how the route answers (None: the network fails), the catalog message expected)
    "network": (None, "web.error.network"),
    "not json": ({"status": 200, "content_type": "text/html", "body": "<html>proxy</html>"},
                 "web.error.unreadable"),
    "refused with its message": (
        _json(409, {"detail": "the table moved on", "code": "stale",
                    "say": {"id": "error.stale", "params": {}}}), "error.stale"),
    "refused with a code only": (
        _json(429, {"detail": "slow down", "code": "rate_limited"}), "error.rate_limited"),
    "plain 404": (_json(404, {"detail": "Not Found"}), "web.error.not_found"),
    "server error": ({"status": 500, "content_type": "text/plain",
                      "body": "Internal Server Error"}, "error.server_error"),
}


def _words(page: Page, base: str, where: str, pattern: str, answer: dict[str, Any] | None,
           shown: str) -> str:
    def fail(route: Route) -> None:
        if answer is None:
            route.abort("internetdisconnected")
        else:
            route.fulfill(**answer)

    url = re.compile(pattern)
    page.route(url, fail)
    try:
        page.goto(base + where)
        try:
            page.wait_for_selector(shown, timeout=8000)
        except Exception:  # noqa: BLE001 - what the page shows instead is the finding
            return f"(nothing at {shown}: {page.inner_text('#app')[:200]!r})"
        return page.inner_text(shown).strip()
    finally:
        page.unroute(url)


def test_every_page_words_each_failure_alike(browser: Browser, server: Server) -> None:
    nl = json.loads((CATALOGS / "nl.json").read_text(encoding="utf-8"))["messages"]
    en = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))["messages"]
    ctx = browser.new_context(locale="nl-NL", service_workers="block")
    page = ctx.new_page()
    page.set_default_timeout(15000)
    wrong: dict[str, str] = {}
    try:
        for failure, (answer, msg_id) in FAILURES.items():
            want = nl[msg_id]
            assert want != en[msg_id], msg_id  # the page's language, not English
            for where, pattern, shown in PAGES:
                got = _words(page, server.url, where, pattern, answer, shown)
                if got != want:
                    wrong[f"{failure} at {where}"] = got
    finally:
        ctx.close()
    assert not wrong, wrong
