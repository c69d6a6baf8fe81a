"""The browser client end to end: real server subprocess, real Chromium, real clicks.

Run with ``TOEPEN_SCREENSHOTS=1`` to (re)write ``docs/screenshots/web-*.png``.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, expect

from .conftest import Server, screenshot
from .helpers import (
    ACTIONABLE,
    check_frames,
    choose,
    click_action,
    create_table,
    lives_lost,
    my_turn_or_over,
    start_game,
    view,
    wait_ready,
)


def _collect(frames: list[str]) -> Callable[[WebSocket], None]:
    """A websocket listener that keeps every frame the page receives."""
    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))
    return on_socket


def test_lobby_lists_presets_and_switches_language(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    wait_ready(page)
    expect(page.locator("#h-create")).to_have_text("New table")
    presets = page.locator("#preset option")
    values = presets.evaluate_all("os => os.map(o => o.value)")
    assert "rulebook" in values and "gezinstoepen" in values
    # each preset by its name in the catalogs (GET /api/presets gives the ids)
    assert "Family toepen" in presets.all_inner_texts()
    screenshot(page, "lobby")
    # every language of the shared catalogs, switched on the page and remembered
    for lang, title in (("nl", "Nieuwe tafel"), ("de", "Neuer Tisch"), ("it", "Nuovo tavolo"),
                        ("nb", "Nytt bord"), ("en", "New table")):
        page.select_option("#lang", lang)
        expect(page.locator("#h-create")).to_have_text(title)
        assert page.evaluate("document.documentElement.lang") == lang
    page.select_option("#lang", "nl")
    expect(page.locator("#h-create")).to_have_text("Nieuwe tafel")
    page.reload()
    wait_ready(page)
    expect(page.locator("#h-create")).to_have_text("Nieuwe tafel")
    assert page.errors == []  # type: ignore[attr-defined]


def test_bad_table_request_shows_the_servers_reason(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    wait_ready(page)
    page.fill("#name", "Bad<name>")
    page.click("#create")
    toast = page.locator("#toast")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text("name")
    assert "?table=" not in page.url
    page.goto(server.url + "/?join=ZZZZZZ")
    wait_ready(page)
    expect(page.locator("h1")).to_have_text("No such table")


def test_person_plays_a_session_against_three_bots(browser: Browser, server: Server) -> None:
    """Create a table with three bots, click through a whole session: knock, answer a
    knock, finish hands, see the result with the score sheet. A spectator watches too;
    no frame either page receives holds a card its receiver may not see."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    page = ctx.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    frames: list[str] = []
    page.on("websocket", _collect(frames))
    knocked = answered = False
    hands_played: set[int] = set()
    hint_checked = False
    games = 0
    while games < 3 and not (knocked and answered and hands_played):
        games += 1
        frames.clear()
        table_id = create_table(page, server.url, "Ann", {1: "random", 2: "random", 3: "random"})
        # the spectator opens the invite's table page without a token
        spec_ctx = browser.new_context(viewport={"width": 1000, "height": 800})
        spec = spec_ctx.new_page()
        spec_frames: list[str] = []
        spec.on("websocket", _collect(spec_frames))
        spec.goto(f"{server.url}/?table={table_id}")
        wait_ready(spec)
        expect(spec.locator(".invite .role")).to_contain_text("You are watching")
        start_game(page)
        shot_taken = False
        while my_turn_or_over(page) == "turn":
            v = view(page)
            assert v is not None and v["seat"] == 0 and 0 in v["to_act"]
            # the buttons are exactly the legal actions
            shown = sorted(page.locator(".actions button.act").evaluate_all(
                "bs => bs.map(b => b.dataset.action)"))
            playable = sorted(page.locator(".hand .card.playable").evaluate_all(
                "bs => bs.map(b => b.dataset.action)"))
            assert sorted(shown + playable) == sorted(v["legal"])
            if not hint_checked and v["phase"] == "play":
                hint_checked = True
                # an illegal action: the engine's refusal, in the page's words
                page.evaluate("s => window.toepenConn.send({type: 'act', action: 'claim', "
                              "state: s})", v["action_count"])
                expect(page.locator("#toast")).to_have_text(
                    "You cannot claim armoede now: Play a card or knock.")
                page.keyboard.press("h")  # the hint key never breaks the page
            if v["phase"] == "answer":
                action = choose(v["legal"], ("stay",))
                answered = True
            elif "knock" in v["legal"] and v["hand_no"] not in hands_played and not knocked:
                action = "knock"
                knocked = True
            else:
                action = choose(v["legal"], ("pass",))
            if not shot_taken and v["trick"] and len(v["hand"]) >= 2:
                screenshot(page, "table")
                page.set_viewport_size({"width": 390, "height": 844})
                screenshot(page, "phone")
                page.set_viewport_size({"width": 1280, "height": 860})
                shot_taken = True
            if action.startswith("play ") and len(v["hand"]) == 1:
                hands_played.add(v["hand_no"])
            click_action(page, action)
            if action == "knock":  # narrated in the log with the new stake
                line = f"Ann knocks: stake {v['stake'] + 1}"
                expect(page.locator("#log li", has_text=line)).not_to_have_count(0)
        # the result screen: the winner and the tally of every player
        final = view(page)
        assert final is not None and final["winner"] is not None
        result = page.locator("#result")
        expect(result).to_be_visible()
        winner = final["players"][final["winner"]]
        expect(result.locator("h1")).to_have_text(f"{winner} wins the game!")
        rows = result.locator(".scoresheet tbody tr")
        expect(rows).to_have_count(4)
        record = server.get(f"/api/tables/{table_id}/record")
        lost = lives_lost(record)
        assert sum(lost) > 0
        for s in range(4):  # one stroke per life lost in the whole session
            row = result.locator(f".scoresheet tr[data-seat='{s}']")
            assert int(row.locator(".num").inner_text()) == lost[s]
            assert row.locator("svg.tally line").count() == lost[s]
        screenshot(page, "result")
        # the spectator saw the same end, and never a hidden card
        spec.wait_for_function(
            "() => window.toepenState.view && window.toepenState.view.phase === 'over'")
        expect(spec.locator(".hand")).to_have_count(0)
        assert check_frames(frames, record) > 10
        assert check_frames(spec_frames, record) > 10
        spec_ctx.close()
    # the replay viewer steps through the finished game, by buttons and by keys
    page.click("#result a[href^='/?replay=']")
    page.wait_for_selector("#rboard .felt")
    last = final["action_count"]
    page.keyboard.press("End")
    expect(page.locator("#stepno")).to_have_text(f"Step {last} of {last}")
    expect(page.locator("#rboard .prompt")).to_have_text(f"{winner} wins the game!")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#stepno")).not_to_have_text(f"Step {last} of {last}")
    page.click("#first")
    expect(page.locator("#stepno")).to_have_text(re.compile(rf"^Step \d+ of {last}$"))
    assert int(page.locator("#slider").input_value()) == 0
    assert page.locator("#rlog li").count() >= 1
    screenshot(page, "replay")
    assert knocked and answered and hands_played, (knocked, answered, hands_played)
    assert errors == []
    ctx.close()


