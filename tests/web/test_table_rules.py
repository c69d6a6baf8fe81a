"""A table's house rules on the table page, in a real browser: its rules listed (the preset
and every option changed, by its localised line and value, as the invite page lists them),
and under ``count: points_up`` the seats and the score sheet counting penalty points up to
the limit instead of lives down."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .helpers import choose, click_action, lives_lost, my_turn_or_over, view, wait_ready


def sit(page: Page, server: Server, made: dict[str, Any]) -> str:
    """Open the table page of ``made`` (a ``Joined``) in the seat it gave."""
    table_id: str = made["table"]["id"]
    page.goto(server.url + "/")
    wait_ready(page)
    page.evaluate("j => localStorage.setItem('toepen.seats', JSON.stringify({[j.table.id]: "
                  "{token: j.token, seat: j.seat, host: j.host}}))", made)
    page.goto(f"{server.url}/?table={table_id}")
    wait_ready(page)
    return table_id


def seats_count_points(page: Page, words: str) -> None:
    """Wait until every seat shows ``start lives - lives left`` of the page's own view as
    ``n/2 <words>`` (a timeout, and so a failure, if the seats ever show anything else)."""
    page.wait_for_function(
        """words => {
            const v = window.toepenState && window.toepenState.view;
            if (!v) return false;
            return v.lives.every((left, s) => {
                const el = document.querySelector(`.seat[data-seat='${s}'] .lives`);
                return el !== null && el.textContent.trim() === `${2 - left}/2 ${words}`;
            });
        }""", arg=words, timeout=10000)


def test_the_table_shows_its_rules(page: Page, server: Server) -> None:
    made = server.post("/api/tables", {
        "preset": "kroeg-huisregels", "size": 4, "bots": {"1": "random"}, "name": "Henk",
        "options": {"laundry_caught": "plays_open", "lives": 6}})
    sit(page, server, made)
    page.wait_for_selector(".waiting")
    box = page.locator("#rules-box")
    expect(box).to_have_attribute("open", "")  # open in the waiting room
    rules = box.locator("#table-rules li")
    page.select_option("#lang", "nl")
    expect(box.locator("summary")).to_have_text("De regels van deze tafel")
    expect(rules).to_have_count(3)  # the preset and the two options changed
    expect(rules.nth(0)).to_have_text("Kroeg-huisregels")
    texts = rules.all_inner_texts()
    assert "Levens bij het begin: 6" in texts
    assert "Een betrapte was-bluffer: betaalt en speelt open" in texts
    page.select_option("#lang", "de")
    expect(rules.nth(0)).to_have_text("Kneipen-Hausregeln")
    texts = rules.all_inner_texts()
    assert "Leben zu Beginn: 6" in texts
    assert "Ein ertappter Wäsche-Bluffer: zahlt und spielt offen" in texts
    text = box.inner_text()
    assert "option." not in text and "web." not in text and "preset." not in text
    assert page.errors == []  # type: ignore[attr-defined]


def test_points_up_counts_penalty_points_on_the_seats_and_the_sheet(
        page: Page, browser: Browser, server: Server) -> None:
    options = {"count": "points_up", "lives": 2}
    made = server.post("/api/tables", {"preset": "rulebook", "size": 3, "name": "Ann",
                                       "bots": {"1": "random", "2": "random"},
                                       "options": options})
    sit(page, server, made)
    page.click("#start")
    page.wait_for_selector(".felt")
    page.select_option("#lang", "en")
    v = view(page)
    assert v is not None and v["rules"] == {"preset": "rulebook", **options}
    lives = page.locator(".seat .seat-lives .lives")
    expect(lives).to_have_count(3)
    # the seats count points up from 0 to the limit, no hearts (read with the view the
    # page holds at that moment: a bot's fold pays at once, while the human is still to act)
    seats_count_points(page, "penalty points")
    expect(page.locator(".seat .hearts")).to_have_count(0)
    page.select_option("#lang", "nl")
    seats_count_points(page, "strafpunten")
    # during the play the rules are folded away, and stay open once opened
    box = page.locator("#rules-box")
    assert box.get_attribute("open") is None
    box.locator("summary").click()
    expect(box.locator("#table-rules")).to_contain_text("strafpunten, oplopend")
    assert my_turn_or_over(page) == "turn"
    now = view(page)
    assert now is not None
    click_action(page, choose(now["legal"], ("pass", "stay")))
    expect(box).to_have_attribute("open", "")
    assert page.errors == []  # type: ignore[attr-defined]

    # a table of bots, watched to its end: the sheet counts penalty points, in numbers
    bots = server.post("/api/tables", {"preset": "rulebook", "size": 2, "autostart": True,
                                       "bots": {"0": "random", "1": "random"},
                                       "options": options})
    table_id = bots["table"]["id"]
    full = bots["table"]["rules_full"]  # every option resolved by the server: the page reads it
    assert full["count"] == "points_up" and full["lives"] == 2
    ctx = browser.new_context(locale="nl-NL")
    watch = ctx.new_page()
    errors: list[str] = []
    watch.on("pageerror", lambda e: errors.append(str(e)))
    watch.goto(f"{server.url}/?table={table_id}")
    wait_ready(watch)
    sheet = watch.locator(".scoresheet")
    expect(sheet).to_have_attribute("data-count", "points", timeout=20000)
    record = server.get(f"/api/tables/{table_id}/record")
    lost = lives_lost(record)
    expect(sheet.locator("thead th").nth(1)).to_have_text("Strafpunten")
    for s in range(2):
        expect(sheet.locator(f"tr[data-seat='{s}'] td.points")).to_have_text(str(lost[s]))
    expect(sheet.locator("svg.tally")).to_have_count(0)
    final = view(watch)
    assert final is not None and final["winner"] is not None
    w = final["winner"]
    expect(watch.locator(f".seat[data-seat='{w}'] .lives")).to_have_text(
        f"{2 - final['lives'][w]}/2 strafpunten")
    expect(watch.locator("#table-rules")).to_contain_text("Telling: levens over of strafpunten")
    watch.select_option("#lang", "it")
    expect(sheet.locator("thead th").nth(1)).to_have_text("Punti di penalità")
    assert errors == []
    ctx.close()
