"""Issue 23, points 4 and 12, on a real server over real HTTP: a tournament's online seat
is taken only with the key its organiser hands the player (or by the player's account),
a tournament table cannot be joined by id or code, and the score sheets' memory does not
grow with requests for sheets that do not exist."""

from __future__ import annotations

import re
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from .conftest import Server

PLAYERS = ["Ann", "Bas", "Cor", "Dirk"]


def held(server: Server) -> dict[str, float]:
    """The score sheets' entries in the server's memory, by kind (``/metrics``)."""
    text = httpx.get(f"{server.url}/metrics", timeout=10).text
    found = dict(re.findall(r'^toepen_sheet_entries\{kind="(\w+)"\} ([0-9.e+]+)$', text, re.M))
    assert set(found) == {"cached", "locks", "waits", "makers"}, text
    return {k: float(v) for k, v in found.items()}


def test_unknown_sheet_ids_leave_nothing_behind(server: Server) -> None:
    made = server.post("/api/sheets", {"players": PLAYERS})
    assert made.status_code == 201, made.text
    sheet = made.json()
    before = held(server)
    assert before["locks"] == 0 and before["waits"] == 0 and before["cached"] >= 1
    headers = {"Authorization": f"Bearer {sheet['key']}"}

    def bogus(i: int) -> httpx.Response:
        sid = secrets.token_hex(6)
        if i % 3 == 0:
            return httpx.post(f"{server.url}/api/sheets/{sid}/undo", json={}, headers=headers,
                              timeout=10)
        if i % 3 == 1:
            return httpx.get(f"{server.url}/api/sheets/{sid}?after=0&wait=5", timeout=10)
        return httpx.post(f"{server.url}/api/sheets/{sid}/entries",
                          json={"entry": "1 knock"}, headers=headers, timeout=10)

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(bogus, range(600)))
    assert {r.status_code for r in answers} == {404}
    assert {r.json()["say"]["id"] for r in answers} == {"web.tally.error.not_found"}
    after = held(server)
    assert after == before, (before, after)  # no lock, no signal, nothing cached

    # a real sheet's lock and signal go once no request holds or waits on them
    follower: dict[str, Any] = {}

    def follow() -> None:
        follower["r"] = httpx.get(f"{server.url}/api/sheets/{sheet['id']}?after=0&wait=20",
                                  timeout=30)

    waiting = threading.Thread(target=follow)
    waiting.start()
    for _ in range(50):
        if held(server)["waits"] == 1:
            break
        threading.Event().wait(0.05)
    assert held(server)["waits"] == 1
    with ThreadPoolExecutor(4) as pool:
        codes = list(pool.map(lambda _: httpx.post(
            f"{server.url}/api/sheets/{sheet['id']}/entries", json={"entry": "1 knock"},
            headers=headers, timeout=10).status_code, range(8)))
    assert sorted(codes) == [200] + [409] * 7  # one knock; the others are refused
    waiting.join(10)
    assert follower["r"].json()["version"] == 1
    timed_out = httpx.get(f"{server.url}/api/sheets/{sheet['id']}?after=1&wait=0.3",
                          timeout=10)
    assert timed_out.json()["version"] == 1
    done = held(server)
    assert done["locks"] == 0 and done["waits"] == 0 and done["cached"] == before["cached"]
