"""One judgement (issue 36): a player who follows every hint the page offers, through a
whole session against expert bots, is told by the review afterwards that none of those
moves was a mistake costing more than 0.10 of a life."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import Server
from .helpers import ACTIONABLE, click_action, my_turn_or_over, view, wait_ready

LIMIT = 0.10
"""The most lives a followed hint may cost in the review (sampling noise, not a mistake)."""


def _sit(page: Page, server: Server, made: dict[str, Any]) -> None:
    page.goto(server.url + "/")
    wait_ready(page)
    page.evaluate("j => localStorage.setItem('toepen.seats', JSON.stringify({[j.table.id]: "
                  "{token: j.token, seat: j.seat, host: j.host}}))", made)
    page.goto(f"{server.url}/?table={made['table']['id']}")
    wait_ready(page)


def test_following_every_hint_makes_no_mistake_in_the_review(page: Page,
                                                            server: Server) -> None:
    made: dict[str, Any] = server.post("/api/tables", {
        "size": 4, "name": "Ann", "idle_seconds": 300, "options": {"lives": 3},
        "bots": {str(s): "expert" for s in (1, 2, 3)}})
    table_id = made["table"]["id"]
    _sit(page, server, made)
    page.click("#start")
    page.wait_for_selector(".felt")
    followed: list[tuple[int, str]] = []  # (action number, the hinted action)
    while my_turn_or_over(page, timeout=30000) == "turn":
        v = view(page)
        assert v is not None
        page.wait_for_selector(ACTIONABLE)
        if len(v["legal"]) == 1:  # a forced move: nothing to follow
            click_action(page, v["legal"][0])
            continue
        page.keyboard.press("h")
        hinted = page.locator(".hinted")
        expect(hinted).to_have_count(1, timeout=20000)
        action = hinted.get_attribute("data-action")
        assert action in v["legal"]
        followed.append((v["action_count"] + 1, action))
        click_action(page, action)
    assert followed, "the session ended before Ann decided anything"

    record = server.get(f"/api/tables/{table_id}/record")
    mine = [(i, a) for i, line in enumerate(record["actions"], start=1)
            for s, _, a in [line.partition(" ")] if s == "0"]
    assert set(followed) <= set(mine)  # the record holds the hinted moves as played

    button = page.locator("#result #review-open")
    expect(button).to_be_visible(timeout=20000)
    button.click()
    expect(page.locator("#review-dialog .review-summary")).to_be_visible(timeout=60000)
    got = server.get(f"/api/tables/{table_id}/review?seat=0")
    while got["state"] == "running":
        time.sleep(0.2)
        got = server.get(f"/api/tables/{table_id}/review?seat=0")
    assert got["state"] == "done", got
    review = got["review"]
    hinted = dict(followed)
    costly = [d for d in review["decisions"] if d["cost"] > LIMIT and d["index"] in hinted]
    said = "; ".join(
        f"hand {d['hand']} trick {d['trick']} ({d['phase']}, stake {d['stake']}): hinted "
        f"{d['choice']}, review's best {d['best']}, cost {d['cost']}, values {d['values']}"
        for d in costly)
    assert not costly, (f"{len(costly)} of {len(hinted)} followed hints cost more than "
                        f"{LIMIT} lives in the review: {said}")
