"""What a player met on a phone (issue 38), in Chromium at phone sizes: Play now as a guest
asks for the name beside its button; the prompt and its hint or guide, cut to their lines,
open on a tap; the chat out of sight is reached from the header, which counts what came;
a friend is invited from the table and the invitation shows at the top of the lobby; the
way back to your own table says so; a tournament's places start empty; the hand's
Continue is a finger's size."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import Server
from .helpers import wait_ready
from .layout import ctx_options, set_lang, settle
from .table_states import READY, drive

PHONE = {"viewport": {"width": 360, "height": 640}, "locale": "en-GB", "reduced_motion": "reduce"}
PASSWORD = "kaarten op tafel"
IN_WINDOW = """el => { const b = el.getBoundingClientRect();
  return b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight && b.right <= innerWidth; }"""


def new_page(ctx: BrowserContext, url: str) -> Page:
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.goto(url)
    wait_ready(page)
    return page


def keep_seat(page: Page, table_id: str, joined: dict[str, object]) -> None:
    page.evaluate("""([id, j]) => {
        const all = JSON.parse(localStorage.getItem("toepen.seats") || "{}");
        all[id] = {token: j.token, seat: j.seat, host: !!j.host};
        localStorage.setItem("toepen.seats", JSON.stringify(all)); }""", [table_id, joined])


def test_play_now_as_a_guest_asks_for_the_name_beside_its_button(browser: Browser,
                                                                 server: Server) -> None:
    ctx = browser.new_context(**PHONE)
    page = new_page(ctx, server.url + "/")
    page.select_option("#pn-wait", "")
    page.click("#pn-go")
    # said beside the button, the name field there and focused, both on the screen
    status = page.locator("#pn-status")
    expect(status).to_have_text("Enter your name first (or log in).")
    name = page.locator("#pn-name")
    expect(name).to_be_focused()
    assert name.evaluate(IN_WINDOW) and status.evaluate(IN_WINDOW)
    assert page.locator("#toast").is_hidden()
    # one name for Play now and New table
    name.fill("Ann")
    expect(page.locator("#name")).to_have_value("Ann")
    page.click("#pn-go")
    expect(page.locator("#pn-leave")).to_be_visible()
    page.click("#pn-leave")
    expect(status).to_have_text("You left the queue.")
    ctx.close()


def test_a_cut_prompt_opens_on_a_tap(browser: Browser, server: Server) -> None:
    made = server.post("/api/tables", {
        "preset": "rulebook", "size": 4, "name": "Ann", "idle_seconds": 300,
        "bots": {"1": "random", "2": "random", "3": "random"}, "options": {"lives": 3}})
    table_id = made["table"]["id"]
    ctx = browser.new_context(**{**PHONE, "viewport": {"width": 320, "height": 568}})
    page = new_page(ctx, server.url + "/?rules")
    keep_seat(page, table_id, made)
    server.post(f"/api/tables/{table_id}/start", {}, token=made["token"])
    page.goto(f"{server.url}/?table={table_id}")
    wait_ready(page)
    set_lang(page, "de")
    page.wait_for_function(READY)
    settle(page)
    prompt = page.locator(".prompt")
    cut = """p => [...p.children].some((el) => el.scrollHeight > el.clientHeight + 1
        || el.scrollWidth > el.clientWidth + 1)"""
    assert prompt.evaluate(cut), "the guide fits: nothing to open"
    expect(prompt).to_have_attribute("aria-expanded", "false")
    prompt.click()
    expect(page.locator(".prompt")).to_have_attribute("aria-expanded", "true")
    settle(page)
    assert not page.locator(".prompt").evaluate(cut), page.locator(".prompt").evaluate(
        "p => [...p.children].map((el) => [el.textContent, el.scrollHeight, el.clientHeight])")
    page.locator(".prompt").click()
    expect(page.locator(".prompt")).to_have_attribute("aria-expanded", "false")
    ctx.close()


def test_the_chat_out_of_sight_is_counted_and_reached_from_the_header(
        browser: Browser, server: Server) -> None:
    made = server.post("/api/tables", {"preset": "rulebook", "size": 4, "name": "Ann",
                                       "bots": {"2": "random", "3": "random"}})
    table_id = made["table"]["id"]
    bob = server.post(f"/api/tables/{table_id}/join", {"name": "Bob", "seat": 1})
    ann_ctx, bob_ctx = browser.new_context(**PHONE), browser.new_context(**PHONE)
    pages = []
    for ctx, joined in ((ann_ctx, made), (bob_ctx, bob)):
        page = new_page(ctx, server.url + "/?rules")
        keep_seat(page, table_id, joined)
        page.goto(f"{server.url}/?table={table_id}")
        wait_ready(page)
        page.wait_for_selector(".waiting")
        pages.append(page)
    ann, other = pages
    jump = ann.locator("#to-chat")
    expect(jump).to_be_visible()
    assert jump.evaluate(IN_WINDOW)
    expect(ann.locator("#chat-new")).to_be_hidden()
    other.evaluate("() => window.toepenConn.send({type: 'chat', text: 'Proost!'})")
    other.evaluate("() => window.toepenConn.send({type: 'react', react: 'cheers'})")
    expect(ann.locator("#chat-new")).to_have_text("2")
    expect(jump).to_have_attribute("aria-label", "2 new in the chat")
    # Bob's own lines are no news to him
    expect(other.locator("#chat-new")).to_be_hidden()
    jump.click()
    ann.wait_for_function("() => { const b = document.querySelector('#chat-box')"
                          ".getBoundingClientRect(); return b.top >= 0 && b.top < innerHeight; }")
    expect(ann.locator("#chat-new")).to_be_hidden()
    expect(ann.locator("#chat li").first).to_contain_text("Cheers")
    ann.click("#to-table")
    ann.wait_for_function("() => scrollY === 0")
    ann_ctx.close()
    bob_ctx.close()


def register(ctx: BrowserContext, server: Server, name: str) -> Page:
    page = new_page(ctx, server.url + "/?page=register")
    page.fill("#acct-name", name)
    page.fill("#acct-password", PASSWORD)
    page.click("#acct-submit")
    page.wait_for_url(server.url + "/")
    wait_ready(page)
    return page


def test_a_friend_is_invited_from_the_table_and_sees_it_at_the_top(browser: Browser,
                                                                   server: Server) -> None:
    ann_ctx, bob_ctx = browser.new_context(**PHONE), browser.new_context(**PHONE)
    bob = register(bob_ctx, server, "Bobbie")
    ann = register(ann_ctx, server, "Annemarie")
    ann.fill("#here-follow-name", "Bobbie")
    ann.locator("#here-follow button[type=submit]").click()
    expect(ann.locator('#here-friends li[data-name="Bobbie"]')).to_be_visible()
    ann.select_option("#size", "2")
    ann.select_option("select[data-seat='1']", "")
    ann.click("#create")
    ann.wait_for_selector(".waiting")
    # at the table itself: the players Ann follows, each with "Invite to my table"
    invite = ann.locator('.friends-invite li[data-name="Bobbie"] .here-invite')
    expect(invite).to_be_visible()
    invite.click()
    expect(ann.locator("#toast")).to_have_text("Invitation sent.")
    # Bob's lobby: the invitation at the top of the page, on the first screen
    bob.reload()
    wait_ready(bob)
    line = bob.locator(".invite-bar .invite-line")
    expect(line).to_contain_text("Annemarie invites you to a table")
    assert line.evaluate(IN_WINDOW)
    assert line.evaluate("el => el.getBoundingClientRect().top") < bob.locator(
        ".playnow").evaluate("el => el.getBoundingClientRect().top")
    line.locator(".inv-accept").click()
    bob.wait_for_selector(".waiting")
    expect(bob.locator(".waiting .seatlist")).to_contain_text("Bobbie")
    ann_ctx.close()
    bob_ctx.close()


def test_the_way_back_to_your_own_table_says_so(browser: Browser, server: Server) -> None:
    mine = server.post("/api/tables", {"preset": "rulebook", "size": 4, "name": "Ann"})
    other = server.post("/api/tables", {"preset": "rulebook", "size": 4, "name": "Cor"})
    ctx = browser.new_context(**PHONE)
    page = new_page(ctx, server.url + "/?rules")
    keep_seat(page, mine["table"]["id"], mine)
    page.goto(server.url + "/")
    wait_ready(page)
    back = page.locator(f'#tables a[href="/?table={mine["table"]["id"]}"]')
    expect(back).to_have_text("Back to my seat")
    expect(page.locator(f'#tables a[href="/?table={other["table"]["id"]}"]')).to_have_text("Watch")
    ctx.close()


def test_a_tournaments_places_start_empty_and_must_be_chosen(browser: Browser,
                                                            server: Server) -> None:
    made = httpx.post(f"{server.url}/api/tournaments", json={"name": "Plaatsen"}, timeout=10)
    tid, key = made.json()["tournament"]["id"], made.json()["key"]
    auth = {"Authorization": f"Bearer {key}"}
    for name in ("Ann", "Bas", "Cor", "Dirk"):
        httpx.post(f"{server.url}/api/tournaments/{tid}/players", json={"name": name},
                   headers=auth, timeout=10)
    httpx.post(f"{server.url}/api/tournaments/{tid}/rounds", json={"mode": "cards"},
               headers=auth, timeout=10)
    ctx = browser.new_context(**PHONE)
    keys = json.dumps({f"tournament:{tid}": key})
    ctx.add_init_script(f"localStorage.setItem('toepen.keys', {json.dumps(keys)})")
    page = new_page(ctx, f"{server.url}/?tournament={tid}")
    form = page.locator("#current form.enter").first
    places = form.locator("select[data-place]")
    assert places.evaluate_all("ss => ss.map(s => s.value)") == [""] * places.count()
    form.locator("button[type=submit]").click()
    page.wait_for_timeout(300)
    state = httpx.get(f"{server.url}/api/tournaments/{tid}", timeout=10).json()
    assert all(t["result"] is None for t in state["rounds"][0]["tables"]), "saved unchosen"
    order = page.locator("#current .ttable").first.locator(".seatlist li").evaluate_all(
        "lis => lis.map(li => li.dataset.player)")
    assert places.count() == len(order)
    for place, player in enumerate(reversed(order)):
        places.nth(place).select_option(player)
    form.locator("button[type=submit]").click()
    expect(page.locator("#draw-btn")).to_be_visible()  # the round is done: the next to draw
    state = httpx.get(f"{server.url}/api/tournaments/{tid}", timeout=10).json()
    assert state["rounds"][0]["tables"][0]["result"] == list(reversed(order))
    ctx.close()


class Seen(Exception):
    """The phase looked at: the session is left there."""


def test_continue_after_a_hand_is_a_fingers_size_on_a_phone(browser: Browser,
                                                           server: Server) -> None:
    heights: dict[str, float] = {}

    def on_phase(phase: str, page: Page) -> None:
        if phase != "summary":
            return
        for w, h in ((360, 640), (390, 844)):
            page.set_viewport_size({"width": w, "height": h})
            settle(page)
            heights[f"{w}x{h}"] = page.locator("#summary-close").evaluate(
                "el => el.getBoundingClientRect().height")
        raise Seen

    before = set(browser.contexts)
    with pytest.raises(Seen):
        drive(browser, server, on_phase, ctx_options(), timeout=90)
    for ctx in set(browser.contexts) - before:
        ctx.close()
    assert heights and all(h >= 44 for h in heights.values()), heights


def test_the_score_sheets_counts_stand_in_one_column(page: Page, server: Server) -> None:
    """Lives lost 11, 3, 0 and 7 on the result's score sheet at 360 px: the counts are
    right-aligned in one column, each on the line of its strokes."""
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(server.url + "/?rules")
    wait_ready(page)
    got = page.evaluate("""async () => {
      const { scoreSheetHTML } = await import("/js/ui/scoresheet.js");
      const view = { players: ["Ann", "Bas", "Cor", "Dirk"], lives_lost: [11, 3, 0, 7],
        drinks: [0, 0, 0, 0], rubbers_won: [0, 0, 0, 0], winner: 2,
        places: [{ place: 1, seats: [2] }, { place: 2, seats: [1] }, { place: 3, seats: [3] },
                 { place: 4, seats: [0] }] };
      const box = document.createElement("div");
      box.className = "result";
      box.innerHTML = `<section class="panel result-panel">${scoreSheetHTML(view)}</section>`;
      document.body.append(box);
      return [...box.querySelectorAll("td.strokes")].map((td) => {
        const n = td.querySelector(".num").getBoundingClientRect();
        const s = td.querySelector("svg").getBoundingClientRect();
        return { right: Math.round(n.right), middle: (n.top + n.bottom) / 2,
                 top: s.top, bottom: s.bottom };
      }); }""")
    assert len({c["right"] for c in got}) == 1, got
    assert all(c["top"] <= c["middle"] <= c["bottom"] for c in got), got


def test_armoede_always_pass_answers_at_once_from_the_deal_it_was_switched_on(
        browser: Browser, server: Server) -> None:
    """Switched on before the deal, "Armoede: always pass" passes for Ann without asking
    her: her first question is not the armoede one, and her pass is in the hand's actions."""
    made = server.post("/api/tables", {
        "preset": "rulebook", "size": 4, "name": "Ann", "idle_seconds": 300,
        "bots": {"1": "heuristic", "2": "heuristic", "3": "heuristic"}, "options": {"lives": 10}})
    # (heuristic bots claim armoede rarely, so a deal seldom claims before Ann is asked; random
    # ones claimed half the time, and the lives went before a deal asked her first)
    table_id = made["table"]["id"]
    ctx = browser.new_context(**PHONE)
    page = new_page(ctx, server.url + "/?rules")
    keep_seat(page, table_id, made)
    page.goto(f"{server.url}/?table={table_id}")
    wait_ready(page)
    page.click("#autopass")
    expect(page.locator("#autopass")).to_have_attribute("aria-pressed", "true")
    server.post(f"/api/tables/{table_id}/start", {}, token=made["token"])
    # (a deal where another claims first asks Ann no armoede question: play on to the next)
    passed = False
    end = time.monotonic() + 60
    while not passed and time.monotonic() < end:
        # Ann to act, or a hand's summary to close first (its end may come between two waits)
        page.wait_for_function(f"() => ({READY})() || !!document.querySelector('#summary-close')"
                               " || window.toepenState?.view?.phase === 'over'", timeout=40000)
        assert page.evaluate("() => window.toepenState.view.phase") != "over", \
            "the game ended before a deal asked Ann the armoede question first"
        if page.locator("#summary-close").is_visible():
            # (the dialog may still be moving in: a click by script does not wait for it)
            page.evaluate("() => document.querySelector('#summary-close').click()")
            page.wait_for_function("() => !document.querySelector('#summary-close')"
                                   " || !document.querySelector('#summary-close').offsetParent")
            continue
        view = page.evaluate("() => window.toepenState.view")
        assert view["phase"] != "claim", view["legal"]
        # her pass in the deal's claim round (its first actions: claims and passes)
        claims = []
        for a in view["hand_actions"]:
            if a.split()[1] not in ("pass", "claim"):
                break
            claims.append(a)
        passed = "0 pass" in claims
        legal = [a for a in view["legal"] if a != "pass"] or view["legal"]
        prefer = [a for a in ("stay", "accept", "exchange") if a in legal]
        action = (prefer or legal)[0]
        page.click(f"[data-action='{action}']:not([disabled])")
        page.wait_for_function("n => window.toepenState.view.action_count > n",
                               arg=view["action_count"])
    assert passed, "no armoede pass of Ann's in a minute"
    ctx.close()
