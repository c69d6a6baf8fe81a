"""docs/protocol.md and its schema say what the server sends, all of it and nothing else
(issue 38, points 25-27): the view's fields, the engine's words (phases, events, refusals),
the catalog's keys, and a schema strict enough that a frame missing what the prose
promises is refused."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from toepen.engine import REFUSAL_CODES, EventKind, Game, Phase
from toepen.i18n import catalog_json
from toepen.server import protocol
from toepen.view import observe

from .schema import SCHEMA, errors

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of a section of protocol.md, from its heading to the next one."""
    start = DOC.index(title)
    end = re.compile(r"^#{2,3} ", re.M).search(DOC, start + len(title))
    return DOC[start:end.start() if end else len(DOC)]


def views() -> list[dict[str, Any]]:
    """Views of several presets and sizes, at the start and some way in."""
    out = []
    for preset, size in (("rulebook", 4), ("classic", 3), ("teams", 4), ("kroeg-huisregels", 5)):
        game = Game.new(preset, size, seed=5)
        for _ in range(12):
            seat = game.to_act[0]
            game.apply(seat, game.legal(seat)[-1])
        out += [observe(game, 0).to_json(), observe(game, None).to_json()]
    return out


def test_every_field_of_the_view_is_documented_and_in_the_schema() -> None:
    emitted = set().union(*(v.keys() for v in views()))
    rows = re.findall(r"^\| `([a-z_]+)` \|", section("### The view"), re.M)
    assert len(rows) == len(set(rows)), "a field documented twice"
    assert set(rows) == emitted, (f"undocumented: {emitted - set(rows)}; "
                                  f"documented but not sent: {set(rows) - emitted}")
    view = SCHEMA["$defs"]["view"]
    assert set(view["properties"]) == set(view["required"]) == emitted
    assert view["additionalProperties"] is False
    for v in views():
        assert errors(v, "view") == []


def test_the_schema_holds_the_engines_words() -> None:
    defs = SCHEMA["$defs"]
    assert defs["phase"]["enum"] == [str(p) for p in Phase]
    assert defs["event"]["properties"]["kind"]["enum"] == [str(k) for k in EventKind]
    assert defs["refusal"]["properties"]["code"]["enum"] == list(REFUSAL_CODES)
    assert defs["react"]["properties"]["react"]["enum"] == list(protocol.REACTIONS)


def frames() -> dict[str, dict[str, Any]]:
    game = Game.new("rulebook", 2, seed=1)
    return {"welcome": json.loads(protocol.welcome(
                {"id": "3f2a9c0b1d4e", "code": "K7PXQ2", "status": "lobby", "rules": "rulebook",
                 "preset": "rulebook", "size": 2, "idle_seconds": 60, "seats": [],
                 "spectators": 0, "state": 0, "winner": None,
                 "created": "2026-11-29T15:00:00Z", "record": None, "rules_full": {},
                 "rated": False, "rematch": None, "offer": None}, 0, True)),
            "state": json.loads(protocol.state(observe(game, 0), (), None, [])),
            "error": json.loads(protocol.error("stale", "state 3 is stale", 7))}


@pytest.mark.parametrize(("kind", "field"), [
    ("state", "prompt"), ("error", "say"), ("welcome", "limits"), ("welcome", "chat"),
    ("welcome", "reactions")])
def test_the_schema_requires_what_the_server_always_sends(kind: str, field: str) -> None:
    msg = frames()[kind]
    assert errors(msg) == []
    del msg[field]
    assert errors(msg) != [], f"a {kind} without {field} passes the schema"


@pytest.mark.parametrize("where", ["state", "state.view", "welcome", "welcome.limits",
                                   "welcome.reactions.0", "error", "error.say"])
def test_the_schema_refuses_a_field_it_does_not_know(where: str) -> None:
    kind, *path = where.split(".")
    msg = copy.deepcopy(frames()[kind])
    assert errors(msg) == []
    target = msg
    for key in path:
        target = target[int(key)] if key.isdigit() else target[key]
    target["surprise"] = 1
    assert errors(msg) != [], f"an unknown field in {where} passes the schema"


def test_the_catalog_is_documented() -> None:
    text = section("## The message catalog")
    for key in catalog_json("en"):
        assert f"`{key}`" in text, f"the catalog's {key!r} is not described"


def test_the_card_notation_is_in_the_doc() -> None:
    from toepen.cards import RANKS, SUITS

    top = DOC[:DOC.index("## Words")]
    assert f"`{' '.join(RANKS)}`" in top and f"`{' '.join(SUITS)}`" in top
    assert "cards.py" not in top  # the notation is written out, not pointed to
