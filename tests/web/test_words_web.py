"""The words a player reads around the table (issue 38, point 11), in Chromium: the lobby's
"who is here" of a guest alone, a club's unnamed house rules in the reader's language, a
percentage written as the language writes it."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .helpers import wait_ready

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def lobby(browser: Browser, server: Server, locale: str = "en-GB") -> Page:
    page = browser.new_context(**PHONE, locale=locale).new_page()
    page.set_default_timeout(15000)
    page.goto(server.url + "/")
    wait_ready(page)
    return page


def test_a_guest_alone_in_the_lobby_reads_nobody_else_and_then_one_guest(
        browser: Browser, server: Server) -> None:
    alone = lobby(browser, server)
    # the page's own guest is counted by the server, but it is not someone else
    expect(alone.locator("#here-online")).to_have_text("Nobody else yet.")
    other = lobby(browser, server, "de-DE")
    expect(other.locator("#here-online")).to_have_text("1 Gast ist da.")
    for p in (alone, other):
        p.context.close()


def test_a_clubs_unnamed_house_rules_are_said_in_the_readers_language(
        browser: Browser, server: Server) -> None:
    made = server.post("/api/clubs", {"name": "De Kroon", "admin": "Kees"})
    club = made["club"]
    assert club["house_rules"]["name"] == ""  # no name of its own: each page says one
    for locale, word in (("nl-NL", "huisregels"), ("de-DE", "Hausregeln"),
                         ("en-GB", "house rules")):
        page = browser.new_context(**PHONE, locale=locale).new_page()
        page.set_default_timeout(15000)
        page.goto(f"{server.url}/?club={club['id']}")
        wait_ready(page)
        expect(page.locator("#club-name ~ p b").first).to_have_text(word)
        page.context.close()


def test_a_percentage_is_written_as_the_language_writes_it(page: Page, server: Server) -> None:
    """The profile's share of bluffs: CLDR's percent format of each language (as Babel's
    format_percent), never a sign of the page's own ("49 %" in English, once)."""
    from babel.numbers import format_percent

    page.goto(server.url + "/?rules")
    wait_ready(page)
    got = page.evaluate("""async () => {
      const { percent } = await import("/js/site/profile.js");
      return Object.fromEntries(["en", "nl", "de", "it", "nb"].map((l) => [l, percent(0.49, l)]));
    }""")
    assert got == {lang: format_percent(0.49, locale=lang) for lang in got}, got
    assert got["en"] == "49%" and got["de"] == "49\u00a0%"


def test_no_catalog_writes_a_percent_sign_of_its_own() -> None:
    """Issue 38: a percentage a player sees is written by the language's own rule (Babel's
    format_percent, the browser's Intl.NumberFormat with style percent), so no message of
    the terminal's or the page's catalogs carries a "%" after a number of its own."""
    import json

    from toepen.i18n import LANGUAGES, catalog

    static = Path(__file__).resolve().parents[2] / "src/toepen/server/static/i18n"
    for lang in LANGUAGES:
        web = json.loads((static / f"{lang}.json").read_text(encoding="utf-8"))["messages"]
        signs = sorted(k for k, text in {**catalog(lang), **web}.items() if "%" in text)
        assert not signs, (lang, signs)
