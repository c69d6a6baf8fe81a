"""The server under knock_anytime: players who may knock are told so in their views, a knock
out of turn is applied, and of two knocks sent at once the first wins and the other is
told it is stale."""

from __future__ import annotations

import time

from .conftest import Player, Server, create


def test_the_first_knock_out_of_turn_wins_and_the_other_is_stale(server: Server) -> None:
    host = create(server, name="Ann", size=3, bots={}, autostart=False,
                  options={"lives": 5, "armoede": False, "knock_anytime": True})
    code = host["table"]["code"]
    tid = host["table"]["id"]
    joined = [server.post("/api/join", {"code": code, "name": n}).json() for n in ("Bas", "Cor")]
    players = [Player(server, tid, host["token"])] + [Player(server, tid, j["token"])
                                                    for j in joined]
    players[0].send({"v": 1, "type": "host", "command": "start"})
    end = time.monotonic() + 20
    while True:
        assert time.monotonic() < end, "no play phase"
        for p in players:
            p.poll(0.05)
        if all(p.state for p in players) and players[0].view["phase"] == "play" \
                and len({p.state["state"] for p in players if p.state}) == 1:
            break
    to_act = players[0].view["to_act"]
    assert len(to_act) == 3  # the player to lead, and both others may knock out of turn
    by_seat = {p.welcome["seat"]: p for p in players if p.welcome}
    lead, first, second = (by_seat[s] for s in to_act)
    assert first.view["legal"] == ["knock"] and second.view["legal"] == ["knock"]
    n = first.state["state"] if first.state else -1
    first.send({"v": 1, "type": "act", "action": "knock", "state": n, "id": 1})
    second.send({"v": 1, "type": "act", "action": "knock", "state": n, "id": 2})
    end = time.monotonic() + 10
    errors: dict[int, dict[str, object]] = {}
    while not errors and time.monotonic() < end:  # whichever the server took first wins
        for i, p in ((1, first), (2, second)):
            msg = p.poll(0.05)
            if msg is not None and msg["type"] == "error":
                errors[i] = msg
    assert len(errors) == 1, errors
    (loser, err), = errors.items()
    assert err["code"] == "stale" and err["id"] == loser
    winner_seat = to_act[1] if loser == 2 else to_act[2]
    seen = lead.wait(lambda m: m["type"] == "state" and m["state"] == n + 1)
    knocks = [e for e in seen["events"] if e["kind"] == "knock"]
    assert [(e["seat"], e["value"]) for e in knocks] == [(winner_seat, 2)]
    assert seen["view"]["phase"] == "answer"
    for p in players:
        p.close()
