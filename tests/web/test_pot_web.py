"""Pot toepen in the browser (issue 39, point 5), on a phone (360x640) in Dutch: the lobby's
option editor sets the buy-in and the pot, the player who goes out is offered the buy-in
with the lives they would come back with and the pot, buys in, and the table and the
standings show it; the score sheet enters a buy-in and says at the end who pays whom.

Bots play at random, so the human's way out is not fixed: at a table of eight with two
lives each, a player who folds whenever they can goes out while others are still in
(a buy-in is then offered) in about nine sessions out of ten; a session where it does
not happen (the human won, or went out with the last one) is played again, at most
four times."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import Server, screenshot
from .helpers import ACTIONABLE, click_action, view, wait_ready
from .layout import set_lang, settle

PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 640}, "is_mobile": True,
                         "has_touch": True, "locale": "nl-NL", "reduced_motion": "reduce"}
NO_HSCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture()
def phone(browser: Browser) -> Iterator[Page]:
    ctx: BrowserContext = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    yield page
    ctx.close()


def pot_table(page: Page, base: str) -> None:
    """A table of eight (Ann and seven bots), two lives, buying in once, a pot of € 2,50,
    made through the lobby's "More options" and started."""
    page.goto(base + "/")
    wait_ready(page)
    set_lang(page, "nl")
    page.fill("#name", "Ann")
    page.select_option("#preset", "rulebook")
    page.select_option("#size", "8")
    for seat in range(1, 8):
        page.select_option(f"select[data-seat='{seat}']", "random")
    page.click("details.options summary")
    # the new option types: a decimal (the pot) and a short text (its currency sign)
    pot = page.locator("#opt_pot")
    assert pot.get_attribute("type") == "number" and pot.get_attribute("step") == "0.01"
    assert page.locator("#opt_pot_unit").get_attribute("maxlength") == "4"
    expect(page.locator("label:has(#opt_pot)")).to_contain_text("inleg per speler")
    expect(page.locator("label:has(#opt_pot_unit)")).to_contain_text("Valutateken")
    assert "niet inkopen" in page.locator("#opt_rebuy option").all_inner_texts()
    page.fill("#opt_lives", "2")
    page.select_option("#opt_rebuy", '"once"')
    page.fill("#opt_pot", "2.50")
    page.fill("#opt_pot_unit", "€")
    assert page.evaluate(NO_HSCROLL)
    page.click("#create")
    page.wait_for_url(re.compile(r"\?table=[0-9a-f]{12}$"))
    page.click("#start")
    page.wait_for_selector(".felt")


def losing_move(legal: list[str]) -> str:
    """Fold when that is legal (a life gone), else the first card, else the first verb."""
    if "fold" in legal:
        return "fold"
    plays = [a for a in legal if a.startswith("play ")]
    return plays[0] if plays else legal[0]


def until_offered(page: Page) -> bool:
    """Play losing moves until the page offers Ann the buy-in (True) or the session ends."""
    while True:
        page.wait_for_function(
            f"""() => document.querySelector("{ACTIONABLE}") || (window.toepenState
                  && window.toepenState.view && window.toepenState.view.phase === "over")""")
        v = view(page)
        assert v is not None
        if v["phase"] == "over":
            return False
        if v["phase"] == "rebuy":
            return True
        click_action(page, losing_move(v["legal"]))


