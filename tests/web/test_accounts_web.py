"""Accounts in Chromium: register, play a rated game against a bot, open the profile (its
rating graph) and the leaderboard, in English and in Dutch; a guest's seat claimed from
the account page. ``TOEPEN_SCREENSHOTS=1`` writes docs/screenshots/accounts-*.png."""

from __future__ import annotations

import os
import re
import time

from playwright.sync_api import Browser, Page, expect

from .conftest import SHOTS, Server
from .helpers import choose, click_action, my_turn_or_over, view, wait_ready

PASSWORD = "kaarten op tafel"


def shot(page: Page, name: str) -> None:
    if os.environ.get("TOEPEN_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"accounts-{name}.png"), animations="disabled",
                        full_page=True)


def register(page: Page, base: str, name: str) -> None:
    page.goto(base + "/?page=register")
    wait_ready(page)
    page.fill("#acct-name", name)
    page.fill("#acct-password", PASSWORD)
    page.click("#acct-submit")
    page.wait_for_url(base + "/")
    wait_ready(page)
    expect(page.locator("#nav-profile")).to_have_text(name)


def play_to_the_end(page: Page) -> None:
    page.wait_for_selector(".felt")
    while my_turn_or_over(page) == "turn":
        v = view(page)
        assert v is not None
        click_action(page, choose(v["legal"], ("stay", "pass")))


def test_register_play_rated_profile_and_leaderboard(page: Page, server: Server,
                                                     browser: Browser) -> None:
    base = server.url
    register(page, base, "Annelies")
    shot(page, "lobby")
    # the lobby: the account's name, fixed; rated is offered
    expect(page.locator("#name")).to_have_value("Annelies")
    assert page.locator("#name").evaluate("el => el.readOnly")
    page.select_option("#size", "2")
    page.select_option("select[data-seat='1']", "random")
    page.check("#rated")
    page.locator("details.options summary").click()
    page.fill("#opt_lives", "2")
    page.check("#autostart")
    page.click("#create")
    page.wait_for_url(re.compile(r"\?table=[0-9a-f]{12}$"))
    table_id = page.url.rsplit("=", 1)[1]
    assert server.get(f"/api/tables/{table_id}")["rated"] is True
    play_to_the_end(page)
    # the profile: the rating graph, the figures, the game in the history
    href = page.get_attribute("#nav-profile", "href")  # the result covers the page: follow it
    assert href == "/?player=Annelies"
    page.goto(base + href)
    page.wait_for_selector("svg.rating-graph circle.point")
    replay = page.locator(f"#history tr[data-table='{table_id}'] a.replay")
    expect(replay).to_have_attribute("href", f"/?replay={table_id}")
    expect(page.locator("#figures dd").first).to_have_text("1")
    assert page.locator("svg.rating-graph").get_attribute("aria-label") == \
        "Rating of Annelies after each rated game"
    assert page.errors == []  # type: ignore[attr-defined]
    shot(page, "profile")
    # the leaderboard of the preset at two players: Annelies and the bot
    # (it opens on the board just played: 2 players, not the 4 of an empty board)
    page.click("#nav-leaderboard")
    page.wait_for_selector("#board tr[data-name='Annelies']")
    expect(page.locator("#lb-size")).to_have_value("2")
    expect(page.locator("#lb-shown")).to_contain_text("2")
    page.select_option("#lb-size", "2")
    page.wait_for_selector("#board tr[data-name='Annelies']")
    expect(page.locator("#board tr[data-name='random']")).to_have_count(1)
    shot(page, "leaderboard")
    # the bot's profile: its record against people
    page.click("#board tr[data-name='random'] a")
    page.wait_for_selector("#vs-people")

    # in Dutch: another player registers; the same profile and board in Dutch
    ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="nl-NL")
    nl = ctx.new_page()
    nl.set_default_timeout(15000)
    try:
        nl.goto(base + "/?page=register")
        wait_ready(nl)
        expect(nl.locator("#acct-submit")).to_have_text("Registreren")
        nl.fill("#acct-name", "Expert")
        nl.fill("#acct-password", PASSWORD)
        nl.click("#acct-submit")
        expect(nl.locator("#toast")).to_have_text("Die naam is van een bot: kies een andere.")
        register(nl, base, "Joost")
        expect(nl.locator("#challenge")).to_contain_text("uit")
        # a rated table with an open seat: Annelies takes it from the table page itself
        nl.select_option("#size", "2")
        nl.select_option("select[data-seat='1']", "")
        nl.check("#rated")
        nl.click("#create")
        nl.wait_for_url(re.compile(r"\?table=[0-9a-f]{12}$"))
        open_id = nl.url.rsplit("=", 1)[1]
        page.goto(f"{base}/?table={open_id}")
        page.click("[data-take='1']")
        expect(page.locator(".waiting")).to_be_visible()
        page.wait_for_selector("[data-take]", state="detached")  # seated: no seat to take
        end = time.monotonic() + 10  # the seat's account follows its join (a second commit)
        while server.get(f"/api/tables/{open_id}")["seats"][1].get("account") != "Annelies":
            assert time.monotonic() < end, server.get(f"/api/tables/{open_id}")["seats"]
            time.sleep(0.05)
        nl.goto(base + "/")
        wait_ready(nl)
        nl.click("#challenge")  # a rated table against the strongest bot, started at once
        nl.wait_for_url(re.compile(r"\?table=[0-9a-f]{12}$"))
        challenged = server.get("/api/tables/" + nl.url.rsplit("=", 1)[1])
        strongest = server.get("/api/presets")["default_bot"]
        assert challenged["rated"] is True and challenged["status"] == "playing"
        assert challenged["seats"][0]["account"] == "Joost"
        assert [s["bot"] for s in challenged["seats"][1:]] == [strongest] * (challenged["size"] - 1)
        nl.goto(base + "/?player=Annelies")
        wait_ready(nl)
        nl.wait_for_selector("svg.rating-graph circle.point")
        expect(nl.locator("h2").first).to_have_text("Rating door de tijd")
        shot(nl, "profile-nl")
        nl.goto(base + "/?page=leaderboard&size=2")
        wait_ready(nl)
        nl.wait_for_selector("#board tr[data-name='Annelies']")
        expect(nl.locator("h1")).to_have_text("Ranglijst")
        shot(nl, "leaderboard-nl")
    finally:
        ctx.close()


def test_a_guest_claims_the_seat_from_the_account_page(page: Page, server: Server) -> None:
    base = server.url
    page.goto(base + "/")
    wait_ready(page)
    page.fill("#name", "Gast")
    page.select_option("#size", "2")
    page.select_option("select[data-seat='1']", "random")
    assert page.locator("#rated").is_disabled()  # rated games need an account
    page.locator("details.options summary").click()
    page.fill("#opt_lives", "2")
    page.check("#autostart")
    page.click("#create")
    page.wait_for_url(re.compile(r"\?table=[0-9a-f]{12}$"))
    table_id = page.url.rsplit("=", 1)[1]
    play_to_the_end(page)
    register(page, base, "Gerrit")
    page.click("#nav-account")
    page.wait_for_selector("#acct-seats [data-claim]")
    shot(page, "account")
    page.click("#acct-seats [data-claim]")
    expect(page.locator("#acct-seats .empty")).to_be_visible()
    assert server.get(f"/api/tables/{table_id}")["seats"][0]["account"] == "Gerrit"
