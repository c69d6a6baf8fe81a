"""What the table shows beside the cards: the suit led, a prompt that offers only legal
verbs, the rubber and its score, the strongest bot by default, the log so far."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

from playwright.sync_api import Browser, Page, expect

from toepen.bots.base import level_names

from .conftest import Server
from .helpers import (
    choose,
    click_action,
    create_table,
    my_turn_or_over,
    start_game,
    view,
    wait_ready,
)

BOTS = {1: "random", 2: "random", 3: "random"}


def presets(server: Server) -> dict[str, Any]:
    with urllib.request.urlopen(server.url + "/api/presets") as r:
        doc: dict[str, Any] = json.load(r)
    return doc


def test_seats_default_to_the_strongest_bot(page: Page, server: Server) -> None:
    """The lobby's seat menus offer levels with their line, not bot kinds, choose the level
    of the server's default_bot and say it is the strongest; there is no unexplained "bot:
    default"."""
    meta = presets(server)
    strongest = next(lv["name"] for lv in meta["levels"] if lv["bot"] == meta["default_bot"])
    page.goto(server.url + "/")
    wait_ready(page)
    page.select_option("#lang", "nl")
    page.reload()  # the menus are written in the page's language
    wait_ready(page)
    page.select_option("#size", "4")
    for seat in (1, 2, 3):
        menu = page.locator(f"select[data-seat='{seat}']")
        assert menu.input_value() == strongest
        values = menu.locator("option").evaluate_all("os => os.map(o => o.value)")
        assert values[1:6] == level_names() and "random" in values
        assert "default" not in values and not {"heuristic", "pimc"} & set(values)
        texts = menu.locator("option").all_inner_texts()
        assert texts[3] == "Goed – Degelijk kroegspel: houdt de juiste kaarten, toept met een " \
            "sterke hand en bluft af en toe."
        assert texts[1].startswith("Beginner – Leert het spel nog")
        expect(menu.locator("option:checked")).to_contain_text("Expert – De sterkste")
    page.select_option("#lang", "en")
    page.reload()
    wait_ready(page)
    # the host's menu for an open seat in the waiting room, too
    create_table(page, server.url, "Ann", {1: "random", 2: "good"})
    expect(page.locator("body")).to_contain_text("bot: Good")
    expect(page.locator("select[data-botsel='3']")).to_have_value(strongest)
    assert page.errors == []  # type: ignore[attr-defined]


def test_prompt_offers_a_knock_only_when_it_is_legal(page: Page, server: Server) -> None:
    """At every play decision the prompt names the knock exactly when it is legal; the
    suit led is on the felt whenever it binds; no rubber in an elimination game."""
    with_knock = without_knock = led_seen = 0
    for _game in range(3):
        create_table(page, server.url, "Ann", BOTS)
        start_game(page)
        expect(page.locator(".rubberno")).to_have_count(0)
        while my_turn_or_over(page) == "turn" and not (with_knock and without_knock and led_seen):
            v = view(page)
            assert v is not None
            prompt = page.locator(".prompt .prompt-text").inner_text()
            if v["phase"] == "play":
                if "knock" in v["legal"]:
                    assert prompt == "Your turn: Play a card or knock.", prompt
                    with_knock += 1
                else:
                    assert prompt == "Your turn: Play a card.", prompt
                    without_knock += 1
            led = page.locator(".led-suit")
            if v["led_suit"]:
                suit = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}[v["led_suit"]]
                expect(led).to_have_attribute("data-suit", v["led_suit"])
                expect(led).to_contain_text(f"Suit led: {suit}")
                led_seen += 1
            else:
                expect(led).to_have_count(0)
            # knock whenever allowed: the next play turn of the hand then has no knock
            action = "knock" if "knock" in v["legal"] else choose(v["legal"], ("stay", "pass"))
            click_action(page, action)
        if with_knock and without_knock and led_seen:
            break
    assert with_knock and without_knock and led_seen
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_suit_led_stays_when_the_leader_folds(page: Page, server: Server) -> None:
    """A leader who folds takes the led card off the table while its suit still binds:
    the felt still says the suit led (the state the server sends then, fed to the page)."""
    create_table(page, server.url, "Ann", BOTS)
    start_game(page)
    while True:  # Ann to play: nothing else comes from the server until she does
        assert my_turn_or_over(page) == "turn"
        v = view(page)
        assert v is not None
        if v["phase"] == "play":
            break
        click_action(page, choose(v["legal"], ("stay", "pass")))
    folded = {**v, "trick": [], "led_suit": "h", "played": []}
    page.evaluate("v => window.toepenConn.h.onMessage({type: 'state', view: v, events: [], "
                  "last: null, state: v.action_count})", folded)
    expect(page.locator(".trick .trick-card")).to_have_count(0)
    expect(page.locator(".led-suit")).to_contain_text("Suit led: hearts")
    page.select_option("#lang", "nl")
    expect(page.locator(".led-suit")).to_contain_text("Gevraagde kleur: harten")
    assert page.errors == []  # type: ignore[attr-defined]


