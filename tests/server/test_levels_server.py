"""Bot levels at the server: offered in the lobby, resolved to their bot, the stand-in's."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from toepen.bots.base import level_names
from toepen.server.tables.scheduler import Scheduler

from .conftest import Server, create

ROOT = Path(__file__).resolve().parents[2]


def test_the_lobby_is_offered_levels_and_a_level_seats_its_bot(server: Server) -> None:
    presets = server.get("/api/presets").json()
    assert [lv["name"] for lv in presets["levels"]] == level_names()
    assert {lv["bot"] for lv in presets["levels"]} <= set(presets["bots"])
    t = create(server, name="Ann", size=4, bots={"1": "beginner", "2": "good", "3": "pimc"})
    seats = t["table"]["seats"]
    # the seat holds the level's bot (what records and saves name); old names still work
    assert [s["bot"] for s in seats[1:]] == ["beginner", "heuristic", "pimc"]
    # ... and says its level, which the clients name (level.<name>), not the bot's kind
    assert [s.get("level") for s in seats] == [None, "beginner", "good", "strong"]
    assert presets["external"] == []
    bad = server.post("/api/tables", {"name": "Ann", "size": 3, "bots": {"1": "great"}})
    assert bad.status_code == 400 and "unknown bot 'great'" in bad.text
    assert "good" in bad.text  # the levels are among the bots named in the refusal


def test_the_protocol_schema_knows_the_levels() -> None:
    schema = json.loads((ROOT / "docs" / "protocol.schema.json").read_text(encoding="utf-8"))
    level = schema["$defs"]["seat_info"]["properties"]["level"]
    assert level["enum"] == level_names()


def seats(*bots: str | None) -> Any:
    return SimpleNamespace(seats=[SimpleNamespace(kind="bot" if b else "person", bot=b)
                                  for b in bots])


def test_the_stand_in_plays_at_the_level_of_the_tables_bots() -> None:
    assert Scheduler.standin_bot(seats(None, None)) == "heuristic"  # no bot: good
    assert Scheduler.standin_bot(seats(None, "beginner", "beginner")) == "beginner"
    assert Scheduler.standin_bot(seats(None, "expert", "pimc", "expert")) == "expert"
    assert Scheduler.standin_bot(seats(None, "random", "casual")) == "casual"
    assert Scheduler.standin_bot() == "heuristic"
