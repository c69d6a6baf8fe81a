"""Accounts over real sockets and the real database: register, log in, rated sessions
with people and bots, ratings, profiles, leaderboards, claims, deletion (SQLite and
PostgreSQL), and the security of it all (docs/accounts.md)."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Player, Server
from .test_extras import all_steps
from .test_session import over, play_until

PASSWORD = "correct horse battery"


class Browser:
    """One browser: its own cookies, the CSRF token GET /api/account gives it."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=20)
        self.csrf = ""
        self.answers: list[str] = []
        self.refresh()

    def refresh(self) -> dict[str, Any]:
        r = self.http.get("/api/account")
        assert r.status_code == 200, r.text
        self.answers.append(r.text)
        me: dict[str, Any] = r.json()
        self.csrf = me["csrf"]
        return me

    def post(self, path: str, body: dict[str, Any] | None = None, csrf: bool = True,
             **headers: str) -> httpx.Response:
        h = {"X-CSRF-Token": self.csrf} if csrf else {}
        r = self.http.post(path, json=body or {}, headers={**h, **headers})
        self.answers.append(r.text)
        return r

    def get(self, path: str) -> httpx.Response:
        r = self.http.get(path)
        self.answers.append(r.text)
        return r

    def register(self, name: str, password: str = PASSWORD) -> dict[str, Any]:
        r = self.post("/api/account/register", {"name": name, "password": password})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf"]
        out: dict[str, Any] = r.json()
        return out

    def login(self, name: str, password: str = PASSWORD) -> httpx.Response:
        r = self.post("/api/account/login", {"name": name, "password": password})
        if r.status_code == 200:
            self.csrf = r.json()["csrf"]
        return r


def play_out(server: Server, joined: list[dict[str, Any]], seed: int) -> list[Player]:
    players = [Player(server, j["table"]["id"], j["token"]) for j in joined]
    play_until(players, random.Random(seed), lambda: all(over(p) for p in players), timeout=90)
    return players


def finished(server: Server, table_id: str, names: list[str]) -> None:
    """Wait until the game's result is recorded on every named player's history."""
    end = time.monotonic() + 20
    while time.monotonic() < end:
        if all(any(g["table"] == table_id for g in
                   server.get(f"/api/players/{n}/history").json().get("games", []))
               for n in names):
            return
        time.sleep(0.1)
    raise AssertionError(f"{table_id} not recorded for {names}")


def rated_session(server: Server) -> None:
    """Two people and a bot at a rated table: the ratings move by the finishing order."""
    ann, bob = Browser(server), Browser(server)
    ann.register("Ann")
    bob.register("Bob")
    r = ann.post("/api/tables", {"name": "whatever", "size": 3, "rated": True,
                                 "bots": {"2": "random"}, "options": {"lives": 2}})
    assert r.status_code == 201, r.text
    host = r.json()
    table = host["table"]
    assert table["rated"] is True and table["seats"][0]["name"] == "Ann"
    assert table["seats"][0]["account"] == "Ann"
    r = bob.post("/api/join", {"code": table["code"], "name": "Bobby"})
    assert r.status_code == 200, r.text
    guest = httpx.post(server.url + "/api/tables/" + table["id"] + "/join",
                       json={"name": "Guest"}, timeout=10)
    assert guest.status_code in (403, 409), guest.text  # rated: no guests (or full)
    started = server.post(f"/api/tables/{table['id']}/start", {},
                          headers={"Authorization": f"Bearer {host['token']}"})
    assert started.status_code == 200, started.text
    players = play_out(server, [host, r.json()], seed=3)
    winner = players[0].view["winner"]
    finished(server, table["id"], ["Ann", "Bob", "random"])
    names = ["Ann", "Bob", "random"]
    profiles = {n: server.get(f"/api/players/{n}").json() for n in names}
    board = server.get("/api/leaderboard?preset=rulebook&size=3").json()
    assert [p["name"] for p in board["players"]][:1] == [names[winner]]
    history = server.get("/api/players/Ann/history").json()["games"]
    mine = next(g for g in history if g["table"] == table["id"])
    assert mine["rated"] and mine["players"][:2] == ["Ann", "Bob"]
    assert mine["players"][2] == table["seats"][2]["name"]  # the bot seat's own name
    assert mine["replay"] == f"/?replay={table['id']}"
    assert server.get(mine["record"]).status_code == 200
    for i, n in enumerate(names):
        p = profiles[n]
        assert p["stats"]["sessions"] >= 1
        rating = next(x for x in p["ratings"] if x["preset"] == "rulebook" and x["size"] == 3)
        point = next(x for x in p["graph"] if x["table"] == table["id"])
        if i == winner:  # the winner climbs above a newcomer's mu; the last one falls
            assert rating["mu"] > 25.0 and point["rating"] > point["before"]
            assert p["stats"]["won"] >= 1
        place = next(g["place"] for g in server.get(f"/api/players/{n}/history").json()["games"]
                     if g["table"] == table["id"])
        if place == 3:  # the last one falls below a newcomer's mu
            assert rating["mu"] < 25.0
    assert profiles["random"]["kind"] == "bot"
    assert profiles["random"]["against_people"]["sessions"] >= 1


