"""Issue 23, points 4 and 12, on a real server over real HTTP: a tournament's online seat
is taken only with the key its organiser hands the player (or by the player's account),
a tournament table cannot be joined by id or code, and the score sheets' memory does not
grow with requests for sheets that do not exist."""

from __future__ import annotations

import json
import re
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

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
            return client.post(f"{server.url}/api/sheets/{sid}/undo", json={}, headers=headers)
        if i % 3 == 1:
            return client.get(f"{server.url}/api/sheets/{sid}?after=0&wait=5")
        return client.post(f"{server.url}/api/sheets/{sid}/entries",
                           json={"entry": "1 knock"}, headers=headers)

    # kept-alive connections (as a browser's): the cost measured is the server's answer
    with httpx.Client(timeout=10) as client, ThreadPoolExecutor(4) as pool:
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


def ok(r: httpx.Response, status: int = 200) -> dict[str, Any]:
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def refused(r: httpx.Response, status: int, code: str, say: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] == code and body["say"]["id"] == say, body


def auth(key: str) -> dict[str, dict[str, str]]:
    return {"headers": {"Authorization": f"Bearer {key}"}}


def hello(server: Server, table_id: str, token: str) -> dict[str, Any]:
    """The first answer to a ``hello`` with ``token``."""
    with connect(f"{server.ws}/ws/{table_id}", open_timeout=5) as ws:
        ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
        first: dict[str, Any] = json.loads(ws.recv(timeout=10))
        return first


def online_round(server: Server) -> tuple[str, str, dict[str, Any]]:
    """A tournament of four drawn into one online table: its id, the organiser's key and
    the table as the public sees it."""
    made = ok(server.post("/api/tournaments", {"name": "Online avond"}), 201)
    tid, tkey = made["tournament"]["id"], made["key"]
    for n in PLAYERS:
        ok(server.post(f"/api/tournaments/{tid}/players", {"name": n}, **auth(tkey)))
    state = ok(server.post(f"/api/tournaments/{tid}/rounds", {"mode": "online"}, **auth(tkey)))
    return tid, tkey, state["rounds"][0]["tables"][0]


