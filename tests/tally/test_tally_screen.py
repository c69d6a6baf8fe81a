"""``toepen tally`` on small and large terminals (issue 38, points 12 and 18): a pub
evening of 8 players and 40 hands keeps its totals on screen and scrolls; an accepted entry
is seen even when the log has no room; refusals name the player (a shared sheet is read by
the whole table, so never "you"); the seat numbers an entry may use and the "•" are on
the sheet."""

from __future__ import annotations

import re

import pytest
from textual.geometry import Region
from textual.widget import Widget

from toepen.i18n import Translator
from toepen.tally import Sheet, refusal_message
from toepen.tui.tally import TallyApp, sheet_legend, sheet_table

NAMES = ["Ann", "Bas", "Cor", "Dirk", "Eef", "Fay", "Gus", "Hans"]
SIZES = [(60, 20), (80, 24), (120, 36)]


def evening(hands: int = 40) -> Sheet:
    """8 players, ``hands`` hands settled: knocks, stays, the last trick round the table."""
    sheet = Sheet.new("rulebook", NAMES, lives=30)
    while sum(r.done for r in sheet.hands()) < hands:
        legal = sheet.legal_entries()
        knock = [e for e in legal if e.verb == "knock"]
        last = [e for e in legal if e.verb == "last"]
        stay = [e for e in legal if e.verb == "stay"]
        if stay:
            sheet.add(stay[0])
        elif knock and len(sheet.hands()) % 3 == 0 and sheet.stake == 1:
            sheet.add(knock[0])
        else:
            sheet.add(next(e for e in last if e.seat == len(sheet.hands()) * 3 % 8))
    return sheet


def text_of(widget: Widget) -> list[str]:
    """What the widget shows, line by line."""
    return [strip.text for strip in widget.render_lines(Region(0, 0, *widget.size))]


def inside(app: TallyApp, widget: Widget) -> None:
    box = widget.region
    width, height = app.size
    assert box.height >= 1 and box.y >= 0 and box.bottom <= height and box.right <= width, (
        widget.id, box, app.size)


def hand_numbers(lines: list[str]) -> list[int]:
    """The numbers of the hands shown (the rows under the header's rule)."""
    body = lines[next(i for i, line in enumerate(lines) if "───" in line) + 1:]
    body = body[:next((i for i, line in enumerate(body) if not line.strip()), len(body))]
    return [int(m.group(1)) for line in body if (m := re.match(r"\s*(\d+)\s+\S", line))]


@pytest.mark.asyncio
@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_forty_hands_keep_their_totals_and_scroll(width: int, height: int) -> None:
    t = Translator("en")
    sheet = evening()
    newest = len(sheet.hands())
    app = TallyApp(sheet, None, t)
    async with app.run_test(size=(width, height)) as pilot:
        await pilot.pause()
        view = app.query_one("#sheet")
        for name in ("title", "sheet", "status", "legal", "message", "entry"):
            inside(app, app.query_one(f"#{name}"))
        lines = text_of(view)
        shown = "\n".join(lines)
        assert re.search(r"^\s*(Strokes|Penalty points)\s", shown, re.M), shown
        assert re.search(r"^\s*Lives\s+(\d+\s+){7}\d+\s*$", shown, re.M), shown
        assert "• took the last trick" in " ".join(shown.split()), shown
        numbers = hand_numbers(lines)
        assert len(numbers) >= 3 and numbers[-1] == newest, shown
        assert f"of {newest}" in shown  # the window says there are more
        await pilot.press("pageup")
        await pilot.pause()
        back = hand_numbers(text_of(view))
        assert back and back[-1] <= numbers[0] and back[0] < numbers[0], (numbers, back)
        assert "Lives" in "\n".join(text_of(view))
        await pilot.press("up")
        await pilot.pause()
        assert hand_numbers(text_of(view))[0] == back[0] - 1
        for _ in range(30):
            await pilot.press("pageup")
        await pilot.pause()
        assert hand_numbers(text_of(view))[0] == 1  # the first hand is reachable
        for _ in range(30):
            await pilot.press("pagedown")
        await pilot.pause()
        assert hand_numbers(text_of(view)) == numbers  # back at the newest


@pytest.mark.asyncio
@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_an_accepted_entry_is_seen_without_the_log(width: int, height: int) -> None:
    t = Translator("en")
    sheet = evening()
    app = TallyApp(sheet, None, t)
    async with app.run_test(size=(width, height)) as pilot:
        await pilot.pause()
        await pilot.press("pageup")
        app.query_one("#entry").value = "Bas knock"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        message = app.query_one("#message")
        inside(app, message)
        assert " ".join(text_of(message)[0].split()) == "Entered: Bas: knock"
        # the sheet follows the newest hand again after an entry
        assert hand_numbers(text_of(app.query_one("#sheet")))[-1] == len(sheet.hands())


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it", "nb"])
def test_refusals_name_the_player_and_the_phase(lang: str) -> None:
    t = Translator(lang)
    sheet = Sheet.new("rulebook", ["Ann", "Bas", "Cor", "Dirk"])
    sheet.add("1 knock")
    sheet.add("2 fold")
    said = refusal_message(sheet.refusal("2 knock"), sheet).render(t, sheet.players)  # type: ignore[arg-type]
    assert said == t("tally.said.folded", seat="Cor")
    assert said != t("refusal.folded") and "Cor" in said
    said = refusal_message(sheet.refusal("0 stay"), sheet).render(t, sheet.players)  # type: ignore[arg-type]
    assert "Ann" in said and "Dirk" in said and said != t("refusal.not_your_turn", turn="Dirk")
    claimed = Sheet.new("rulebook", ["Ann", "Bas", "Cor", "Dirk"])
    claimed.add("2 claim")
    said = refusal_message(claimed.refusal("1 knock"), claimed).render(t, claimed.players)  # type: ignore[arg-type]
    phase = t("phase.claim_challenge", name="Cor")
    assert said.startswith(t("tally.said.not_now", seat="Bas", action=t("act.knock"),
                             phase="")) and said.endswith(phase), said


def test_the_sheet_shows_the_seat_numbers_entries_use() -> None:
    from rich.console import Console

    sheet = Sheet.new("rulebook", ["Ann", "Bas", "Cor"])
    sheet.add("2 last")
    console = Console(width=100, record=True)
    console.print(sheet_table(Translator("en"), sheet))
    console.print(sheet_legend(Translator("en"), sheet))
    out = console.export_text()
    header = out.splitlines()[:2]
    assert re.search(r"0\s+1\s+2", header[0]) and re.search(r"Ann\s+Bas\s+Cor", header[1]), out
    assert "• took the last trick · 2 fold: seat 2 folds" in " ".join(out.split())
