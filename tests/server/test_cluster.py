"""Many processes, one game: three ``toepen serve`` behind one Redis and one PostgreSQL;
and failover, when the process that owns a table is SIGKILLed.

The tests start Debian's ``redis-server`` on a free port and the throwaway PostgreSQL
cluster of conftest, run three servers on loopback with ``--redis``, and play whole
games with the clients spread over the processes; every frame is audited for hidden
cards as in test_session.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from services import throwaway_redis

from toepen.record import replay

from .audit import audit, timeline
from .conftest import Player, Server, create
from .schema import check_server_message
from .test_accounts import Browser
from .test_playnow import ask, counts, status, until
from .test_recovery import mid_hand
from .test_session import calm, over, play_until


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A throwaway ``redis-server`` on a free port (no persistence)."""
    with throwaway_redis() as url:
        yield url


def start_cluster(db: str, redis_url: str, n: int = 3) -> list[Server]:
    servers = []
    try:
        for _ in range(n):
            servers.append(Server(db, "--redis", redis_url).start())
    except Exception:
        for s in servers:
            s.stop()
        raise
    return servers


@pytest.fixture(scope="session")
def cluster(postgres_url: str, redis_url: str) -> Iterator[list[Server]]:
    """Three servers for the session (test_failover kills and restarts them: all three
    run again when it is done)."""
    servers = start_cluster(postgres_url, redis_url)
    end = time.monotonic() + 30  # each has seen the others (a test may count them)
    for s in servers:
        while s.get("/api/ready").json().get("cluster", {}).get("live") != len(servers):
            assert time.monotonic() < end, s.get("/api/ready").json()
            time.sleep(0.05)
    yield servers
    for s in servers:
        s.stop()


