"""The review where players read it (issue 36): on a phone (360x640, 390x844) every decision
is a card inside the window, nothing scrolls sideways, no word of a reason or of the plot's
legend is broken over two lines; each decision is named as players think of it ("Hand 3,
trick 2"), never by a record's action number; the summary says how many decisions, how
many mistakes and the lives they cost in all; the plot marks the hands."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from toepen.i18n import Translator

from .conftest import Server, screenshot

SIZES = ((360, 640), (390, 844))
LANGS = ("en", "de", "nl", "it", "nb")

# What is wrong with the open review as laid out now (a list of sentences, empty if all is
# well), without the file's opening comment
CHECK = Path(__file__).with_name("review_layout.js").read_text().split("\n", 2)[2]


def _finished_game(server: Server) -> str:
    """A finished 4-player game of bots (one life each: a hand or a few), its id."""
    made = server.post("/api/tables", {
        "size": 4, "bots": {str(s): "heuristic" for s in range(4)}, "autostart": True,
        "options": {"lives": 2}})
    table_id: str = made["table"]["id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.get(f"/api/tables/{table_id}")["status"] == "over":
            return table_id
        time.sleep(0.2)
    raise AssertionError("the bots' game did not end in a minute")


def _open(page: Page, server: Server, table_id: str, lang: str, seat: int) -> None:
    page.goto(server.url + "/")
    page.evaluate("l => localStorage.setItem('toepen.lang', l)", lang)
    page.goto(f"{server.url}/?replay={table_id}")
    page.wait_for_selector("#rboard .felt")
    page.select_option("#who", str(seat))
    page.locator("#review-open").click()
    expect(page.locator("#review-dialog .review-summary")).to_be_visible(timeout=60000)
    page.locator("#review-dialog details").evaluate("d => { d.open = true; }")


@pytest.fixture(scope="module")
def game(server: Server) -> str:
    return _finished_game(server)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_review_reads_on_a_phone(browser: Browser, server: Server, game: str,
                                     width: int, height: int) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(20000)
    try:
        seat = 0
        review: dict[str, Any] = {}
        for s in range(4):  # the seat with the most mistakes shows the most cards
            got = server.post(f"/api/tables/{game}/review?seat={s}", {})
            while got["state"] == "running":
                time.sleep(0.2)
                got = server.get(f"/api/tables/{game}/review?seat={s}")
            if not review or len(got["review"]["mistakes"]) > len(review["mistakes"]):
                seat, review = s, got["review"]
        assert review["mistakes"], "no seat made a mistake: nothing to lay out"
        bad: dict[str, list[str]] = {}
        for lang in LANGS:
            _open(page, server, game, lang, seat)
            got = page.evaluate(CHECK)
            if lang == "nl" and width == 390:
                screenshot(page, "phone-review")
            if got:
                bad[lang] = got
        assert not bad, "\n".join(f"{lang}: {p}" for lang, ps in bad.items() for p in ps[:8])
    finally:
        ctx.close()


def test_decisions_are_named_as_players_think_of_them(page: Page, server: Server,
                                                       game: str) -> None:
    """The cards say "Hand 3, trick 2" (no record number), the summary counts decisions and
    mistakes and the lives they cost in all, the plot marks the hands."""
    got = server.post(f"/api/tables/{game}/review?seat=0", {})
    while got["state"] == "running":
        time.sleep(0.2)
        got = server.get(f"/api/tables/{game}/review?seat=0")
    review = got["review"]
    _open(page, server, game, "en", 0)
    t = Translator("en", strict=True)
    dialog = page.locator("#review-dialog")
    cards = dialog.locator("details.review-every .review-card")
    expect(cards).to_have_count(len(review["decisions"]))
    heads = cards.locator(".review-at").all_inner_texts()
    for d, head in zip(review["decisions"], heads, strict=True):
        assert head == t(d["at"]["id"], **d["at"]["params"])
        assert head.startswith(f"Hand {d['hand']}, ")
        if d["phase"] == "play":
            assert head == f"Hand {d['hand']}, trick {d['trick']}"
    mistakes = [d for d in review["decisions"] if d["index"] in set(review["mistakes"])]
    decisions = t("review.decisions", n=len(review["decisions"]))
    if mistakes:
        want = t("review.summary", decisions=decisions, n=len(mistakes),
                 cost=f"{sum(d['cost'] for d in mistakes):.2f}")
    else:
        want = t("review.clean", decisions=decisions)
    expect(dialog.locator(".review-summary")).to_have_text(want)
    # the plot: a line between each two hands, the hands' numbers under the axis
    hands = sorted({d["hand"] for d in review["decisions"]})
    plot = dialog.locator(".review-plot svg")
    expect(plot.locator("line.hand-bound")).to_have_count(len(hands) - 1)
    numbers = plot.locator("text.hand-no").all_text_contents()
    assert numbers and set(numbers) <= {str(h) for h in hands} and numbers[0] == str(hands[0])
    assert not page.errors  # type: ignore[attr-defined]
