"""The score sheet for real cards on a phone in Chromium: make a sheet, enter a whole
session by tapping, undo, and follow it live on a second phone (no reload).

Run with ``TOEPEN_SCREENSHOTS=1`` to (re)write ``docs/screenshots/tally-phone.png``.
"""

from __future__ import annotations

import os
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import SHOTS, Server
from .helpers import wait_ready

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
                         "is_mobile": True, "has_touch": True, "locale": "en-GB"}


def tap(page: Page, entry: str) -> None:
    version = int(page.locator(".tally").get_attribute("data-version") or "0")
    page.click(f'[data-entry="{entry}"]')
    expect(page.locator(".tally")).to_have_attribute("data-version", str(version + 1))


def lives(page: Page) -> list[str]:
    return page.locator(".tally-table td.lives").all_inner_texts()


def test_a_session_kept_on_one_phone_and_followed_on_another(
    browser: Browser, server: Server
) -> None:
    keeper_ctx = browser.new_context(**PHONE)
    follower_ctx = browser.new_context(**PHONE)
    keeper, follower = keeper_ctx.new_page(), follower_ctx.new_page()
    errors: list[str] = []
    for p in (keeper, follower):
        p.set_default_timeout(15000)
        p.on("pageerror", lambda e: errors.append(str(e)))
    keeper.goto(server.url + "/")
    wait_ready(keeper)
    keeper.click("#menu")  # on a phone the header's links are behind the menu button
    keeper.click('a[href="/?sheet"]')
    wait_ready(keeper)
    keeper.select_option('select[name="preset"]', "rulebook")
    keeper.fill('input[name="lives"]', "2")
    for i, name in enumerate(["Ann", "Bas", "Cor"]):
        keeper.locator('input[name="player"]').nth(i).fill(name)
    keeper.click("#tally-form button[type=submit]")
    expect(keeper.locator(".tally")).to_have_attribute("data-keeper", "1")
    follow = keeper.locator("#tally-follow").get_attribute("href")
    assert follow and "key" not in follow
    follower.goto(follow)
    wait_ready(follower)
    expect(follower.locator(".tally")).to_have_attribute("data-keeper", "0")
    assert follower.locator("[data-entry]").count() == 0  # a follower cannot enter
    assert follower.locator("#tally-keep").count() == 0  # nor see the keeper's link
    keep = keeper.locator("#tally-keep").get_attribute("href")
    assert keep and keep.startswith(follow + "#key=")
    # hand 1: a false armoede claim, a knock, a stay and a fold
    tap(keeper, "1 claim")
    tap(keeper, "2 challenge false")
    assert lives(keeper) == ["2", "1", "2"]
    tap(keeper, "1 knock")
    expect(keeper.locator(".tally-status")).to_contain_text("Cor answers the knock (stake 2)")
    tap(keeper, "2 stay")
    tap(keeper, "0 fold")
    assert lives(keeper) == ["1", "1", "2"]
    # the follower saw it all arrive, without a reload
    expect(follower.locator(".tally")).to_have_attribute("data-version", "5")
    assert lives(follower) == ["1", "1", "2"]
    # undo the fold: back exactly; the follower follows the undo too
    keeper.click("#tally-undo")
    expect(keeper.locator(".tally")).to_have_attribute("data-version", "6")
    assert lives(keeper) == ["2", "1", "2"]
    expect(follower.locator(".tally")).to_have_attribute("data-version", "6")
    assert lives(follower) == ["2", "1", "2"]
    assert keeper.locator('[data-entry="1 knock"]').count() == 0  # 0 is to answer
    tap(keeper, "0 fold")
    # Cor takes the last trick: pays 2 and is out; then Ann takes it and is out: Bas wins
    tap(keeper, "2 last")
    tap(keeper, "0 last")
    expect(keeper.locator(".tally-status")).to_have_text("Bas wins the session.")
    expect(follower.locator(".tally-status")).to_have_text("Bas wins the session.")
    assert keeper.locator("[data-entry]").count() == 0
    assert keeper.locator(".tally-table tbody tr").count() == 2
    # the sheet shows strokes; the record downloads
    assert keeper.locator(".tally-table tfoot .tally-strokes").count() == 3
    with keeper.expect_download() as dl:
        keeper.click("#tally-record")
    assert dl.value.suggested_filename.startswith("toepen-sheet-")
    if os.environ.get("TOEPEN_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        keeper.screenshot(path=str(SHOTS / "tally-phone.png"), full_page=True,
                          animations="disabled")
    # printing hides the controls and keeps the sheet
    keeper.emulate_media(media="print")
    assert not keeper.locator(".tally-tools").is_visible()
    assert keeper.locator(".tally-table").is_visible()
    assert errors == []
    keeper_ctx.close()
    follower_ctx.close()


def test_the_entries_are_labelled_by_the_server(browser: Browser, server: Server) -> None:
    """Each legal entry's button shows the server's words for it (``legal_say``), the rank
    letters in the page's language (cards.LOCAL_RANKS), in Dutch and in Norwegian."""
    made = server.post("/api/sheets", {"preset": "rulebook", "players": ["Ann", "Bas", "Cor"],
                                       "options": {"four_of_a_kind": True,
                                                   "three_of_a_kind_draw": True}})
    assert len(made["sheet"]["legal_say"]) == len(made["sheet"]["legal"])
    ctx = browser.new_context(**{**PHONE, "locale": "nl-NL"})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + made["keep"])
    wait_ready(page)
    expect(page.locator('[data-entry="0 four j"]')).to_have_text("vier gelijke: B")
    expect(page.locator('[data-entry="1 kans q"]')).to_have_text("kocht de vierde V")
    expect(page.locator('[data-entry="2 knock"]')).to_have_text("toepen")
    page.select_option("#lang", "nb")
    expect(page.locator('[data-entry="0 four j"]')).to_contain_text("Kn")
    expect(page.locator('[data-entry="0 four a"]')).to_contain_text("E")
    assert errors == []
    ctx.close()