def owner(redis_url: str, table_id: str, servers: list[Server],
          timeout: float = 15.0) -> Server:
    """The server holding the table's lease (waits for one)."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    end = time.monotonic() + timeout
    try:
        while True:
            proc = client.get(f"toepen:lease:{table_id}")
            if proc is not None:
                pid = int(proc.split(":")[1])
                for s in servers:
                    if s.proc is not None and s.proc.pid == pid:
                        return s
            assert time.monotonic() < end, f"no server owns table {table_id}"
            time.sleep(0.05)
    finally:
        client.close()


def acknowledged(players: list[Player], record: dict[str, Any]) -> int:
    """Every action a client was told of (a ``state`` with its ``last``) is the record's
    action of that number: none lost, none doubled. Returns how many were checked."""
    seen = 0
    for p in players:
        for msg in p.messages:
            if msg["type"] == "state" and msg["last"] is not None:
                n = msg["state"]
                last = msg["last"]
                assert record["actions"][n - 1] == f"{last['seat']} {last['action']}", (n, last)
                seen += 1
    return seen


def test_whole_games_with_clients_spread_over_three_processes(
        cluster: list[Server], redis_url: str) -> None:
    s0, s1, s2 = cluster
    rng = random.Random(5)
    for round_no in range(2):
        first, second, third = cluster[round_no:] + cluster[:round_no]
        host = create(first, name="Ann", size=4, bots={"2": "random", "3": "random"},
                      options={"lives": 3})
        tid = host["table"]["id"]
        # another process knows the table at once: its code, a seat, a token
        bas = second.post("/api/join", {"code": host["table"]["code"], "name": "Bas"})
        assert bas.status_code == 200, bas.text
        a = Player(first, tid, host["token"])
        b = Player(second, tid, bas.json()["token"])
        watcher = Player(third, tid)
        r = third.post(f"/api/tables/{tid}/start", {},
                       headers={"Authorization": "Bearer " + host["token"]})
        assert r.status_code == 200, r.text
        play_to_one_end(cluster, tid, a, b, watcher, rng)
        # the presence of clients at other processes shows: the watcher's table says so
        tables = [m for m in watcher.messages if m["type"] == "table"]
        assert any(m["table"]["seats"][0]["connected"] and m["table"]["seats"][1]["connected"]
                   for m in tables)
        for p in (a, b, watcher):
            p.close()


def play_to_one_end(cluster: list[Server], tid: str, a: Player, b: Player, watcher: Player,
                    rng: random.Random) -> None:
    """Ann (seat 0) and Bas (seat 1) play to the end, the watcher sees it: every process
    tells the same game (same record, same state number), every frame is valid and the
    reader's own view, and every action a client was told of is the record's."""
    play_until([a, b], rng, lambda: over(a) and over(b), choose=calm, timeout=90)
    watcher.wait(lambda m: m["type"] == "state" and m["view"]["winner"] is not None, 20)
    for p in (a, b, watcher):
        p.drain(0.2)
    records = [s.get(f"/api/tables/{tid}/record").json() for s in cluster]
    assert records[0]["actions"] == records[1]["actions"] == records[2]["actions"]
    game = replay(records[0])
    assert game.is_over and game.winner == a.view["winner"] == watcher.view["winner"]
    assert len(records[0]["actions"]) == a.view["action_count"] == b.view["action_count"]
    games = timeline(records[0])
    for p, seat in ((a, 0), (b, 1), (watcher, None)):
        for msg in p.messages:
            check_server_message(msg)
        assert audit(p.messages, seat, games) > 10
    assert acknowledged([a, b, watcher], records[0]) > 10


def test_one_writer_at_a_time_two_processes_racing_for_one_seat(
        cluster: list[Server]) -> None:
    """The same move sent to two processes at once is applied once; the other is stale."""
    s0, s1, _ = cluster
    host = create(s0, name="Ann", size=2, options={"lives": 2})
    tid = host["table"]["id"]
    bas = s1.post(f"/api/tables/{tid}/join", {"name": "Bas"}).json()
    a0 = Player(s0, tid, host["token"])
    a1 = Player(s1, tid, host["token"])  # the same seat, at another process
    b = Player(s1, tid, bas["token"])
    s0.post(f"/api/tables/{tid}/start", {}, headers={"Authorization": "Bearer " + host["token"]})
    for p in (a0, a1, b):
        p.wait(lambda m: m["type"] == "state", 10)
    races = 0
    rng = random.Random(3)
    while not over(a0) and races < 6:
        for p in (a0, a1, b):
            p.drain(0.1)
        mover = [p for p in (a0, b) if p.my_turn()]
        if not mover:
            continue
        if mover[0] is a0:
            n = a0.state["state"] if a0.state else 0
            legal = a0.view["legal"]
            choice = rng.choice(legal)
            for p in (a0, a1):  # both processes get the same act at once
                p.send({"v": 1, "type": "act", "action": choice, "state": n})
            got = []
            for p in (a0, a1):
                got.append(p.wait(lambda m, n=n: m["type"] == "error"
                                  or (m["type"] == "state" and m["state"] == n + 1), 10))
            errors = [m for m in got if m["type"] == "error"]
            assert all(m["code"] == "stale" for m in errors), errors
            races += 1
        else:
            b.send({"v": 1, "type": "act", "action": rng.choice(b.view["legal"]),
                    "state": b.state["state"] if b.state else 0})
            b.wait(lambda m: m["type"] in ("state", "error"))
    for p in (a0, a1, b):
        p.drain(0.3)
    record_actions = httpx.get(f"{s1.url}/api/tables/{tid}", timeout=5).json()["state"]
    assert a0.view["action_count"] == a1.view["action_count"] == record_actions
    assert races >= 3
    for p in (a0, a1, b):
        p.close()


def test_health_readiness_and_metrics(cluster: list[Server]) -> None:
    s = cluster[0]
    ready = s.get("/api/ready")
    assert ready.status_code == 200 and ready.json()["ready"] is True
    assert ready.json()["cluster"]["live"] == 3
    text = s.get("/metrics").text
    for name in ("toepen_tables{", "toepen_connections", "toepen_actions_total",
                 "toepen_commit_seconds_bucket", "toepen_bot_queue",
                 "toepen_cluster_owned_tables", "toepen_cluster_messages_total"):
        assert name in text, name
    assert "token" not in text.lower()


def test_without_redis_a_process_serves_alone(sqlite_db: str) -> None:
    """Neither Redis nor its client is needed: the plain server imports no redis."""
    server = Server(sqlite_db).start()
    try:
        assert server.get("/api/ready").json()["ready"] is True
        assert "toepen_cluster" not in server.get("/metrics").text
    finally:
        server.stop()
    out = subprocess.run(
        [sys.executable, "-c", "import sys; from toepen.server.app import create_app; "
         "create_app(); print('redis' in sys.modules)"],
        capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "False"


def bot_acted_after(players: list[Player], n: int) -> bool:
    """Some client was told of a bot's action numbered above ``n``."""
    return any(m["type"] == "state" and m["state"] > n and m["last"] is not None
               and m["last"]["by"] == "bot" for p in players for m in p.messages)