@pytest.fixture(scope="module")
def pg_server(postgres_url: str) -> Iterator[Server]:
    srv = Server(postgres_url).start()
    yield srv
    srv.stop()


def test_rated_session_sqlite(server: Server) -> None:
    rated_session(server)


def test_rated_session_postgresql(pg_server: Server) -> None:
    rated_session(pg_server)


def test_a_guest_claims_a_seat(server: Server) -> None:
    claim_flow(server, "Cora", "Dora")


def test_a_guest_claims_and_an_account_is_deleted_postgresql(pg_server: Server) -> None:
    import psycopg

    claim_flow(pg_server, "Cora", "Dora")
    tid, _cookie, _csrf = delete_flow(pg_server)
    with psycopg.connect(pg_server.db) as conn:  # stored anonymised: what a restart rebuilds
        names = [n for (n,) in conn.execute("select name from toepen_seats where table_id=%s",
                                            (tid,))]
        row = conn.execute("select players from toepen_tables where id=%s", (tid,)).fetchone()
        users = conn.execute("select count(*) from toepen_users where name_key='eve'").fetchone()
    assert row is not None and "Eve" not in names and "Eve" not in row[0]
    assert users == (0,)


def claim_flow(server: Server, name: str, other_name: str) -> None:
    r = server.post("/api/tables", {"name": "Cora", "size": 2, "bots": {"1": "random"},
                                    "options": {"lives": 2}, "autostart": True})
    assert r.status_code == 201, r.text
    guest = r.json()
    assert guest["table"]["rated"] is False
    play_out(server, [guest], seed=1)
    tid = guest["table"]["id"]
    cora = Browser(server)
    cora.register(name)
    assert cora.post("/api/account/claim", {"table": tid, "token": "x" * 32}).status_code == 401
    r = cora.post("/api/account/claim", {"table": tid, "token": guest["token"]})
    assert r.status_code == 200, r.text
    assert r.json() == {"table": tid, "seat": 0, "account": name}
    assert server.get(f"/api/tables/{tid}").json()["seats"][0]["account"] == name
    finished(server, tid, [name])
    assert server.get(f"/api/players/{name}").json()["stats"]["sessions"] == 1
    other = Browser(server)
    other.register(other_name)
    again = other.post("/api/account/claim", {"table": tid, "token": guest["token"]})
    assert again.status_code == 409 and again.json()["say"]["id"] == "account.error.claimed"


