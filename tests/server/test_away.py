"""A closed tab, a reload, two tabs, a dropped network: when a stand-in takes a seat.

A real server (``--away-grace 2``, tables with a 600 s idle clock, so that only the
grace can explain a stand-in) and real sockets. A spectator watches the seats' flags.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Player, Server, create

GRACE = 2.0


@pytest.fixture(scope="module")
def away_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = f"sqlite:///{tmp_path_factory.mktemp('away') / 'toepen.sqlite3'}"
    srv = Server(db, "--away-grace", str(GRACE)).start()
    yield srv
    srv.stop()


def table_of(server: Server) -> tuple[str, str]:
    """A started table: Ann (seat 0) and two bots, a 600 s idle clock."""
    t = create(server, name="Ann", size=3, bots={"1": "random", "2": "random"},
               idle_seconds=600, autostart=True, options={"lives": 30})
    return t["table"]["id"], t["token"]


def standin(msg: dict[str, Any]) -> bool:
    return msg["type"] == "table" and bool(msg["table"]["seats"][0]["standin"])


def no_standin_for(watcher: Player, seconds: float) -> None:
    """Nothing the watcher receives for ``seconds`` shows Ann's seat with a stand-in."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        msg = watcher.poll(0.2)
        assert msg is None or not standin(msg), msg


def playing(player: Player) -> None:
    player.wait(lambda m: m["type"] == "state", 30)


def test_a_closed_tab_hands_the_seat_to_a_standin_after_the_short_grace(
        away_server: Server) -> None:
    tid, token = table_of(away_server)
    ann = Player(away_server, tid, token)
    playing(ann)
    watcher = Player(away_server, tid)
    ann.close()  # a clean close (1000), as a closed tab's (1001)
    msg = watcher.wait(standin, 10 * GRACE)
    assert msg["table"]["seats"][0]["connected"] is False
    # the stand-in plays her turns now (the idle clock alone would wait 600 s)
    watcher.wait(lambda m: m["type"] == "state" and m["last"] is not None
                 and m["last"] == {**m["last"], "seat": 0, "by": "standin"}, 60)
    # she comes back: her seat is hers again
    again = Player(away_server, tid, token)
    again.wait(lambda m: m["type"] == "table" and not m["table"]["seats"][0]["standin"])
    for p in (again, watcher):
        p.close()


def test_a_reload_keeps_the_seat(away_server: Server) -> None:
    tid, token = table_of(away_server)
    ann = Player(away_server, tid, token)
    playing(ann)
    watcher = Player(away_server, tid)
    ann.close()
    ann = Player(away_server, tid, token)  # the reloaded page, at once
    no_standin_for(watcher, 3 * GRACE)
    server_view = away_server.get(f"/api/tables/{tid}").json()
    assert server_view["seats"][0]["standin"] is False
    assert server_view["seats"][0]["connected"] is True
    for p in (ann, watcher):
        p.close()


def test_two_tabs_one_closed_keeps_the_seat_the_last_closed_does_not(
        away_server: Server) -> None:
    tid, token = table_of(away_server)
    phone = Player(away_server, tid, token)
    laptop = Player(away_server, tid, token)
    playing(phone)
    watcher = Player(away_server, tid)
    laptop.close()
    no_standin_for(watcher, 3 * GRACE)
    phone.close()
    watcher.wait(standin, 10 * GRACE)
    watcher.close()


def test_a_dropped_network_keeps_the_idle_clock(away_server: Server) -> None:
    tid, token = table_of(away_server)
    ann = Player(away_server, tid, token)
    playing(ann)
    watcher = Player(away_server, tid)
    assert ann.conn is not None
    # the connection cut without a close frame, as a phone that lost its network
    ann.conn.socket.shutdown(socket.SHUT_RDWR)
    ann.conn.socket.close()
    watcher.wait(lambda m: m["type"] == "table" and not m["table"]["seats"][0]["connected"],
                 10)
    no_standin_for(watcher, 3 * GRACE)
    assert away_server.get(f"/api/tables/{tid}").json()["seats"][0]["standin"] is False
    watcher.close()
