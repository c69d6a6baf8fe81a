"""The table as people follow it: a taken trick stays on the felt with its winner, the hand's
summary between hands, the final standings, the turn clock, a layout that fits 1280x800
and 1366x768 without moving, the hint in words with a reason, sound with a remembered
switch, chat and reactions between two browsers (escaped), the rematch, the rules page,
and no text overflow in any language at three sizes."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import Server, screenshot
from .helpers import view, wait_ready

RANDOM = {"1": "random", "2": "random", "3": "random"}
LANGS = ("en", "nl", "de", "it", "nb")


def seated(page: Page, server: Server, name: str = "Ann", lives: int = 2, idle: float = 60.0,
           bots: dict[str, str] | None = None, size: int = 4, pause: int = 0) -> dict[str, Any]:
    """A table made through the API with ``name`` at seat 0; the page sits there."""
    made: dict[str, Any] = server.post("/api/tables", {
        "preset": "rulebook", "size": size, "bots": RANDOM if bots is None else bots,
        "name": name, "idle_seconds": idle, "options": {"lives": lives}})
    sit(page, server, made["table"]["id"], made, pause)
    return made


def sit(page: Page, server: Server, table_id: str, joined: dict[str, Any], pause: int) -> None:
    page.goto(server.url + "/?rules")
    page.evaluate("""([id, j, pause]) => {
        const all = JSON.parse(localStorage.getItem("toepen.seats") || "{}");
        all[id] = {token: j.token, seat: j.seat, host: !!j.host};
        localStorage.setItem("toepen.seats", JSON.stringify(all));
        localStorage.setItem("toepen.pause", String(pause));
    }""", [table_id, joined, pause])
    page.goto(f"{server.url}/?table={table_id}")
    wait_ready(page)


def my_turn(page: Page, timeout: float = 30000, summary: bool = False) -> bool:
    """Wait until the page offers an action (True) or the game is over (False) (or, with
    ``summary``, a hand's summary is on the felt: True)."""
    if summary:
        page.wait_for_function("""() => { const s = window.toepenState; return s && s.view &&
            (document.querySelector(".summary") || s.view.phase === "over" ||
             (s.view.to_act.includes(s.seat) && !s.pending && !s.queue.length)); }""",
                               timeout=timeout)
        if page.locator(".summary").count():
            return True
    page.wait_for_function("""() => { const s = window.toepenState; return s && s.view &&
        (s.view.phase === "over" || (s.view.to_act.includes(s.seat) && !s.pending &&
         !s.queue.length && document.querySelector(".actions button.act:not([disabled]),"
         + " .hand .card.playable:not([disabled])"))); }""", timeout=timeout)
    v = view(page)
    return v is not None and v["phase"] != "over"


def act(page: Page) -> None:
    """Click the first playable card (else the first verb that is not a knock)."""
    v = view(page)
    assert v is not None
    plays = [a for a in v["legal"] if a.startswith("play ")]
    verbs = [a for a in v["legal"] if a not in ("knock",) and not a.startswith("play ")]
    action = plays[0] if plays else (verbs or v["legal"])[0]
    page.click(f"[data-action='{action}']:not([disabled])")
    page.wait_for_function("n => window.toepenState.view.action_count > n ||"
                           " window.toepenState.queue.length", arg=v["action_count"])


LAYOUT = """() => {
  const r = (el) => {
    const b = el.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
  };
  const meets = (a, b) => a[0] < b[2] - 1 && b[0] < a[2] - 1 && a[1] < b[3] - 1 && b[1] < a[3] - 1;
  const seats = [...document.querySelectorAll(".felt .seat")].map(r);
  // (where the cards rest: a card still flying in from its seat is not counted)
  const trick = [...document.querySelectorAll(".felt .trick-card")]
    .filter((el) => !el.getAnimations().length).map(r);
  const cards = [...document.querySelectorAll(".hand .card")].map(r);
  return {
    scroll: document.scrollingElement.scrollHeight - innerHeight,
    wide: document.scrollingElement.scrollWidth - innerWidth,
    felt: r(document.querySelector(".felt")), hand: r(document.querySelector(".hand")),
    cut: cards.filter((c) => c[3] > innerHeight || c[1] < 0).length,
    overlap: trick.filter((t) => seats.some((s) => meets(s, t))).length,
    outside: seats.filter((s) => s[0] < 0 || s[2] > innerWidth).length,
  };
}"""


def test_a_hand_followed_from_the_first_card_to_the_standings(browser: Browser,
                                                             server: Server) -> None:
    """At 1280x800 and 1366x768: the trick just taken stays with its winner marked, the
    summary of the hand appears between hands (the server's words), the standings end the
    game; the clock runs on the player's turn; nothing is cut off and nothing moves."""
    for width, height in ((1280, 800), (1366, 768)):
        ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
        page = ctx.new_page()
        page.set_default_timeout(30000)
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))  # type: ignore[misc]
        boxes: set[tuple[float, ...]] = set()
        took = summary = False
        tables = 0
        while not (took and summary) and tables < 4:
            tables += 1
            play_one(page, server, width, boxes, (took, summary))
            took, summary = page.evaluate("() => [window.tookSeen, window.summarySeen]")
        assert took and summary and len(boxes) == 1, boxes  # the felt and hand never moved
        result = page.locator(".result-panel")
        expect(result).to_be_visible()
        rows = result.locator(".standings li")
        expect(rows).to_have_count(4)
        v = view(page)
        assert v is not None
        expect(rows.first).to_contain_text(f"1. {v['players'][v['winner']]}")
        expect(result.locator(".standings h2")).to_have_text("Final standings")
        assert errors == []
        ctx.close()


