"""Sheet records kept before the sheet ran on the engine (issue 22) load to the same sheet.

``data/sheets_before_issue22.json`` was written by the sheet's own machine of before
(commit 3f061f8), from bot sessions of every case of ``test_tally_engine.py``, finished
and kept halfway: each record with the state that sheet showed (seats and lives, stake,
dealer, hand, rubber, winner, the rows). The sheet on the engine must read each record
and show the same.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from toepen.tally import Sheet

_DATA = json.loads((Path(__file__).parent / "data" / "sheets_before_issue22.json").read_text())


def test_the_file_holds_finished_and_unfinished_sheets_of_the_house_rules() -> None:
    assert len(_DATA) >= 50
    assert {d["state"]["over"] for d in _DATA} == {True, False}
    rules = [d["record"]["rules"] for d in _DATA]
    assert any(isinstance(r, dict) and r.get("blind_knock") for r in rules)
    assert any(isinstance(r, dict) and r.get("laundry_check") == "each" for r in rules)


@pytest.mark.parametrize("item", _DATA, ids=[str(i) for i in range(len(_DATA))])
def test_an_old_sheet_record_loads_to_the_same_sheet(item: dict[str, Any]) -> None:
    sheet = Sheet.from_record(item["record"])
    state = json.loads(json.dumps(sheet.to_json()))
    want = copy.deepcopy(item["state"])
    last = want["hands"][-1] if want["hands"] else None
    if want["over"] and last is not None and last["last"] is None and last["left"] is None:
        # Issue 38: a fold or a penalty that ends the session ends its hand with a
        # result, so the sheet now names the side left (the winner's) where it named none.
        left = state["hands"][-1]["left"]
        assert left is not None and sheet.team_of[left] == sheet.team_of[want["winner"]]
        last["left"] = left
    assert {k: state[k] for k in want} == want
    assert sheet.to_record() == item["record"]