def test_failover_sigkill_the_owner_mid_hand_again_and_again(cluster: list[Server],
                                                              redis_url: str) -> None:
    """SIGKILL the process that owns a table, mid-hand, three times at random moments;
    another process takes the table over within seconds and the game goes on: its
    clients reconnect elsewhere, the bots act again, every action a client was told of
    is the record's action of that number (none lost, none doubled), every process
    tells the same record, and every frame passes the audit. The killed server is
    started again each time (so the other tests keep three)."""
    servers = cluster
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


# -- play now (issue 26): the queue shared by every process ---------------------------------


def test_playnow_matched_across_processes(cluster: list[Server]) -> None:
    """Two people asking on different processes sit at one table, which a third
    process serves (the tickets are the seats' tokens there too)."""
    a = ask(cluster[0], preset="classic", size=2, wait=None, name="Ann",
            client=uuid.uuid4().hex)
    assert counts(cluster[2], "classic/2", waiting=1)["waiting"] == 1  # every process sees it
    b = ask(cluster[1], preset="classic", size=2, wait=None, name="Bob",
            client=uuid.uuid4().hex)
    sa = until(cluster[0], a["ticket"], "seated")
    sb = until(cluster[1], b["ticket"], "seated")
    assert sa["table"] == sb["table"] and {sa["seat"], sb["seat"]} == {0, 1}
    info = cluster[2].get(f"/api/tables/{sa['table']}").json()
    assert sorted(s["name"] for s in info["seats"]) == ["Ann", "Bob"]
    # the tickets are the seats' tokens on any process
    pa = Player(cluster[2], sa["table"], a["ticket"])
    pb = Player(cluster[0], sb["table"], b["ticket"])
    assert pa.welcome is not None and pa.welcome["seat"] == sa["seat"]
    assert pb.welcome is not None and pb.welcome["seat"] == sb["seat"]
    pa.close()
    pb.close()
    for s in cluster:
        assert a["ticket"] not in s.log() and b["ticket"] not in s.log()


def test_playnow_in_two_browsers_on_different_processes(cluster: list[Server]) -> None:
    """Playwright in Debian's Chromium: two people press Play now in the lobby of two
    different processes of the cluster, for the same preset and size, and sit at one
    table, each seeing its own hand (issue 26: in a cluster two clients on different
    processes are matched)."""
    from chromium import with_browser
    from playwright.sync_api import expect

    def play_now(browser: Browser) -> None:
        pages = []
        for name, server in (("Ann", cluster[0]), ("Bob", cluster[1])):
            ctx = browser.new_context(locale="en-GB")
            page = ctx.new_page()
            page.set_default_timeout(20000)
            page.goto(server.url + "/")
            page.wait_for_selector("body[data-ready='1']")
            page.fill("#name", name)
            page.select_option("#pn-preset", "classic")
            page.select_option("#pn-size", "2")
            page.select_option("#pn-wait", "")
            page.click("#pn-go")
            pages.append(page)
            if name == "Ann":
                expect(page.locator("#pn-status")).to_contain_text("Waiting")
        tables = []
        for page in pages:
            page.wait_for_url(re.compile(r"\?table="), timeout=20000)
            tables.append(page.url.split("table=")[1])
        assert tables[0] == tables[1]
        info = cluster[2].get(f"/api/tables/{tables[0]}").json()
        assert sorted(s["name"] for s in info["seats"]) == ["Ann", "Bob"]
        for page in pages:
            expect(page.locator(".hand .card").first).to_be_visible()

    with_browser(play_now)


def test_playnow_second_tab_on_another_process(cluster: list[Server]) -> None:
    client = uuid.uuid4().hex
    first = ask(cluster[0], preset="teams", size=4, wait=None, name="Cor", client=client)
    second = ask(cluster[2], preset="teams", size=4, wait=None, name="Cor", client=client)
    assert status(cluster[1], first["ticket"]).json()["status"] == "replaced"
    assert status(cluster[1], second["ticket"]).json()["status"] == "waiting"
    r = cluster[1].post("/api/playnow/leave", {"ticket": second["ticket"]})
    assert r.json() == {"status": "gone"}
    assert counts(cluster[0], "teams/4", waiting=0)["waiting"] == 0


