"""The tables' seam (``tables/seam.py``): a lone process's ``LocalSeam`` and the cluster's
``ClusterSeam`` behind one interface, chosen at start-up.

The whole behaviour of the cluster behind the seam is tested by ``test_cluster*.py``
(three processes); here what the seam itself decides: the cluster's hold tells the other
processes a change of a table's seats, and only a change.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from services import throwaway_redis

from toepen.server.cluster.core import CHANNEL, Cluster
from toepen.server.cluster.seam import ClusterSeam
from toepen.server.db.store import SeatRow, TableRow
from toepen.server.tables.seam import LocalSeam
from toepen.server.tables.table import Table


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with throwaway_redis() as url:
        yield url


def a_table(table_id: str) -> Table:
    row = TableRow(id=table_id, code="SEAMAA", preset="rulebook",
                   rules={"preset": "rulebook"}, size=2, seed=5, dealer=0,
                   idle_seconds=60.0, autostart=False, creator="c", host_hash="h",
                   status="lobby", seats=[SeatRow(0, "human", "A"), SeatRow(1, "open")])
    return Table.stored(row)


class CaughtUp:
    """The part of a Host the hold uses: the table caught up (nothing to read here)."""

    def __init__(self) -> None:
        self.caught: list[tuple[str, int, int]] = []

    async def catch_up(self, table: Table, n: int, ver: int) -> None:
        self.caught.append((table.id, n, ver))


def published(sub: Any, wait: float = 1.0) -> list[dict[str, Any]]:
    out = []
    end = time.monotonic() + wait
    while time.monotonic() < end:
        item = sub.get_message(timeout=0.05)
        if item is not None and item["type"] == "message":
            out.append(json.loads(item["data"]))
    return out


def test_the_cluster_seam_tells_a_change_of_seats_and_only_a_change(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    sub = client.pubsub(ignore_subscribe_messages=True)
    sub.subscribe(CHANNEL)
    table = a_table("seamtest0001")

    async def main() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[Any]]:
        cluster = Cluster(redis_url)
        host = CaughtUp()
        cluster.host = host  # type: ignore[assignment]  # only catch_up is asked for
        seam = ClusterSeam(cluster)
        try:
            async with seam.hold(table):  # a seat taken: told, its version raised
                table.seats[1].kind, table.seats[1].name = "human", "B"
            changed = await asyncio.to_thread(published, sub)
            async with seam.hold(table):  # nothing changed: nothing told
                pass
            unchanged = await asyncio.to_thread(published, sub)
            return changed, unchanged, host.caught
        finally:
            await cluster.redis.aclose()

    try:
        changed, unchanged, caught = asyncio.run(main())
        assert [m["k"] for m in changed] == ["seats"]
        assert changed[0]["t"] == table.id and changed[0]["ver"] == 1
        assert [s["name"] for s in changed[0]["row"]["seats"]] == ["A", "B"]
        assert unchanged == []
        assert table.version == 1
        # each hold caught the table up first, with the numbers Redis holds
        assert caught == [(table.id, 0, 0), (table.id, 0, 1)]
        assert client.get(f"toepen:lock:{table.id}") is None  # let go both times
        assert client.hget(f"toepen:tv:{table.id}", "ver") == "1"
    finally:
        sub.close()
        client.close()


def test_a_lone_process_applies_every_table_and_tells_nobody_else() -> None:
    seam = LocalSeam()
    table = a_table("seamtest0002")

    async def main() -> tuple[bool, dict[str, Any] | None, str]:
        async with seam.hold(table):
            table.seats[1].kind = "human"
        relayed = await seam.relay(table, 0, "knock", 0, "player")
        offer = await seam.relay_offer(table, 0, False, None, None)
        return relayed, offer, await seam.once("rematch:x", "mine")

    relayed, offer, once = asyncio.run(main())
    # nothing is relayed (the caller applies it), no offer held elsewhere, no fence
    assert (relayed, offer, once) == (False, None, "mine")
    assert seam.owns(table.id) and seam.holds(table.id) and not seam.shared
    assert seam.fence(table.id) is None and seam.elsewhere(table) == {}
    assert table.version == 0  # a lone process counts no seat versions
