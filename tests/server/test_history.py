"""The log so far: whoever connects mid-game (a spectator, a seat's player coming late,
a reopened tab) gets the game's past events in its first ``state``, redacted for it."""

from __future__ import annotations

import random
from typing import Any

from .audit import audit, timeline
from .conftest import Player, Server
from .schema import check_server_message
from .test_session import new_table, over, play_until


def live_events(p: Player, upto: int) -> list[dict[str, Any]]:
    """Every event ``p`` got live, in order, up to state number ``upto``."""
    return [e for m in p.messages if m["type"] == "state" and m["state"] <= upto
            for e in m["events"]]


def test_late_clients_get_the_log_so_far_as_they_may_see_it(server: Server) -> None:
    host, bas = new_table(server)
    tid = host["table"]["id"]
    a = Player(server, tid, host["token"])
    b = Player(server, tid, bas["token"])
    watcher = Player(server, tid)
    server.post(f"/api/tables/{tid}/start", {},
                headers={"Authorization": "Bearer " + host["token"]})
    # on until a person is to act (the bots wait for them) well into the game
    play_until([a, b], random.Random(3), lambda: a.state is not None and (
        a.view["action_count"] >= 12 and (a.my_turn() or b.my_turn()) or over(a)))
    assert not over(a)
    for p in (a, b, watcher):
        p.drain(0.3)
    n = a.view["action_count"]

    late = {None: Player(server, tid), 0: Player(server, tid, host["token"]),
            1: Player(server, tid, bas["token"])}
    early = {None: watcher, 0: a, 1: b}
    for seat, p in late.items():
        first = p.wait(lambda m: m["type"] == "state")
        assert first["state"] == n and first["events"] == []
        history = first["history"]
        # exactly what a client there from the start was told, narration and all
        assert history == live_events(early[seat], n) != []
        assert sum(e["say"] is not None for e in history) > 10
        hands = [e for e in history if e["kind"] == "hand"]
        assert hands and all(not e["cards"] for e in hands if e["seat"] != seat)
        if seat is not None:
            assert any(e["cards"] for e in hands if e["seat"] == seat)

    play_until([a, b], random.Random(4), lambda: over(a) and over(b), timeout=90)
    for p in (a, b, watcher, *late.values()):
        p.drain(0.3)
    record = server.get(f"/api/tables/{tid}/record").json()
    games = timeline(record)
    # no card a receiver could not have seen, in its history or anywhere else
    for seat, p in late.items():
        for msg in p.messages:
            check_server_message(msg)
        assert audit(p.messages, seat, games) > 1
        p.close()
    for p in (a, b, watcher):
        p.close()