def tournament_seats(db: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    url = (f"sqlite:///{tmp_path / 'toepen.sqlite3'}" if db == "sqlite"
           else request.getfixturevalue("postgres_url"))
    srv = Server(url).start()
    try:
        tid, tkey, table = online_round(srv)
        base, table_id = f"/api/tournaments/{tid}", table["table_id"]
        seats = table["seats"]
        # the name of a drawn player is not enough, and nothing changes
        for name in seats:
            refused(srv.post(f"{base}/seat", {"round": 1, "table": 1, "name": name}), 401,
                    "seat_key_needed", "web.club.error.seat_key_needed")
        public = ok(srv.get(base))
        assert "code" not in public["rounds"][0]["tables"][0]
        # nor is the table's id or its code (the lobby says both)
        code = ok(srv.get(f"/api/tables/{table_id}"))["code"]
        refused(srv.post(f"/api/tables/{table_id}/join", {"name": "Eve"}), 403, "forbidden",
                "error.seat_handed_out")
        refused(srv.post(f"/api/tables/{table_id}/join", {"name": seats[0], "seat": 0}), 403,
                "forbidden", "error.seat_handed_out")
        refused(srv.post("/api/join", {"code": code, "name": "Eve"}), 403, "forbidden",
                "error.seat_handed_out")
        assert table_id not in {t["id"] for t in ok(srv.get("/api/tables?status=lobby"))[
            "tables"]}
        assert [s["kind"] for s in ok(srv.get(f"/api/tables/{table_id}"))["seats"]] == [
            "open"] * 4
        # the organiser alone gets each seat's key and link
        refused(httpx.get(f"{srv.url}{base}/seats", timeout=10), 401, "auth",
                "web.club.error.auth")
        refused(httpx.get(f"{srv.url}{base}/seats", timeout=10, **auth("x" * 32)), 403,
                "forbidden", "web.club.error.forbidden")
        handed = ok(httpx.get(f"{srv.url}{base}/seats", timeout=10, **auth(tkey)))
        [listed] = handed["tables"]
        assert (listed["round"], listed["table"], listed["table_id"]) == (1, 1, table_id)
        assert [s["name"] for s in listed["seats"]] == seats
        keys = [s["key"] for s in listed["seats"]]
        assert len(set(keys)) == 4 and all(len(k) >= 24 for k in keys)
        for s in listed["seats"]:
            assert s["link"] == f"{srv.url}/?tournament={tid}#seat={s['key']}"
        everyone = json.dumps(ok(srv.get(base))) + json.dumps(ok(srv.get(
            f"/api/tables/{table_id}")))
        assert not any(k in everyone for k in keys) and "seat_secret" not in everyone
        # a wrong key, or a player's key with another's seat, takes nothing
        refused(srv.post(f"{base}/seat", {"key": "A" * 24}), 403, "seat_key",
                "web.club.error.seat_key")
        refused(srv.post(f"{base}/seat", {"key": keys[0], "name": seats[1]}), 403, "seat_key",
                "web.club.error.seat_key")
        # each key takes its own player's seat
        tokens = []
        for seat, k in enumerate(keys):
            joined = ok(srv.post(f"{base}/seat", {"key": k}))
            assert joined["seat"] == seat and joined["table"]["seats"][seat]["name"] == seats[seat]
            tokens.append(joined["token"])
        info = ok(srv.get(f"/api/tables/{table_id}"))
        assert info["status"] == "playing" and [s["name"] for s in info["seats"]] == seats
        # the same key again (another phone): a new token; the old one stops working
        again = ok(srv.post(f"{base}/seat", {"key": keys[1]}))
        assert again["seat"] == 1 and again["token"] != tokens[1]
        assert hello(srv, table_id, again["token"])["seat"] == 1
        old = hello(srv, table_id, tokens[1])
        assert old["type"] == "error" and old["code"] == "auth", old
        assert hello(srv, table_id, tokens[2])["seat"] == 2
        # once the organiser enters the table's result, its keys take nothing
        ok(srv.post(f"{base}/results", {"round": 1, "table": 1, "order": seats}, **auth(tkey)))
        refused(srv.post(f"{base}/seat", {"key": keys[0]}), 403, "seat_key",
                "web.club.error.seat_key")
        assert ok(httpx.get(f"{srv.url}{base}/seats", timeout=10, **auth(tkey)))["tables"] == []
    finally:
        srv.stop()


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_a_tournament_seat_is_taken_only_with_its_key(db: str, request: pytest.FixtureRequest,
                                                      tmp_path: Path) -> None:
    tournament_seats(db, request, tmp_path)


def test_or_by_the_account_the_player_is_registered_with(server: Server) -> None:
    from .test_accounts import Browser

    wim, joke, guest = Browser(server), Browser(server), Browser(server)
    wim.register("wimseat")
    joke.register("jokeseat")
    cid = ok(wim.post("/api/clubs", {"name": "Seatclub"}), 201)["club"]["id"]
    ok(wim.post(f"/api/clubs/{cid}/members", {"account": "jokeseat"}), 201)
    tid = ok(wim.post("/api/tournaments", {"name": "Clubonline", "club": cid}), 201)[
        "tournament"]["id"]
    base = f"/api/tournaments/{tid}"
    for n in ("jokeseat", "Bas", "Cor"):
        ok(wim.post(f"{base}/players", {"name": n}))
    state = ok(wim.post(f"{base}/rounds", {"mode": "online"}))
    table = state["rounds"][0]["tables"][0]
    where = {"round": 1, "table": 1}
    refused(guest.post(f"{base}/seat", {**where, "name": "Bas"}), 401, "seat_key_needed",
            "web.club.error.seat_key_needed")
    players = {p["name"]: p["account"] for p in state["players"]}
    assert players == {"jokeseat": "jokeseat", "Bas": None, "Cor": None}
    # the logged-in club admin sees the keys without one (the session and its CSRF token)
    assert len(ok(wim.http.get(f"{base}/seats", headers={"X-CSRF-Token": wim.csrf}))[
        "tables"][0]["seats"]) == 3
    refused(guest.post(f"{base}/seat", {**where, "name": "jokeseat"}), 401, "seat_key_needed",
            "web.club.error.seat_key_needed")
    refused(wim.post(f"{base}/seat", {**where, "name": "jokeseat"}), 403, "not_your_seat",
            "web.club.error.not_your_seat")
    refused(wim.post(f"{base}/seat", {**where, "name": "Bas"}), 403, "not_your_seat",
            "web.club.error.not_your_seat")
    refused(joke.post(f"{base}/seat", {**where, "name": "jokeseat"}, csrf=False), 401,
            "seat_key_needed", "web.club.error.seat_key_needed")  # no CSRF token: no login
    joined = ok(joke.post(f"{base}/seat", {**where, "name": "JokeSeat"}))
    seat = table["seats"].index("jokeseat")
    assert joined["seat"] == seat
    assert ok(server.get(f"/api/tables/{table['table_id']}"))["seats"][seat]["account"] == (
        "jokeseat")


def test_an_online_table_drawn_before_seat_keys_gets_them(tmp_path: Path) -> None:
    """A tournament stored without a seat secret (drawn by an older server): its keys are
    made once, kept, and take the seats."""
    import sqlite3

    db = tmp_path / "old.sqlite3"
    srv = Server(f"sqlite:///{db}").start()
    try:
        tid, tkey, table = online_round(srv)
        srv.stop()
        with sqlite3.connect(db) as conn:
            (text,) = conn.execute("SELECT state FROM toepen_tournaments WHERE id = ?",
                                   (tid,)).fetchone()
            state = json.loads(text)
            del state["seat_secret"]
            conn.execute("UPDATE toepen_tournaments SET state = ? WHERE id = ?",
                         (json.dumps(state), tid))
        srv.start()
        base = f"/api/tournaments/{tid}"
        first = ok(httpx.get(f"{srv.url}{base}/seats", timeout=10, **auth(tkey)))
        again = ok(httpx.get(f"{srv.url}{base}/seats", timeout=10, **auth(tkey)))
        assert first == again
        joined = ok(srv.post(f"{base}/seat", {"key": first["tables"][0]["seats"][2]["key"]}))
        assert joined["seat"] == 2 and joined["table"]["id"] == table["table_id"]
    finally:
        srv.stop()
