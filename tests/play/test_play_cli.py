"""``toepen play`` on the command line: options, errors, saving and ``--resume``."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toepen.cli import app as cli
from toepen.record import load
from toepen.tui.app import PlayApp

from .driver import play_out, settle

runner = CliRunner(env={"COLUMNS": "200"})


def flat(output: str) -> str:
    """Output without rich's error box, on one line."""
    return " ".join(re.sub("[│╭╮╰╯─]", " ", output).split())


def test_bad_options_are_refused_before_the_screen_opens() -> None:
    cases = [
        (["--lang", "fr"], "'fr' is not available (one of en, nl, de, it, nb)"),
        (["--bots", "nobody"], "unknown bot 'nobody'"),
        (["--bots", "random,random", "--players", "4"], "give one name or 3 names"),
        (["--preset", "teams", "--players", "5"], "teams: needs 4 or 6 players, not 5"),
        (["--option", "lives=0"], "option lives: must be an integer >= 1"),
        (["--preset", "nope"], "unknown preset 'nope'"),
        (["--resume", "/nonexistent/game.json"], "cannot read /nonexistent/game.json"),
    ]
    for args, message in cases:
        result = runner.invoke(cli, ["play", *args])
        assert result.exit_code == 2, (args, result.output)
        assert message in flat(result.output), (args, result.output)


def test_resume_refuses_a_record_not_saved_by_play(tmp_path: Path) -> None:
    path = tmp_path / "plain.json"
    path.write_text(json.dumps({"format": "toepen-record/1", "rules": "rulebook",
                                "players": ["A", "B", "C"], "seed": 3, "actions": []}))
    result = runner.invoke(cli, ["play", "--resume", str(path)])
    assert result.exit_code == 2
    assert "not a game saved by toepen play" in flat(result.output)


def _headless_run(presses: int, interrupt: bool) -> object:
    def run(self: PlayApp) -> None:
        async def go() -> None:
            async with self.run_test(size=(120, 42)) as pilot:
                await settle(pilot, self)
                await play_out(pilot, self, max_presses=presses)
                if not interrupt:
                    await pilot.press("ctrl+c")
                    await pilot.pause()
        asyncio.run(go())
        if interrupt:
            raise KeyboardInterrupt

    return run


@pytest.mark.parametrize("interrupt", [False, True])
def test_play_saves_in_the_data_folder_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interrupt: bool,
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(PlayApp, "run", _headless_run(3, interrupt))
    result = runner.invoke(cli, ["play", "--bots", "random", "--lives", "3", "--seed", "9",
                                 "--lang", "nl", "--name", "Ann", "--fast"])
    assert result.exit_code == 0, result.output
    saved_line, resume_line = result.output.strip().splitlines()[-2:]
    assert saved_line.startswith("Spel bewaard in ")
    path = Path(saved_line.removeprefix("Spel bewaard in "))
    assert path.parent == tmp_path / "data" / "toepen" / "games"
    assert resume_line == f"Verder spelen met: toepen play --resume {path}"
    record = load(path)
    assert record["seed"] == 9 and record["players"][0] == "Ann"
    assert record["meta"]["client"] == "toepen play" and record["meta"]["lang"] == "nl"
    assert record["meta"]["bots"] == ["", "random", "random", "random"]
    before = len(record["actions"])
    assert before > 3

    result = runner.invoke(cli, ["play", "--resume", str(path), "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert f"Spiel gespeichert unter {path}" in result.output
    after = load(path)["actions"]
    assert len(after) > before and after[:before] == record["actions"]


def test_language_from_the_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    monkeypatch.setattr(PlayApp, "run", _headless_run(1, False))
    save = tmp_path / "g.json"
    result = runner.invoke(cli, ["play", "--bots", "random", "--save", str(save), "--fast"])
    assert result.exit_code == 0, result.output
    assert f"Partita salvata in {save}" in result.output
    assert load(save)["meta"]["lang"] == "it"
