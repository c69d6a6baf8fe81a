"""The score sheet under pot toepen (issue 39): a buy-in is entered (``SEAT rebuy``),
any other entry means those asked stayed out, the sheet keeps the buy-ins and the pot,
and its record replays them."""

from __future__ import annotations

import pytest

from toepen.record import RecordError
from toepen.rules import Rules
from toepen.settle import evening, transfers
from toepen.tally import Sheet

RULES = Rules.preset("rulebook", lives=2, rebuy="once", pot=0.5, armoede=False)


def _sheet() -> Sheet:
    sheet = Sheet(RULES, ["Ann", "Bas", "Cor"])
    for entry in ("1 last", "1 last"):  # Bas takes the last trick twice: out
        sheet.add(entry)
    return sheet


def test_a_buy_in_is_entered_and_comes_back_with_the_fewest_lives() -> None:
    sheet = _sheet()
    assert sheet.phase == "rebuy" and sheet.rebuyers == (1,)
    assert "1 rebuy" in [str(e) for e in sheet.legal_entries()]
    assert sheet.refusal("2 rebuy").code == "not_now"  # Cor is in: nothing to buy
    assert sheet.refusal("1 knock").code == "out_of_session"  # Bas is out until he buys
    sheet.add("1 rebuy")
    assert sheet.phase == "play" and sheet.rebuys == (0, 1, 0)
    assert sheet.lives == [2, 2, 2] and sheet.pot == 200
    doc = sheet.to_json()
    assert doc["rebuys"] == [0, 1, 0] and doc["pot"] == 200 and doc["pot_unit"] == "€"
    again = Sheet.from_record(sheet.to_record())
    assert again.rebuys == sheet.rebuys and again.lives == sheet.lives


def test_another_entry_means_the_out_player_stayed_out() -> None:
    sheet = _sheet()
    sheet.add("0 knock")  # the next hand: Bas did not buy back in
    assert sheet.rebuys == (0, 0, 0) and sheet.pot == 150
    assert sheet.phase == "answer" and sheet.hand_no == 3


def test_once_is_once_and_the_pot_is_settled_at_the_end() -> None:
    sheet = _sheet()
    sheet.add("1 rebuy")
    for entry in ("1 last", "1 last"):  # out again: no second buy-in under once
        sheet.add(entry)
    assert sheet.phase != "rebuy" and sheet.refusal("1 rebuy").code == "out_of_session"
    for entry in ("2 last", "2 last"):
        sheet.add(entry)
    assert sheet.is_over and sheet.to_json()["pot_balances"] == [150, -100, -50]
    assert sheet.to_json()["settlement"] == [{"payer": 1, "payee": 0, "cents": 100},
                                             {"payer": 2, "payee": 0, "cents": 50}]
    record = sheet.to_record()  # the export says who pays whom, and is checked on reading
    assert record["pot"] == {"balances": [150, -100, -50],
                             "settlement": sheet.to_json()["settlement"]}
    assert Sheet.from_record(record).to_record() == record
    forged = {**record, "pot": {**record["pot"], "balances": [0, 0, 0]}}
    with pytest.raises(RecordError, match="^pot: the record says"):
        Sheet.from_record(forged)
    other = Sheet(RULES, ["Cor", "Ann", "Bas"])  # a second game of the evening: Cor wins
    for entry in ("1 last", "1 last", "2 last", "2 last"):
        other.add(entry)
    evening_total = evening([sheet.pot_by_name(), other.pot_by_name()])
    assert evening_total == {"Ann": 100, "Bas": -150, "Cor": 50}
    assert [str(t) for t in transfers(evening_total)] == ["Bas pays Ann 100",
                                                          "Bas pays Cor 50"]
    lines = sheet.to_json()["standings_say"]
    assert any(line["params"]["figures"].get("msg") == "standings.fig.rebuys"
               for line in lines if line["id"].startswith("standings.row"))
