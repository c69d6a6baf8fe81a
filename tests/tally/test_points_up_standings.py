"""``count: points_up`` (issue 22, 5c): the score sheet counts penalty points up to the
limit and nothing else: no row of lives on the terminal's sheet, no "(10 lives)" in the
standings of ``toepen tally --print``; the standings say "N of LIMIT penalty points"."""

from __future__ import annotations

import re
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from toepen.cli import app as cli
from toepen.i18n import Translator
from toepen.narration import standings
from toepen.tally import Sheet
from toepen.tui.tally import sheet_table

runner = CliRunner(env={"COLUMNS": "200"})
ENTRIES = ["1 knock", "2 stay", "0 fold", "1 last"]


def flat(output: str) -> str:
    return " ".join(re.sub("[│╭╮╰╯─┃━┏┓┗┛┡┩╇╋┳┻]", " ", output).split())


def test_the_terminal_sheet_has_no_lives_row_under_points_up() -> None:
    t = Translator("en", strict=True)
    for count, lives_row in (("points_up", False), ("lives_down", True)):
        sheet = Sheet.new("rulebook", ["Ann", "Bas", "Cor"], lives=3, count=count)
        for e in ENTRIES:
            sheet.add(e)
        console = Console(width=200, record=True)
        console.print(sheet_table(t, sheet))
        text = console.export_text()
        assert (t("tally.lives") in text) is lives_row, text
        if not lives_row:
            assert t("tally.points") in text


def test_tally_print_gives_the_standings_in_penalty_points(tmp_path: Path) -> None:
    path = tmp_path / "sheet.json"
    args = ["tally", "--players", "Ann,Bas,Cor", "--lives", "3", "-o", "count=points_up",
            "--save", str(path), "--lang", "en"]
    for e in ENTRIES:
        args += ["-e", e]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["tally", "--open", str(path), "--print", "--lang", "en"])
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "lives)" not in out and "Lives" not in out, out
    # Ann folded (1 point), Cor... each line says the points towards the limit of 3
    sheet = Sheet.new("rulebook", ["Ann", "Bas", "Cor"], lives=3, count="points_up")
    for e in ENTRIES:
        sheet.add(e)
    t = Translator("en", strict=True)
    for m in standings(sheet.places(), sheet.rules, over=sheet.is_over)[1:]:
        line = m.render(t, sheet.players)
        assert "penalty points" in line and "of 3" in line, line
        assert flat(line) in out
