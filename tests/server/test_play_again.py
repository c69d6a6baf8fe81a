"""Play again is an offer the others accept: nobody's clock runs before they agreed.

A real server and real sockets: Ann and Bob play a short game against two bots, then one
of them offers to play again. The next table is made only when every person at the table
accepted (bots at once); a person who left, or who has not answered within
``--offer-wait`` seconds, is not waited for: a stand-in plays their seat until they come.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Player, Server, create
from .schema import check_server_message

WAIT = 4.0


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose offers wait ``WAIT`` seconds for an answer (the others: 60)."""
    db = f"sqlite:///{tmp_path_factory.mktemp('again') / 'toepen.sqlite3'}"
    srv = Server(db, "--offer-wait", str(WAIT)).start()
    yield srv
    srv.stop()


def finished(server: Server, idle: float) -> tuple[str, Player, Player]:
    """A finished game of Ann (seat 0, host) and Bob (seat 1) with two bots, both
    people playing their own cards (their first legal action)."""
    t = create(server, name="Ann", size=4, bots={"2": "random", "3": "random"},
               idle_seconds=idle, options={"lives": 1})
    tid = t["table"]["id"]
    bob_seat = server.post(f"/api/tables/{tid}/join", {"name": "Bob"}).json()
    ann, bob = Player(server, tid, t["token"]), Player(server, tid, bob_seat["token"])
    ann.send({"v": 1, "type": "host", "command": "start"})
    play_out(server, [ann, bob])
    return tid, ann, bob


def play_out(server: Server, players: list[Player]) -> None:
    """The people play their own cards (their first legal action) until the game is over."""
    sent: dict[int, int] = {}
    end = time.monotonic() + 120
    while time.monotonic() < end:
        for i, p in enumerate(players):
            p.poll(0.02)
            if p.state is None:
                continue
            if p.view["phase"] == "over":
                for q in players:
                    if q.state is None or q.view["phase"] != "over":
                        q.wait(lambda m: m["type"] == "state" and m["view"]["phase"] == "over")
                return
            state = p.state["state"]
            if p.view["legal"] and sent.get(i) != state:
                sent[i] = state
                p.send({"v": 1, "type": "act", "action": p.view["legal"][0], "state": state})
    raise AssertionError("the game did not end")


def offer_of(msg: dict[str, Any]) -> dict[str, Any] | None:
    if msg["type"] != "table":
        return None
    out: dict[str, Any] | None = msg["table"].get("offer")
    return out


def made(player: Player) -> str:
    msg = player.wait(lambda m: m["type"] == "table" and bool(m["table"]["rematch"]), 30)
    check_server_message(msg)
    rematch: str = msg["table"]["rematch"]
    return rematch


def test_play_again_waits_until_everyone_accepted(server: Server) -> None:
    tid, ann, bob = finished(server, 60)
    ann.send({"v": 1, "type": "rematch"})
    msg = ann.wait(lambda m: offer_of(m) is not None)
    check_server_message(msg)
    assert msg["table"]["offer"] == {"by": 0, "preset": "rulebook", "ready": [0, 2, 3],
                                     "waiting": [1], "seconds": 60}
    assert msg["table"]["rematch"] is None  # no table, so no clock runs for Bob
    seen = bob.wait(lambda m: offer_of(m) is not None)
    assert seen["table"]["offer"]["by"] == 0
    assert server.get(f"/api/tables/{tid}").json()["rematch"] is None
    ann.send({"v": 1, "type": "rematch"})  # a second click of Ann's changes nothing
    again = ann.wait(lambda m: offer_of(m) is not None)
    assert again["table"]["offer"]["waiting"] == [1] and again["table"]["rematch"] is None
    bob.send({"v": 1, "type": "rematch"})  # Bob accepts: the next game begins for both
    new_id = made(bob)
    assert made(ann) == new_id
    new = server.get(f"/api/tables/{new_id}").json()
    assert new["status"] == "playing"
    assert [s["standin"] for s in new["seats"]] == [False, False, False, False]
    assert [s["name"] for s in new["seats"][:2]] == ["Ann", "Bob"]
    for p in (ann, bob):
        p.close()


def test_a_player_who_leaves_is_not_waited_for(server: Server) -> None:
    tid, ann, bob = finished(server, 60)
    ann.send({"v": 1, "type": "rematch"})
    ann.wait(lambda m: (offer_of(m) or {}).get("waiting") == [1])
    bob.close()  # Bob goes home
    new_id = made(ann)
    new = server.get(f"/api/tables/{new_id}").json()
    assert new["status"] == "playing"
    assert [s["standin"] for s in new["seats"][:2]] == [False, True]
    # Bob comes back later by his link: his seat is his again
    back = Player(server, new_id, bob.token)
    back.wait(lambda m: m["type"] == "table" and not m["table"]["seats"][1]["standin"])
    for p in (ann, back):
        p.close()


def test_a_player_who_does_not_answer_is_waited_for_offer_wait(quick: Server) -> None:
    server = quick
    tid, ann, bob = finished(server, 60)
    bob.send({"v": 1, "type": "rematch"})  # Bob offers; Ann, at the table, says nothing
    msg = bob.wait(lambda m: (offer_of(m) or {}).get("waiting") == [0])
    assert msg["table"]["offer"]["seconds"] == WAIT
    new_id = made(bob)
    told = made(ann)
    assert told == new_id
    seen = server.get(f"/api/tables/{tid}").json()
    assert seen["offer"]["ready"] == [1, 2, 3]  # Ann did not accept: her page asks her
    new = server.get(f"/api/tables/{new_id}").json()
    assert [s["standin"] for s in new["seats"][:2]] == [True, False]
    for p in (ann, bob):
        p.close()


def test_an_offer_lapses_when_everyone_who_accepted_left(server: Server) -> None:
    tid, ann, bob = finished(server, 60)
    ann.send({"v": 1, "type": "rematch"})
    bob.wait(lambda m: (offer_of(m) or {}).get("waiting") == [1])
    ann.close()
    msg = bob.wait(lambda m: m["type"] == "table" and m["table"]["offer"] is None)
    assert msg["table"]["rematch"] is None
    assert server.get(f"/api/tables/{tid}").json()["rematch"] is None
    bob.close()


def test_a_hosts_offer_with_nobody_at_the_table_lapses(server: Server) -> None:
    """A host without a seat offers after the only person, Bob, went home: no game of
    stand-ins alone is dealt."""
    t = create(server, size=3, bots={"1": "random", "2": "random"}, idle_seconds=60,
               options={"lives": 1})
    tid = t["table"]["id"]
    joined = server.post(f"/api/tables/{tid}/join", {"name": "Bob"}).json()
    host, bob = Player(server, tid, t["token"]), Player(server, tid, joined["token"])
    host.send({"v": 1, "type": "host", "command": "start"})
    play_out(server, [bob])
    bob.close()
    host.wait(lambda m: m["type"] == "table" and not m["table"]["seats"][0]["connected"])
    host.drain(1.0)  # what the game said before
    seen = len(host.messages)
    host.send({"v": 1, "type": "rematch"})
    host.drain(2.0)
    told = [m for m in host.messages[seen:] if m["type"] in ("table", "error")]
    assert told and all(m["type"] == "table" and m["table"]["rematch"] is None
                        and m["table"]["offer"] is None for m in told), told
    table = server.get(f"/api/tables/{tid}").json()
    assert table["rematch"] is None and table["offer"] is None
    host.close()
