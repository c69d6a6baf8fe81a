"""Failover: SIGKILL the process that owns a table, mid-hand, several times at random
moments; another process takes the table over within seconds and the game goes on.

Three ``toepen serve --redis`` share one PostgreSQL and one Redis. Each round the test
plays a random number of actions, finds the owner of the table (its lease in Redis),
SIGKILLs it, moves that process's clients to a live one (they reconnect by themselves),
waits for a bot to act again, and starts the killed server again. At the end: every
action a client was told of is the record's action of that number (none lost, none
doubled), every process tells the same record, and every frame passes the audit.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import pytest

from toepen.record import replay

from .audit import audit, timeline
from .conftest import Player, Server, create
from .schema import check_server_message
from .test_cluster import acknowledged, owner, redis_url, start_cluster
from .test_recovery import mid_hand
from .test_session import calm, over, play_until

__all__ = ["redis_url"]  # the fixture, shared with test_cluster


@pytest.fixture
def servers(postgres_url: str, redis_url: str) -> Iterator[list[Server]]:
    found = start_cluster(postgres_url, redis_url)
    yield found
    for s in found:
        s.stop()


def bot_acted_after(players: list[Player], n: int) -> bool:
    """Some client was told of a bot's action numbered above ``n``."""
    return any(m["type"] == "state" and m["state"] > n and m["last"] is not None
               and m["last"]["by"] == "bot" for p in players for m in p.messages)


def test_sigkill_the_owner_mid_hand_again_and_again(servers: list[Server],
                                                     redis_url: str) -> None:
    rng = random.Random(2024)
    s0, s1, s2 = servers
    host = create(s0, name="Ann", size=4, bots={"2": "random", "3": "random"},
                  options={"lives": 8})
    tid = host["table"]["id"]
    bas = s1.post(f"/api/tables/{tid}/join", {"name": "Bas"}).json()
    a = Player(s0, tid, host["token"])
    b = Player(s1, tid, bas["token"])
    watcher = Player(s2, tid)
    players = [a, b, watcher]
    s2.post(f"/api/tables/{tid}/start", {}, headers={"Authorization": "Bearer " + host["token"]})
    kills = 0
    takeover: list[float] = []
    restarts: list[threading.Thread] = []
    while kills < 3:
        target = (a.state["state"] if a.state else 0) + rng.randint(2, 9)
        play_until([a, b], rng, lambda target=target: over(a) or (
            a.state is not None and a.state["state"] >= target and (mid_hand(a) or mid_hand(b)
                                                                   or a.view["phase"] != "play")),
                   choose=calm, timeout=60)
        assert not over(a), "the game ended before the kills were done (lives too few)"
        for p in players:
            p.drain(0.05)
        n = max(p.state["state"] for p in players if p.state is not None)
        for restart in restarts:
            restart.join()
        dead = owner(redis_url, tid, servers)
        dead.kill()
        kills += 1
        killed_at = time.monotonic()
        live = [s for s in servers if s is not dead]
        for i, p in enumerate(players):  # its clients come back at another process
            if p.server is dead:
                p.server = live[i % len(live)]
        # the game goes on at another process: the humans play, the bots act again
        play_until([a, b], rng, lambda n=n: over(a) or bot_acted_after(players, n),
                   choose=calm, timeout=30)
        takeover.append(time.monotonic() - killed_at)
        new_owner = owner(redis_url, tid, live)
        assert new_owner is not dead
        # the same port again, in the background: three processes for the next round
        restart = threading.Thread(target=dead.start)
        restart.start()
        restarts.append(restart)
    for restart in restarts:
        restart.join()
    play_until([a, b], rng, lambda: over(a) and over(b), choose=calm, timeout=120)
    watcher.wait(lambda m: m["type"] == "state" and m["view"]["winner"] is not None, 20)
    for p in players:
        p.drain(0.3)
    records = [s.get(f"/api/tables/{tid}/record").json() for s in servers]
    assert records[0]["actions"] == records[1]["actions"] == records[2]["actions"]
    game = replay(records[0])
    assert game.is_over and len(records[0]["actions"]) == a.view["action_count"]
    assert acknowledged(players, records[0]) > 20
    games = timeline(records[0])
    for p, seat in ((a, 0), (b, 1), (watcher, None)):
        for msg in p.messages:
            check_server_message(msg)
        audit(p.messages, seat, games)  # the views after each reconnection too
    assert sum(p.reconnects for p in players) >= 3
    assert max(takeover) < 15, takeover  # "within a few seconds" (a generous bound)
    for p in players:
        p.close()
