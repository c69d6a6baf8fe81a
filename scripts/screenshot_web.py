"""Refresh the browser client's screenshots in docs/screenshots/ (PNG) from a real table.

Starts a throwaway ``toepen serve`` (SQLite in a temporary folder), plays one session in
Debian's Chromium as tests/web/test_phone_layout.py does (tests/web/table_states.py) and
photographs each phase on a phone (390x844) and on a desktop (1280x800):

    uv run python scripts/screenshot_web.py [--lang en] [--out docs/screenshots]

Writes web-table.png, web-knock.png (desktop, a card to play and a knock to answer),
web-summary.png, web-result.png, web-phone.png, web-phone-knock.png, web-phone-summary.png,
web-phone-result.png and tally-phone.png (the score sheet for real cards, 4 players). Emoji
need a colour emoji font on the machine (Debian: fonts-noto-color-emoji, as .ci/run installs).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402
from tests.web.layout import ctx_options, set_lang, settle  # noqa: E402
from tests.web.table_states import drive, open_sheet  # noqa: E402

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# phase: [(window, file)]
SHOTS = {
    "play": [(DESKTOP, "web-table"), (PHONE, "web-phone")],
    "knock": [(DESKTOP, "web-knock"), (PHONE, "web-phone-knock")],
    "summary": [(DESKTOP, "web-summary"), (PHONE, "web-phone-summary")],
    "result": [(DESKTOP, "web-result"), (PHONE, "web-phone-result")],
}


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
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                drive(browser, server, on_phase, ctx_options()).context.close()
                sheet = open_sheet(browser, server, ["Ann", "Bas", "Cor", "Dave"], ctx_options(),
                                   entries=("1 knock", "2 stay"))
                set_lang(sheet, args.lang)
                sheet.screenshot(path=str(args.out / "tally-phone.png"), full_page=True)
                written.append("tally-phone.png")
                browser.close()
        finally:
            server.stop()
    print(f"wrote {len(written)} screenshots to {args.out}: {', '.join(written)}")


if __name__ == "__main__":
    main()
