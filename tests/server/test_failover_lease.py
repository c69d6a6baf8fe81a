"""Faults of a cluster's leases and commits (issue 24), on real PostgreSQL, real Redis
and two real ``toepen serve`` processes:

- the lease renewer keeps a table's lease while the event loop is blocked, and gives
  it up as soon as Redis no longer holds it for us; a bot's move cancelled during its
  commit is still applied (in one process, SQLite);
- an owner frozen with SIGSTOP (at a failpoint: just before it commits an action)
  past its lease, then resumed: its late write is refused by the fence, the new
  owner goes on, no action is doubled (the action relayed to it as it froze is applied
  once, by the new owner, and answered with its state); frozen in the commit of the
  very person connected there, her action goes to the new owner (not refused as stale);
- PostgreSQL stopped at once (``pg_ctl stop -m immediate``) while it commits a
  person's action: the commit is durable but never acknowledged (PostgreSQL waits for
  a synchronous standby that does not exist); after the restart the person gets the
  ``state`` with their action, not ``server_error``.

After each fault the game is played to its end, every process tells the database's
record, every client's state number is the database's, and no stand-in played for the
person, who stayed connected.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from services import Postgres, throwaway_postgres_cluster, throwaway_redis
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from toepen.record import replay
from toepen.server.cluster.core import Cluster, Renewer
from toepen.server.db.store import database_url

from .audit import audit, timeline
from .conftest import Player, Server, create
from .test_cluster import acknowledged, owner
from .test_session import calm, over, play_until


@pytest.fixture(scope="module")
def pg() -> Iterator[Postgres]:
    """A PostgreSQL of this module's own: the tests stop and start it."""
    with throwaway_postgres_cluster() as cluster:
        yield cluster


@pytest.fixture(scope="module")
def redis_here() -> Iterator[str]:
    with throwaway_redis() as url:
        yield url


@pytest.fixture(scope="module")
def pair(pg: Postgres, redis_here: str,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[list[Server], Path]]:
    """Two servers on them, with the failpoint file of the fault ``stop_file``
    (tests/faults.py) at their first start."""
    fail = tmp_path_factory.mktemp("fail") / "failpoint"
    servers: list[Server] = []
    try:
        for _ in range(2):
            servers.append(Server(pg.url, "--redis", redis_here,
                                  faults={"stop_file": str(fail)}).start())
    except Exception:
        for s in servers:
            s.stop()
        raise
    for s in servers:
        s.faults = None  # a start again is a process without it, as before
    yield servers, fail
    for s in servers:
        if s.proc is not None:
            with contextlib.suppress(OSError):
                os.kill(s.proc.pid, signal.SIGCONT)
        s.stop()


def stored(engine: Engine, tid: str) -> list[tuple[int, int, str, str, int]]:
    """(n, seat, action, by, epoch) of every stored action of ``tid``."""
    with engine.connect() as conn:
        return [(int(r[0]), int(r[1]), str(r[2]), str(r[3]), int(r[4])) for r in conn.execute(
            text('SELECT n, seat, action, "by", epoch FROM toepen_actions '
                 "WHERE table_id = :t ORDER BY n"), {"t": tid})]


def epoch_of(engine: Engine, tid: str) -> int:
    with engine.connect() as conn:
        return int(conn.scalar(text("SELECT epoch FROM toepen_tables WHERE id = :t"),
                               {"t": tid}))


def one_person_three_bots(server: Server) -> tuple[str, str]:
    host = create(server, name="Ann", size=4,
                  bots={"1": "random", "2": "random", "3": "random"}, options={"lives": 3})
    tid = host["table"]["id"]
    r = server.post(f"/api/tables/{tid}/start", {},
                    headers={"Authorization": "Bearer " + host["token"]})
    assert r.status_code == 200, r.text
    return tid, host["token"]


def arm_commit_stop(fail: Path, tid: str) -> None:
    """The failpoint: the next owner's commit of ``tid`` stops its process (a file an
    earlier test's process took is cleared first: it would be read as this one's)."""
    for old in fail.parent.glob(fail.name + ".*"):
        old.unlink()
    fail.write_text(f"stop:owner-commit:{tid}")


