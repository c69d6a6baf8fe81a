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
        (["--preset", "teams", "--players", "5"],
         "--players: teams is played by 4, 6 players, not 5"),
        (["--option", "lives=0"], "option lives: must be an integer from 1 to 99"),
        (["--option", "lives=1000000000000000000"],
         "option lives: must be an integer from 1 to 99, not 1000000000000000000"),
        (["--option", "rubbers=100"], "option rubbers: must be null or an integer from 1 to 99"),
        (["--preset", "nope"], "--preset: unknown preset nope"),
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
    assert f"Partie gespeichert unter {path}" in result.output
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


def test_games_started_in_the_same_second_with_one_seed_get_their_own_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toepen.rules import Rules
    from toepen.tui import session as session_mod

    monkeypatch.setattr(session_mod, "_stamp", lambda: "20260101-120000")
    folder = tmp_path / "games"
    sessions = []
    for name in ("Ann", "Bob", "Cas"):
        s = session_mod.PlaySession.new(Rules.preset("rulebook"), players=3, bots=["random"],
                                        name=name, seed=42, path=None)
        s.path = session_mod.default_path(s.seed, folder)
        sessions.append(s)
    paths = [s.path for s in sessions]
    assert len(set(paths)) == 3, paths
    for s in sessions:  # each saves (the .tmp rename included) into its own file
        s.save()
    for s in sessions:
        assert s.path is not None
        assert load(s.path)["players"][0] == s.game.players[0]
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in paths
                                                               if p is not None)


def test_two_plays_in_the_same_second_do_not_overwrite_each_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toepen.tui import session as session_mod

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(session_mod, "_stamp", lambda: "20260101-120000")
    monkeypatch.setattr(PlayApp, "run", _headless_run(2, False))
    saved = []
    for name in ("Ann", "Bob"):
        result = runner.invoke(cli, ["play", "--bots", "random", "--seed", "5", "--lang", "en",
                                     "--name", name, "--fast", "--players", "3"])
        assert result.exit_code == 0, result.output
        line = next(x for x in result.output.splitlines() if x.startswith("Game saved"))
        saved.append(Path(line.split(" ", 3)[-1]))
    assert saved[0] != saved[1]
    assert [load(p)["players"][0] for p in saved] == ["Ann", "Bob"]


def test_help_lists_choices_and_shows_no_type_after_flags() -> None:
    from toepen.bots.base import BUILTIN
    from toepen.rules import Rules

    for args in (["play", "--help"], ["rules", "--help"], ["--help"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, result.output
        assert "<bool>" not in result.output, (args, result.output)
    text = flat(runner.invoke(cli, ["play", "--help"]).output)
    assert "--fast Bots move" in text and "--help Show this" in text
    for name in Rules.preset_names():
        assert name in text, name
    for spec in BUILTIN:
        assert spec.name in text, spec.name
    assert "--delay SECONDS [at least 0]" in text  # options that take a value still show it


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it", "nb"])
def test_option_errors_name_the_option_once_in_the_language(lang: str) -> None:
    from toepen.i18n import Translator

    t = Translator(lang, strict=True)
    cases = [
        (["--players", "9"], t("error.players", preset="rulebook", n=9,
                                sizes="2, 3, 4, 5, 6, 7, 8"), "--players"),
        (["--preset", "teams", "--players", "5"],
         t("error.players", preset="teams", n=5, sizes="4, 6"), "--players"),
        (["--preset", "gezinstoepen", "--players", "6"],
         t("error.players", preset="gezinstoepen", n=6, sizes="3, 4"), "--players"),
        (["--name", ""], t("cli.bad_name"), "--name"),
        (["--name", "x" * 30], t("cli.bad_name"), "--name"),
        (["--bots", ","], t("cli.no_bots", bots="beginner, casual, good, strong, expert, "
                            "random, heuristic, pimc, cmd:COMMAND"), "--bots"),
    ]
    for args, message, option in cases:
        result = runner.invoke(cli, ["play", "--lang", lang, *args])
        assert result.exit_code == 2, (args, result.output)
        out = flat(result.output)
        assert message in out, (args, out)
        assert "table_sizes" not in out and "Invalid value" not in out, out
        assert out.count(option) == 1, out  # once, in the localised message


def test_rules_command_lists_presets_and_options_in_the_language() -> None:
    from toepen.i18n import LANGUAGES, Translator
    from toepen.rules import Rules

    for lang in LANGUAGES:
        t = Translator(lang, strict=True)
        result = runner.invoke(cli, ["rules", "--lang", lang])
        assert result.exit_code == 0, result.output
        out = flat(result.output)  # long lines are wrapped at the window's width
        assert flat(t("rules_cmd.presets")) in out and flat(t("rules_cmd.more")) in out
        for name in Rules.preset_names():
            assert flat(f"{t(f'preset.{name}')}: {t(f'preset.{name}.about')}") in out, (
                lang, name)
        for option in Rules.option_names():
            assert option in out and flat(t(f"option.{option}")) in out, (lang, option)
        assert flat(t("rules_cmd.facts", sizes="4, 6", lives=10)) in out  # teams
        assert flat(t("rules_cmd.choices", choices="loses, wins")) in out
    result = runner.invoke(cli, ["rules", "--preset", "classic", "--lang", "it"])
    assert result.exit_code == 0, result.output
    t = Translator("it", strict=True)
    assert result.output.startswith(f"classic: {t('preset.classic')}\n")
    assert t("rules.exchange") in result.output and t("rules.pelt") in result.output
    assert "last_trick=wins" in result.output and "session=rubber" in result.output
    result = runner.invoke(cli, ["rules", "--preset", "nope", "--lang", "nl"])
    assert result.exit_code == 2
    assert Translator("nl")("cli.unknown_preset", preset="nope",
                            presets=", ".join(Rules.preset_names())) in flat(result.output)


def test_every_command_is_in_the_readmes_command_list() -> None:
    import typer.main

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    commands = typer.main.get_command(cli).commands  # type: ignore[attr-defined]
    assert "rules" in commands
    for name in commands:
        assert f"### `toepen {name}" in readme, name
