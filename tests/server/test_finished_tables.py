"""Issue 37, finding 8: finished tables leave memory and are read again when asked for.

The audit made 632 finished tables from one address in 95 s while holding 20 open; each
stayed in the server's memory for good, every listing walked them all, and a restart
rebuilt every one. Now a finished table nobody is connected to leaves memory after a
grace (``--finished-grace``), at once past a cap (``--finished-kept``); its record, replay,
table and code are read from the database when asked for; start-up reads only the tables
still being played.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx

from .conftest import Player, Server

BOTS = {"size": 2, "bots": {"0": "random", "1": "random"}, "autostart": True,
        "options": {"lives": 1}}


def in_memory(server: Server) -> dict[str, int]:
    """The server's tables in memory by status, and how many left (``/metrics``)."""
    text = server.get("/metrics").text
    out = {m.group(1): int(float(m.group(2)))
           for m in re.finditer(r'^toepen_tables\{status="(\w+)"\} (\S+)$', text, re.M)}
    evicted = re.search(r"^toepen_tables_evicted_total (\S+)$", text, re.M)
    out["evicted"] = int(float(evicted.group(1))) if evicted else 0
    return out


def rss_kib(server: Server) -> int:
    assert server.proc is not None
    status = Path(f"/proc/{server.proc.pid}/status").read_text()
    found = re.search(r"^VmRSS:\s+(\d+)", status, re.M)
    assert found is not None
    return int(found.group(1))


def make_finished(server: Server, count: int) -> list[dict[str, Any]]:
    """``count`` tables of two random bots that play themselves to the end, made as
    fast as the address's limit of open tables lets (a 429 waits a moment)."""
    made: list[dict[str, Any]] = []
    while len(made) < count:
        r = server.post("/api/tables", BOTS)
        if r.status_code == 429:
            time.sleep(0.05)
            continue
        assert r.status_code == 201, r.text
        made.append(r.json()["table"])
    deadline = time.monotonic() + 120
    while in_memory(server).get("playing", 0) and time.monotonic() < deadline:
        time.sleep(0.2)
    return made


def test_600_finished_tables_leave_memory_flat(tmp_path: Any) -> None:
    server = Server(f"sqlite:///{tmp_path / 'toepen.sqlite3'}").start()
    try:
        # the address holds an open table meanwhile, a person at it
        mine = server.post("/api/tables", {"name": "Ann", "size": 2}).json()
        first = make_finished(server, 300)
        at_300 = rss_kib(server)
        later = make_finished(server, 300)
        at_600 = rss_kib(server)
        counts = in_memory(server)
        assert counts["playing"] == 0 and counts["lobby"] == 1
        assert counts["over"] <= 200  # --finished-kept's default: the rest left
        assert counts["evicted"] >= 400
        # memory flat: the second 300 finished tables grew the server by little
        growth = (at_600 - at_300) * 1024
        print(f"RSS {at_300 / 1024:.0f} MiB at 300, {at_600 / 1024:.0f} MiB at 600; "
              f"{counts}")
        assert growth < 16 * 2**20, f"grew {growth / 2**20:.1f} MiB"

        # the lists: the open table, the finished ones still in memory (the newest);
        # the first ones made are gone from them
        open_ones = server.get("/api/tables?status=lobby").json()["tables"]
        assert [t["id"] for t in open_ones] == [mine["table"]["id"]]
        assert server.get("/api/tables?status=playing").json()["tables"] == []
        over = [t["id"] for t in server.get("/api/tables?status=over").json()["tables"]]
        assert len(over) == counts["over"] and set(over) <= {t["id"] for t in later + first}
        listed = {t["id"]: t for t in server.get("/api/tables").json()["tables"]}
        assert set(listed) <= {*over, mine["table"]["id"]}
        assert not {t["id"] for t in first[:100]} & set(listed)

        # a table that left memory: its table, code, record and replay are read again
        old = first[0]
        assert old["id"] not in listed
        check_finished(server, old)
        assert in_memory(server)["over"] <= 200

        # after a restart: only the open table is read at start-up
        server.stop()
        server.start()
        assert in_memory(server) == {"lobby": 1, "playing": 0, "over": 0, "evicted": 0}
        for table in (old, later[-1]):
            check_finished(server, table)
        # the open table is the same, and its host's token still works
        p = Player(server, mine["table"]["id"], mine["token"])
        assert p.welcome is not None and p.welcome["seat"] == 0
        p.close()
    finally:
        server.stop()


def check_finished(server: Server, table: dict[str, Any]) -> None:
    """A finished table answers as one: by id, by code, its record and its replay."""
    tid = table["id"]
    info = server.get(f"/api/tables/{tid}").json()
    assert info["status"] == "over" and info["winner"] is not None
    assert server.get(f"/api/codes/{table['code']}").json()["id"] == tid
    record = server.get(f"/api/tables/{tid}/record")
    assert record.status_code == 200, record.text
    actions = record.json()["actions"]
    page = server.get(f"/api/tables/{tid}/replay?seat=all&count=200").json()
    assert page["total"] == len(actions) + 1
    assert page["steps"][-1]["view"]["winner"] is not None or page["next"] is not None


def test_a_finished_table_stays_while_watched_and_leaves_after_its_grace(
        tmp_path: Any) -> None:
    server = Server(f"sqlite:///{tmp_path / 'toepen.sqlite3'}", "--finished-grace", "0.5",
                    "--bot-delay", "0.05").start()
    try:
        joined = server.post("/api/tables", BOTS).json()
        tid = joined["table"]["id"]
        watcher = Player(server, tid)
        watcher.wait(lambda m: m["type"] == "table" and m["table"]["status"] == "over", 60)
        time.sleep(2.0)  # four graces: watched, it stays
        assert in_memory(server)["over"] == 1
        watcher.close()
        deadline = time.monotonic() + 30
        while in_memory(server)["over"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert in_memory(server) == {"lobby": 0, "playing": 0, "over": 0, "evicted": 1}
        # a newcomer finds it again: read from the database, the whole game told
        again = Player(server, tid)
        assert again.welcome is not None
        assert again.welcome["table"]["status"] == "over"
        assert in_memory(server)["over"] == 1
        again.close()
        r = httpx.get(f"{server.url}/api/tables/{tid}/record", timeout=10)
        assert r.status_code == 200
    finally:
        server.stop()