def frozen_commit(fail: Path, server: Server, what: str) -> tuple[str, str, str]:
    """Wait until ``server`` stopped itself at the failpoint: (table, n, epoch) of the
    commit it froze in."""
    assert server.proc is not None
    taken = Path(f"{fail}.{server.proc.pid}")
    end = time.monotonic() + 15
    while not (taken.exists() and taken.read_text().endswith("\n")):
        assert time.monotonic() < end, f"the owner never reached {what}"
        time.sleep(0.02)
    table, n, epoch = taken.read_text().split()
    return table, n, epoch


def epoch_raised_past(engine: Engine, tid: str, epoch: str) -> None:
    """Wait until the table's lease epoch in the database is above ``epoch``."""
    end = time.monotonic() + 10
    while epoch_of(engine, tid) <= int(epoch):
        assert time.monotonic() < end, "the new owner never raised the epoch"
        time.sleep(0.02)


def act(p: Player, rng: random.Random) -> int:
    """``p`` plays a quiet legal action now; returns the state number it was sent at."""
    n = p.state["state"] if p.state else 0
    p.send({"v": 1, "type": "act", "action": calm(p.view["legal"], rng), "state": n})
    return n


def finish_and_agree(servers: list[Server], ann: Player, tid: str, engine: Engine,
                     rng: random.Random) -> None:
    """The game goes on to its end; the processes, the client and the database agree;
    no stand-in played for Ann (seat 0), who stayed connected."""
    play_until([ann], rng, lambda: over(ann), choose=calm, timeout=90)
    ann.drain(0.3)
    records = [s.get(f"/api/tables/{tid}/record").json() for s in servers]
    rows = stored(engine, tid)
    assert records[0]["actions"] == records[1]["actions"]
    assert [f"{seat} {a}" for _, seat, a, _, _ in rows] == records[0]["actions"]
    assert replay(records[0]).is_over
    assert ann.view["action_count"] == len(rows)
    assert acknowledged([ann], records[0]) > 10  # none lost, none doubled
    assert not [r for r in rows if r[1] == 0 and r[3] != "player"], rows
    assert audit(ann.messages, 0, timeline(records[0])) > 10
    for s in servers:
        info = s.get(f"/api/tables/{tid}").json()
        assert info["state"] == len(rows), (s.port, info)


def test_the_renewer_keeps_a_lease_while_the_event_loop_is_blocked(redis_here: str) -> None:
    """A lease of 0.6 s, the event loop blocked for 2 s (game work): Redis still holds
    the lease for this process and it still counts as ours; taken away in Redis (a
    restart), it is given up here within a renewal."""

    async def main() -> None:
        cluster = Cluster(redis_here, lease_ms=600)
        client = redis.Redis.from_url(redis_here, decode_responses=True)
        key = "toepen:lease:renewtest01"
        client.set(key, cluster.proc, px=600)
        cluster.owned.add("renewtest01")
        cluster.epochs["renewtest01"] = 1
        cluster.valid["renewtest01"] = time.monotonic() + 0.4
        renewer = Renewer(cluster, asyncio.get_running_loop())
        renewer.start()
        try:
            time.sleep(2.0)  # the loop does nothing else meanwhile
            assert client.get(key) == cluster.proc
            assert cluster.owns("renewtest01")
            client.delete(key)
            await asyncio.sleep(0.8)
            assert not cluster.owns("renewtest01") and "renewtest01" not in cluster.owned
        finally:
            renewer.stop()
            client.close()
            await cluster.redis.aclose()

    asyncio.run(main())