def test_rubber_and_score_on_the_table(page: Page, server: Server) -> None:
    """In a preset that plays rubbers the felt shows the rubber number and, at each seat,
    rubbers won and rounds owed."""
    page.goto(server.url + "/")
    wait_ready(page)
    page.fill("#name", "Ann")
    page.select_option("#preset", "classic")
    page.select_option("#size", "3")
    for seat in (1, 2):
        page.select_option(f"select[data-seat='{seat}']", "random")
    page.click("#create")
    page.wait_for_url(re.compile(r"\?table=[0-9a-f]{12}$"))
    page.wait_for_selector(".waiting")
    start_game(page)
    v = view(page)
    assert v is not None
    expect(page.locator(".centre .rubberno")).to_have_text(f"Rubber {v['rubber_no']}")
    for s in range(3):
        seat = page.locator(f".seat[data-seat='{s}']")
        expect(seat.locator(".badge.rubbers")).to_have_text(f"{v['rubbers_won'][s]} rubbers won")
        expect(seat.locator(".badge.drinks")).to_have_text(f"{v['drinks'][s]} rounds")
    page.select_option("#lang", "de")
    expect(page.locator(".centre .rubberno")).to_have_text(f"Robber {v['rubber_no']}")
    assert page.errors == []  # type: ignore[attr-defined]


def log_lines(page: Page) -> list[str]:
    lines: list[str] = page.locator("#log li").evaluate_all("ls => ls.map(l => l.textContent)")
    return lines


def test_late_watchers_and_reopened_tabs_get_the_log(browser: Browser, page: Page,
                                                     server: Server) -> None:
    """A spectator who comes mid-game and a tab opened again get the log so far: the new
    tab the same lines as the tab that was there; the spectator no hidden hand."""
    table_id = create_table(page, server.url, "Ann", BOTS)
    start_game(page)
    for _ in range(4):
        if my_turn_or_over(page) == "over":
            break
        v = view(page)
        assert v is not None
        click_action(page, choose(v["legal"], ("stay", "pass")))
    my_turn_or_over(page)
    v = view(page)
    assert v is not None
    lines = log_lines(page)
    assert len(lines) > 5
    again = page.context.new_page()  # same seat (its token), a fresh tab: no kept log
    again.goto(f"{server.url}/?table={table_id}")
    wait_ready(again)
    again.wait_for_function("n => window.toepenState.view && "
                            "window.toepenState.view.action_count === n", arg=v["action_count"])
    assert log_lines(again) == lines
    ctx = browser.new_context()
    spec = ctx.new_page()
    spec.goto(f"{server.url}/?table={table_id}")
    wait_ready(spec)
    spec.wait_for_function("n => window.toepenState.view && "
                           "window.toepenState.view.action_count === n", arg=v["action_count"])
    watched = log_lines(spec)
    assert len(watched) > 5
    # Ann's own cards are told to her, not to the spectator
    assert len(watched) < len(lines) or watched != lines
    st = spec.evaluate("() => window.toepenState.events.map(x => x.e)")
    assert all(not e["cards"] for e in st if e["kind"] == "hand")
    ctx.close()
    assert page.errors == []  # type: ignore[attr-defined]
