"""The terminal's commands around the game (issue 25, points 12 to 16): what ``toepen play``
says after a rematch and about a broken save, ``toepen tally -e``, the words of ``toepen
rules``, ``arena``, ``simulate`` and ``replay``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toepen.cli import app as cli
from toepen.record import load
from toepen.tui.app import PlayApp

from .driver import play_out, settle

runner = CliRunner(env={"COLUMNS": "200"})


def flat(text: str) -> str:
    return " ".join(text.split())


# -- point 12: the rematch's files, and a save's errors blame the save -------------------


def test_after_a_rematch_both_files_are_named_and_the_new_one_can_be_continued(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    def run(self: PlayApp) -> None:
        async def go() -> None:
            async with self.run_test(size=(120, 36)) as pilot:
                await play_out(pilot, self)
                assert self.over
                await pilot.press("n")
                await settle(pilot, self)  # the rematch waits for Ann's first move
                await pilot.press("q")
                await pilot.pause()
        asyncio.run(go())

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(PlayApp, "run", run)
    result = runner.invoke(cli, ["play", "--bots", "random", "--lives", "1", "--seed", "4",
                                 "--lang", "en", "--name", "Ann", "--fast"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    saved = [line.removeprefix("Game saved to ") for line in lines
             if line.startswith("Game saved to ")]
    assert len(saved) == 2, lines
    first, second = map(Path, saved)
    assert first != second
    assert load(first)["actions"]
    from toepen.record import replay

    assert replay(load(first)).winner is not None  # the finished game
    assert replay(load(second)).winner is None  # the rematch, under way
    assert lines[-1].endswith(f"toepen play --resume {second}"), lines


def _save(tmp_path: Path, **meta: object) -> Path:
    record = {"format": "toepen-record/1", "rules": {"preset": "rulebook", "lives": 2},
              "players": ["Ann", "Bas", "Cor", "Dirk"], "seed": 3, "actions": [],
              "meta": {"client": "toepen play", "human": 0,
                       "bots": ["", "random", "random", "random"], **meta}}
    path = tmp_path / "save.json"
    path.write_text(json.dumps(record))
    return path


@pytest.mark.parametrize("meta", [
    {"bots": ["", "", "random", "random"]},
    {"bots": ["", "no-such-bot", "random", "random"]},
    {"bots": ["", "random"]},
    {"human": 9},
])
def test_a_broken_save_is_blamed_not_a_flag_never_given(tmp_path: Path,
                                                        meta: dict[str, object]) -> None:
    path = _save(tmp_path, **meta)
    result = runner.invoke(cli, ["play", "--resume", str(path), "--lang", "en"])
    assert result.exit_code == 2, result.output
    out = flat(result.output)
    assert "--bots" not in out and "--players" not in out, out
    assert out.count("--resume") == 1 and str(path) in out, out
    assert "Traceback" not in result.output


# -- point 13: toepen tally -e takes what the screen takes; its refusals speak of a sheet --


def test_tally_entries_take_names_prefixes_seats_verbs_and_keys(tmp_path: Path) -> None:
    save = tmp_path / "sheet.json"
    result = runner.invoke(cli, ["tally", "--players", "Ann,Bas,Cor,Dirk", "--lang", "en",
                                 "--save", str(save), "-e", "Bas knock", "-e", "c stay",
                                 "-e", "3 s", "-e", "Ann f", "-e", "Dirk last", "--json"])
    assert result.exit_code == 0, result.output
    from toepen.tally import Sheet

    sheet = Sheet.from_record(load(save))
    assert [str(e) for e in sheet.entries] == ["1 knock", "2 stay", "3 stay", "0 fold",
                                               "3 last"]
    result = runner.invoke(cli, ["tally", "--players", "Ann,Bas,Cor,Dirk", "--lang", "en",
                                 "-e", "Ann last", "-e", "2 k", "--print"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it", "nb"])
def test_a_tally_refusal_does_not_ask_for_a_card(tmp_path: Path, lang: str) -> None:
    from toepen.i18n import Translator

    t = Translator(lang)
    result = runner.invoke(cli, ["tally", "--players", "Ann,Bas,Cor", "--lang", lang,
                                 "-e", "Ann fold"])
    assert result.exit_code == 2, result.output
    out = flat(result.output.replace("│", " "))
    assert flat(t("tally.phase.play")) in out, out
    assert flat(t("phase.play")) not in out and flat(t("phase.play.card")) not in out
    result = runner.invoke(cli, ["tally", "--players", "Ann,Bas,Cor", "--lang", lang,
                                 "-e", "Zed knock"])
    assert result.exit_code == 2
    assert flat(t("tally.input.who", who="Zed")) in flat(result.output.replace("│", " "))
