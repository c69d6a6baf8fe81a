"""The lobby and the house rules, in a real browser: every option offered with its
localised line (Dutch names included), the suggested stake cap, and a table's own rule set
saved under a name and used again for a new table."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from toepen.rules import HOUSE_RULES

from .conftest import Server
from .helpers import start_game, view, wait_ready


def test_every_house_rule_is_offered_with_its_line(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    wait_ready(page)
    page.select_option("#lang", "nl")
    page.click("details.options summary")
    for name in HOUSE_RULES:
        field = page.locator(f"[data-option='{name}']")
        expect(field).to_have_count(1)
        label = field.locator("xpath=..").inner_text()
        assert label.strip() and "option." not in label, (name, label)
    assert "Witte was" in page.locator("label:has(#opt_witte_was)").inner_text()
    assert "Op scherp" in page.locator("label:has(#opt_edge)").inner_text()
    choices = page.locator("#opt_edge option").all_inner_texts()
    assert "mag niet passen (op scherp)" in choices
    assert page.locator("#opt_max_stake_suggested option").get_attribute("value") == "4"
    presets = page.locator("#preset option").evaluate_all("os => os.map(o => o.value)")
    assert "kroeg-huisregels" in presets
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_named_rule_set_is_saved_and_used_again(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    wait_ready(page)
    page.select_option("#lang", "en")
    page.fill("#name", "Henk")
    page.click("details.options summary")
    page.select_option("#preset", "classic")
    page.select_option("#opt_exchange", "false")
    page.select_option("#opt_witte_was", "true")
    page.select_option("#opt_laundry_check", '"each"')
    page.fill("#opt_lives", "4")
    page.click("#ruleset-save")
    expect(page.locator("#toast")).to_contain_text("Give the rule set a name first.")
    page.fill("#ruleset-name", "Bij Henk")
    page.click("#ruleset-save")
    expect(page.locator("#toast")).to_contain_text("Rules saved as Bij Henk.")
    page.reload()
    wait_ready(page)
    page.click("details.options summary")
    assert page.input_value("#opt_lives") == "" and page.input_value("#preset") == "rulebook"
    page.select_option("#ruleset", "Bij Henk")
    assert page.input_value("#preset") == "classic"
    assert page.input_value("#opt_witte_was") == "true"
    assert page.input_value("#opt_laundry_check") == '"each"'
    assert page.input_value("#opt_lives") == "4"
    page.fill("#name", "Henk")
    for seat in (1, 2, 3):
        page.select_option(f"select[data-seat='{seat}']", "random")
    page.click("#create")
    start_game(page)
    v = view(page)
    assert v is not None
    assert v["rules"] == {"preset": "classic", "lives": 4, "exchange": False,
                          "witte_was": True, "laundry_check": "each"}
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_friend_sees_the_tables_rules_before_sitting_down(page: Page, server: Server) -> None:
    made = server.post("/api/tables", {
        "preset": "kroeg-huisregels", "size": 4, "bots": {"1": "random"}, "name": "Henk",
        "options": {"laundry_caught": "plays_open", "lives": 6}})
    code = made["table"]["code"]
    page.goto(server.url + f"/?join={code}")
    wait_ready(page)
    page.select_option("#lang", "nl")
    rules = page.locator("#table-rules")
    expect(rules).to_contain_text("Kroeg-huisregels")
    expect(rules).to_contain_text("betaalt en speelt open")
    expect(rules).to_contain_text("6")
    assert "option." not in rules.inner_text() and "web." not in rules.inner_text()
    assert page.errors == []  # type: ignore[attr-defined]