def test_an_owner_frozen_past_its_lease_cannot_store_its_late_write(
        pair: tuple[list[Server], Path], pg: Postgres, redis_here: str) -> None:
    servers, fail = pair
    rng = random.Random(11)
    engine = create_engine(database_url(pg.url))
    try:
        tid, token = one_person_three_bots(servers[0])
        frozen = owner(redis_here, tid, servers)
        other = next(s for s in servers if s is not frozen)
        assert frozen.proc is not None
        # a spectator at the owner keeps its lease there (an owner with no client of a
        # table hands it to the process where they are)
        watcher = Player(frozen, tid)
        ann = Player(other, tid, token)  # the person is at the process that is not frozen
        play_until([ann], rng, lambda: ann.state is not None and ann.state["state"] > 8
                   and ann.my_turn(), choose=calm, timeout=30)
        arm_commit_stop(fail, tid)
        n = ann.state["state"]
        chosen = calm(ann.view["legal"], rng)
        ann.send({"v": 1, "type": "act", "action": chosen, "state": n, "id": 214})
        table, late_n, late_epoch = frozen_commit(fail, frozen, "its next commit")
        # the owner applies every action (the others relay): its frozen commit is Ann's
        # own relayed action (n) or a bot's after it
        assert table == tid and int(late_n) >= n
        assert Path(f"/proc/{frozen.proc.pid}/stat").read_text().split(") ")[1][0] == "T"
        # its lease runs out; the other process takes the table (a higher epoch)
        assert owner(redis_here, tid, [other], timeout=20) is other
        epoch_raised_past(engine, tid, late_epoch)  # taken in the database too
        os.kill(frozen.proc.pid, signal.SIGCONT)  # resumed with its write in flight
        end = time.monotonic() + 15
        while "write under epoch" not in frozen.log():
            assert time.monotonic() < end, frozen.log()
            time.sleep(0.05)
        # Ann's action is answered only now (her process relayed it to the frozen owner,
        # then, told "moved", applied it itself): wait for that answer before she plays
        # on. Her client still shows her turn at n meanwhile, so a move sent now would be
        # her second at n, rightly refused stale (the flake: play_until read that
        # refusal as the answer to a later move, about 1 run in 4)
        got = ann.wait(lambda m: m["type"] == "error"
                       or (m["type"] == "state" and m["state"] == n + 1), 20)
        assert got["type"] == "state", got  # applied, not refused
        assert got["last"] == {"seat": 0, "action": chosen, "by": "player"}, got
        by_n = {r[0]: r for r in stored(engine, tid)}
        assert by_n[n][1:4] == (0, chosen, "player"), by_n[n]  # stored once, as number n
        if int(late_n) == n:  # the frozen write was hers: stored by the new owner
            assert by_n[n][4] > int(late_epoch), by_n[n]
        finish_and_agree(servers, ann, tid, engine, rng)
        # nothing Ann sent was refused: each move waited for the answer to the one before
        errors = [m for m in ann.messages if m["type"] == "error"]
        assert not errors, errors
        rows = stored(engine, tid)
        by_n = {r[0]: r for r in rows}
        # action late_n is the new owner's, under a higher epoch: the late write is not
        assert by_n[int(late_n)][4] > int(late_epoch), by_n[int(late_n)]
        assert all(r[4] != int(late_epoch) for r in rows if r[0] >= int(late_n)), rows
        assert f"write under epoch {late_epoch} was refused" in frozen.log()
        ann.close()
        watcher.close()
    finally:
        engine.dispose()


def test_a_person_at_an_owner_frozen_in_her_commit_is_not_refused(
        pair: tuple[list[Server], Path], pg: Postgres, redis_here: str) -> None:
    """The owner freezes in the commit of Ann's own action (she is connected there) and
    loses the table; resumed, its write is refused by the fence: nothing was stored, so
    the action goes to the new owner, which stores it. Ann is not told ``stale`` for an
    action she sent at her turn, and the game goes on."""
    servers, fail = pair
    rng = random.Random(13)
    engine = create_engine(database_url(pg.url))
    try:
        tid, token = one_person_three_bots(servers[1])
        frozen = owner(redis_here, tid, servers)
        other = next(s for s in servers if s is not frozen)
        assert frozen.proc is not None
        ann = Player(frozen, tid, token)
        play_until([ann], rng, lambda: ann.state is not None and ann.state["state"] > 8
                   and ann.my_turn(), choose=calm, timeout=30)
        assert owner(redis_here, tid, servers) is frozen
        arm_commit_stop(fail, tid)
        n = ann.state["state"]
        chosen = calm(ann.view["legal"], rng)
        ann.send({"v": 1, "type": "act", "action": chosen, "state": n})
        table, late_n, late_epoch = frozen_commit(fail, frozen, "Ann's commit")
        assert table == tid and int(late_n) == n  # her action, nobody else's
        assert owner(redis_here, tid, [other], timeout=20) is other
        epoch_raised_past(engine, tid, late_epoch)
        os.kill(frozen.proc.pid, signal.SIGCONT)
        ann.wait(lambda m: m["type"] == "state" and m["state"] > n, 20)
        errors = [m for m in ann.messages if m["type"] == "error"]
        assert not errors, errors
        rows = stored(engine, tid)
        assert rows[n][1:4] == (0, chosen, "player"), rows[n]
        assert rows[n][4] > int(late_epoch)  # stored by the new owner, under its epoch
        assert f"write under epoch {late_epoch} was refused" in frozen.log()
        finish_and_agree(servers, ann, tid, engine, rng)
        ann.close()
    finally:
        engine.dispose()
        for s in servers:  # never leave a process stopped for the next test
            if s.proc is not None:
                with contextlib.suppress(OSError):
                    os.kill(s.proc.pid, signal.SIGCONT)


