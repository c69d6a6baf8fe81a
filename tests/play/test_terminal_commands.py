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


# -- point 15: arena, simulate, --help, replay --------------------------------------------


@pytest.mark.parametrize("flag", ["--json", "--csv", "--plot"])
@pytest.mark.parametrize("where", ["missing folder", "a folder"])
def test_arena_refuses_an_output_it_cannot_write_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flag: str, where: str,
) -> None:
    import toepen.tools.arena as arena

    played: list[int] = []
    monkeypatch.setattr(arena, "run_arena", lambda *a, **k: played.append(1))
    target = tmp_path / "none" / "out.png" if where == "missing folder" else tmp_path
    result = runner.invoke(cli, ["arena", "--bots", "heuristic,random", "--deals", "2",
                                 flag, str(target)])
    assert result.exit_code == 2, result.output
    assert not played, "the match ran before the output was checked"
    out = flat(result.output.replace("│", " "))
    assert flag in out and "cannot write" in out and "Traceback" not in result.output


@pytest.mark.parametrize("command", ["arena --bots random", "simulate --games 1"])
def test_a_table_size_the_preset_does_not_allow_names_the_flag(command: str) -> None:
    result = runner.invoke(cli, [*command.split(), "--players", "9"])
    assert result.exit_code == 2, result.output
    out = flat(result.output.replace("│", " "))
    assert "table_sizes" not in out and "option" not in out, out
    assert "--players" in out and "2 to 8 players, not 9" in out, out


@pytest.mark.parametrize("command", ["play", "arena", "simulate", "tally", "serve", "bench",
                                     "train reads", "rules"])
def test_help_speaks_in_words_not_python_types(command: str) -> None:
    result = runner.invoke(cli, [*command.split(), "--help"])
    assert result.exit_code == 0, result.output
    import re

    assert not re.search(r"<(list\[|float|int|str|path)[^>]*>", result.output), result.output
    assert "x>=" not in result.output and "<=x" not in result.output, result.output


def test_replay_shows_rubbers_and_rounds_owed(tmp_path: Path) -> None:
    import random

    from toepen.engine import Game
    from toepen.record import save, to_record
    from toepen.rules import Rules

    game = Game(Rules.preset("classic", lives=2, rubbers=3), ("Ann", "Bas", "Cor"), seed=5)
    rng = random.Random(5)
    while game.winner is None and sum(game.rubbers_won) < 2:
        seat = game.turn if game.turn >= 0 else game.to_act[0]
        game.apply(seat, rng.choice(game.legal(seat)))
    assert sum(game.drinks) > 0
    path = tmp_path / "r.json"
    save(to_record(game, use_seed=True), path)
    result = runner.invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "rubbers won" in result.output and "rounds owed" in result.output
    rows = {line.split("│")[2].strip(): line for line in result.output.splitlines()
            if line.count("│") > 4 and line.split("│")[2].strip() in game.players}
    for seat, name in enumerate(game.players):
        cells = [c.strip() for c in rows[name].split("│")]
        assert cells[5:7] == [str(game.rubbers_won[seat]), str(game.drinks[seat])], cells
    data = json.loads(runner.invoke(cli, ["replay", str(path), "--json"]).output)
    assert data["rubbers_won"] == list(game.rubbers_won)


def test_a_broken_json_file_says_where_in_plain_words(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n"format": "toepen-record/1",\n"players": ["Ann')  # unterminated
    for args in (["replay", str(path)], ["play", "--resume", str(path)]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 2
        out = flat(result.output.replace("│", " "))
        assert "at at" not in out and "starting at line 3" in out, out


# -- point 14: words ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it", "nb"])
def test_a_hand_has_its_own_word_apart_from_the_session_rubbers_and_rounds(lang: str) -> None:
    import re

    from toepen.i18n import Translator

    t = Translator(lang, strict=True)
    hand = t("log.deal", hand=7, name="Cor").strip("— ").split()[0].lower()
    assert hand in t("summary.title", hand=7).lower()
    assert hand in t("summary.next_dealer", name="Cor").lower()
    for key, values in [("log.session_result", {"name": "Cor"}), ("screen.winner", {"name": "C"}),
                        ("log.you.session_result", {}), ("phase.over", {}),
                        ("refusal.session_over", {}), ("screen.session_over", {}),
                        ("log.rematch", {}), ("col.drinks", {}), ("col.rubbers", {}),
                        ("screen.rubber", {"n": 2}), ("option.rubbers", {}),
                        ("tally.status.over", {"name": "Cor"})]:
        text = t(key, **values).lower()  # the word, or its plural (runde, runder)
        assert not re.search(rf"\b{hand}(r|n|s|e|en|er)?\b", text), (lang, key, text)


def test_rules_of_a_preset_in_words_wrapped_and_apart(tmp_path: Path) -> None:
    from toepen.i18n import Translator
    from toepen.rules import Rules

    narrow = CliRunner(env={"COLUMNS": "60"})
    for lang in ("en", "nl", "de", "it", "nb"):
        t = Translator(lang)
        result = narrow.invoke(cli, ["rules", "--preset", "kroeg-huisregels", "--lang", lang])
        assert result.exit_code == 0, result.output
        rules_part = result.output.split("  lives=")[0]  # the rules, not the option values
        for raw in ("no_fold", "each", ": 3\n", "plays_open"):
            assert raw not in rules_part, (lang, raw, rules_part)
        assert t("rules.four_of_a_kind.penalty", n=3) in flat(rules_part)
        assert t("option.edge.no_fold") in flat(rules_part)
        assert max(map(len, result.output.splitlines())) < 60, result.output
        listing = narrow.invoke(cli, ["rules", "--lang", lang]).output
        assert max(map(len, listing.splitlines())) < 60, listing
        for name in Rules.preset_names():
            assert f"  {name}  " in listing, (lang, name)


@pytest.mark.parametrize("command", ["play", "tally --players Ann,Bas"])
def test_an_unknown_preset_is_refused_in_the_language(command: str) -> None:
    from toepen.i18n import Translator
    from toepen.rules import Rules

    result = runner.invoke(cli, [*command.split(), "--preset", "bogus", "--lang", "de"])
    assert result.exit_code == 2, result.output
    out = flat(result.output.replace("│", " "))
    assert "unknown preset" not in out and "option preset" not in out, out
    assert flat(Translator("de")("cli.unknown_preset", preset="bogus",
                                 presets=", ".join(Rules.preset_names()))) in out
