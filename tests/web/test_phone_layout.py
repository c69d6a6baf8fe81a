"""The table on a phone, in a low window and on a desktop, in Chromium: at 360x640,
390x844, 800x600, 1280x800 and 1366x768, in all five languages, no two boxes of the table
overlap and nothing is cut (every box inside the window, no sideways scroll, no text out
of its box, no label or word broken over two lines, the header one row), in every phase a
player sees: the waiting room, a card to play, a knock to answer, a hand's summary, the
result dialog and the finished table (4 seats); a full table of 8 (a card to play, the
result dialog); the score sheet for real cards with 4 and 8 players likewise (the sheet of
8 may scroll inside its own box, never the page). The checks: tests/web/layout.py."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from .conftest import Server
from .layout import LANGS, SIZES, ctx_options, problems, summary_of, sweep
from .table_states import PHASES, drive, open_sheet


def result_redrawn(page: Page, lang: str) -> None:
    page.wait_for_function("""l => { const r = document.querySelector("#result");
        return r.dataset.lang === l && !r.hidden
          && document.querySelector(".result-panel .standings li"); }""",
                           arg=lang)


def closed_again(page: Page, lang: str) -> None:
    """A change of language opens the result again: close it (the finished table)."""
    page.wait_for_function("l => document.querySelector('#result').dataset.lang === l", arg=lang)
    if page.locator("#result").is_visible():
        page.click("#close-result")


def test_the_table_in_every_phase_fits_every_window_in_every_language(
        browser: Browser, server: Server) -> None:
    bad: dict[str, list[str]] = {}
    seen: list[str] = []
    turns = 0

    def on_phase(phase: str, page: Page) -> None:
        nonlocal turns
        if phase == "turn":
            # every other decision: the window it is in now (the trick just taken beside it)
            turns += 1
            got = problems(page, "table")
            if got:
                bad[f"turn {turns}"] = got
            return
        seen.append(phase)
        kind = {"waiting": "waiting", "result": "result"}.get(phase, "table")
        redrawn = {"result": result_redrawn, "finished": closed_again}.get(phase)
        for where, got in sweep(page, kind, redrawn).items():
            bad[f"{phase} {where}"] = got
        # back to the phone and English for the rest of the session
        page.set_viewport_size({"width": SIZES[1][0], "height": SIZES[1][1]})
        if phase != "finished":
            sweep(page, kind, redrawn, sizes=(), langs=("en",))

    page = drive(browser, server, on_phase, ctx_options())
    page.context.close()
    assert sorted(seen) == sorted(PHASES), seen
    assert not bad, summary_of(bad)


def test_the_score_sheet_for_real_cards_fits_a_phone_with_4_and_8_players(
        browser: Browser, server: Server) -> None:
    names = ["Ann", "Bas", "Cor", "Dave", "Eva", "Fenna", "Gijs", "Henk"]
    bad: dict[str, list[str]] = {}
    for n in (4, 8):
        page = open_sheet(browser, server, names[:n], ctx_options(), entries=("1 knock", "2 stay"))
        for where, got in sweep(page, "tally").items():
            bad[f"{n} players {where}"] = got
        # the sheet of 4 needs no scrolling at all; every player has a column
        page.set_viewport_size({"width": 360, "height": 640})
        heads = page.locator(".tally-table thead th").all_inner_texts()
        assert [h for h in heads if h in names] == names[:n], heads
        page.context.close()
    assert not bad, summary_of(bad)
    assert len(LANGS) == 5


def test_a_full_table_of_8_and_its_result_fit_every_window_in_every_language(
        browser: Browser, server: Server) -> None:
    """Eight seats (seats in every cell of the felt's grid): a card to play (and a knock
    to answer, where one comes) and the result dialog with eight rows."""
    bad: dict[str, list[str]] = {}
    seen: list[str] = []

    def on_phase(phase: str, page: Page) -> None:
        if phase not in ("play", "knock", "result"):
            return
        seen.append(phase)
        redrawn = result_redrawn if phase == "result" else None
        for where, got in sweep(page, "result" if phase == "result" else "table", redrawn).items():
            bad[f"{phase} {where}"] = got
        page.set_viewport_size({"width": SIZES[1][0], "height": SIZES[1][1]})
        sweep(page, "table", redrawn, sizes=(), langs=("en",))

    page = drive(browser, server, on_phase, ctx_options(), size=8, sessions=1)
    assert page.locator(".result-panel .scoresheet tbody tr").count() == 8
    page.context.close()
    assert "play" in seen and "result" in seen, seen
    assert not bad, summary_of(bad)
