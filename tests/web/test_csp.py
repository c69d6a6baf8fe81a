"""The browser client under its Content-Security-Policy (issue 23, point 10): every page
in real Chromium, with no violation reported (no inline script, style or handler), the
seats still placed around the felt (through the CSSOM, which the policy allows)."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Browser, Page

from .conftest import Server

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def violations(page: Page, console: list[str]) -> list[Any]:
    found: list[Any] = page.evaluate("window.__csp || []")
    return found + [m for m in console if "Content Security Policy" in m]


def test_no_page_violates_the_policy(browser: Browser, server: Server) -> None:
    made = server.post("/api/tables", {"name": "Ann", "size": 3, "autostart": True,
                                       "bots": {"1": "random", "2": "random"}})
    table = made["table"]["id"]
    context = browser.new_context()
    context.add_init_script(WATCH)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    try:
        for path in ("/", "/?page=leaderboard", "/?clubs", "/?sheet", "/?rules",
                     "/?page=login", f"/?table={table}", "/?join=ZZZZZZ", "/offline.html"):
            response = page.goto(server.url + path)
            assert response is not None
            assert "script-src 'self'" in response.headers["content-security-policy"]
            page.wait_for_load_state("networkidle")
            page.wait_for_selector("#app *")
            time.sleep(0.2)
            assert violations(page, console) == [], path
        # The table as a spectator sees it: seats placed by their custom properties.
        page.goto(f"{server.url}/?table={table}")
        page.wait_for_selector(".seat")
        places = page.eval_on_selector_all(
            ".seat", "els => els.map(e => [getComputedStyle(e).getPropertyValue('--c'),"
            " e.getBoundingClientRect().left])")
        assert len(places) == 3 and all(c.strip() for c, _ in places), places
        assert len({round(left) for _, left in places}) > 1  # not all in one place
        assert violations(page, console) == []
        # An inline script of the page's own would be refused (the policy is in force).
        page.evaluate("() => { const s = document.createElement('script');"
                      " s.textContent = 'window.__ran = 1'; document.body.append(s); }")
        time.sleep(0.2)
        assert page.evaluate("window.__ran") is None
        assert any("script-src" in v for v in violations(page, console))
    finally:
        context.close()
