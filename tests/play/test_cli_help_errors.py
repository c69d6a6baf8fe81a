"""``--help`` and the command line's errors (issue 38, point 19): square brackets shown as
written, no line broken in the middle of a sentence, nothing internal in ``toepen bot
--help``, ``toepen serve --help`` without the server saying what to install, the missing
extra said in the ``--lang`` asked, each bot named once, a newer record's error saying to
upgrade, a game record opened as a sheet said so in words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import toepen.cli.extras as extras
from toepen.cli import _flow_help, serve_cmd
from toepen.cli import app as cli
from toepen.i18n import Translator

runner = CliRunner(env={"COLUMNS": "300"})


def flat(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


def without(monkeypatch: pytest.MonkeyPatch, extra: str) -> None:
    """As if ``extra`` were not installed."""
    real = extras.missing
    monkeypatch.setattr(extras, "missing", lambda name: [extras.EXTRAS[name][0]]
                        if name == extra else real(name))


def core_only_app(monkeypatch: pytest.MonkeyPatch) -> typer.Typer:
    """``toepen serve`` registered as with only the core installed."""
    without(monkeypatch, "server")
    monkeypatch.setattr(serve_cmd, "missing", extras.missing)
    app = typer.Typer(name="toepen", add_completion=False, pretty_exceptions_enable=False)
    serve_cmd.register(app)

    @app.command("other")
    def other() -> None:
        """Another command."""

    _flow_help(app)
    return app


def test_help_shows_square_brackets_and_says_what_serve_needs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    app = core_only_app(monkeypatch)
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0, result.output
    assert "needs the [server] extra" in flat(result.output), result.output
    result = runner.invoke(app, ["serve", "--help"])
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "pip install 'toepen[server]'" in text and "lists its options" in text, text


@pytest.mark.parametrize("lang", ["nl", "de"])
def test_the_missing_extra_is_said_in_the_language_asked(
        monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    t = Translator(lang)
    app = core_only_app(monkeypatch)
    result = runner.invoke(app, ["serve", "--lang", lang, "--port", "1"])
    assert result.exit_code == 2, result.output
    words = flat(t("error.extra", command="toepen serve", extra="server",
                   missing="fastapi", install="pip install 'toepen[server]'"))
    assert words in flat(result.output), result.output
    without(monkeypatch, "tui")
    result = runner.invoke(cli, ["play", "--lang", lang])
    assert result.exit_code == 2, result.output
    words = flat(t("error.extra", command="toepen play", extra="tui", missing="textual",
                   install="pip install 'toepen[tui]'"))
    assert words in flat(result.output), result.output


def test_no_help_breaks_a_sentence_in_the_middle() -> None:
    result = runner.invoke(cli, ["--help"])
    assert result.exit_code == 0
    rows = [line for line in result.output.splitlines() if line.startswith("│ ")]
    commands = [r for r in rows if re.match(r"│ [a-z]+ ", r)]
    assert len(commands) >= 10, result.output
    # at 300 columns each command's help is one line: no line of only a continuation
    assert len(rows) == len(commands) + 1, result.output  # and the --help option's row
    for command in ("bot", "tally", "review"):
        result = runner.invoke(cli, [command, "--help"])
        lines = [line.strip() for line in result.output.split("╭")[0].splitlines()]
        prose = [line for line in lines if line and not line.startswith("Usage:")]
        # each paragraph is one line at this width, and none ends without a full stop
        assert all(line.endswith((".", ":", ")")) for line in prose), (command, prose)


def test_bot_help_speaks_of_nothing_internal() -> None:
    result = runner.invoke(cli, ["bot", "--help"])
    assert result.exit_code == 0
    assert "tree:" not in result.output and "DIR" not in result.output, result.output


def test_an_unknown_bot_names_each_bot_once() -> None:
    result = runner.invoke(cli, ["bot", "nosuch"])
    assert result.exit_code == 2
    known = flat(result.output).split("known: ", 1)[1].split(")")[0].split(", ")
    assert "expert" in known and len(known) == len(set(known)), known


def test_a_record_of_a_newer_format_says_to_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "new.json"
    path.write_text(json.dumps({"format": "toepen-record/2", "players": ["A", "B"]}))
    for args in (["replay", str(path)], ["tally", "--open", str(path), "--print"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 2, result.output
        assert "upgrade toepen" in flat(result.output), (args, result.output)
    path.write_text(json.dumps({"format": "toepen-record/0", "players": ["A", "B"]}))
    result = runner.invoke(cli, ["replay", str(path)])
    assert "upgrade" not in result.output and "must be 'toepen-record/1'" in flat(
        result.output), result.output


def test_a_game_record_opened_as_a_sheet_is_said_in_words(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    game.write_text(json.dumps({"format": "toepen-record/1", "players": ["A", "B"],
                                "seed": 1}))
    result = runner.invoke(cli, ["tally", "--lang", "en", "--open", str(game)])
    assert result.exit_code == 2, result.output
    text = flat(result.output)
    assert "None" not in text and "the record of a game, not a score sheet" in text, text