def test_playnow_idle_processes_stay_quiet(cluster: list[Server], redis_url: str) -> None:
    """With nobody waiting the matchers look at the queue every 2 s, not every tick
    (0.3 s: 10 looks a second for three processes)."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        assert client.hlen("toepen:pn:t") == 0, "a test left someone waiting"

        def looks() -> int:
            stats = client.info("commandstats")
            return int(stats.get("cmdstat_hlen", {}).get("calls", 0))

        before, t0 = looks(), time.monotonic()
        time.sleep(4)
        per_second = (looks() - before) / (time.monotonic() - t0)
        assert per_second <= 0.55 * len(cluster), per_second  # 3.3 a process before
    finally:
        client.close()
    # and a quiet queue still seats (wait 0: bots at once)
    a = ask(cluster[1], preset="rulebook", size=4, wait=0, bot="random", name="Ida")
    until(cluster[2], a["ticket"], "seated", timeout=5)


def test_presence_across_processes(cluster: list[Server]) -> None:
    """Who is here is one for the cluster: Bob says he is here on one process, Ann (who
    follows him) sees him online on another; a visible guest is listed on a third."""
    tag = uuid.uuid4().hex[:6]
    ann, bob = Browser(cluster[0]), Browser(cluster[1])
    ann.register(f"ann{tag}")
    bob.register(f"bob{tag}")
    assert ann.post("/api/follows", {"name": f"bob{tag}"}).status_code == 200
    assert bob.post("/api/here", {}).status_code == 200
    seen = Browser(cluster[2])
    seen.http.cookies = ann.http.cookies
    seen.refresh()
    got = seen.post("/api/here", {}).json()
    assert got["friends"] == [{"name": f"bob{tag}", "online": True, "table": None}]
    guest = Browser(cluster[1])
    guest.post("/api/here", {"client": uuid.uuid4().hex, "visible": True, "name": f"G{tag}"})
    listed = Browser(cluster[0]).post("/api/here", {}).json()["guests"]
    assert {"name": f"G{tag}", "guest": True} in listed


def test_a_lease_follows_its_clients(cluster: list[Server], redis_url: str) -> None:
    """Behind a proxy that routes each table to one process, a table's clients are all
    at one process; its owner (by rendezvous hashing) may be another, which would then
    relay every action. The owner, with no client of the table, hands the lease to the
    process where they are; the game goes on there with nothing lost, doubled or leaked,
    and every process tells the same game."""
    rng = random.Random(11)
    host = create(cluster[0], name="Ann", size=4, bots={"2": "random", "3": "random"},
                  options={"lives": 3})
    tid = host["table"]["id"]
    bas = cluster[0].post("/api/join", {"code": host["table"]["code"], "name": "Bas"})
    assert bas.status_code == 200, bas.text
    r = cluster[0].post(f"/api/tables/{tid}/start", {},
                        headers={"Authorization": "Bearer " + host["token"]})
    assert r.status_code == 200, r.text
    first = owner(redis_url, tid, cluster)
    there = next(s for s in cluster if s is not first)  # every client connects here
    handed = first.get("/api/ready").json()["cluster"]["handovers"]
    a = Player(there, tid, host["token"])
    b = Player(there, tid, bas.json()["token"])
    watcher = Player(there, tid)
    end = time.monotonic() + 10
    while owner(redis_url, tid, cluster) is not there:
        assert time.monotonic() < end, "the lease stayed with a process with no client"
        a.poll(0.1)
    assert first.get("/api/ready").json()["cluster"]["handovers"] > handed
    play_to_one_end(cluster, tid, a, b, watcher, rng)
    for p in (a, b, watcher):
        p.close()


def test_a_relay_sends_on_the_owners_frame_bytes_as_they_came() -> None:
    """The owner's frames of a state reach the relaying process in one message per
    process, each frame the very bytes the owner encoded (UTF-8 beyond ASCII included),
    and the relay hands them to its sockets unparsed and not encoded again: each client
    one state behind gets its own seat's frame, a spectator the public one."""
    from types import SimpleNamespace

    from toepen.server.cluster.core import OWN, Cluster
    from toepen.server.db.store import SeatRow, TableRow
    from toepen.server.tables.table import Client, Table

    row = TableRow(id="bytes0000001", code="BYTESA", preset="rulebook",
                   rules={"preset": "rulebook"}, size=2, seed=5, dealer=0,
                   idle_seconds=60.0, autostart=False, creator="c", host_hash="h",
                   status="playing", players=["Zoë", "B"],
                   seats=[SeatRow(0, "human", "Zoë"), SeatRow(1, "human", "B")])
    owner = Cluster("redis://127.0.0.1:1/0")  # never connected: frames only queue
    table = Table.stored(row)
    table.game = table.new_game()
    mine = '{"type":"state","say":"Zoë 🍺","seat":0}'.encode()
    public = b'{"type":"state","seat":null}'
    owner.frames(table, 1, {"relay": {0: mine, None: public}, "third": {None: public}})
    assert [channel for channel, _ in owner.outbox] == [OWN + "relay", OWN + "third"]
    data = owner.outbox[0][1]
    assert isinstance(data, bytes) and data.count(mine) == 1 and data.count(public) == 1

    relay = Cluster("redis://127.0.0.1:1/0")
    here = Table.stored(row)
    seated, watching, ahead = (Client(0, False, 8), Client(None, False, 8),
                               Client(1, False, 8))
    seated.at = watching.at = 0
    ahead.at = 1  # has state 1 already: nothing more
    here.clients.update([seated, watching, ahead])
    relay.host = SimpleNamespace(  # type: ignore[assignment]
        table={here.id: here}.get,
        deliver=lambda t, n, frames, fresh: t.deliver(n, frames, fresh))
    relay._frames(data)
    assert seated.queue.get_nowait() == mine  # the bytes themselves, never text
    assert watching.queue.get_nowait() == public
    assert ahead.queue.empty()
    assert (seated.at, watching.at, here.heard) == (1, 1, 1)
    assert relay.hints[here.id] == owner.proc  # where to relay the next action