def test_a_player_out_buys_back_in_and_the_pot_shows_it(phone: Page, server: Server) -> None:
    page = phone
    for _ in range(4):
        pot_table(page, server.url)
        v = view(page)
        assert v is not None
        rules = page.evaluate("() => window.toepenState.table.rules_full")
        assert (rules["rebuy"], rules["pot"], rules["pot_unit"]) == ("once", 2.5, "€")
        # the pot on the felt from the start: eight stakes of 2,50
        expect(page.locator(".felt .pot")).to_have_text("Pot: € 20,00")
        if until_offered(page):
            break
    else:
        pytest.fail("Ann was never offered a buy-in in four sessions")
    v = view(page)
    assert v is not None and v["to_act"] == [v["seat"]] and sorted(v["legal"]) == ["pass", "stay"]
    # exactly the view's legal actions, named for what they mean in this round
    buttons = page.locator(".actions button.act")
    expect(buttons).to_have_count(2)
    expect(page.locator("[data-action='stay']")).to_contain_text("inkopen")
    expect(page.locator("[data-action='pass']")).to_contain_text("eruit blijven")
    offer = page.locator(".rebuy-offer")
    expect(offer).to_contain_text("Je bent af, maar je mag je nu inkopen")
    lives = v["rebuy_lives"]
    assert 1 <= lives <= 2
    expect(offer.locator(".rebuy-lives")).to_contain_text(
        f"kom je terug met {lives} {'leven' if lives == 1 else 'levens'}")
    euros = f"€ {v['pot'] // 100},{v['pot'] % 100:02d}"
    expect(offer.locator(".rebuy-pot")).to_have_text(f"Pot: {euros}")
    settle(page)
    assert page.evaluate(NO_HSCROLL), "the buy-in offer scrolls sideways at 360"
    screenshot(page, "pot-rebuy")
    before = v["pot"]
    click_action(page, "stay")
    v = view(page)
    assert v is not None
    assert v["rebuys"][v["seat"]] == 1 and v["in_session"][v["seat"]]
    # (the bots the same hand put out answer after Ann, and may buy in too)
    assert v["pot"] == 250 * (8 + sum(v["rebuys"])) >= before + 250
    me = page.locator(".seat.me")
    expect(me.locator(".badge.rebuys")).to_have_text("1 keer ingekocht")
    cents, text = page.evaluate(
        "() => { const p = document.querySelector('.felt .pot');"
        " return [Number(p.dataset.cents), p.textContent]; }")
    assert cents >= before + 250 and text == f"Pot: € {cents // 100},{cents % 100:02d}"
    # no second buy-in under "once": play on until the end
    offered_again = until_offered(page)
    assert not offered_again
    result = page.locator(".result-panel")
    expect(result).to_be_visible()
    expect(result.locator(".standings")).to_contain_text("1 keer ingekocht")
    v = view(page)
    assert v is not None and v["winner"] is not None
    total = f"€ {v['pot'] // 100},{v['pot'] % 100:02d}"
    expect(result.locator(".result-pot")).to_have_text(
        f"{v['players'][v['winner']]} wint de pot: {total}.")
    settle(page)
    assert page.evaluate(NO_HSCROLL)
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_sheet_enters_a_buy_in_and_says_who_pays_whom(phone: Page, server: Server) -> None:
    page = phone
    page.goto(server.url + "/?sheet")
    wait_ready(page)
    set_lang(page, "nl")
    page.wait_for_selector("#tally-form #opt_pot", state="attached")
    # the pot's fields fold away under "De pot" (the form's button stays on the first screen)
    page.click("#tally-form details.tally-pot-options summary")
    page.wait_for_selector("#tally-form #opt_pot")
    page.select_option("#tally-form select[name='preset']", "rulebook")
    page.fill("#tally-form input[name='lives']", "2")
    expect(page.locator("label:has(#opt_rebuy)")).to_contain_text("Inkopen")
    page.select_option("#opt_rebuy", '"once"')
    page.fill("#opt_pot", "2.50")
    page.fill("#opt_pot_unit", "€")
    players = page.locator("#tally-form input[name='player']")
    for i, name in enumerate(("Ann", "Bas", "Cor")):
        players.nth(i).fill(name)
    assert page.evaluate(NO_HSCROLL)
    page.click("#tally-form button[type='submit']")
    page.wait_for_selector(".tally-table")
    expect(page.locator(".tally-pot")).to_have_text("Pot: € 7,50")

    def enter(entry: str) -> None:
        version = page.locator(".tally").get_attribute("data-version")
        page.click(f"[data-entry='{entry}']")
        expect(page.locator(".tally")).not_to_have_attribute("data-version", version or "")

    # Bas knocks, Cor folds (1 life gone), Ann stays and takes the last trick: Ann is out
    for entry in ("1 knock", "2 fold", "0 stay", "0 last"):
        enter(entry)
    rebuy = page.locator("[data-entry='0 rebuy']")
    expect(rebuy).to_have_text("inkopen")
    expect(rebuy).to_have_class(re.compile(r"\btally-rebuy\b"))
    # only Ann, whom the last hand put out, is offered the buy-in
    expect(page.locator("[data-entry$=' rebuy']")).to_have_count(1)
    settle(page)
    assert page.evaluate(NO_HSCROLL), "the sheet with its buy-in scrolls sideways at 360"
    enter("0 rebuy")
    expect(page.locator(".tally-pot")).to_have_text("Pot: € 10,00")
    expect(page.locator(".tally-rebuys td").first).to_have_text("1")
    for entry in ("0 last", "1 last", "1 last"):
        enter(entry)
    settlement = page.locator("#tally-settlement")
    expect(settlement).to_be_visible()
    expect(settlement.locator(".pot-balances tr")).to_have_count(3)
    expect(settlement.locator(".pot-balances")).to_contain_text("Cor")
    assert settlement.locator(".pot-balances td").all_inner_texts() == [
        "\u2212€ 5,00", "\u2212€ 2,50", "+€ 7,50"]
    assert settlement.locator(".pot-transfers li").all_inner_texts() == [
        "Ann betaalt Cor € 5,00", "Bas betaalt Cor € 2,50"]
    expect(page.locator(".tally-standings")).to_contain_text("1 keer ingekocht")
    settle(page)
    settlement.scroll_into_view_if_needed()
    screenshot(page, "pot-sheet-settlement")
    assert page.evaluate(NO_HSCROLL)
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_tournament_says_the_evenings_pot_and_who_pays_whom(phone: Page,
                                                                 server: Server) -> None:
    """A pot evening of four (a stake of € 0,50): a table entered by hand (the winner takes
    the others' stakes); the page (the public view and the projector) shows each
    player's balance and the transfers the server settled on."""
    made = server.post("/api/tournaments", {
        "name": "Potje", "house_rules": {"preset": "rulebook", "options": {
            "lives": 2, "rebuy": "once", "pot": 0.5, "pot_unit": "€"}}})
    tid, key = made["tournament"]["id"], made["key"]
    base = f"/api/tournaments/{tid}"
    for name in ("Ann", "Bas", "Cor", "Dirk"):
        server.post(f"{base}/players", {"name": name}, token=key)
    state = server.post(f"{base}/rounds", {"mode": "cards"}, token=key)
    order = list(state["rounds"][0]["tables"][0]["seats"])
    done = server.post(f"{base}/results", {"round": 1, "table": 1, "order": order}, token=key)
    pot = done["pot"]
    assert len(pot["settlement"]) == 3
    page = phone
    for path, where in ((f"/?tournament={tid}", ".pot-evening"),
                        (f"/?projector={tid}", ".projector-view .pot-evening")):
        page.goto(server.url + path)
        wait_ready(page)
        set_lang(page, "nl")
        evening = page.locator(where)
        expect(evening.locator("h2").first).to_have_text("De pot")
        expect(evening.locator(".pot-stake")).to_contain_text("€ 0,50")
        rows = evening.locator(".pot-balances tr")
        expect(rows).to_have_count(4)
        assert evening.locator(f".pot-balances tr:has(th:text-is('{order[0]}')) td").inner_text() \
            == "+€ 1,50"
        assert evening.locator(f".pot-balances tr:has(th:text-is('{order[3]}')) td").inner_text() \
            == "\u2212€ 0,50"
        assert evening.locator(".pot-transfers li").all_inner_texts() == [
            f"{t['payer']} betaalt {t['payee']} € {t['cents'] // 100},{t['cents'] % 100:02d}"
            for t in pot["settlement"]]
        settle(page)
        assert page.evaluate(NO_HSCROLL), f"{path} scrolls sideways at 360"
    assert page.errors == []  # type: ignore[attr-defined]
