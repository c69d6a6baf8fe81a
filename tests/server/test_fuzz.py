"""Random garbage from a seated client: always a clear error, never a crash or a change."""

from __future__ import annotations

import json
import random
from typing import Any

from .conftest import Player, Server, create
from .schema import check_server_message

VALUES: list[Any] = [None, True, 0, -1, 2**70, 1.5, "", "x" * 300, "play Th", "knock",
                     [], [1, "a"], {}, {"v": 1}, "\u0000", "ÿ"]


def garbage(rng: random.Random, state: int) -> str:
    """One message that is not a valid action at ``state`` (wrong in at least one way)."""
    msg: dict[str, Any] = {}
    for key in rng.sample(["v", "type", "action", "state", "id", "token", "command", "seat",
                           "bot", "extra"], rng.randint(0, 6)):
        msg[key] = rng.choice(VALUES)
    if rng.random() < 0.5:
        msg["v"] = 1
        msg["type"] = rng.choice(["act", "hello", "host", "ping", "nope", 7])
    if msg.get("type") == "act" and msg.get("state") == state:
        msg["state"] = state + 1  # a valid action would (rightly) change the table
    if msg.get("type") == "host":
        msg["command"] = rng.choice(["start", "add_bot", "remove_bot", "remove_seat", None])
    kind = rng.random()
    if kind < 0.1:
        return json.dumps(msg)[: rng.randint(0, 20)]
    if kind < 0.15:
        return json.dumps([msg])
    if kind < 0.2:
        return "[" * 5000  # deep nesting, within the size limit
    return json.dumps(msg)


def test_garbage_never_changes_a_table(server: Server) -> None:
    t = create(server, name="Ann", size=3, bots={"1": "random", "2": "random"}, autostart=True,
               options={"lives": 5})
    tid = t["table"]["id"]
    ann = Player(server, tid, t["token"])
    ann.wait(lambda m: m["type"] == "state" and bool(m["view"]["legal"]), 20)
    assert ann.state is not None
    state, view = ann.state["state"], ann.view
    rng = random.Random(2024)
    answers = 0
    for _ in range(150):
        ann.send(garbage(rng, state))
        msg = ann.wait(lambda m: m["type"] in ("error", "pong", "table", "state"))
        check_server_message(msg)
        if msg["type"] == "state":  # only a host command could do this; none may start twice
            raise AssertionError(f"garbage changed the game: {msg}")
        answers += msg["type"] == "error"
    assert answers >= 100
    ann.drain(0.3)
    assert server.get(f"/api/tables/{tid}").json()["state"] == state
    again = Player(server, tid, t["token"])
    again.wait(lambda m: m["type"] == "state")
    assert again.view == view
    # Still playable.
    again.send({"v": 1, "type": "act", "action": view["legal"][0], "state": state})
    assert again.wait(lambda m: m["type"] in ("state", "error"))["type"] == "state"
    for p in (ann, again):
        p.close()
