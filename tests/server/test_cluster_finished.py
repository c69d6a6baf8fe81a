"""Issue 37, finding 8, in a cluster (``--redis``): a finished table leaves the memory of
every process, its owner lets its lease go (a finished game needs no owner: the lease was
renewed for nothing, for good), and any process reads it again when it is asked for;
the leases of the games still being played are held as before.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import redis

from .conftest import Player, Server
from .test_cluster import owner
from .test_cluster import redis_url as redis_url  # the fixture
from .test_finished_tables import BOTS, in_memory


@pytest.fixture
def pair(postgres_url: str, redis_url: str) -> Iterator[list[Server]]:
    servers: list[Server] = []
    try:
        for _ in range(2):  # a short grace for finished tables
            servers.append(Server(postgres_url, "--redis", redis_url, "--finished-grace",
                                  "0.5", "--bot-delay", "0.05").start())
        yield servers
    finally:
        for s in servers:
            s.stop()


def over(server: Server, table_id: str) -> bool:
    return bool(server.get(f"/api/tables/{table_id}").json()["status"] == "over")


def test_a_finished_table_leaves_every_process_and_its_lease_goes(
        pair: list[Server], redis_url: str) -> None:
    a, b = pair
    tid = a.post("/api/tables", BOTS).json()["table"]["id"]
    holder = owner(redis_url, tid, pair)
    watcher = Player(b, tid)  # a spectator at the other process
    deadline = time.monotonic() + 60
    while not over(holder, tid):
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.1)
    watcher.wait(lambda m: m["type"] == "table" and m["table"]["status"] == "over", 30)
    watcher.close()

    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        deadline = time.monotonic() + 30
        while (client.get(f"toepen:lease:{tid}") is not None
               or any(in_memory(s)["evicted"] == 0 for s in pair)):
            assert time.monotonic() < deadline, (client.get(f"toepen:lease:{tid}"),
                                                 [in_memory(s) for s in pair])
            time.sleep(0.1)
    finally:
        client.close()

    # read again where asked: its record, its replay, a newcomer's welcome
    for s in (b, a):
        r = s.get(f"/api/tables/{tid}/record")
        assert r.status_code == 200, r.text
        page = s.get(f"/api/tables/{tid}/replay?seat=all&count=1").json()
        assert page["total"] == len(r.json()["actions"]) + 1
    again = Player(a, tid)
    assert again.welcome is not None and again.welcome["table"]["status"] == "over"
    again.close()

    # the games still being played keep their owner: a new one is taken and finished
    new = b.post("/api/tables", BOTS).json()["table"]["id"]
    assert owner(redis_url, new, pair) in pair
    deadline = time.monotonic() + 60
    while not over(a, new):
        assert time.monotonic() < deadline, "the new game did not end"
        time.sleep(0.1)