def test_deleting_an_account_keeps_its_games_anonymised(server: Server) -> None:
    tid, cookie, csrf = delete_flow(server)
    # stored anonymised too (what a restart rebuilds from)
    db = Path(server.db.removeprefix("sqlite:///"))
    with sqlite3.connect(db) as conn:
        names = [n for (n,) in conn.execute("select name from toepen_seats where table_id=?",
                                            (tid,))]
        players = conn.execute("select players from toepen_tables where id=?",
                               (tid,)).fetchone()[0]
        users = conn.execute("select count(*) from toepen_users where name_key='eve'").fetchone()
    assert "Eve" not in names and "Eve" not in players and users == (0,)
    # the deleted account's cookie is refused and changes nothing
    thief = httpx.Client(base_url=server.url, cookies={"toepen_session": cookie})
    assert thief.get("/api/account").json()["user"] is None
    r = thief.post("/api/account/password", json={"old": PASSWORD, "new": "another password"},
                   headers={"X-CSRF-Token": csrf})
    assert r.status_code == 401
    # the name is free again, for somebody new
    Browser(server).register("Eve")


def delete_flow(server: Server) -> tuple[str, str, str]:
    """Eve plays, then deletes her account: the game stays, replayable, without her name."""
    eve = Browser(server)
    eve.register("Eve")
    r = eve.post("/api/tables", {"name": "Eve", "size": 2, "bots": {"1": "random"},
                                 "options": {"lives": 2}, "autostart": True})
    joined = r.json()
    tid = joined["table"]["id"]
    play_out(server, [joined], seed=2)
    finished(server, tid, ["Eve"])
    cookie = eve.http.cookies["toepen_session"]
    assert eve.post("/api/account/delete", {"password": "wrong password!"}).status_code == 403
    r = eve.post("/api/account/delete", {"password": PASSWORD})
    assert r.status_code == 200 and r.json()["anonymised"] == 1, r.text
    assert server.get("/api/players/Eve").status_code == 404
    record = server.get(f"/api/tables/{tid}/record").json()
    assert "Eve" not in json.dumps(record) and "anon-" in json.dumps(record)
    steps = all_steps(server, tid, "seat=all")
    assert steps[-1]["view"]["winner"] is not None  # still replayable, to the end
    assert "Eve" not in json.dumps(server.get(f"/api/tables/{tid}").json())
    return tid, cookie, eve.csrf


