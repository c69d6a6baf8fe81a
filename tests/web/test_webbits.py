"""The rough edges a player hit in the browser (issue 25, points 2, 3, 5, 6, 7, 8, 9), in
Debian's Chromium: the invite page of a full table, bots marked beside their names, chat
for a spectator, the preset's values in "More options", a club's members to tick for a
tournament, an unknown table's page, deleting an account, the leaderboard's board named."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from toepen.i18n import LANGUAGES, catalog
from toepen.rules import Rules
from toepen.server.tables.presets import presets_json

from .conftest import ROOT, Server
from .helpers import wait_ready


def page_words(lang: str) -> dict[str, str]:
    """The browser's catalog of ``lang`` (the shared catalogs and the web-only texts)."""
    path = ROOT / "src/toepen/server/static/i18n" / f"{lang}.json"
    found: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))["messages"]
    return found


def new_page(browser: Browser, locale: str = "en-GB", init: str = "") -> Page:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    if init:
        ctx.add_init_script(init)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def seats_script(table_id: str, joined: dict[str, Any]) -> str:
    seat = {table_id: {"token": joined["token"], "seat": joined["seat"],
                       "host": bool(joined.get("host"))}}
    return f"localStorage.setItem('toepen.seats', {json.dumps(json.dumps(seat))});"


def test_a_full_tables_invite_says_so_and_offers_watching(browser: Browser,
                                                           server: Server) -> None:
    nl = page_words("nl")
    host = server.post("/api/tables", {"name": "Ans", "size": 4, "preset": "kroeg-huisregels",
                                       "bots": {"1": "random", "2": "random"}})
    table = host["table"]
    page = new_page(browser, "nl-NL")
    page.goto(f"{server.url}/?join={table['code']}")
    wait_ready(page)
    line = page.locator(".joinpage .table-line")
    expect(line).to_contain_text(nl["preset.kroeg-huisregels"])
    expect(line).to_contain_text("Vrije plaatsen: 1 van 4")
    assert "kroeg-huisregels" not in line.inner_text()
    expect(page.locator("#join-btn")).to_be_visible()
    # someone takes the last seat meanwhile: Join says why, and the page offers the rest
    server.post("/api/join", {"code": table["code"], "name": "Bep"})
    page.fill("#jname", "Cor")
    page.click("#join-btn")
    expect(page.locator("#toast")).to_have_text(nl["error.join.full"])
    expect(page.locator("#join-closed")).to_have_text(nl["web.invite.full_next"])
    expect(page.locator("#join-btn")).to_have_count(0)
    expect(page.locator("#watch-btn")).to_have_attribute("href", f"/?table={table['id']}")
    expect(page.locator("#back")).to_have_attribute("href", "/")
    expect(line).to_contain_text("Vol: geen vrije plaats")
    # the waiting room names the preset and the free seats too, and marks the bots
    page.click("#watch-btn")
    page.wait_for_selector(".waiting")
    waiting = page.locator(".waiting")
    expect(waiting.locator(".preset-name")).to_have_text(nl["preset.kroeg-huisregels"])
    expect(waiting.locator(".free-seats")).to_have_text("Vol: geen vrije plaats")
    expect(waiting.locator("li .botmark")).to_have_count(2)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_spectator_reads_the_chat_so_far_and_bots_are_marked(browser: Browser,
                                                              server: Server) -> None:
    host = server.post("/api/tables", {"name": "Sjaak", "size": 3,
                                       "bots": {"1": "random", "2": "random"}})
    tid = host["table"]["id"]
    ann = new_page(browser, init=seats_script(tid, host))
    ann.goto(f"{server.url}/?table={tid}")
    wait_ready(ann)
    ann.wait_for_selector(".waiting")
    for line in ("<b>proost</b>", "second line"):
        ann.fill("#chat-text", line)
        ann.click("#chat-send")
    expect(ann.locator("#chat li")).to_have_count(2)
    ann.click("#start")
    ann.wait_for_selector(".felt")
    # a bot beside its name on the felt; the person has none
    expect(ann.locator(".seat .botmark")).to_have_count(2)
    expect(ann.locator(".seat.me .botmark")).to_have_count(0)
    watcher = new_page(browser)
    watcher.goto(f"{server.url}/?table={tid}")
    wait_ready(watcher)
    chat = watcher.locator("#chat li")
    expect(chat).to_have_count(2)
    assert sorted(chat.all_inner_texts()) == ["Sjaak: <b>proost</b>", "Sjaak: second line"]
    assert watcher.locator("#chat b").count() == 2  # only the speakers' names are bold
    for p in (ann, watcher):
        assert p.errors == []  # type: ignore[attr-defined]
        p.context.close()