def play_one(page: Page, server: Server, width: int, boxes: set[tuple[float, ...]],
             seen: tuple[bool, bool]) -> None:
    """One game at lives 2, checking what the first taken trick and summary show."""
    seated(page, server, lives=2, pause=1)
    page.click("#start")
    took, summary = seen
    while my_turn(page, summary=not summary):
        if not summary and page.locator(".summary").count():
            summary = True
            box = page.locator(".summary")
            expect(box.locator("h2")).to_have_text(re.compile(r"^Hand \d+ is over\.$"))
            ids = box.locator("p").evaluate_all("ps => ps.map(p => p.dataset.id)")
            assert any(i.startswith(("log.hand_result", "log.you.hand_result")) for i in ids)
            assert any(i.endswith(("paid", "nobody_paid")) for i in ids), ids
            if width == 1280:
                screenshot(page, "summary")
            page.click("#summary-close")
            continue
        got = page.evaluate(LAYOUT)
        assert got["scroll"] <= 0 and got["wide"] <= 0, got
        assert got["cut"] == 0 and got["overlap"] == 0 and got["outside"] == 0, got
        boxes.add(tuple(got["felt"] + got["hand"]))
        expect(page.locator(".seat.me [data-clock]")).to_have_text(re.compile(r"^⏱ \d+ s$"))
        act(page)
        if not took:
            page.wait_for_function("""() => { const s = window.toepenState;
                return document.querySelector('.trick-card.taken') || s.view.phase === 'over'
                  || (s.view.to_act.includes(s.seat) && !s.pending && !s.queue.length); }""")
            if page.locator(".trick-card.winning").count():
                took = True
                winner = page.evaluate("() => window.toepenState.lastTrick.winner")
                expect(page.locator(".trick-card.winning")).to_have_attribute(
                    "data-seat", str(winner))
                name = view(page)["players"][winner]  # type: ignore[index]
                expect(page.locator(".trick-taken")).to_contain_text(name)
                expect(page.locator(f".seat[data-seat='{winner}'] .badge.took")).to_be_visible()
                if width == 1280:
                    screenshot(page, "trick")
    page.evaluate("([t, s]) => { window.tookSeen = t; window.summarySeen = s; }",
                  [took, summary])


def test_hint_in_words_with_a_reason_dutch_turn_and_sound(browser: Browser,
                                                         server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="nl-NL")
    page = ctx.new_page()
    page.set_default_timeout(30000)
    seated(page, server)
    page.click("#start")
    assert my_turn(page)
    expect(page.locator(".prompt-text")).to_have_text(re.compile(r"^Jouw beurt: "))
    page.wait_for_function("() => window.toepenSounds.includes('turn')")
    page.keyboard.press("h")
    sub = page.locator(".prompt .subline")
    expect(sub).to_have_text(re.compile(r"^Tip: \S.+\. \S.+"))
    text = sub.inner_text()
    assert not re.search(r"\b[T987AKQJ][cdhs]\b", text), text  # no raw notation
    expect(page.locator("#toast")).to_be_hidden()  # nothing covers the cards
    hinted = page.locator(".hinted")
    expect(hinted).to_have_count(1)
    # sound off is remembered over a reload
    page.click("#sound")
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
    page.reload()
    wait_ready(page)
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")
    assert my_turn(page)
    act(page)
    my_turn(page)
    assert page.evaluate("() => window.toepenSounds.length") == 0
    ctx.close()