def test_teams_table_marks_the_pairs(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    wait_ready(page)
    page.fill("#name", "Ann")
    page.select_option("#preset", "teams")
    for seat in (1, 2, 3):
        page.select_option(f"select[data-seat='{seat}']", "random")
    page.click("#create")
    start_game(page)
    v = view(page)
    assert v is not None and v["teams"]
    for s, team in enumerate(v["teams"]):
        expect(page.locator(f".seat[data-seat='{s}'] .badge.team-{team}")).to_have_text(
            f"team {team + 1}")
    assert v["teams"][0] == v["teams"][2] != v["teams"][1]


def test_an_idle_player_gets_a_stand_in_and_comes_back(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    wait_ready(page)
    page.fill("#name", "Ann")
    for seat in (1, 2, 3):
        page.select_option(f"select[data-seat='{seat}']", "random")
    page.click(".options summary")
    page.fill("#idle", "1")
    page.click("#create")
    start_game(page)
    # Ann does nothing: after a second a bot plays for her, and the page says so
    bar = page.locator(".standin-bar")
    expect(bar).to_have_text(re.compile("A bot is playing for you"), timeout=20000)
    expect(page.locator(".seat[data-seat='0'] .badge.standin")).to_be_visible()
    page.click(".standin-bar button")
    expect(bar).to_have_count(0)


def test_two_people_play_at_one_table(browser: Browser, server: Server) -> None:
    host_ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    guest_ctx = browser.new_context(viewport={"width": 390, "height": 844},
                                    is_mobile=True, has_touch=True)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    for p in (host, guest):
        p.set_default_timeout(20000)
    table_id = create_table(host, server.url, "Ann", {2: "random", 3: "random"})
    # the host seats a bot and takes it away again: seat 2 is open for the guest
    seat2 = host.locator(".seatlist li[data-seat='1']")
    expect(host.locator("#start")).to_be_disabled()
    host.click("[data-cmd='add_bot'][data-seat='1']")
    expect(seat2.locator(".badge.bot")).to_be_visible()
    expect(host.locator("#start")).to_be_enabled()
    host.click("[data-cmd='remove_bot'][data-seat='1']")
    expect(seat2).to_contain_text("open (a person)")
    code = host.locator(".invite .code").inner_text()
    invite = host.locator("#invite-link").input_value()
    assert invite.endswith(f"/join/{code}")
    guest.goto(invite)  # the invite link redirects to the join page
    wait_ready(guest)
    guest.fill("#jname", "Bas")
    guest.click("#join-btn")
    guest.wait_for_url(re.compile(rf"\?table={table_id}$"))
    expect(host.locator(".seatlist li[data-seat='1']")).to_contain_text("Bas")
    expect(guest.locator(".invite .role")).to_have_text("You sit at seat 2")
    start_game(host)
    guest.wait_for_selector(".felt")
    hand_no = None
    moves = {0: 0, 1: 0}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        progressed = False
        for seat, p in ((0, host), (1, guest)):
            v = view(p)
            if v is None:
                continue
            if hand_no is None:
                hand_no = v["hand_no"]
            if v["phase"] == "over" or v["hand_no"] > hand_no:
                continue
            if seat in v["to_act"] and v["legal"] and p.locator(ACTIONABLE).count():
                click_action(p, choose(v["legal"], ("stay", "pass")))
                moves[seat] += 1
                progressed = True
        hv, gv = view(host), view(guest)
        assert hv is not None and gv is not None
        if hv["phase"] == "over" or hv["hand_no"] > (hand_no or 0):
            break
        if not progressed:
            time.sleep(0.05)
    hv, gv = view(host), view(guest)
    assert hv is not None and gv is not None
    assert hv["phase"] == "over" or hv["hand_no"] > (hand_no or 0), "the first hand did not finish"
    assert moves[0] > 0 and moves[1] > 0
    assert hv["seat"] == 0 and gv["seat"] == 1 and hv["players"][1] == "Bas"
    # each sees only its own hand: no shared card between the two hands
    assert not set(hv["hand"]) & set(gv["hand"])
    host_ctx.close()
    guest_ctx.close()


def test_reload_mid_hand_restores_the_game(page: Page, server: Server) -> None:
    create_table(page, server.url, "Ann", {1: "random", 2: "random", 3: "random"})
    start_game(page)
    # play on until it is our turn in the middle of a hand (a card already on the table)
    for _ in range(60):
        assert my_turn_or_over(page) == "turn"
        v = view(page)
        assert v is not None
        if v["phase"] == "play" and v["played"] and len(v["hand"]) >= 2:
            break
        click_action(page, choose(v["legal"], ("stay", "pass")))
    before = view(page)
    assert before is not None
    log_before = page.locator("#log li").count()
    page.reload()
    wait_ready(page)
    page.wait_for_function("() => window.toepenState.view !== null")
    after = view(page)
    assert after is not None
    assert after["action_count"] == before["action_count"]
    assert after["hand"] == before["hand"] and after["legal"] == before["legal"]
    shown = page.locator(".hand .card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    assert shown == before["hand"]
    assert page.locator("#log li").count() == log_before  # the log survives the reload too
    # the page speaks Dutch on request, the same game and buttons in other words
    page.select_option("#lang", "nl")
    expect(page.locator(".invite .role")).to_have_text("Je zit op plaats 1")
    expect(page.locator(".prompt .prompt-text")).to_contain_text("Jouw beurt:")
    page.select_option("#lang", "en")
    # a keyboard shortcut plays: the digit of the first legal card in the hand
    index = next(i for i, c in enumerate(after["hand"]) if f"play {c}" in after["legal"])
    page.keyboard.press(str(index + 1))
    page.wait_for_function("(n) => window.toepenState.view.action_count > n",
                           arg=after["action_count"])
    assert after["hand"][index] not in (view(page) or {"hand": []})["hand"]


def test_server_restart_mid_hand_is_survived(browser: Browser, server: Server) -> None:
    """Kill the server (SIGKILL) in the middle of a hand and start it again on the same
    SQLite file and port: the open page reconnects by itself and plays on."""
    ctx: BrowserContext = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page = ctx.new_page()
        page.set_default_timeout(20000)
        create_table(page, server.url, "Ann", {1: "random", 2: "random", 3: "random"})
        start_game(page)
        for _ in range(3):
            assert my_turn_or_over(page) == "turn"
            v = view(page)
            assert v is not None
            click_action(page, choose(v["legal"], ("stay", "pass")))
        assert my_turn_or_over(page) == "turn"
        before = view(page)
        assert before is not None
        server.kill()
        expect(page.locator("#conn")).to_have_attribute("data-state", "reconnecting")
        expect(page.locator("#conn")).to_have_text("Connection lost: reconnecting…")
        time.sleep(1.0)  # a few reconnect attempts fail while the server is down
        server.start()
        expect(page.locator("#conn")).to_have_attribute("data-state", "open", timeout=20000)
        page.wait_for_selector(ACTIONABLE)
        after = view(page)
        assert after is not None
        assert after["action_count"] == before["action_count"] and after["hand"] == before["hand"]
        click_action(page, choose(after["legal"], ("stay", "pass")))
    finally:
        ctx.close()


def test_a_bad_invite_or_table_link_says_so_with_the_way_back(page: Page, server: Server) -> None:
    """A mistyped or expired invite link and an unknown table id: a translated page (no
    raw JSON) with a link back to the lobby that works."""
    page.goto(server.url + "/join/QQ")
    wait_ready(page)
    assert "?join=QQ" in page.url
    expect(page.locator("h1")).to_have_text("No such table")
    expect(page.locator(".notfound p")).to_contain_text("No table has the code QQ")
    assert "detail" not in page.content()
    page.select_option("#lang", "nl")
    expect(page.locator("h1")).to_have_text("Deze tafel bestaat niet")
    expect(page.locator(".notfound p")).to_contain_text("Geen tafel heeft de code QQ")
    expect(page.locator("#back")).to_have_text("Terug naar de lobby")
    page.click("#back")
    page.wait_for_selector("#h-create")
    expect(page.locator("#h-create")).to_have_text("Nieuwe tafel")
    page.select_option("#lang", "en")
    page.goto(server.url + "/?table=0123456789ab")
    wait_ready(page)
    expect(page.locator(".notfound h1")).to_have_text("No such table")
    expect(page.locator(".notfound p")).to_contain_text("does not exist")
    page.click("#back")
    page.wait_for_selector("#h-create")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_bot_seat_on_the_felt_says_its_level(page: Page, server: Server) -> None:
    """A bot chosen by level is called by its level on the felt while the game is played
    (issue 25, point 4: the felt said "bot: heuristic"); a bot of no level by its name."""
    create_table(page, server.url, "Ann", {1: "beginner", 2: "good", 3: "random"})
    start_game(page)
    expect(page.locator(".seat[data-seat='1'] .badge.bot")).to_have_text("bot: Beginner")
    expect(page.locator(".seat[data-seat='2'] .badge.bot")).to_have_text("bot: Good")
    expect(page.locator(".seat[data-seat='3'] .badge.bot")).to_have_text("bot: random")
    assert "heuristic" not in page.locator(".felt").inner_text()
    assert page.errors == []  # type: ignore[attr-defined]


def test_bots_of_one_kind_have_their_own_names(page: Page, server: Server) -> None:
    """Three random bots: three distinct human-sounding names on the felt, each with its
    kind beside it, and the same names in the game's players."""
    create_table(page, server.url, "Ann", {1: "random", 2: "random", 3: "random"})
    waiting = page.locator(".waiting").inner_text()  # the waiting room names them too
    start_game(page)
    v = view(page)
    assert v is not None
    players = v["players"]
    assert players[0] == "Ann" and len(set(players)) == 4 and "random bot" not in players
    for s in (1, 2, 3):
        seat = page.locator(f".seat[data-seat='{s}']")
        expect(seat.locator(".seat-name")).to_contain_text(players[s])
        expect(seat.locator(".badge.bot")).to_have_text("bot: random")
        assert players[s] in waiting
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_double_click_makes_one_table_and_full_tables_offer_no_join(
        page: Page, server: Server) -> None:
    """"Create table" clicked twice makes one table; a full table in the open list can be
    watched but offers no "Join"."""
    def tables_of(name: str) -> list[dict[str, Any]]:
        with urllib.request.urlopen(server.url + "/api/tables", timeout=10) as r:
            return [t for t in json.load(r)["tables"] if t["seats"][0]["name"] == name]

    page.goto(server.url + "/")
    wait_ready(page)
    page.fill("#name", "Dubbel")
    page.select_option("#size", "2")
    page.select_option("select[data-seat='1']", "")
    page.dblclick("#create")
    page.wait_for_url(re.compile(r"\?table=[0-9a-f]{12}$"))
    page.wait_for_selector(".waiting")
    time.sleep(0.5)  # a second request, had one gone out, would have landed by now
    mine = tables_of("Dubbel")
    assert len(mine) == 1, mine
    code = mine[0]["code"]
    # (another browser: this one holds a seat there, and its lobby says "Back to my seat")
    other = page.context.browser.new_context(locale="en-GB").new_page()  # type: ignore[union-attr]
    other.goto(server.url + "/")
    wait_ready(other)
    row = other.locator("#tables li", has_text=code)
    expect(row.locator("a.join")).to_have_count(1)
    body = json.dumps({"code": code, "name": "Bas"}).encode()
    req = urllib.request.Request(server.url + "/api/join", body,
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        assert r.status == 200
    other.click("#refresh")
    expect(row.locator(".free")).to_have_text("full")
    expect(row.locator("a.join")).to_have_count(0)
    expect(row.locator("a.watch")).to_have_count(1)
    other.context.close()


def test_an_emoji_name_is_kept_whole(page: Page, server: Server) -> None:
    """A pub name with emoji, 24 characters as people see them (more than 24 UTF-16
    units): the form keeps it whole and the table is made with it."""
    name = "🍺" * 20 + " Jan"
    create_table(page, server.url, name, {1: "random", 2: "random", 3: "random"})
    seats = page.evaluate("() => window.toepenState.table.seats")
    assert seats[0]["name"] == name
    expect(page.locator(".waiting")).to_contain_text(name)
    assert page.errors == []  # type: ignore[attr-defined]
