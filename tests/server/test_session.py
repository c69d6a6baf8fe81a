"""A whole game over real sockets: two people, two bots, a spectator; refusals change nothing."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from toepen.engine import ACTIONS, REFUSAL_CODES
from toepen.record import replay
from toepen.server.tables.table import BOT_NAMES

from .audit import audit, timeline
from .conftest import Player, Server, create
from .schema import check_client_message, check_server_message


def calm(legal: list[str], rng: random.Random) -> str:
    """A random legal action, never a knock or a fold when there is anything else."""
    quiet = [a for a in legal if a not in ("knock", "fold")]
    return rng.choice(quiet or legal)


def play_until(players: list[Player], rng: random.Random, done: Any, timeout: float = 60,
               choose: Any = None) -> None:
    """Each human plays a random legal action when it is its turn, until ``done()``."""
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, f"stuck at {players[0].state and players[0].view}"
        for p in players:
            p.poll(0.01)
            if done():  # look before acting: done() may be about this very position
                return
            if p.my_turn() and p.view["winner"] is None:
                legal = p.view["legal"]
                msg = {"v": 1, "type": "act",
                       "action": choose(legal, rng) if choose else rng.choice(legal),
                       "state": p.state["state"] if p.state else 0}
                check_client_message(msg)
                p.send(msg)
                p.wait(lambda m: m["type"] in ("state", "error"))
                assert p.messages[-1]["type"] == "state", p.messages[-1]


def over(p: Player) -> bool:
    return p.state is not None and p.view["winner"] is not None


def new_table(server: Server, **extra: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    host = create(server, name="Ann", size=4, bots={"2": "random", "3": "random"},
                  options={"lives": 3}, **extra)
    r = server.post("/api/join", {"code": host["table"]["code"].lower(), "name": "Bas"})
    assert r.status_code == 200, r.text
    return host, r.json()


def test_whole_session_two_people_two_bots(server: Server) -> None:
    host, bas = new_table(server)
    tid = host["table"]["id"]
    assert host["seat"] == 0 and bas["seat"] == 1 and host["host"] and not bas["host"]
    assert host["invite"].endswith("/join/" + host["table"]["code"])
    a = Player(server, tid, host["token"])
    b = Player(server, tid, bas["token"])
    spectator = Player(server, tid)
    assert a.welcome and a.welcome["seat"] == 0 and a.welcome["host"]
    assert spectator.welcome and spectator.welcome["seat"] is None
    r = server.get(f"/api/tables/{tid}/record")
    assert r.status_code == 409  # a record before the end would show the decks
    r = server.post(f"/api/tables/{tid}/start", {},
                    headers={"Authorization": "Bearer " + host["token"]})
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text
    play_until([a, b], random.Random(5), lambda: over(a) and over(b))
    spectator.wait(lambda m: m["type"] == "state" and m["view"]["winner"] is not None)
    for p in (a, b, spectator):
        p.drain(0.2)

    rec = server.get(f"/api/tables/{tid}/record")
    assert rec.status_code == 200
    record = rec.json()
    assert record["format"] == "toepen-record/1"
    # every bot seat its own human-sounding name (none repeats Ann's or Bas's), its kind
    # beside it in the record's meta
    assert record["players"][:2] == ["Ann", "Bas"]
    assert set(record["players"][2:]) <= set(BOT_NAMES) and len(set(record["players"])) == 4
    assert record["meta"]["bots"] == [None, None, "random", "random"]
    assert [s["name"] for s in server.get(f"/api/tables/{tid}").json()["seats"]] == \
        record["players"]
    game = replay(record)
    assert game.is_over and game.winner == a.view["winner"]
    assert len(record["actions"]) == a.view["action_count"]
    table = server.get(f"/api/tables/{tid}").json()
    assert table["status"] == "over" and table["record"] == f"/api/tables/{tid}/record"

    # Every message each client received: valid, and showing only what it may see.
    games = timeline(record)
    for p, seat in ((a, 0), (b, 1), (spectator, None)):
        for msg in p.messages:
            check_server_message(msg)
        assert audit(p.messages, seat, games) > 10
    # The bots really played, and the events of other seats' deals were redacted.
    bys = {m["last"]["by"] for m in a.messages if m["type"] == "state" and m["last"]}
    assert bys == {"player", "bot"}
    hands = [e for m in a.messages if m["type"] == "state" for e in m["events"]
             if e["kind"] == "hand"]
    assert any(e["seat"] == 0 and e["cards"] for e in hands)
    assert all(not e["cards"] and e["value"] == 4 for e in hands if e["seat"] != 0)
    # Every event comes with its narration for its receiver (audit() checked each one);
    # another seat's hidden hand is not narrated at all.
    said = [e["say"] for m in a.messages if m["type"] == "state" for e in m["events"]]
    assert sum(s is not None for s in said) > 10
    assert all(e["say"] is None for e in hands if e["seat"] != 0)
    assert any(e["say"] is not None for e in hands if e["seat"] == 0)
    for p in (a, b, spectator):
        p.close()


def state_of(server: Server, tid: str) -> int:
    return int(server.get(f"/api/tables/{tid}").json()["state"])


def test_refusals_change_nothing(server: Server) -> None:
    host, bas = new_table(server, autostart=True)
    tid = host["table"]["id"]
    a = Player(server, tid, host["token"])
    b = Player(server, tid, bas["token"])
    for p in (a, b):
        p.wait(lambda m: m["type"] == "state")
    # Let the game reach a point where one of the two people is to act.
    end = time.monotonic() + 20
    while not (a.my_turn() or b.my_turn()):
        assert time.monotonic() < end
        a.poll(0.05)
        b.poll(0.05)
    me, other = (a, b) if a.my_turn() else (b, a)
    n = me.state["state"] if me.state else -1
    view = dict(me.view)
    other.drain(0.1)
    other_view = dict(other.view)

    def refused(p: Player, msg: dict[str, Any] | str, code: str) -> dict[str, Any]:
        p.send(msg)
        err = p.wait(lambda m: m["type"] == "error")
        check_server_message(err)
        assert err["code"] == code, err
        return err

    legal = view["legal"][0]
    err = refused(me, {"v": 1, "type": "act", "action": legal, "state": n + 1, "id": 7}, "stale")
    assert err["id"] == 7 and str(n) in err["message"]
    if n > 0:
        refused(me, {"v": 1, "type": "act", "action": legal, "state": n - 1}, "stale")
    # Someone else's seat: a token acts only for its own seat, whatever the message says.
    err = refused(other, {"v": 1, "type": "act", "action": legal, "state": n}, "not_your_turn")
    assert err["refusal"]["code"] in REFUSAL_CODES  # the engine's reason, for translation
    refused(other, {"v": 1, "type": "act", "action": legal, "state": n, "seat": me.welcome["seat"]
                    if me.welcome else 0}, "not_your_turn")
    illegal = next(str(x) for x in ACTIONS if str(x) not in view["legal"])
    err = refused(me, {"v": 1, "type": "act", "action": illegal, "state": n}, "illegal")
    assert err["message"]
    # The engine's structured reason: its code and parameters, its English (the message),
    # and the catalog message a client translates.
    why = err["refusal"]
    assert why["code"] in REFUSAL_CODES and why["message"] == err["message"]
    assert why["say"]["id"] == f"refusal.{why['code']}"
    assert all(isinstance(v, (int, str)) for v in why["params"].values())
    refused(me, {"v": 1, "type": "act", "action": "play Zz", "state": n}, "bad_action")
    refused(me, {"v": 1, "type": "act", "action": 3, "state": n}, "bad_message")
    refused(me, {"v": 1, "type": "act", "action": legal, "state": "0"}, "bad_message")
    refused(me, {"v": 1, "type": "act", "action": legal}, "bad_message")
    refused(me, "{not json", "bad_json")
    refused(me, "[1, 2]", "bad_json")
    refused(me, {"v": 2, "type": "act", "action": legal, "state": n}, "unsupported_version")
    refused(me, {"v": 1, "type": "dance"}, "bad_message")
    refused(me, {"v": 1, "type": "hello", "token": host["token"]}, "bad_message")
    refused(me, {"v": 1, "type": "act", "action": legal, "state": n, "pad": "x" * 5000},
            "too_large")
    refused(other, {"v": 1, "type": "host", "command": "start"},
            "bad_command" if other is a else "forbidden")

    # A spectator (no token) cannot act.
    spectator = Player(server, tid)
    refused(spectator, {"v": 1, "type": "act", "action": legal, "state": n}, "forbidden")
    refused(spectator, {"v": 1, "type": "back"}, "forbidden")

    # A forged token is refused and the socket closed with 4001.
    with connect(f"{server.ws}/ws/{tid}") as ws:
        ws.send(json.dumps({"v": 1, "type": "hello", "token": host["token"][:-2] + "xx"}))
        err = json.loads(ws.recv(timeout=5))
        assert err["type"] == "error" and err["code"] == "auth"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001
    # A first message that is not hello: 4000. An unknown table: 4004.
    with connect(f"{server.ws}/ws/{tid}") as ws:
        ws.send(json.dumps({"v": 1, "type": "act", "action": legal, "state": n}))
        assert json.loads(ws.recv(timeout=5))["code"] == "need_hello"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4000
    with connect(f"{server.ws}/ws/000000000000") as ws, pytest.raises(ConnectionClosed) as c2:
        ws.recv(timeout=5)
    assert c2.value.rcvd is not None and c2.value.rcvd.code == 4004
    # HTTP: a forged token or a player's token cannot start anything.
    r = server.post(f"/api/tables/{tid}/start", {}, headers={"Authorization": "Bearer forged"})
    assert r.status_code == 401
    r = server.post(f"/api/tables/{tid}/start", {},
                    headers={"Authorization": "Bearer " + bas["token"]})
    assert r.status_code == 403

    # An oversize frame closes that socket; the server and the table are unharmed.
    big = Player(server, tid, host["token"])
    assert big.conn is not None
    big.conn.send(json.dumps({"v": 1, "type": "ping", "pad": "x" * 100_000}))
    with pytest.raises(ConnectionClosed):
        for _ in range(50):
            big.conn.recv(timeout=5)

    # Nothing changed: same state number, same view for both people.
    assert state_of(server, tid) == n
    fresh_me = Player(server, tid, host["token"] if me is a else bas["token"])
    fresh_me.wait(lambda m: m["type"] == "state")
    assert fresh_me.view == view
    fresh_other = Player(server, tid, host["token"] if other is a else bas["token"])
    fresh_other.wait(lambda m: m["type"] == "state")
    assert fresh_other.view == other_view
    # And the right action from the right seat with the right state number still works.
    me.send({"v": 1, "type": "act", "action": legal, "state": n, "id": "ok"})
    msg = me.wait(lambda m: m["type"] in ("state", "error"))
    assert msg["type"] == "state" and msg["state"] > n and msg["last"] == {
        "seat": view["seat"], "action": legal, "by": "player"}
    for p in (a, b, spectator, fresh_me, fresh_other):
        p.close()