def test_an_immediate_postgres_stop_during_a_commit_answers_what_was_stored(
        pair: tuple[list[Server], Path], pg: Postgres) -> None:
    servers, _ = pair
    rng = random.Random(12)
    engine = create_engine(database_url(pg.url), isolation_level="AUTOCOMMIT")
    try:
        tid, token = one_person_three_bots(servers[1])
        ann = Player(servers[0], tid, token)
        play_until([ann], rng, lambda: ann.state is not None and ann.state["state"] > 8
                   and ann.my_turn(), choose=calm, timeout=30)
        with engine.connect() as conn:  # a commit is durable here, then waits forever
            conn.execute(text("ALTER SYSTEM SET synchronous_standby_names = 'nobody'"))
            conn.execute(text("SELECT pg_reload_conf()"))
        time.sleep(0.3)
        n = act(ann, rng)
        end = time.monotonic() + 15
        while True:
            with engine.connect() as conn:
                waiting = conn.scalar(text("SELECT count(*) FROM pg_stat_activity "
                                           "WHERE wait_event = 'SyncRep'"))
            if waiting:
                break
            assert time.monotonic() < end, "the commit never reached PostgreSQL"
            time.sleep(0.05)
        engine.dispose()
        pg.stop("immediate")  # the commit is on disk; its answer never leaves
        auto = pg.data / "postgresql.auto.conf"
        auto.write_text("".join(line for line in auto.read_text().splitlines(True)
                                if "synchronous_standby_names" not in line))
        pg.start()
        got = ann.wait(lambda m: m["type"] == "error"
                       or (m["type"] == "state" and m["state"] == n + 1), 40)
        assert got["type"] == "state", got  # stored: the state, not "nothing changed"
        rows = stored(engine, tid)
        assert len(rows) > n and rows[n][1] == 0 and rows[n][3] == "player"
        finish_and_agree(servers, ann, tid, engine, rng)
        assert not [m for m in ann.messages if m["type"] == "error"
                    and m["code"] in ("server_error", "in_doubt")]
        ann.close()
    finally:
        engine.dispose()


def test_an_action_cancelled_during_its_commit_is_still_applied(tmp_path: Path) -> None:
    """A bot's move whose task is cancelled while its commit waits (its table kicked, a
    lease lost): the commit goes on, and what it stored is applied to the table's game
    and told, never left behind in this copy (the fault: stored, not applied, the table
    still for 32 s). The commit waits for real: another SQLite connection holds the
    write lock."""
    from toepen.server.db.commit import Storage
    from toepen.server.db.store import SeatRow, Store, TableRow
    from toepen.server.protocol import Limits
    from toepen.server.tables.master import Master
    from toepen.server.tables.table import Table

    url = f"sqlite:///{tmp_path / 'cancel.sqlite3'}"
    store = Store.open(url)
    row = TableRow(id="cancel000001", code="CANCEL", preset="rulebook",
                   rules={"preset": "rulebook"}, size=2, seed=5, dealer=0,
                   idle_seconds=60.0, autostart=False, creator="c", host_hash="h",
                   status="playing", players=["A", "B"],
                   seats=[SeatRow(0, "bot", "A", "random"), SeatRow(1, "bot", "B", "random")])
    store.create_table(row, row.seats)
    blocker = sqlite3.connect(tmp_path / "cancel.sqlite3", timeout=10)

    async def main() -> None:
        storage = Storage(store)
        master = Master(storage, Limits())
        table = Table.stored(row)
        game = table.game = table.new_game()
        seat = game.to_act[0]
        move = str(game.legal(seat)[0])
        blocker.execute("BEGIN IMMEDIATE")  # the disk is busy: the commit waits
        task = asyncio.get_running_loop().create_task(
            master.act(table, seat, move, 0, by="bot"))
        await asyncio.sleep(0.3)
        assert not task.done()
        task.cancel()  # the table is kicked meanwhile
        await asyncio.sleep(0.1)
        blocker.rollback()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert table.game is not None and len(table.game.actions) == 1
        assert store.load_actions(row.id) == [(seat, move, "bot")]
        storage.thread.shutdown(wait=True)

    try:
        asyncio.run(main())
    finally:
        blocker.close()
        store.close()


