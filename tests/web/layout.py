"""The layout checks of the browser tests and the screenshot script: what on a page must not
overlap, run out of the window or be cut, measured from the bounding boxes Chromium lays out.

``problems(page, kind)`` answers a list of what is wrong (empty when the page is good) for one
kind of page: ``table`` (the board in any phase), ``result`` (the result dialog), ``waiting``
(the waiting room) and ``tally`` (the score sheet for real cards).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

LANGS = ("en", "nl", "de", "it", "nb")
SIZES = ((360, 640), (390, 844), (800, 600), (1280, 800), (1366, 768))

# the function, without the file's opening comment
CHECK = Path(__file__).with_name("layout.js").read_text().split("\n", 2)[2]



def settle(page: Page) -> None:
    """Wait two frames: what a resize or a redraw changes is laid out."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def problems(page: Page, kind: str) -> list[str]:
    """What is wrong with the page as it is laid out now (see the module's text)."""
    settle(page)
    got: list[str] = page.evaluate(CHECK, kind)
    return got


def set_lang(page: Page, lang: str) -> None:
    if page.evaluate("() => document.documentElement.lang") != lang:
        page.select_option("#lang", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)


def sweep(page: Page, kind: str, relabelled: Callable[[Page, str], None] | None = None,
          sizes: tuple[tuple[int, int], ...] = SIZES,
          langs: tuple[str, ...] = LANGS) -> dict[str, list[str]]:
    """Check the page at every size in every language; answer what is wrong where
    ({"de 360x640": [...]}, only the places with problems). ``relabelled(page, lang)``:
    called after each change of language (the page redraws: wait for it)."""
    bad: dict[str, list[str]] = {}
    for lang in langs:
        set_lang(page, lang)
        if relabelled:
            relabelled(page, lang)
        for w, h in sizes:
            page.set_viewport_size({"width": w, "height": h})
            got = problems(page, kind)
            if got:
                bad[f"{lang} {w}x{h}"] = got
    return bad


def summary_of(bad: dict[str, list[str]], limit: int = 12) -> str:
    """The problems, shortest first, for an assertion's message."""
    lines: list[str] = []
    for where, got in bad.items():
        lines.extend(f"{where}: {g}" for g in got)
    more = f"\n... {len(lines) - limit} more" if len(lines) > limit else ""
    return "\n".join(lines[:limit]) + more


def ctx_options(locale: str = "en-GB") -> dict[str, Any]:
    return {"viewport": {"width": 390, "height": 844}, "locale": locale, "reduced_motion": "reduce"}
