"""What a client written from docs/protocol.md alone relies on (issue 38, points 22-27),
against a real server: ids echoed on every refusal, a summary in the ``state`` that ends a
hand also when it ends the session, ``last`` after a reconnect, a cut history marked, the
bot names of ``/api/presets`` accepted by ``CreateTable``. Every frame received here is
validated against the strict schema by ``Player`` (conftest)."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from websockets.sync.client import connect

from toepen.engine import Event, EventKind
from toepen.server import protocol

from .conftest import Player, Server, create
from .schema import SCHEMA, VALIDATORS


def two_people(server: Server, **options: Any) -> tuple[Player, Player, Player, str]:
    """A table of two people (Ann the host at seat 0, Bas at seat 1) and a spectator,
    started; the players' and spectator's clients and the host's token."""
    host = create(server, name="Ann", size=2, options=options)
    tid = host["table"]["id"]
    r = server.post(f"/api/tables/{tid}/join", {"name": "Bas"})
    assert r.status_code == 200, r.text
    a = Player(server, tid, host["token"])
    b = Player(server, tid, r.json()["token"])
    watcher = Player(server, tid)
    r = server.post(f"/api/tables/{tid}/start", {},
                    headers={"Authorization": "Bearer " + host["token"]})
    assert r.status_code == 200, r.text
    for p in (a, b, watcher):
        p.wait(lambda m: m["type"] == "state")
    return a, b, watcher, host["token"]


def fold_out(a: Player, b: Player) -> None:
    """Ann knocks when she can, anyone asked to answer a knock folds, every other
    decision is a pass or the first legal move: the session ends on a fold."""
    end = time.monotonic() + 60
    while not (a.view["winner"] is not None and b.view["winner"] is not None):
        assert time.monotonic() < end, a.view
        for p in (a, b):
            p.poll(0.02)
            legal = p.view["legal"]
            if not legal or p.view["winner"] is not None:
                continue
            if "knock" in legal and p is a and p.view["stake"] == 1:
                action = "knock"
            elif "fold" in legal:
                action = "fold"
            elif "pass" in legal:
                action = "pass"
            else:
                action = legal[0]
            p.send({"v": 1, "type": "act", "action": action, "state": p.view["action_count"]})
            p.wait(lambda m: m["type"] in ("state", "error"))


def test_an_unknown_type_or_version_echoes_the_id(server: Server) -> None:
    host = create(server, name="Ann", size=2, bots={"1": "random"})
    p = Player(server, host["table"]["id"], host["token"])
    cases = [({"v": 1, "type": "shout", "id": "a1"}, "bad_message", "a1"),
             ({"v": 2, "type": "ping", "id": 7}, "unsupported_version", 7),
             ({"type": "ping", "id": -3}, "unsupported_version", -3),
             ({"v": 1, "type": "shout", "id": 2**60}, "bad_message", None),  # past its bound
             ({"v": 1, "type": "shout", "id": True}, "bad_message", None)]  # not an id
    for msg, code, echoed in cases:
        p.send(msg)
        got = p.wait(lambda m: m["type"] == "error")
        assert got["code"] == code, got
        assert got.get("id") == echoed, (msg, got)
    p.send({"v": 1, "type": "ping", "id": "still"})  # the socket stays open
    assert p.wait(lambda m: m["type"] == "pong")["id"] == "still"
    p.close()


def test_a_fold_that_ends_the_session_is_summed_up(server: Server) -> None:
    a, b, watcher, _ = two_people(server, lives=1)
    fold_out(a, b)
    watcher.wait(lambda m: m["type"] == "state" and m["view"]["winner"] is not None)
    for p in (a, b, watcher):
        end = p.state
        assert end is not None and "standings" in end
        assert any(e["kind"] == "fold" for e in end["events"])
        result = [e for e in end["events"] if e["kind"] == "hand_result"]
        assert [e["detail"] for e in result] == ["folded"], end["events"]
        summary = end.get("summary")
        assert summary, f"no summary in the state that ended the session: {end}"
        ids = [m["id"] for m in summary]
        assert ids[0] == "summary.title" and summary[0]["params"] == {"hand": 1}
        assert any(i in ("summary.paid", "summary.you.paid") for i in ids), ids
        assert any(i in ("log.eliminated", "log.you.eliminated") for i in ids), ids
        assert any(i in ("log.hand_result.folded", "log.you.hand_result.folded")
                   for i in ids), ids
    for p in (a, b, watcher):
        p.close()


def test_after_a_reconnect_last_tells_what_was_stored(server: Server) -> None:
    a, b, watcher, _ = two_people(server, lives=3)
    # the player to act (the table's dealer is drawn, so Ann or Bas: waiting for Ann
    # while Bas is to act lasted until his idle stand-in, 60 s) sends one action and
    # drops before she reads its answer
    end = time.monotonic() + 10
    while not (a.my_turn() or b.my_turn()):
        assert time.monotonic() < end, (a.messages[-2:], b.messages[-2:])
        for p in (a, b):
            p.poll(0.05)
    mover, other, seat = (a, b, 0) if a.my_turn() else (b, a, 1)
    sent = mover.view["action_count"]
    action = "pass" if "pass" in mover.view["legal"] else mover.view["legal"][0]
    mover.send({"v": 1, "type": "act", "action": action, "state": sent, "id": 1})
    stored = other.wait(lambda m: m["type"] == "state" and m["state"] == sent + 1)
    assert stored["last"] == {"seat": seat, "action": action, "by": "player"}
    mover.close()
    again = Player(server, mover.table_id, mover.token)
    first = again.wait(lambda m: m["type"] == "state")
    assert first["events"] == [] and first["history_skipped"] == 0 and first["history"]
    if first["state"] == sent + 1:  # N == S + 1 with her own action: it was stored
        assert first["last"] == stored["last"]
    else:  # a move the server makes itself (a forced one) came after it: the rule's
        # "anything else", and the state says the game went on past her send
        assert first["state"] > sent + 1 and first["last"] is not None
    # a spectator that comes now is told the same last action
    late = Player(server, mover.table_id)
    assert late.wait(lambda m: m["type"] == "state")["last"] == first["last"]
    for p in (again, other, watcher, late):
        p.close()