def test_a_database_silent_past_the_look_again_answers_in_doubt_then_the_truth(
        pg: Postgres) -> None:
    """PostgreSQL stopped at once during a commit and not back within the look-again's
    time: the sender is told ``in_doubt`` (never ``server_error``'s "nothing changed"),
    and once the database answers again the table is read from it: the stored action is
    applied to the game (in one process, on this module's PostgreSQL)."""
    from toepen.server.db.commit import Storage
    from toepen.server.db.store import SeatRow, Store, TableRow
    from toepen.server.protocol import Limits, Refused
    from toepen.server.tables.master import Master
    from toepen.server.tables.table import Table

    store = Store.open(pg.url)
    tid = f"doubt{os.getpid() % 10**7:07d}"
    row = TableRow(id=tid, code=tid[-6:].upper(), preset="rulebook",
                   rules={"preset": "rulebook"}, size=2, seed=5, dealer=0,
                   idle_seconds=60.0, autostart=False, creator="c", host_hash="h",
                   status="playing", players=["A", "B"],
                   seats=[SeatRow(0, "human", "A"), SeatRow(1, "human", "B")])
    store.create_table(row, row.seats)
    admin = create_engine(database_url(pg.url), isolation_level="AUTOCOMMIT")

    async def main() -> tuple[int, str]:
        storage = Storage(store)
        storage.doubt_seconds = 1.0
        master = Master(storage, Limits())
        table = Table.stored(row)
        game = table.game = table.new_game()
        seat = game.to_act[0]
        move = str(game.legal(seat)[0])
        with admin.connect() as conn:
            conn.execute(text("ALTER SYSTEM SET synchronous_standby_names = 'nobody'"))
            conn.execute(text("SELECT pg_reload_conf()"))
        await asyncio.sleep(0.3)
        task = asyncio.get_running_loop().create_task(master.act(table, seat, move, 0))
        end = time.monotonic() + 15
        while True:
            with admin.connect() as conn:
                if conn.scalar(text("SELECT count(*) FROM pg_stat_activity "
                                    "WHERE wait_event = 'SyncRep'")):
                    break
            assert time.monotonic() < end, "the commit never reached PostgreSQL"
            await asyncio.sleep(0.05)
        admin.dispose()
        await asyncio.to_thread(pg.stop, "immediate")
        with pytest.raises(Refused) as refused:
            await task
        assert refused.value.code == "in_doubt", refused.value.message
        assert len(table.game.actions) == 0  # not applied: unknown
        auto = pg.data / "postgresql.auto.conf"
        auto.write_text("".join(line for line in auto.read_text().splitlines(True)
                                if "synchronous_standby_names" not in line))
        await asyncio.to_thread(pg.start)
        end = time.monotonic() + 20
        while len(table.game.actions) == 0:  # read again from the database
            assert time.monotonic() < end, "the table was never read again"
            await asyncio.sleep(0.1)
        assert [str(a) for _, a in table.game.actions] == [move]
        storage.thread.shutdown(wait=True)
        return seat, move

    try:
        seat, move = asyncio.run(main())
        assert store.load_actions(tid) == [(seat, move, "player")]  # stored once
    finally:
        admin.dispose()
        store.close()