def test_wrong_password_and_unknown_user_answer_the_same(server: Server) -> None:
    Browser(server).register("Fred")
    b = Browser(server)
    wrong = b.login("Fred", "not his password")
    unknown = b.login("Nobody_here", "not his password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["say"]["id"] == "account.error.bad_login"
    assert b.refresh()["user"] is None


def test_the_login_rate_limit_holds(server: Server) -> None:
    Browser(server).register("Gert")
    b = Browser(server)
    for _ in range(5):
        assert b.login("Gert", "guess guess guess").status_code == 401
    r = b.login("Gert")  # the right password, too late
    assert r.status_code == 429 and r.json()["say"]["id"] == "account.error.rate_limited"
    assert "toepen_session" not in b.http.cookies
    assert b.login("gERT").status_code == 429  # the name is folded
    assert Browser(server).login("Fred").status_code == 200  # others still log in


def test_forged_stolen_and_cross_site_requests_are_refused(server: Server) -> None:
    hans = Browser(server)
    hans.register("Hans")
    assert hans.refresh()["user"]["name"] == "Hans"
    # forged: a cookie the server never gave
    forged = httpx.Client(base_url=server.url, cookies={"toepen_session": "A" * 43})
    assert forged.get("/api/account").json()["user"] is None
    assert forged.post("/api/account/logout", headers={"X-CSRF-Token": hans.csrf}
                       ).status_code == 401
    # CSRF: the right cookie without the token, with another's token, or from another site
    for headers in ({}, {"X-CSRF-Token": "0" * 32},
                    {"X-CSRF-Token": hans.csrf, "Origin": "https://evil.example"},
                    {"X-CSRF-Token": hans.csrf, "Sec-Fetch-Site": "cross-site"}):
        r = hans.http.post("/api/account/password",
                           json={"old": PASSWORD, "new": "stolen password"}, headers=headers)
        assert r.status_code == 403, (headers, r.text)
        assert r.json()["say"]["id"] in ("account.error.csrf", "account.error.cross_site")
        r = hans.http.post("/api/account/delete", json={"password": PASSWORD}, headers=headers)
        assert r.status_code == 403
    assert Browser(server).login("Hans").status_code == 200  # nothing changed
    # a table made cross-site does not seat the account (it is a guest's table)
    r = hans.http.post("/api/tables", json={"name": "Hansje", "size": 2},
                       headers={"Origin": "https://evil.example"})
    assert r.status_code == 201 and r.json()["table"]["seats"][0].get("account") is None
    assert r.json()["table"]["seats"][0]["name"] == "Hansje"
    # the browser's own Sec-Fetch-Site (no page can set it) vouches for the table page's joins
    r = hans.http.post("/api/tables", json={"name": "Hansje", "size": 2},
                       headers={"Sec-Fetch-Site": "same-origin"})
    assert r.json()["table"]["seats"][0]["account"] == "Hans"
    r = hans.http.post("/api/tables", json={"name": "Hansje", "size": 2},
                       headers={"Sec-Fetch-Site": "cross-site"})
    assert r.json()["table"]["seats"][0].get("account") is None
    # login CSRF: no pre-login token, no login
    fresh = httpx.Client(base_url=server.url)
    r = fresh.post("/api/account/login", json={"name": "Hans", "password": PASSWORD})
    assert r.status_code == 403 and "toepen_session" not in fresh.cookies
    # stolen, then logged out: the old cookie stops working
    stolen = hans.http.cookies["toepen_session"]
    assert hans.post("/api/account/logout").status_code == 200
    thief = httpx.Client(base_url=server.url, cookies={"toepen_session": stolen})
    assert thief.get("/api/account").json()["user"] is None
    # a password change ends the other sessions
    a, b = Browser(server), Browser(server)
    a.login("Hans")
    b.login("Hans")
    r = a.post("/api/account/password", {"old": PASSWORD, "new": "a new password"})
    assert r.status_code == 200, r.text
    assert a.refresh()["user"]["name"] == "Hans" and b.refresh()["user"] is None
    assert Browser(server).login("Hans", "a new password").status_code == 200


@pytest.mark.parametrize(("name", "say"), [
    ("Jo", "account.error.name_length"), ("J" * 21, "account.error.name_length"),
    ("Анна", "account.error.name_chars"), ("Ann Marie", "account.error.name_chars"),
    ("Ann<b>", "account.error.name_chars"), ("1Ann", "account.error.name_chars"),
    ("Expert", "account.error.name_bot"), ("pimc", "account.error.name_bot"),
    ("random2", "account.error.name_bot"), ("anon-12ab", "account.error.name_reserved"),
    ("Admin", "account.error.name_reserved"),
])
def test_user_names_are_checked(server: Server, name: str, say: str) -> None:
    r = Browser(server).post("/api/account/register", {"name": name, "password": PASSWORD})
    assert r.status_code == 400 and r.json()["say"]["id"] == say, r.text


def test_names_and_passwords_taken_or_weak(server: Server) -> None:
    Browser(server).register("Ilse")
    r = Browser(server).post("/api/account/register", {"name": "ILSE", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["say"]["id"] == "account.error.name_taken"
    r = Browser(server).post("/api/account/register", {"name": "Joost", "password": "short"})
    assert r.status_code == 400 and r.json()["say"]["id"] == "account.error.password_length"
    assert Browser(server).register("Zoë_B")["user"]["name"] == "Zoë_B"


def test_rated_tables_are_for_players_with_accounts(server: Server) -> None:
    r = server.post("/api/tables", {"name": "Kim", "size": 2, "rated": True})
    assert r.status_code == 403 and r.json()["say"]["id"] == "account.error.rated_guest"


def test_no_password_or_hash_is_logged_or_returned(server: Server) -> None:
    secret = "a very secret p4ssword"
    b = Browser(server)
    b.register("Lars", secret)
    b.login("Lars", secret)
    b.post("/api/account/password", {"old": secret, "new": secret + "!"})
    b.get("/api/players/Lars")
    b.get("/api/players/Lars/history")
    b.get("/api/leaderboard")
    for text in [*b.answers, server.log()]:
        assert secret not in text and "$argon2" not in text


def test_the_endpoints_are_in_the_openapi_description(server: Server) -> None:
    paths = server.get("/openapi.json").json()["paths"]
    for path in ("/api/account", "/api/account/register", "/api/account/login",
                 "/api/account/logout", "/api/account/password", "/api/account/delete",
                 "/api/account/claim", "/api/players/{name}", "/api/players/{name}/history",
                 "/api/leaderboard"):
        assert path in paths, path
    assert "rated" in server.get("/openapi.json").json()["components"]["schemas"][
        "CreateTable"]["properties"]


def test_rated_tables_and_seat_accounts_survive_a_restart(server: Server) -> None:
    mia = Browser(server)
    mia.register("Mia")
    r = mia.post("/api/tables", {"name": "Mia", "size": 2, "rated": True,
                                 "bots": {"1": "random"}, "options": {"lives": 2},
                                 "autostart": True})
    assert r.status_code == 201, r.text
    joined = r.json()
    tid = joined["table"]["id"]
    server.kill()  # SIGKILL: nothing is flushed on the way out
    server.start()  # the same database and port
    table = server.get(f"/api/tables/{tid}").json()
    assert table["rated"] is True and table["seats"][0]["account"] == "Mia"
    assert Browser(server).login("Mia").status_code == 200  # the account is stored too
    play_out(server, [joined], seed=4)
    finished(server, tid, ["Mia", "random"])
    ratings = server.get("/api/players/Mia").json()["ratings"]
    assert [(x["preset"], x["size"], x["games"]) for x in ratings] == [("rulebook", 2, 1)]


def test_a_seat_left_by_an_account_and_taken_by_a_guest_is_the_guests(server: Server) -> None:
    host = server.post("/api/tables", {"name": "Host", "size": 2,
                                       "options": {"lives": 2}}).json()
    nina = Browser(server)
    nina.register("Nina")
    r = nina.post(f"/api/tables/{host['table']['id']}/join", {"name": "x"})
    assert r.status_code == 200 and r.json()["table"]["seats"][1]["account"] == "Nina"
    seat = Player(server, host["table"]["id"], r.json()["token"])
    seat.send({"v": 1, "type": "leave"})
    seat.close()
    tid = host["table"]["id"]
    end = time.monotonic() + 10
    while server.get(f"/api/tables/{tid}").json()["seats"][1]["kind"] != "open":
        assert time.monotonic() < end
        time.sleep(0.05)
    guest = server.post(f"/api/tables/{tid}/join", {"name": "Guest"}).json()
    assert guest["table"]["seats"][1].get("account") is None
    assert server.post(f"/api/tables/{tid}/start", {},
                       headers={"Authorization": f"Bearer {host['token']}"}).status_code == 200
    play_out(server, [host, guest], seed=6)
    db = Path(server.db.removeprefix("sqlite:///"))
    end = time.monotonic() + 10
    while True:  # the result is written after the last action
        with sqlite3.connect(db) as conn:
            rows = conn.execute("select seat, user_id from toepen_results where table_id=?",
                                (tid,)).fetchall()
        if rows:
            break
        assert time.monotonic() < end
        time.sleep(0.05)
    assert sorted(rows) == [(0, None), (1, None)]  # two guests' seats
    games = server.get("/api/players/Nina/history").json()["games"]
    assert all(g["table"] != tid for g in games)