def test_the_publisher_sends_again_what_redis_did_not_surely_take(redis_url: str) -> None:
    """Published with Redis' replies off, messages arrive in order; one written after
    the publisher's connection was cut is not confirmed, comes back from ``reset`` and
    arrives once sent again on a new connection; nothing confirmed is sent twice."""
    import asyncio

    import redis
    import redis.asyncio as aioredis

    from toepen.server.cluster.core import Publisher

    async def main() -> list[bytes]:
        bus = aioredis.from_url(redis_url)
        admin = aioredis.from_url(redis_url)
        sub = bus.pubsub(ignore_subscribe_messages=True)
        await sub.subscribe("pubtest")
        pub = Publisher(bus)
        got: list[bytes] = []

        async def receive(count: int) -> None:
            end = time.monotonic() + 5
            while len(got) < count:
                assert time.monotonic() < end, got
                item = await sub.get_message(timeout=0.5)  # None: nothing, or a subscribe
                if item is not None:
                    got.append(item["data"])

        try:
            await pub.send([("pubtest", b"1"), ("pubtest", "zo\u00eb".encode())])
            await pub.confirm(5.0)
            assert pub.unconfirmed == []
            await receive(2)
            await admin.client_kill_filter(_type="normal", skipme=True)  # the publisher's
            await asyncio.sleep(0.2)
            with pytest.raises(redis.exceptions.ConnectionError):
                await pub.send([("pubtest", b"3")])  # written, or refused at once
                await pub.confirm(5.0)  # Redis closed it: no confirmation
            again = await pub.reset()
            assert again == [("pubtest", b"3")]
            await pub.send(again)
            await pub.confirm(5.0)
            await receive(3)
            await asyncio.sleep(0.3)
            while (item := await sub.get_message(timeout=0.1)) is not None:
                got.append(item["data"])
            return got
        finally:
            await pub.reset()
            await sub.aclose()
            await bus.aclose()
            await admin.aclose()

    assert asyncio.run(main()) == [b"1", "zo\u00eb".encode(), b"3"]


