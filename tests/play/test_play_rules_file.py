"""``toepen play --rules FILE``: a table's own rule set from a file, ``-o`` on top."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toepen.cli import app as cli
from toepen.record import load
from toepen.rules import Rules
from toepen.tui.app import PlayApp

runner = CliRunner(env={"COLUMNS": "200"})


def flat(output: str) -> str:
    return " ".join(re.sub("[│╭╮╰╯─]", " ", output).split())


def test_a_rules_file_is_played_with_options_on_top(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(PlayApp, "run", lambda self: None)  # no screen: the record is kept
    ours = tmp_path / "ours.json"
    ours.write_text(json.dumps({"preset": "kroeg-huisregels", "laundry_caught": "plays_open"}))
    save = tmp_path / "game.json"
    result = runner.invoke(cli, ["play", "--rules", str(ours), "-o", "lives=4", "--lang", "en",
                                 "--bots", "random", "--seed", "3", "--save", str(save)])
    assert result.exit_code == 0, result.output
    rules = Rules.from_json(load(save)["rules"])
    assert rules == Rules.preset("kroeg-huisregels", laundry_caught="plays_open", lives=4)
    # A saved record's rules serve as well.
    again = tmp_path / "again.json"
    result = runner.invoke(cli, ["play", "--rules", str(save), "--lang", "en", "--bots",
                                 "random", "--save", str(again)])
    assert result.exit_code == 0, result.output
    assert Rules.from_json(load(again)["rules"]) == rules


@pytest.mark.parametrize(("text", "message"), [
    (None, "cannot read the rules (No such file or directory)"),
    ("{nope", "cannot read the rules (Expecting property name"),
    ('{"preset": "kroeg-huisregels", "edge": "sharp"}',
     "option edge: must be one of normal, no_fold, plays_dead"),
    ('{"preset": "gezinstoepen", "blind_knock": true}',
     "option blind_knock: raises the stake to 3, but max_stake is 2"),
])
def test_a_bad_rules_file_is_refused_naming_what_is_wrong(
    tmp_path: Path, text: str | None, message: str
) -> None:
    path = tmp_path / "rules.json"
    if text is not None:
        path.write_text(text)
    result = runner.invoke(cli, ["play", "--rules", str(path), "--lang", "en"])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)
