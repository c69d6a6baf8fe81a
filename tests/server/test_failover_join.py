"""The join/start window: a crash between taking the last seat and starting the game
leaves no full ``autostart`` table stuck in the lobby.

The seats and the start are one transaction now; the fault ``{"after": METHOD}``
(tests/faults.py) SIGKILLs the server right after that commit, before it answers anyone.
A table stored by an older server in the stuck state (the last seat committed, the start
not) is started when the server comes up.
"""

from __future__ import annotations

import time

import httpx
import pytest

from toepen.server.db.store import SeatRow, Store

from .conftest import Player, Server, create


def wait_status(server: Server, tid: str, status: str, timeout: float = 30.0) -> dict:
    end = time.monotonic() + timeout
    while True:
        info = server.get(f"/api/tables/{tid}").json()
        if info["status"] == status or time.monotonic() > end:
            return info
        time.sleep(0.1)


def crashed(server: Server) -> bool:
    assert server.proc is not None
    try:
        server.proc.wait(10)
    except Exception:  # noqa: BLE001
        return False
    server.proc = None
    return True


def test_kill_right_after_the_last_join_commits(sqlite_db: str) -> None:
    server = Server(sqlite_db, faults={"after": "set_seats"}).start()  # not create_table's
    try:
        host = create(server, name="Ann", size=4, bots={"2": "random", "3": "random"},
                      options={"lives": 3}, autostart=True)
        tid = host["table"]["id"]
        with pytest.raises(httpx.HTTPError):  # the server dies before it answers
            server.post(f"/api/tables/{tid}/join", {"name": "Bas"})
        assert crashed(server)
        server.faults = None
        server.start()
        info = wait_status(server, tid, "playing")
        assert info["status"] == "playing", info
        assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot", "bot"]
        assert info["seats"][1]["name"] == "Bas"
        a = Player(server, tid, host["token"])  # the host's seat is dealt in
        a.wait(lambda m: m["type"] == "state", 10)
        assert len(a.view["hand"]) == 4 and a.view["action_count"] >= 0
        a.close()
    finally:
        server.stop()


def test_kill_right_after_a_full_autostart_table_is_created(sqlite_db: str) -> None:
    server = Server(sqlite_db, faults={"after": "create_table"}).start()
    try:
        with pytest.raises(httpx.HTTPError):
            server.post("/api/tables", {"size": 3, "autostart": True, "options": {"lives": 2},
                                        "bots": {"0": "random", "1": "random", "2": "random"}})
        assert crashed(server)
        server.faults = None
        server.start()
        tables = server.get("/api/tables").json()["tables"]
        assert len(tables) == 1 and tables[0]["status"] != "lobby", tables
        # it is a real game: the bots play it
        watcher = Player(server, tables[0]["id"])
        watcher.wait(lambda m: m["type"] == "state" and m["state"] >= 5, 30)
        watcher.close()
    finally:
        server.stop()


def test_a_stuck_table_of_an_older_server_starts_when_the_server_comes_up(
        sqlite_db: str) -> None:
    server = Server(sqlite_db).start()
    try:
        host = create(server, name="Ann", size=3, bots={"2": "random"},
                      options={"lives": 3}, autostart=True)
        tid = host["table"]["id"]
        server.stop()
        store = Store.open(sqlite_db)  # what an older server left: the seat, not the start
        store.set_seats(tid, [SeatRow(1, "human", "Bas", None, "0" * 64)])
        store.close()
        server.start()
        info = server.get(f"/api/tables/{tid}").json()
        assert info["status"] == "playing", info
        a = Player(server, tid, host["token"])
        a.wait(lambda m: m["type"] == "state", 10)
        assert a.view["players"] == ["Ann", "Bas", info["seats"][2]["name"]]
        a.close()
    finally:
        server.stop()