def test_a_cut_history_says_how_much_was_left_out() -> None:
    from toepen.engine import Game
    from toepen.view import observe

    game = Game.new("rulebook", 2, seed=1)
    events = [Event(EventKind.PASS, i % 2, 0, (), "claim") for i in range(350)]
    msg = json.loads(protocol.state(observe(game, 0), (), None, events))
    assert len(msg["history"]) == 300 and msg["history_skipped"] == 50
    whole = json.loads(protocol.state(observe(game, 0), (), None, events[:20]))
    assert len(whole["history"]) == 20 and whole["history_skipped"] == 0
    assert "history_skipped" not in json.loads(protocol.state(observe(game, 0), (), None))


def test_create_table_takes_every_bot_name_of_the_presets(server: Server) -> None:
    presets = server.get("/api/presets").json()
    names = [*presets["bots"], *(lv["name"] for lv in presets["levels"]), "default"]
    assert {"beginner", "casual"} <= set(names)
    for name in dict.fromkeys(names):
        r = server.post("/api/tables", {"size": 2, "bots": {"0": name, "1": "random"}})
        assert r.status_code == 201, (name, r.text)
        assert r.json()["table"]["seats"][0]["kind"] == "bot"


def test_a_frame_the_schema_refuses_fails_the_test_that_got_it(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite's hook (conftest.every_frame_checked) on a socket of a test's own: a
    schema that asks for more than the server sends makes the receiving test fail."""
    host = create(server, name="Ann", size=2, bots={"1": "random"})
    with connect(f"{server.ws}/ws/{host['table']['id']}") as ws:
        ws.send(json.dumps({"v": 1, "type": "hello", "token": host["token"]}))
        assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
        strict = copy.deepcopy(SCHEMA["$defs"])
        strict["pong"]["required"] = ["v", "type", "never_sent"]
        monkeypatch.setitem(VALIDATORS, "server_message", Draft202012Validator(
            {"$defs": strict, "$ref": "#/$defs/server_message"}))
        ws.send(json.dumps({"v": 1, "type": "ping", "id": 1}))
        with pytest.raises(AssertionError, match="pong"):
            while True:
                ws.recv(timeout=5)


def test_a_lost_armoede_challenge_that_ends_the_session_is_summed_up() -> None:
    """The same as a fold, for the session ended by an armoede claim found false (the
    engine's own games, seeded: the first that ends so)."""
    import random

    from toepen.engine import Game
    from toepen.rules import Rules
    from toepen.server.tables.master import closing

    for seed in range(200):
        rng = random.Random(seed)
        game = Game(Rules(lives=2), ["a", "b", "c"], seed=seed)
        events: list[Event] = []
        while not game.is_over:
            seat = game.to_act[0]
            events = game.apply(seat, rng.choice(game.legal(seat)))
        kinds = [e.kind for e in events]
        if EventKind.CLAIM_RESULT in kinds:
            break
    else:
        raise AssertionError("no seeded game ended on an armoede challenge")
    assert [e.detail for e in events if e.kind is EventKind.HAND_RESULT] == ["last_left"]
    ends = closing(game, events)
    assert ends is not None and ends.hand is not None and ends.session is not None
    n = len(game.actions)
    msg = json.loads(protocol.state_frame(b'{"action_count":%d}' % n, None, events, None, n,
                                          closing=ends))
    ids = [m["id"] for m in msg["summary"]]
    assert ids[0] == "summary.title" and "log.eliminated" in ids and msg["standings"]
    assert "log.hand_result.last_left" in ids, ids


def test_the_first_state_of_a_game_is_as_documented(server: Server) -> None:
    """docs/protocol.md, "The start of a game": a table, then state 0 with the deal."""
    a, b, watcher, _ = two_people(server, lives=3)
    for p, seat in ((a, 0), (b, 1), (watcher, None)):
        kinds = [m["type"] for m in p.messages]
        first = next(m for m in p.messages if m["type"] == "state")
        playing = [i for i, m in enumerate(p.messages) if m["type"] == "table"
                   and m["table"]["status"] == "playing"]
        assert playing and playing[0] < kinds.index("state")
        assert first["state"] == 0 and first["last"] is None and "history" not in first
        deal, *hands = first["events"][:3]
        assert deal["kind"] == "deal" and deal["value"] == 1
        dealer = deal["seat"]
        assert [e["seat"] for e in hands] == [(dealer + 1) % 2, dealer]
        for e in hands:
            assert e["kind"] == "hand" and e["value"] == 4
            assert len(e["cards"]) == (4 if e["seat"] == seat else 0)
        assert first["view"]["action_count"] == 0
        asked = first["view"]["legal"] != []
        assert (first["prompt"] is not None) == asked
    for p in (a, b, watcher):
        p.close()