def test_chat_reactions_and_rematch_between_two_browsers(browser: Browser,
                                                        server: Server) -> None:
    """Two people: a chat line arrives escaped, a reaction in the reader's language; the
    game ends (bots stand in for both); Play again is Ann's offer, which Bob accepts, and
    both go to a new game with the same seats."""
    made = server.post("/api/tables", {"preset": "rulebook", "size": 4,
                                       "bots": {"2": "random", "3": "random"}, "name": "Ann",
                                       "idle_seconds": 0.2, "options": {"lives": 1}})
    tid = made["table"]["id"]
    bob_seat = server.post(f"/api/tables/{tid}/join", {"name": "Bob"})
    a_ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    b_ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="nl-NL",
                                is_mobile=True, has_touch=True)
    ann, bob = a_ctx.new_page(), b_ctx.new_page()
    for p in (ann, bob):
        p.set_default_timeout(30000)
    sit(ann, server, tid, made, 0)
    sit(bob, server, tid, bob_seat, 0)
    evil = "<img src=x onerror=window.pwned=1> proost 🍺"
    ann.fill("#chat-text", evil)
    ann.click("#chat-send")
    line = bob.locator("#chat li").first
    expect(line).to_have_text(f"Ann: {evil}")
    assert bob.locator("#chat img").count() == 0 and not bob.evaluate("() => window.pwned")
    bob.click("[data-react='cheers']")
    expect(ann.locator("#chat li").first).to_have_text("Bob: Cheers! 🍺")
    expect(bob.locator("#chat li").first).to_have_text("Bob: Proost! 🍺")
    ann.click("#start")
    expect(ann.locator(".result-panel")).to_be_visible(timeout=60000)
    expect(bob.locator(".result-panel")).to_be_visible()
    screenshot(ann, "result")
    old_players = view(ann)["players"]  # type: ignore[index]
    ann.click("#rematch")
    # an offer: Bob is asked (in Dutch), Ann waits for him; no new game before he agrees
    expect(bob.locator(".rematch-offer")).to_have_text("Ann wil nog een keer spelen.")
    expect(ann.locator(".rematch-offer")).to_have_text("Still to answer: Bob.")
    expect(ann.locator("#rematch")).to_be_disabled()
    assert ann.url.endswith(tid)
    bob.click("#rematch")
    for p, seat in ((ann, 0), (bob, 1)):
        p.wait_for_url(re.compile(r"\?table=(?!" + tid + r")[0-9a-f]{12}$"))
        wait_ready(p)
        p.wait_for_function("() => window.toepenState.view")
        v = view(p)
        assert v is not None and v["seat"] == seat and v["players"] == old_players
    a_ctx.close()
    b_ctx.close()


def test_rules_page_and_no_overflow_in_any_language(browser: Browser, server: Server) -> None:
    """The rules page lists every preset and option from the server, in each language;
    the table at 1280x800, 1366x768 and 390x844 has no text running out of its box."""
    meta = server.get("/api/presets")
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(30000)
    page.goto(server.url + "/?rules")
    wait_ready(page)
    expect(page.locator(".rules-page table.options tr")).to_have_count(len(meta["options"]))
    expect(page.locator(".preset-tabs button")).to_have_count(len(meta["presets"]))
    page.locator(".preset-tabs button").nth(1).click()
    expect(page.locator(".rules-page h2").first).not_to_have_text("")
    assert page.locator(".guide dt").count() >= 5
    screenshot(page, "rules")
    page.select_option("#lang", "nl")
    expect(page.locator(".rules-page h1")).to_have_text("De spelregels van toepen")
    seated(page, server)
    page.click("#start")
    assert my_turn(page)
    overflow = """() => [...document.querySelectorAll(`button, .badge, .seat, .settings,
        .summary, .invite, h1, h2, .chat-box, .stake, .handno, .led-suit`)]
      .filter((el) => el.offsetParent && el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.className + ": " + el.textContent.slice(0, 40))"""
    for lang in LANGS:
        page.select_option("#lang", lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        for width, height in ((1280, 800), (1366, 768), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(50)
            assert page.evaluate(overflow) == [], (lang, width)
            got = page.evaluate(LAYOUT)
            assert got["wide"] <= 0, (lang, width, got)
            if width > 900:
                assert got["scroll"] <= 0 and got["cut"] == 0, (lang, width, got)
    page.set_viewport_size({"width": 390, "height": 844})
    page.select_option("#lang", "en")
    screenshot(page, "phone")
    ctx.close()