def test_more_options_show_the_presets_values(browser: Browser, server: Server) -> None:
    for lang, locale in (("en", "en-GB"), ("de", "de-DE")):
        words = page_words(lang)
        page = new_page(browser, locale)
        page.goto(server.url + "/")
        wait_ready(page)
        page.click("details.options summary")
        page.select_option("#preset", "kroeg-huisregels")
        expect(page.locator("#opt_max_stake")).to_have_attribute("placeholder", "4")
        first = page.locator("#opt_witte_was option").first
        expect(first).to_have_text(words["web.option.preset_value"].format(value=words["web.yes"]))
        page.select_option("#preset", "rulebook")
        expect(page.locator("#opt_max_stake")).to_have_attribute("placeholder",
                                                                 words["web.option.none"])
        expect(page.locator("#opt_lives")).to_have_attribute("placeholder", "10")
        expect(first).to_have_text(words["web.option.preset_value"].format(value=words["web.no"]))
        # every number field's placeholder fits in the field (none is cut: "as tl")
        cut = page.evaluate("""() => [...document.querySelectorAll('input[data-option]')]
          .filter((el) => {
            const c = document.createElement('canvas').getContext('2d');
            c.font = getComputedStyle(el).font;
            return c.measureText(el.placeholder).width > el.clientWidth - 4;
          }).map((el) => el.id + ': ' + el.placeholder)""")
        assert cut == [], cut
        # a club's lives field shows its preset's lives too (no "as tl")
        page.goto(server.url + "/?clubs")
        wait_ready(page)
        for preset in ("classic", "gezinstoepen"):
            page.select_option("#cl-preset", preset)
            expect(page.locator("#cl-lives")).to_have_attribute(
                "placeholder", str(Rules.preset(preset).lives))
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()


def test_every_option_has_its_own_label_in_every_language() -> None:
    ids = [o["about"] for o in presets_json()["options"]]
    for lang in LANGUAGES:
        words = catalog(lang)
        heads = [re.split(r"[:(]", words[i])[0].strip().casefold() for i in ids]
        assert len(set(heads)) == len(heads), (lang, sorted(h for h in heads if heads.count(h) > 1))
        named = [i for i in ids if "vuile was" in words[i].casefold()]
        assert named == ["option.vuile_was"], (lang, named)


def test_the_tally_and_the_log_say_hand_and_deal_alike() -> None:
    """The score sheet's "Hand 1, Ans deals" and the log's "Hand 1: Ans deals" use one
    word for a hand and one for dealing, in every language."""
    extra = json.loads((ROOT / "src/toepen/server/static/i18n/web-extra-tally.json")
                       .read_text(encoding="utf-8"))
    for lang in LANGUAGES:
        words = catalog(lang)
        log = words["log.deal"].strip("— ")
        hand_word = log.split("{hand}")[0].split()[-1]
        deal_words = [w for w in re.sub(r"\{\w+\}|[—:,.]", " ", log).split() if w != hand_word]
        for text in (words["tally.status.hand"], extra["web.tally.hand"][lang]):
            assert text.split("{hand}")[0].split()[-1].casefold() == hand_word.casefold(), \
                (lang, text, log)
            said = re.sub(r"\{\w+\}|[—:,.]", " ", text).split()
            assert all(w in said for w in deal_words), (lang, text, log)


