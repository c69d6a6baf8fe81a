"""The cluster under faults (issue 24): a stale refusal from a second tab at another
process, a Redis restart in the middle of a game, messages that arrive while a process
starts, and a randomized chaos run (kills, frozen owners, clients anywhere).

Real parts only: the throwaway PostgreSQL of conftest, a ``redis-server`` of this module
(restarted on its own port by one test), and ``toepen serve`` processes with ``--redis``.
After each fault: the table finishes, every process tells the database's record, every
client was told only stored actions at their numbers, every frame passes the audit, and
no stand-in played for a person who was there.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from toepen.record import replay

from .audit import audit, timeline
from .conftest import Player, Server, create, free_port
from .schema import check_server_message
from .test_cluster import acknowledged, owner
from .test_session import calm


class Redis:
    """A ``redis-server`` without persistence on one port, stopped and started again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="toepen-redis-")
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.proc = subprocess.Popen([exe, "--port", str(self.port), "--bind", "127.0.0.1",
                                      "--save", "", "--appendonly", "no", "--dir", self.folder],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        end = time.monotonic() + 20
        try:
            while True:
                try:
                    client.ping()
                    return
                except redis.ConnectionError:
                    assert time.monotonic() < end, "redis-server did not start"
                    time.sleep(0.02)
        finally:
            client.close()

    def kill(self) -> None:
        """SIGKILL: it remembers nothing when it comes back (no persistence)."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="module")
def own_redis() -> Iterator[Redis]:
    r = Redis()
    r.start()
    yield r
    r.stop()


@pytest.fixture(scope="module")
def trio(postgres_url: str, own_redis: Redis) -> Iterator[list[Server]]:
    """Three processes on this module's Redis (a test that kills one starts it again)."""
    servers = [Server(postgres_url, "--redis", own_redis.url) for _ in range(3)]
    try:
        starts = [threading.Thread(target=s.start) for s in servers]
        for t in starts:
            t.start()
        for t in starts:
            t.join()
        assert all(s.proc is not None for s in servers)
        yield servers
    finally:
        for s in servers:
            s.stop()


class Driver:
    """Plays the people of many tables at once without waiting on any one socket: each
    acts (a calm random legal action) once per state it is to act at; an error lets it
    try again. Errors are kept: under faults only ``stale`` and ``server_error`` may
    come."""

    def __init__(self, players: list[Player], rng: random.Random,
                 servers: list[Server] | None = None,
                 pace: tuple[float, float] = (0.0, 0.0)) -> None:
        self.players = players
        self.servers = servers or []
        self.rng = rng
        self.pace = pace
        self.sent: dict[int, int] = {}
        self.due: dict[int, tuple[int, float]] = {}
        self.seen: dict[int, int] = {}  # each player's reconnects when last acted
        self.errors: list[dict[str, Any]] = []

    def step(self) -> None:
        for i, p in enumerate(self.players):
            for _ in range(50):
                msg = p.poll(0.0)
                if msg is None:
                    break
                if msg["type"] == "error":
                    self.errors.append(msg)
                    self.sent.pop(i, None)
            if self.seen.get(i, 0) != p.reconnects:
                # a tab that connected again acts again, as a person does who sees the
                # turn again (what was sent to a killed process may never have arrived)
                self.seen[i] = p.reconnects
                self.sent.pop(i, None)
            if p.state is None or not p.my_turn() or p.view["winner"] is not None:
                continue
            n = p.state["state"]
            if self.sent.get(i) == n:
                continue
            if self.pace[1] > 0:  # a person thinks a moment before acting
                now = time.monotonic()
                if i not in self.due or self.due[i][0] != n:
                    self.due[i] = (n, now + self.rng.uniform(*self.pace))
                if now < self.due[i][1]:
                    continue
            self.sent[i] = n
            p.send({"v": 1, "type": "act", "action": calm(p.view["legal"], self.rng),
                    "state": n})

    def tables(self) -> str:
        """What each live process says of each table (its state, its status): for the
        message of a stuck run."""
        out = []
        for tid in sorted({p.table_id for p in self.players}):
            says = []
            for s in self.servers:
                if s.proc is None:
                    continue
                try:
                    info = s.get(f"/api/tables/{tid}").json()
                    says.append(f"{s.port}:{info.get('state')}/{info.get('status')}")
                except Exception as e:  # noqa: BLE001 - a diagnostic only
                    says.append(f"{s.port}:{type(e).__name__}")
            out.append(f"{tid}: " + " ".join(says))
        return "\n".join(out)

    def run(self, done: Any, timeout: float) -> None:
        end = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < end, "stuck: " + "; ".join(
                f"{p.table_id}@{p.state and p.state['state']}" for p in self.players) + "\n" + \
                self.tables() + "".join(
                f"\n--- {s.port}:\n{s.log()[-1500:]}" for s in self.servers if s.proc)
            self.step()
            time.sleep(0.005)


def until(p: Player, pred: Any, timeout: float = 15.0) -> None:
    """Read ``p``'s messages until ``pred(p)`` holds (it may hold already)."""
    end = time.monotonic() + timeout
    while not pred(p):
        assert time.monotonic() < end, f"stuck at {p.state and p.state['state']}"
        p.poll(0.05)


def finished(p: Player) -> bool:
    return p.state is not None and p.view["winner"] is not None


def no_standin_for(players: list[Player], seats: dict[str, set[int]]) -> None:
    """No client was told of a stand-in's action at a seat whose person was playing."""
    for p in players:
        for m in p.messages:
            if m["type"] == "state" and m["last"] is not None and m["last"]["by"] == "standin":
                assert m["last"]["seat"] not in seats[p.table_id], (p.table_id, m["last"])


def agree(servers: list[Server], tid: str, players: list[Player],
          audited: dict[Player, int | None]) -> dict[str, Any]:
    """Every process tells the same finished record; every client was told its actions
    at their numbers; every frame is the seat's own view and shows no hidden card."""
    records = [s.get(f"/api/tables/{tid}/record").json() for s in servers]
    assert all(r["actions"] == records[0]["actions"] for r in records), tid
    game = replay(records[0])
    assert game.is_over
    for s in servers:
        info = s.get(f"/api/tables/{tid}").json()
        assert info["state"] == len(records[0]["actions"]) and info["status"] == "over"
    mine = [p for p in players if p.table_id == tid]
    for p in mine:
        assert p.view["action_count"] == len(records[0]["actions"]), tid
    acknowledged(mine, records[0])
    games = timeline(records[0])
    for p in mine:
        for msg in p.messages:
            check_server_message(msg)
        audit(p.messages, audited[p], games)
    return records[0]


def told_in_order(players: list[Player], record: dict[str, Any]) -> int:
    """Every client was told every action, in order, each with its ``last``: on each
    connection the first ``state`` is whole (it follows ``welcome``), and every later
    one is the next state number, its ``last`` the record's action of that number (a
    ``state`` that skips one, even whole with its ``history``, lost the skipped action's
    ``last``; a browser's log missed it). Returns how many states were checked."""
    checked = 0
    for p in players:
        at: int | None = None
        for m in p.messages:
            if m["type"] == "welcome":
                at = None  # a new connection: its first state is the whole game so far
                continue
            if m["type"] != "state":
                continue
            n = m["state"]
            if n > 0:
                assert m["last"] is not None, f"{p.table_id}: state {n} without last"
                last = m["last"]
                assert record["actions"][n - 1] == f"{last['seat']} {last['action']}", (
                    p.table_id, n, last)
            if at is not None:
                assert n == at + 1, f"{p.table_id}: state {at} then {n}"
            at = n
            checked += 1
    return checked


def test_a_stale_refusal_from_a_second_tab_at_another_process(trio: list[Server],
                                                             own_redis: Redis) -> None:
    """One person with two tabs, one at the table's owner and one at another process,
    sends the same action from both at once, again and again: one is applied, the other
    is stale, and every time the bots act next (fault 1: a stale refusal at the owner
    used to leave the bots unscheduled for good)."""
    rng = random.Random(7)
    host = create(trio[0], name="Ann", size=3, bots={"1": "random", "2": "random"},
                  options={"lives": 3})
    tid = host["table"]["id"]
    trio[1].post(f"/api/tables/{tid}/start", {},
                 headers={"Authorization": "Bearer " + host["token"]})
    boss = owner(own_redis.url, tid, trio)
    other = next(s for s in trio if s is not boss)
    tabs = [Player(boss, tid, host["token"]), Player(other, tid, host["token"])]
    races = 0
    while not finished(tabs[0]):
        until(tabs[0], lambda p: p.my_turn() or finished(p))
        if finished(tabs[0]):
            break
        n = tabs[0].state["state"]  # type: ignore[index]
        until(tabs[1], lambda p, n=n: p.state is not None and p.state["state"] >= n)
        choice = calm(tabs[0].view["legal"], rng)
        for t in (tabs[1], tabs[0]):  # the other process's tab first: it wins often
            t.send({"v": 1, "type": "act", "action": choice, "state": n})
        races += 1
        got = [t.wait(lambda m, n=n: m["type"] == "error" or (m["type"] == "state"
                                                              and m["state"] > n), 15)
               for t in tabs]
        assert all(m["code"] == "stale" for m in got if m["type"] == "error"), got
        # the table moves on: a bot acts, or it is the person's turn again, or it ends
        until(tabs[0], lambda p, n=n: p.state is not None and (
            p.state["state"] > n + 1 or finished(p) or (p.state["state"] > n and p.my_turn())))
    assert races >= 5
    for t in tabs:
        t.drain(0.3)
    agree(trio, tid, tabs, {tabs[0]: 0, tabs[1]: 0})
    no_standin_for(tabs, {tid: {0}})
    for t in tabs:
        t.close()


def test_a_redis_restart_in_the_middle_of_a_game(trio: list[Server], own_redis: Redis) -> None:
    """Redis is killed mid-game (it forgets everything) and started again: the processes
    read what they missed from the database, the people's turns reach them (no stand-in
    plays for them) and the game finishes everywhere alike."""
    rng = random.Random(11)
    host = create(trio[0], name="Ann", size=4, bots={"2": "random", "3": "random"},
                  options={"lives": 3}, idle_seconds=6)
    tid = host["table"]["id"]
    bas = trio[1].post(f"/api/tables/{tid}/join", {"name": "Bas"}).json()
    trio[2].post(f"/api/tables/{tid}/start", {},
                 headers={"Authorization": "Bearer " + host["token"]})
    a = Player(trio[1], tid, host["token"])
    b = Player(trio[2], tid, bas["token"])
    watcher = Player(trio[0], tid)
    players = [a, b, watcher]
    drive = Driver(players, rng, trio)
    drive.run(lambda: a.state is not None and a.state["state"] >= 12, 30)
    for _ in range(2):
        own_redis.kill()
        end = time.monotonic() + 0.8
        while time.monotonic() < end:  # the people go on acting while it is down
            drive.step()
            time.sleep(0.01)
        own_redis.start()
        drive.run(lambda n=a.state["state"]: finished(a) or a.state["state"] >= n + 8, 40)
    drive.run(lambda: finished(a) and finished(b) and finished(watcher), 90)
    for p in players:
        p.drain(0.3)
    agree(trio, tid, players, {a: 0, b: 1, watcher: None})
    no_standin_for(players, {tid: {0, 1}})
    assert {e["code"] for e in drive.errors} <= {"stale", "server_error"}, drive.errors
    for p in players:
        p.close()


def test_a_redis_outage_with_clients_at_relays(trio: list[Server], own_redis: Redis) -> None:
    """Redis goes away in the middle of play (killed: it remembers nothing) while the
    people's tabs are at processes that relay the table, and comes back: the owner's bots
    play on meanwhile, and every client sees every action, in order, each with its
    ``last`` (before: a relay that read what it had missed from the database sent its
    clients the whole state at once, two states on, and the skipped action was lost to
    them)."""
    rng = random.Random(19)
    host = create(trio[0], name="Ann", size=4, bots={"2": "random", "3": "random"},
                  options={"lives": 3}, idle_seconds=30)
    tid = host["table"]["id"]
    bas = trio[1].post(f"/api/tables/{tid}/join", {"name": "Bas"}).json()
    trio[2].post(f"/api/tables/{tid}/start", {},
                 headers={"Authorization": "Bearer " + host["token"]})
    boss = owner(own_redis.url, tid, trio)
    relays = [s for s in trio if s is not boss]
    # Ann plays at the owner (and keeps its lease there): the game goes on while Redis
    # is away; Bas and two spectators are at the relays, cut off from the owner
    a = Player(boss, tid, host["token"])
    b = Player(relays[0], tid, bas["token"])
    watchers = [Player(relays[0], tid), Player(relays[1], tid)]
    players = [a, b, *watchers]
    drive = Driver(players, rng, trio)
    for round_no in range(3):
        drive.run(lambda r=round_no: a.state is not None and a.state["state"] >= 6 + 10 * r, 40)
        own_redis.kill()
        end = time.monotonic() + 2.5
        while time.monotonic() < end:
            drive.step()
            time.sleep(0.01)
        own_redis.start()
    drive.run(lambda: all(finished(p) for p in players), 120)
    for p in players:
        p.drain(0.3)
    record = agree(trio, tid, players,
                   {a: 0, b: 1, watchers[0]: None, watchers[1]: None})
    assert told_in_order(players, record) >= len(record["actions"])
    no_standin_for(players, {tid: {0, 1}})
    assert {e["code"] for e in drive.errors} <= {"stale", "server_error"}, drive.errors
    for p in players:
        p.close()


def test_a_relay_frozen_past_its_heartbeat(trio: list[Server], own_redis: Redis) -> None:
    """A process that only relays a table (a person's tab is there, the lease elsewhere)
    is frozen with SIGSTOP past its heartbeat, so the others count it dead and forget who
    is connected there, and resumed: it tells them again, its person sees every turn and
    plays to the end (before: the owner sent that tab nothing more, and a stand-in played
    for the person who was there)."""
    rng = random.Random(17)
    host = create(trio[0], name="Ann", size=3, bots={"1": "random", "2": "random"},
                  options={"lives": 3}, idle_seconds=8)
    tid = host["table"]["id"]
    trio[0].post(f"/api/tables/{tid}/start", {},
                 headers={"Authorization": "Bearer " + host["token"]})
    boss = owner(own_redis.url, tid, trio)
    relay = next(s for s in trio if s is not boss)
    # a spectator at the owner keeps the lease there (an owner with no client of a table
    # hands it to the process where they are): the relay stays a relay
    keeper = Player(boss, tid)
    ann = Player(relay, tid, host["token"])
    watcher = Player(relay, tid)
    players = [ann, watcher, keeper]
    drive = Driver(players, rng, trio)
    drive.run(lambda: ann.state is not None and ann.state["state"] >= 6, 30)
    frozen(relay, 4.5)  # past the heartbeat (3 s): the others drop its presence
    assert owner(own_redis.url, tid, trio) is boss  # a relay: the lease stayed
    drive.run(lambda: finished(ann) and finished(watcher) and finished(keeper), 90)
    for p in players:
        p.drain(0.3)
    agree(trio, tid, players, {ann: 0, watcher: None, keeper: None})
    no_standin_for(players, {tid: {0}})
    for p in players:
        p.close()


def test_messages_while_a_process_starts(trio: list[Server], own_redis: Redis) -> None:
    """A process (re)starts while the people of several tables play at the others: the
    messages of those moments are not lost to it; a tab opened there right after shows
    the database's state, and acting from there finishes every game."""
    rng = random.Random(13)
    first, second, late = trio
    late.stop()
    tables = []
    players = []
    for _ in range(6):
        host = create(first, name="Ann", size=3, bots={"1": "random", "2": "random"},
                      options={"lives": 2}, idle_seconds=8, autostart=False)
        tid = host["table"]["id"]
        second.post(f"/api/tables/{tid}/start", {},
                    headers={"Authorization": "Bearer " + host["token"]})
        tables.append((tid, host["token"]))
        players.append(Player(second, tid, host["token"]))
    drive = Driver(players, rng, trio)
    drive.run(lambda: all(p.state is not None and p.state["state"] >= 3 for p in players), 30)
    starting = threading.Thread(target=late.start)
    starting.start()
    while starting.is_alive():  # the people play while it starts
        drive.step()
        time.sleep(0.002)
    starting.join()
    # the people move to the process that just came up
    moved = [Player(late, tid, token) for tid, token in tables]
    for old in players:
        old.close()
    drive = Driver(moved, rng, trio)
    drive.run(lambda: all(finished(p) for p in moved), 90)
    for p in moved:
        p.drain(0.1)
    for p in moved:
        agree(trio, p.table_id, [p], {p: 0})
    no_standin_for(moved, {tid: {0} for tid, _ in tables})
    assert {e["code"] for e in drive.errors} <= {"stale", "server_error"}, drive.errors
    for p in moved:
        p.close()


def test_a_frozen_owner_does_not_stand_in_for_a_person_connected_elsewhere(
        trio: list[Server], own_redis: Redis) -> None:
    """Ann's tab is at a relay; the owner is frozen (SIGSTOP) on her turn, longer than
    the table's idle clock, so its view of every other process lapses; another process
    takes the table and Ann plays on there. When the old owner wakes, its idle clock
    for her is overdue: no stand-in plays for her, who was connected all along (before:
    the old owner's clock fired before it learnt it had lost the lease, it flagged her
    seat, and the new owner's stand-in played for her)."""
    rng = random.Random(29)
    for _ in range(3):  # her turn must come while the owner holds the table
        host = create(trio[0], name="Ann", size=3, bots={"1": "random", "2": "random"},
                      options={"lives": 3}, idle_seconds=3)
        tid = host["table"]["id"]
        trio[0].post(f"/api/tables/{tid}/start", {},
                     headers={"Authorization": "Bearer " + host["token"]})
        boss = owner(own_redis.url, tid, trio)
        relay = next(s for s in trio if s is not boss)
        keeper = Player(boss, tid)  # keeps the lease at the owner until it freezes
        ann = Player(relay, tid, host["token"])
        until(ann, lambda p: p.my_turn() or finished(p), 30)
        if finished(ann):
            keeper.close()
            ann.close()
            continue
        # frozen past her idle clock (3 s): it is overdue when the owner wakes; she
        # plays on meanwhile (her action waits for the lease, then a new owner does it)
        freezer = threading.Thread(target=frozen, args=(boss, 4.5))
        freezer.start()
        drive = Driver([ann, keeper], rng, trio)
        drive.run(lambda f=freezer: not f.is_alive(), 30)
        drive.run(lambda a=ann: finished(a), 120)
        keeper.drain(0.3)
        ann.drain(0.3)
        agree(trio, tid, [ann, keeper], {ann: 0, keeper: None})
        no_standin_for([ann, keeper], {tid: {0}})
        for p in (ann, keeper):
            p.close()
        return
    raise AssertionError("the games ended before Ann's turn came")


def no_playing_after_the_end(players: list[Player]) -> None:
    """No client was sent a ``table`` message that says ``playing`` after the game-over
    state (its ``winner`` set)."""
    for p in players:
        ended = False
        for m in p.messages:
            if m["type"] == "state" and m["view"]["winner"] is not None:
                ended = True
            elif m["type"] == "table" and ended:
                assert m["table"]["status"] == "over", (p.table_id, m["table"]["status"])


def stopped(server: Server, timeout: float = 60.0) -> None:
    """Wait until the server's process is stopped (SIGSTOP: state T)."""
    end = time.monotonic() + timeout
    while server.proc is None or Path(f"/proc/{server.proc.pid}/stat").read_text().rsplit(
            ")", 1)[1].split()[0] != "T":
        assert time.monotonic() < end, "the process did not stop at its failpoint"
        time.sleep(0.02)


def test_a_game_that_ends_while_a_process_reads_it(trio: list[Server],
                                                   own_redis: Redis) -> None:
    """A process starts, reads the live tables, and before it reads their actions the
    game of one ends at the others (its failpoint stops it between the two): its table
    says ``over`` there too, as in the database and at the other processes, and no client
    there is told ``playing`` after the game-over state (before: the process replayed a
    finished game under the row it had read, ``playing``, and said so for good)."""
    rng = random.Random(23)
    first, second, late = trio
    late.stop()
    host = create(first, name="Ann", size=3, bots={"1": "random", "2": "random"},
                  options={"lives": 2}, idle_seconds=30)
    tid = host["table"]["id"]
    second.post(f"/api/tables/{tid}/start", {},
                headers={"Authorization": "Bearer " + host["token"]})
    ann = Player(first, tid, host["token"])
    drive = Driver([ann], rng, trio)
    drive.run(lambda: ann.state is not None and ann.state["state"] >= 3, 30)
    late.faults = {"pause": "load_tables"}
    starting = threading.Thread(target=late.start)
    starting.start()
    try:
        stopped(late)
        late.faults = None
        drive.run(lambda: finished(ann), 90)  # the game ends meanwhile
    finally:
        if late.proc is not None:
            os.kill(late.proc.pid, signal.SIGCONT)
        starting.join()
    watcher = Player(late, tid)
    ann.drain(0.3)
    watcher.drain(1.0)
    record = agree(trio, tid, [ann, watcher], {ann: 0, watcher: None})
    assert watcher.view["winner"] is not None and record["actions"]
    no_playing_after_the_end([ann, watcher])
    for p in (ann, watcher):
        p.close()


def frozen(server: Server, seconds: float) -> None:
    """SIGSTOP the process for ``seconds`` (past its leases), then SIGCONT."""
    assert server.proc is not None
    os.kill(server.proc.pid, signal.SIGSTOP)
    time.sleep(seconds)
    os.kill(server.proc.pid, signal.SIGCONT)


def test_chaos(trio: list[Server], own_redis: Redis) -> None:
    """Randomized: four tables (two people and two bots each, the people's tabs at random
    processes), twelve faults at random moments (the owner of a busy table SIGKILLed and
    started again, or frozen with SIGSTOP past its lease and resumed); at the end every
    table is finished (0 stuck), every process tells the database's record (0 doubled),
    every action a client was told of is the record's at its number (0 lost), and every
    frame passes the audit (0 leaked); every client was told every action in order, each
    with its ``last`` (no gap), every process says the table is over as the database does
    and told no client ``playing`` after the end, and no stand-in played for a person."""
    seed = int(os.environ.get("TOEPEN_CHAOS_SEED", "2026"))
    rng = random.Random(seed)
    tables: list[str] = []
    players: list[Player] = []
    audited: dict[Player, int | None] = {}
    people: dict[str, set[int]] = {}

    def open_table() -> None:
        host = create(rng.choice(trio), name="Ann", size=4,
                      bots={"2": "random", "3": "random"}, options={"lives": 4},
                      idle_seconds=12)
        tid = host["table"]["id"]
        bas = rng.choice(trio).post(f"/api/tables/{tid}/join", {"name": "Bas"}).json()
        rng.choice(trio).post(f"/api/tables/{tid}/start", {},
                              headers={"Authorization": "Bearer " + host["token"]})
        tables.append(tid)
        people[tid] = {0, 1}
        for token, seat in ((host["token"], 0), (bas["token"], 1)):
            p = Player(rng.choice(trio), tid, token)
            players.append(p)
            audited[p] = seat
        w = Player(rng.choice(trio), tid)
        players.append(w)
        audited[w] = None

    for _ in range(4):
        open_table()
    # the people think a moment before each action (a fast machine finished every game
    # before the first fault when they answered at once)
    drive = Driver(players, rng, trio, pace=(0.05, 0.25))
    faults = {"kill": 0, "freeze": 0}
    kinds = ["kill"] * 7 + ["freeze"] * 5  # in a random order
    rng.shuffle(kinds)
    restarts: list[threading.Thread] = []

    def live_tables() -> list[str]:
        return [t for t in tables
                if not all(finished(p) for p in players if p.table_id == t)]

    for kind in kinds:
        pause = time.monotonic() + rng.uniform(0.8, 2.0)
        drive.run(lambda pause=pause: time.monotonic() > pause or not live_tables(), 30)
        # the people go on playing while a frozen process sleeps or a killed one starts
        drive.run(lambda: not any(t.is_alive() for t in restarts), 90)
        restarts.clear()
        while len(live_tables()) < 2:  # never run out of busy tables to fault
            open_table()
            drive.run(lambda: all(p.state is not None for p in players), 30)
        busy = live_tables()
        target = owner(own_redis.url, rng.choice(busy), trio)
        faults[kind] += 1
        if kind == "freeze":
            freezer = threading.Thread(target=frozen, args=(target, rng.uniform(3.5, 5.0)))
            freezer.start()
            restarts.append(freezer)
        else:
            target.kill()
            live = [s for s in trio if s is not target]
            for p in players:  # its clients come back at another process
                if p.server is target:
                    p.server = rng.choice(live)
            restart = threading.Thread(target=target.start)
            restart.start()
            restarts.append(restart)
    drive.run(lambda: not any(t.is_alive() for t in restarts), 90)
    assert faults == {"kill": 7, "freeze": 5}, faults
    drive.run(lambda: not live_tables(), 120)
    for p in players:
        p.drain(0.05)
    for tid in tables:
        record = agree(trio, tid, players, audited)  # every process's status the database's
        told_in_order([p for p in players if p.table_id == tid], record)  # no gap, no state
        # without its last
    no_playing_after_the_end(players)
    no_standin_for(players, people)
    assert {e["code"] for e in drive.errors} <= {"stale", "server_error"}, drive.errors
    for p in players:
        p.close()