def test_the_publisher_publishes_with_replies_where_redis_refuses_to_turn_them_off(
        redis_url: str) -> None:
    """A Redis that refuses ``CLIENT REPLY`` (here a user without ``CLIENT``): the
    publisher says so at its first confirmation, sends again what it wrote and from then
    on publishes as usual; every message arrives."""
    import asyncio

    import redis
    import redis.asyncio as aioredis

    from toepen.server.cluster.core import Publisher

    async def main() -> list[bytes]:
        admin = aioredis.from_url(redis_url)
        await admin.acl_setuser("noclient", enabled=True, nopass=True, keys=["*"],
                                channels=["*"], commands=["+@all", "-client"])
        host, port = redis_url.split("//")[1].split("/")[0].split(":")
        bus = aioredis.Redis(host=host, port=int(port), username="noclient")
        sub = admin.pubsub(ignore_subscribe_messages=True)
        await sub.subscribe("plaintest")
        pub = Publisher(bus)
        got: list[bytes] = []
        try:
            await pub.send([("plaintest", b"1")])
            with pytest.raises(redis.ResponseError):
                await pub.confirm(5.0)
            assert pub.plain
            again = await pub.reset()
            assert again == [("plaintest", b"1")]
            await pub.send([*again, ("plaintest", b"2")])
            await pub.confirm(5.0)
            assert pub.unconfirmed == []
            end = time.monotonic() + 5
            while b"2" not in got:
                assert time.monotonic() < end, got
                item = await sub.get_message(timeout=0.5)
                if item is not None:
                    got.append(item["data"])
            return got
        finally:
            await pub.reset()
            await sub.aclose()
            await bus.aclose()
            await admin.acl_deluser("noclient")
            await admin.aclose()

    got = asyncio.run(main())
    assert got[-1] == b"2" and set(got) == {b"1", b"2"}  # "1" once or twice, in order


def test_a_relayed_action_is_answered_by_the_frames_of_the_state_it_made() -> None:
    """The owner answers a relayed action in the head of the frames of the state that
    action made, sent to the relaying process; an action of another seat that made that
    state first is not the answer of one still waiting (it is refused, and told so by a
    message of its own), and frames of other processes carry no answer."""
    import json as _json

    from toepen.server.cluster.core import OWN, Cluster
    from toepen.server.db.store import SeatRow, TableRow
    from toepen.server.tables.table import Table

    row = TableRow(id="acks00000001", code="ACKSAA", preset="rulebook",
                   rules={"preset": "rulebook"}, size=2, seed=5, dealer=0,
                   idle_seconds=60.0, autostart=False, creator="c", host_hash="h",
                   status="playing", players=["A", "B"],
                   seats=[SeatRow(0, "human", "A"), SeatRow(1, "human", "B")])
    table = Table.stored(row)
    game = table.game = table.new_game()
    seat = game.to_act[0]
    move = game.legal(seat)[0]
    cluster = Cluster("redis://127.0.0.1:1/0")  # never connected: frames only queue
    other_seat = 1 - seat
    cluster.acks[table.id] = [("relay", "mine", 1, seat, str(move)),
                              ("relay", "theirs", 1, other_seat, "pass"),
                              ("elsewhere", "far", 1, seat, str(move))]
    game.apply(seat, move)
    cluster.frames(table, 1, {"relay": {seat: "frame"}, "third": {None: "public"}})
    heads = {channel: _json.loads(data[1:].split(b"\x00")[0]) for channel, data in cluster.outbox}
    assert heads[OWN + "relay"]["r"] == ["mine"]
    assert "r" not in heads[OWN + "third"]
    assert cluster.acks[table.id] == [("relay", "theirs", 1, other_seat, "pass"),
                                      ("elsewhere", "far", 1, seat, str(move))]


def test_the_publisher_writes_with_replies_off_only_with_the_tested_redis_py(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The publisher reaches below redis-py's commands (a connection of its own, packed
    commands written without reading replies): only with the redis-py it was tested with
    (8.x) and whose connections have every method it uses; with any other it publishes
    the usual way, replies awaited, from the start."""
    import redis
    import redis.asyncio as aioredis

    from toepen.server.cluster import core
    from toepen.server.cluster.core import Publisher, replies_off_supported

    client = aioredis.from_url("redis://127.0.0.1:1/0")  # never connected
    assert replies_off_supported(client) and not Publisher(client).plain
    monkeypatch.setattr(redis, "__version__", "9.0.0")
    assert not replies_off_supported(client) and Publisher(client).plain
    monkeypatch.setattr(redis, "__version__", "8.4.1")
    assert replies_off_supported(client)
    monkeypatch.setattr(client.connection_pool.connection_class, "pack_commands", None)
    assert not replies_off_supported(client) and Publisher(client).plain
    assert "read_response" in core.REPLIES_OFF_NEEDS
