"""The rough edges a player hit on the server (issue 25): bots' first names free for
people, a full table's join refused with its reason, chat kept for those who come later,
the leaderboard opening on the board that has games, deleting an account checking the
password before anything is asked."""

from __future__ import annotations

import json

import httpx
import pytest

from toepen.rules import Rules
from toepen.server.db.store import TableRow
from toepen.server.protocol import Refused
from toepen.server.site.accounts.security import check_username
from toepen.server.tables.table import BOT_NAMES, CHAT_HISTORY, Seat, Table

from .conftest import Player, Server, create
from .test_accounts import PASSWORD, Browser, finished, play_out


def test_every_bot_first_name_is_free_for_a_person() -> None:
    for name in BOT_NAMES:  # Bas, Cor, Dirk, Noor, Anouk, Henk, Marieke, Sjaak...
        assert check_username(name) == name
        assert check_username(name.lower() + "2") == name.lower() + "2"
    for kind in ("expert", "Random", "pimc2", "bot", "heuristic"):  # the bots' own accounts
        with pytest.raises(Refused, match="the name of a bot"):
            check_username(kind)


def test_a_person_named_as_a_bot_registers_and_the_bots_take_other_names(server: Server) -> None:
    noor = Browser(server)
    assert noor.register("Noor")["user"]["name"] == "Noor"
    r = noor.post("/api/tables", {"name": "Noor", "size": 8,
                                  "bots": {str(s): "random" for s in range(1, 8)}})
    assert r.status_code == 201, r.text
    seats = r.json()["table"]["seats"]
    assert seats[0]["name"] == "Noor" and seats[0]["kind"] == "human"
    bots = [s["name"] for s in seats[1:]]
    assert all(s["kind"] == "bot" and s["bot"] == "random" for s in seats[1:])
    assert len(set(bots)) == 7 and "noor" not in {b.casefold() for b in bots}


def test_joining_a_full_or_started_table_says_why_and_what_next(server: Server) -> None:
    t = create(server, name="Ann", size=2, bots={})
    code = t["table"]["code"]
    assert server.post("/api/join", {"code": code, "name": "Bas"}).status_code == 200
    full = server.post("/api/join", {"code": code, "name": "Cor"})
    assert full.status_code == 409 and full.json()["say"]["id"] == "error.join.full"
    assert "watch" in full.json()["detail"]
    t2 = create(server, name="Ann", size=3, bots={"2": "random"})
    seat = server.post(f"/api/tables/{t2['table']['id']}/join", {"name": "Dirk", "seat": 2})
    assert seat.status_code == 409
    assert seat.json()["say"] == {"id": "error.join.seat_taken", "params": {"n": 3}}
    server.post(f"/api/tables/{t['table']['id']}/start", {},
                headers={"Authorization": f"Bearer {t['token']}"})
    late = server.post("/api/join", {"code": code, "name": "Eve"})
    assert late.status_code == 409 and late.json()["say"]["id"] == "error.join.started"


def test_a_late_joiner_and_a_spectator_read_the_chat_so_far(server: Server) -> None:
    t = create(server, name="Ann", size=3, bots={"2": "random"})
    tid = t["table"]["id"]
    ann = Player(server, tid, t["token"])
    assert ann.welcome is not None and ann.welcome["chat"] == []
    ann.send({"v": 1, "type": "chat", "text": "<b>proost</b> 🍺"})
    ann.wait(lambda m: m["type"] == "chat")
    ann.send({"v": 1, "type": "react", "react": "cheers"})
    ann.wait(lambda m: m["type"] == "chat" and m["react"] == "cheers")
    joined = server.post(f"/api/tables/{tid}/join", {"name": "Bas"}).json()
    bas = Player(server, tid, joined["token"])
    watcher = Player(server, tid)
    for p in (bas, watcher):
        assert p.welcome is not None
        said = p.welcome["chat"]
        assert [(m["seat"], m["name"], m["text"], m["react"]) for m in said] == [
            (0, "Ann", "<b>proost</b> 🍺", None), (0, "Ann", None, "cheers")]
        assert said[1]["say"]["id"] == "react.cheers"
    for p in (ann, bas, watcher):
        p.close()


def test_the_chat_history_is_bounded() -> None:
    row = TableRow(id="t" * 12, code="ABCDEF", preset="rulebook", rules="rulebook", size=2,
                   seed=1, dealer=0, idle_seconds=60, autostart=False, creator="x",
                   host_hash="h")
    table = Table(row=row, rules=Rules.preset(), seats=[Seat(0), Seat(1)])
    for i in range(CHAT_HISTORY + 7):
        table.keep_chat(json.dumps({"v": 1, "type": "chat", "seat": 0, "name": "Ann",
                                    "text": f"line {i}", "react": None, "say": None}))
    table.keep_chat(json.dumps({"v": 1, "type": "table", "table": {"chat": 1}}))
    table.keep_chat("not json, but \"chat\"")
    assert len(table.chat) == CHAT_HISTORY
    assert [m["text"] for m in table.chat][0] == "line 7"


def test_the_leaderboard_opens_on_the_board_just_played(server: Server) -> None:
    wim = Browser(server)
    wim.register("Wimpie")
    # "Challenge expert" makes a rated table at the preset's smallest size: 2 players
    r = wim.post("/api/tables", {"name": "Wimpie", "size": 2, "rated": True, "autostart": True,
                                 "bots": {"1": "random"}, "options": {"lives": 2}})
    assert r.status_code == 201, r.text
    host = r.json()
    play_out(server, [host], seed=5)
    finished(server, host["table"]["id"], ["Wimpie"])
    board = wim.get("/api/leaderboard").json()
    assert (board["preset"], board["size"], board["chosen"]) == ("rulebook", 2, "last_played")
    assert "Wimpie" in [p["name"] for p in board["players"]]
    anyone = httpx.get(server.url + "/api/leaderboard", timeout=10).json()
    assert (anyone["preset"], anyone["size"]) == (board["preset"], board["size"])
    assert anyone["chosen"] in ("most_players", "last_played")
    asked = httpx.get(server.url + "/api/leaderboard?preset=rulebook&size=4", timeout=10).json()
    assert (asked["size"], asked["chosen"], asked["players"]) == (4, "asked", [])


def test_deleting_an_account_checks_the_password_before_asking(server: Server) -> None:
    ilse = Browser(server)
    ilse.register("Ilsabe")
    wrong = ilse.post("/api/account/delete", {"password": "not it at all", "check": True})
    assert wrong.status_code == 403 and wrong.json()["say"]["id"] == "account.error.wrong_password"
    right = ilse.post("/api/account/delete", {"password": PASSWORD, "check": True})
    assert right.status_code == 200 and right.json() == {"ok": True, "deleted": False}
    assert ilse.refresh()["user"]["name"] == "Ilsabe"  # nothing deleted, still logged in
    done = ilse.post("/api/account/delete", {"password": PASSWORD})
    assert done.status_code == 200 and done.json()["ok"] is True
    assert Browser(server).login("Ilsabe").status_code != 200