def test_an_unknown_table_says_so_without_empty_panels(browser: Browser,
                                                      server: Server) -> None:
    page = new_page(browser, "nl-NL")
    page.goto(f"{server.url}/?table=0123456789ab")
    wait_ready(page)
    expect(page.locator(".notfound h1")).to_have_text(page_words("nl")["web.no_such_table"])
    expect(page.locator(".notfound #back")).to_have_attribute("href", "/")
    expect(page.locator(".side")).to_be_hidden()
    expect(page.locator("#chat-box")).to_be_hidden()
    expect(page.locator("#conn")).to_have_text("")
    # the leaderboard names the board it shows
    page.goto(f"{server.url}/?page=leaderboard&preset=classic&size=3")
    wait_ready(page)
    classic = page_words("nl")["preset.classic"]
    expect(page.locator("#lb-shown")).to_have_text(f"{classic}, 3 spelers")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_bots_name_registers_and_delete_checks_the_password_first(browser: Browser,
                                                                    server: Server) -> None:
    en = page_words("en")
    page = new_page(browser)
    dialogs: list[str] = []

    def answer(d: Any) -> None:
        dialogs.append(d.message)
        d.accept()

    page.on("dialog", answer)
    page.goto(server.url + "/?page=register")
    wait_ready(page)
    page.fill("#acct-name", "Marieke")  # refused as "a bot's name" before
    page.fill("#acct-password", "a long enough password")
    page.click("#acct-submit")
    page.wait_for_url(server.url + "/")
    wait_ready(page)
    expect(page.locator("#nav-profile")).to_have_text("Marieke")
    page.goto(server.url + "/?page=account")
    wait_ready(page)
    page.fill("#del-password", "not the password")
    page.click("#del-submit")
    expect(page.locator("#toast")).to_have_text(en["account.error.wrong_password"])
    assert dialogs == []  # no "are you sure?" for a wrong password
    page.fill("#del-password", "a long enough password")
    page.click("#del-submit")
    page.wait_for_url(server.url + "/")
    assert len(dialogs) == 1
    r = page.request.get(server.url + "/api/players/Marieke")
    assert r.status == 404
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_an_organiser_ticks_the_clubs_members(browser: Browser, server: Server) -> None:
    made = server.post("/api/clubs", {"name": "De Zwaan", "admin": "Kees"})
    club, key = made["club"]["id"], made["key"]
    for name in ("Bas", "Noor", "Henk"):
        server.post(f"/api/clubs/{club}/members", {"name": name}, token=key)
    tn = server.post("/api/tournaments", {"name": "Woensdag", "club": club}, token=key)
    tid = tn["tournament"]["id"]
    keys = {f"club:{club}": key, f"tournament:{tid}": tn["key"]}
    init = f"localStorage.setItem('toepen.keys', {json.dumps(json.dumps(keys))});"
    page = new_page(browser, init=init)
    page.goto(f"{server.url}/?tournament={tid}")
    wait_ready(page)
    boxes = page.locator("#club-members [data-member]")
    expect(boxes).to_have_count(4)
    assert sorted(boxes.evaluate_all("bs => bs.map(b => b.dataset.member)")) == [
        "Bas", "Henk", "Kees", "Noor"]
    page.check("#club-members [data-member='Noor']")
    page.check("#club-members [data-member='Bas']")
    page.click("#members-add")
    expect(page.locator("#players li")).to_have_count(2)
    expect(page.locator("#players")).to_contain_text("Noor")
    expect(page.locator("#players")).to_contain_text("Bas")
    expect(page.locator("#club-members [data-member]")).to_have_count(2)  # Kees, Henk left
    page.click("#members-all")
    page.click("#members-add")
    expect(page.locator("#players li")).to_have_count(4)
    expect(page.locator("#club-members")).to_have_count(0)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
