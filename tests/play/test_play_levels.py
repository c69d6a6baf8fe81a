"""``toepen play --bots LEVEL``: bots picked by level, saved by the bot's name."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from toepen.cli import app as cli
from toepen.record import load
from toepen.tui.app import PlayApp

runner = CliRunner(env={"COLUMNS": "200"})


def test_play_takes_levels_and_saves_their_bots(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PlayApp, "run", lambda self: None)  # the screen is not the point
    path = tmp_path / "game.json"
    result = runner.invoke(cli, ["play", "--bots", "beginner,good,strong", "--seed", "3",
                                 "--lang", "en", "--name", "Ann", "--save", str(path)])
    assert result.exit_code == 0, result.output
    # what is stored is the level's bot (the old names keep working where records name them)
    assert load(path)["meta"]["bots"] == ["", "beginner", "heuristic", "pimc"]
    result = runner.invoke(cli, ["play", "--bots", "casual", "--players", "2", "--seed", "3",
                                 "--name", "Ann", "--save", str(tmp_path / "two.json")])
    assert result.exit_code == 0, result.output
    assert load(tmp_path / "two.json")["meta"]["bots"] == ["", "casual"]
    result = runner.invoke(cli, ["play", "--bots", "great", "--save", str(tmp_path / "x.json")])
    assert result.exit_code == 2 and "unknown bot 'great'" in result.output
    assert "good" in result.output  # the levels are named among the known bots
