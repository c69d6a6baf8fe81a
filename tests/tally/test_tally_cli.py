"""``toepen tally`` on the command line and its screen: a session entered by typing,
refusals in the player's language, undo, saving after every entry and --open."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from toepen.cli import app as cli
from toepen.i18n import Translator
from toepen.record import load
from toepen.tally import Sheet
from toepen.tui.tally import TallyApp, parse_line, sheet_table, status_line, strokes

runner = CliRunner(env={"COLUMNS": "200"})


def flat(output: str) -> str:
    return " ".join(re.sub("[│╭╮╰╯─]", " ", output).split())


def test_entries_from_the_command_line_are_saved_and_reopened(tmp_path: Path) -> None:
    path = tmp_path / "sheet.json"
    result = runner.invoke(cli, [
        "tally", "--players", "Ann,Bas,Cor", "--lives", "2", "--save", str(path),
        "--lang", "en", "-e", "1 claim", "-e", "2 challenge false", "-e", "1 knock",
        "-e", "2 stay", "-e", "0 fold"])
    assert result.exit_code == 0, result.output
    assert "Strokes" in result.output and "Cor answers" not in result.output
    record = load(path)
    assert record["kind"] == "sheet" and record["entries"][-1] == "0 fold"
    # a refused entry: the reason in Dutch, exit 2, the file unchanged
    before = path.read_text()
    result = runner.invoke(cli, ["tally", "--open", str(path), "--lang", "nl",
                                 "-e", "2 last", "-e", "2 fold"])
    assert result.exit_code == 2
    assert "Invoer 2 (2 fold) geweigerd" in flat(result.output), result.output
    assert path.read_text() == before
    # the rest of the session; JSON out
    result = runner.invoke(cli, ["tally", "--open", str(path), "-e", "2 last", "-e", "0 last",
                                 "--json"])
    assert result.exit_code == 0, result.output
    state = json.loads(result.output)
    assert state["over"] and state["players"][state["winner"]] == "Bas"
    assert Sheet.from_record(load(path)).winner == 1
    result = runner.invoke(cli, ["tally", "--open", str(path), "--print", "--lang", "de"])
    assert result.exit_code == 0 and "Bas gewinnt die Partie." in result.output
    assert "1. Bas: als Letzter noch dabei, 1 Leben übrig" in result.output


def test_bad_options_name_the_fault(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(json.dumps({"format": "toepen-record/1", "players": ["A", "B"],
                                "seed": 1}))
    cases = [
        ([], "A new sheet needs the players"),
        (["--players", "Ann"], "A new sheet needs the players"),
        (["--players", "Ann,ann"], "own printable name"),
        (["--players", "Ann,Bas", "-o", "lives=0"],
         "option lives: must be an integer from 1 to 99"),
        (["--players", "Ann,Bas,Cor,Dirk,Eva", "--preset", "teams"], "option teams"),
        (["--players", "Ann,Bas", "--display", "stars"], "display: must be one of"),
        (["--players", "Ann,Bas", "--dealer", "5"], "dealer: must be a seat"),
        (["--open", str(game)], "kind: this is the record of a game, not a score sheet "
         "(kind 'sheet'): toepen replay and toepen review read it"),
        (["--open", str(tmp_path / "none.json")], "cannot read"),
        (["--players", "Ann,Bas", "-e", "0 toep"], "toep is not something the sheet knows"),
    ]
    for args, message in cases:
        result = runner.invoke(cli, ["tally", "--lang", "en", *args])
        assert result.exit_code == 2, (args, result.output)
        assert message in flat(result.output), (args, result.output)


def test_the_screen_takes_typed_entries_undo_and_saves(tmp_path: Path) -> None:
    t = Translator("en")
    sheet = Sheet.new("classic", ["Ann", "Bas", "Cor", "Dirk"], lives=3)
    path = tmp_path / "sheet.json"
    app = TallyApp(sheet, path, t)

    async def run() -> None:
        async with app.run_test(size=(100, 36)) as pilot:
            async def say(text: str) -> None:
                app.query_one("#entry").value = text  # type: ignore[attr-defined]
                await pilot.press("enter")
                await pilot.pause()

            await say("bas exchange")
            await say("cor c caught")
            assert sheet.lives == [3, 2, 3, 3]
            await say("Bas knock")
            await say("Dirk stay")  # Cor is to answer
            message = str(app.query_one("#message").render())
            assert message == "It is not Dirk's turn: Cor is to act."  # named: a shared sheet
            assert len(sheet.entries) == 3
            await say("Cor s")
            await say("nobody fold")
            assert "No one at this table is called nobody" in str(
                app.query_one("#message").render())
            await pilot.press("ctrl+z")
            await pilot.pause()
            assert len(sheet.entries) == 3
            await say("undo")
            assert len(sheet.entries) == 2
            await say("quit")

    # in a thread of its own: a running event loop elsewhere in the session (Playwright's)
    # must not matter
    errors: list[BaseException] = []
    thread = threading.Thread(target=lambda: _run_catching(run, errors))
    thread.start()
    thread.join(60)
    assert not errors, errors
    assert Sheet.from_record(load(path)).entries == sheet.entries


def _run_catching(main: Callable[[], Coroutine[Any, Any, None]],
                  errors: list[BaseException]) -> None:
    try:
        asyncio.run(main())
    except BaseException as e:  # reported by the test's thread
        errors.append(e)


def test_drawing_the_sheet() -> None:
    t = Translator("nl")
    sheet = Sheet.new("rulebook", ["Ann", "Bas", "Cor"], lives=7)
    for e in ["0 knock", "1 knock", "2 fold", "0 knock", "1 stay", "1 last"]:
        sheet.add(e)
    assert strokes(0) == "" and strokes(7) == "卌||"
    assert sheet.lives == [7, 3, 6]  # 2 folded at its accepted 1; 1 paid the stake 4
    assert status_line(t, sheet) == "Ronde 2, Bas deelt, inzet 1."
    table = sheet_table(t, sheet)
    assert [c.header for c in table.columns][:3] == ["#", "Gever", "Inzet"]
    assert parse_line(sheet, "b l").seat == 1 and parse_line(sheet, "2 k").verb == "knock"
