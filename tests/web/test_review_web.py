"""The review of a finished game in Debian's Chromium: the Review button of the result
dialog and of the replay viewer, the progress, the biggest mistakes, the all-cards mode."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

from playwright.sync_api import Page, expect

from .conftest import Server, screenshot
from .helpers import ACTIONABLE, choose, click_action, my_turn_or_over, view, wait_ready


def _status(server: Server, method: str, path: str) -> tuple[int, dict[str, object]]:
    req = urllib.request.Request(server.url + path, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def test_review_button_after_the_game_and_in_the_replay(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    wait_ready(page)
    page.select_option("#lang", "nl")  # the review speaks the page's language
    page.fill("#name", "Ann")
    page.click("details.options summary")
    page.fill("#opt_lives", "1")
    for seat in (1, 2, 3):
        page.select_option(f"select[data-seat='{seat}']", "random")
    page.click("#create")
    page.wait_for_url(re.compile(r"\?table=[0-9a-f]{12}$"))
    table_id = page.url.rsplit("=", 1)[1]
    page.click("#start")
    page.wait_for_selector(".felt")
    # a review waits for the end of the game (it would value hidden cards otherwise)
    code, body = _status(server, "POST", f"/api/tables/{table_id}/review?seat=0")
    assert code == 409 and body["say"] == {"id": "review.error.not_over", "params": {}}
    while my_turn_or_over(page, timeout=30000) == "turn":
        v = view(page)
        assert v is not None
        page.wait_for_selector(ACTIONABLE)
        click_action(page, choose(v["legal"], ("stay", "pass")))
    code, body = _status(server, "POST", f"/api/tables/{table_id}/review?seat=7")
    assert code == 400 and "seat" in str(body["detail"])

    # The result dialog's Review button: the seat's own review, in the page's language.
    button = page.locator("#result #review-open")
    expect(button).to_be_visible(timeout=20000)
    with page.expect_response(lambda r: r.request.method == "POST"
                              and "/review?seat=0" in r.url) as started:
        button.click()
    # the review is worked out in the bot pool: the first answer is its progress
    assert started.value.json()["state"] == "running"
    dialog = page.locator("#review-dialog")
    expect(dialog.locator("#review-h")).to_have_text("Analyse van Ann")
    expect(dialog.locator(".review-summary")).to_be_visible(timeout=60000)
    got = server.get(f"/api/tables/{table_id}/review?seat=0")
    assert got["state"] == "done" and got["done"] == got["total"]
    review = got["review"]
    assert review["mode"] == "seat" and review["seat"] == 0
    expect(dialog.locator(".review-mode")).to_have_text(
        "Elke beslissing gewaardeerd naar wat Ann op dat moment wist.")
    expect(dialog.locator(".review-plot svg path.actual")).to_have_count(1)
    mistakes = review["mistakes"]
    if mistakes:
        cards = dialog.locator(".review-list").first.locator(".review-card")
        expect(cards).to_have_count(min(10, len(mistakes)))
        why = cards.first.locator(".review-why")
        expect(why).not_to_have_text("")
        assert "review.reason" not in (why.text_content() or "")
        # named as players think of it (Ronde 1, slag 2), never by a record number
        first = next(d for d in review["decisions"] if d["index"] == mistakes[0])
        expect(cards.first.locator(".review-at")).to_have_text(re.compile(
            rf"^Ronde {first['hand']}, "))
    else:
        expect(dialog.get_by_text("geen fouten", exact=False)).to_be_visible()
    screenshot(page, "review")
    every = dialog.locator("details .review-card")
    expect(every).to_have_count(len(review["decisions"]))

    # The all-cards mode: marked as such.
    dialog.locator("#review-all").check()
    dialog.locator("#review-go").click()
    expect(dialog.locator(".review-mode.all-cards")).to_be_visible(timeout=60000)
    hindsight = server.get(f"/api/tables/{table_id}/review?seat=0&all=1")["review"]
    assert hindsight["mode"] == "all_cards"
    dialog.locator("#review-close").click()
    expect(page.locator("#review-dialog")).to_have_count(0)

    # The replay viewer's Review button reviews the seat being viewed.
    page.goto(f"{server.url}/?replay={table_id}")
    page.wait_for_selector("#rboard .felt")
    page.select_option("#who", "2")
    page.locator("#review-open").click()
    expect(page.locator("#review-seat")).to_have_value("2")
    expect(page.locator("#review-dialog .review-summary")).to_be_visible(timeout=60000)
    assert server.get(f"/api/tables/{table_id}/review?seat=2")["review"]["seat"] == 2
