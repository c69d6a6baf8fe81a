"""Refresh the browser client's screenshots in docs/screenshots/ (PNG) from a real server.

Starts a throwaway ``toepen serve`` (SQLite in a temporary folder) and photographs, in
Debian's Chromium (tests/chromium.py), what docs/web.md, docs/review.md and the README
show. The same steps each run (the cards are the server's: a new deal each time):

* the lobby (web-lobby) and the rules page (web-rules), on a desktop (1280x800), and the
  lobby on a phone (web-phone-lobby, 390x844);
* a trick just taken, its winner marked (web-trick, 1280x800): a person against three
  bots, the finished trick held on the felt;
* one session played as tests/web/test_phone_layout.py plays it (tests/web/table_states.py),
  each phase on a desktop and on a phone (390x844): web-table and web-phone (a card to
  play), web-knock and web-phone-knock (a knock to answer), web-summary and
  web-phone-summary (a hand's summary), web-result and web-phone-result (the result);
* the replay of that session (web-replay, 1280x800), at its first step with the most
  cards in the trick, every hand shown;
* the score sheet for real cards with 4 players (tally-phone, 390x844, the whole page).

    uv run python scripts/screenshot_web.py [--lang en] [--out docs/screenshots]

Emoji need a colour emoji font on the machine (Debian: fonts-noto-color-emoji, as .ci/run
installs). web-review (docs/review.md, the review dialog in Dutch) comes from
``TOEPEN_SCREENSHOTS=1 uv run pytest tests/web/test_review_web.py``, web-phone-review
(390x844) from ``tests/web/test_review_phone.py``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # tests/chromium.py, and tests/web as ``web``

from chromium import launch  # noqa: E402
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright  # noqa: E402
from web.conftest import Server  # noqa: E402
from web.helpers import wait_ready  # noqa: E402
from web.layout import ctx_options, set_lang, settle  # noqa: E402
from web.table_states import READY, STATE, click, drive, first, open_sheet, seat_page  # noqa: E402

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
# phase: [(window, file)]
SHOTS: dict[str, list[tuple[ViewportSize, str]]] = {
    "play": [(DESKTOP, "web-table"), (PHONE, "web-phone")],
    "knock": [(DESKTOP, "web-knock"), (PHONE, "web-phone-knock")],
    "summary": [(DESKTOP, "web-summary"), (PHONE, "web-phone-summary")],
    "result": [(DESKTOP, "web-result"), (PHONE, "web-phone-result")],
}
TAKEN = "() => !!document.querySelector('.felt .trick-card.winning')"

Shoot = Callable[[Page, str], None]


def desktop_page(browser: Browser, server: Server, path: str, lang: str) -> Page:
    """A new desktop window on ``path`` of the server, in ``lang``."""
    ctx = browser.new_context(**{**ctx_options(), "viewport": DESKTOP})
    page = ctx.new_page()
    page.set_default_timeout(30000)
    page.goto(server.url + path)
    wait_ready(page)
    set_lang(page, lang)
    return page


def lobby_and_rules(browser: Browser, server: Server, lang: str, shoot: Shoot) -> None:
    """The lobby (before any table is open: its list is empty) and the rules page."""
    page = desktop_page(browser, server, "/", lang)
    page.fill("#name", "Ann")
    shoot(page, "web-lobby")
    # the first page a phone player sees (390x844): Play now with the name beside it
    page.set_viewport_size(PHONE)
    shoot(page, "web-phone-lobby")
    page.goto(server.url + "/?rules")
    wait_ready(page)
    page.locator(".preset-tabs button").nth(1).click()
    page.wait_for_selector(".guide dt")
    shoot(page, "web-rules")
    page.context.close()


def trick(browser: Browser, server: Server, lang: str, shoot: Shoot) -> None:
    """Ann plays against three bots until a trick is taken; the finished trick stays on
    the felt (a pause of 4 s) with its winner marked: shot then."""
    made = server.post("/api/tables", {
        "preset": "rulebook", "size": 4, "bots": {"1": "random", "2": "random", "3": "random"},
        "name": "Ann", "idle_seconds": 300, "options": {"lives": 3}})
    page = seat_page(browser, server, made["table"]["id"], made,
                     {**ctx_options(), "viewport": DESKTOP}, pause=4)
    set_lang(page, lang)
    page.click("#start")
    page.wait_for_selector(".felt")
    deadline = time.monotonic() + 60
    while not page.evaluate(TAKEN):
        if time.monotonic() > deadline:
            raise RuntimeError("no trick was taken within 60 s")
        page.wait_for_function(f"() => ({TAKEN})() || ({READY})()")
        if page.evaluate(TAKEN):
            break
        state = page.evaluate(STATE)
        click(page, first(state["legal"], ("stay", "accept", "pass", "no_claim")), state["count"])
    shoot(page, "web-trick")
    page.context.close()


def replay(browser: Browser, server: Server, table_id: str, lang: str, shoot: Shoot) -> None:
    """The replay viewer, every hand shown, at the session's first step with the most
    cards in the trick."""
    steps: list[dict[str, Any]] = []
    at: int | None = 0
    while at is not None:  # the replay comes a page at a time
        page_of = server.get(f"/api/tables/{table_id}/replay?seat=all&from={at}&count=200")
        steps += page_of["steps"]
        at = page_of["next"]
    # the first step with the most cards in the trick
    step = max(range(len(steps)), key=lambda i: (len(steps[i]["view"]["trick"]), -i))
    page = desktop_page(browser, server, f"/?replay={table_id}&seat=all&step={step}", lang)
    page.wait_for_selector("#rboard .felt .trick-card")
    shoot(page, "web-replay")
    page.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", default="en", help="the page's language (en, nl, de, it, nb)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    written: list[str] = []

    def shoot(page: Page, name: str) -> None:
        settle(page)
        page.screenshot(path=str(args.out / f"{name}.png"), animations="disabled")
        written.append(f"{name}.png")

    def on_phase(phase: str, page: Page) -> None:
        if phase not in SHOTS:
            return
        set_lang(page, args.lang)
        if phase == "result":
            page.wait_for_function("l => document.querySelector('#result').dataset.lang === l"
                                   " && !document.querySelector('#result').hidden", arg=args.lang)
        for window, name in SHOTS[phase]:
            page.set_viewport_size(window)
            shoot(page, name)
        page.set_viewport_size(PHONE)

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "toepen.db")
        server.start()
        try:
            with sync_playwright() as p:
                browser = launch(p)
                lobby_and_rules(browser, server, args.lang, shoot)
                trick(browser, server, args.lang, shoot)
                ann = drive(browser, server, on_phase, ctx_options())
                table_id = ann.url.rsplit("=", 1)[1]
                ann.context.close()
                replay(browser, server, table_id, args.lang, shoot)
                sheet = open_sheet(browser, server, ["Ann", "Bas", "Cor", "Dave"], ctx_options(),
                                   entries=("1 knock", "2 stay"))
                set_lang(sheet, args.lang)
                sheet.screenshot(path=str(args.out / "tally-phone.png"), full_page=True)
                written.append("tally-phone.png")
                browser.close()
        finally:
            server.stop()
    missing = [n for n in (*(f for shots in SHOTS.values() for _, f in shots), "web-lobby",
                           "web-phone-lobby", "web-rules", "web-trick", "web-replay")
               if f"{n}.png" not in written]
    if missing:
        raise SystemExit(f"not written: {', '.join(missing)}")
    print(f"wrote {len(written)} screenshots to {args.out}: {', '.join(written)}")


if __name__ == "__main__":
    main()
