"""Tables around the game: creating, joining, hosting, idle seats, limits."""

from __future__ import annotations

import concurrent.futures
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from toepen.server.tables.table import BOT_NAMES

from .conftest import Player, Server, create
from .schema import check_server_message


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    sqlite_db = f"sqlite:///{tmp_path_factory.mktemp('strict') / 'toepen.sqlite3'}"
    srv = Server(sqlite_db, "--tables-per-client", "3", "--rate", "5").start()
    yield srv
    srv.stop()


@pytest.mark.parametrize(("body", "words"), [
    ({"preset": "poker"}, ["preset", "poker"]),
    ({"size": 9}, ["9"]),
    ({"size": 1}, ["size"]),
    ({"options": {"lives": "many"}}, ["lives"]),
    ({"options": {"lives": 10**18}}, ["option lives", "1 to 99"]),
    ({"options": {"lives": 100}}, ["option lives", "1 to 99"]),
    ({"options": {"rubbers": 10**6}}, ["option rubbers", "1 to 99"]),
    ({"options": {"max_stake": 10**9}}, ["option max_stake", "1 to 99"]),
    ({"options": {"four_of_a_kind": True, "four_of_a_kind_penalty": 10**100}},
     ["option four_of_a_kind_penalty", "1 to 99", "101 digits"]),
    ({"options": {"colour": "red"}}, ["colour", "unknown"]),
    ({"options": {"pot": 0.125}}, ["option pot", "two decimals"]),
    ({"options": {"pot_unit": "euros"}}, ["option pot_unit", "4 printable"]),
    ({"preset": "classic", "options": {"rebuy": "once"}}, ["option rebuy", "elimination"]),
    ({"bots": {"7": "random"}}, ["seat 7"]),
    ({"bots": {"1": "grandmaster"}}, ["grandmaster"]),
    ({"name": "Ann", "bots": {"0": "random"}}, ["seat 0"]),
    ({"name": "A" * 25}, ["name", "24"]),
    ({"name": "<script>"}, ["name", "'<'"]),
    ({"name": " Ann"}, ["name", "space"]),
    ({"name": ""}, ["name"]),
    ({"idle_seconds": 0}, ["idle_seconds"]),
])
def test_create_refuses_bad_tables(strict_server: Server, body: dict[str, Any],
                                   words: list[str]) -> None:
    server = strict_server
    before = server.get("/api/tables").json()["tables"]
    r = server.post("/api/tables", body)
    assert r.status_code in (400, 422), r.text
    text = r.text
    for w in words:
        assert w in text, (w, text)
    assert server.get("/api/tables").json()["tables"] == before


@pytest.fixture(scope="module")
def long_names(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose operator allows display names of 30 characters."""
    sqlite_db = f"sqlite:///{tmp_path_factory.mktemp('names') / 'toepen.sqlite3'}"
    srv = Server(sqlite_db, "--name-length", "30").start()
    yield srv
    srv.stop()


def test_names_follow_the_configured_limit(long_names: Server) -> None:
    """The server's name limit is the one it was started with, everywhere (not 24)."""
    srv = long_names
    t = create(srv, name="A" * 30, size=3)
    tid = t["table"]["id"]
    assert t["table"]["seats"][0]["name"] == "A" * 30
    too_long = srv.post("/api/tables", {"name": "B" * 31})
    assert too_long.status_code == 400 and "1 to 30 characters, not 31" in too_long.text
    joined = srv.post(f"/api/tables/{tid}/join", {"name": "Bas " * 7 + "Bo"})  # 30
    assert joined.status_code == 200, joined.text
    refused = srv.post("/api/join", {"code": t["table"]["code"], "name": "C" * 31})
    assert refused.status_code == 400 and "30" in refused.text
    assert srv.get("/api/presets").json()["name_length"] == 30


@pytest.mark.parametrize(("body", "words"), [
    ({"size": 16}, ["2 to 8", "16"]),
    ({"size": 17}, ["2 to 8", "17"]),
    ({"size": 1000}, ["2 to 8", "1000"]),
    ({"size": 0}, ["2 to 8", "0"]),
    ({"name": "A" * 30}, ["1 to 24 characters, not 30"]),
    ({"name": "A" * 101}, ["1 to 24 characters, not 101"]),
])
def test_create_follows_the_rules_and_the_limits(server: Server, body: dict[str, Any],
                                                 words: list[str]) -> None:
    """Table sizes are the rules' (2 to 8), names the server's limit (24 by default):
    one answer (400, naming the bound) whatever the value."""
    r = server.post("/api/tables", body)
    assert r.status_code == 400, r.text
    for w in words:
        assert w in r.json()["detail"], (w, r.text)
    t = create(server, size=3)
    long = server.post(f"/api/tables/{t['table']['id']}/join", {"name": "A" * 101})
    assert long.status_code == 400 and "1 to 24 characters, not 101" in long.text


def test_presets_describe_every_preset_and_option(server: Server) -> None:
    from toepen.rules import Rules

    doc = server.get("/api/presets").json()
    assert [p["name"] for p in doc["presets"]] == list(Rules.preset_names())
    assert doc["sizes"] == [2, 3, 4, 5, 6, 7, 8] and doc["name_length"] == 24
    for p in doc["presets"]:
        rules = Rules.preset(p["name"])
        assert p["label"] == f"preset.{p['name']}"
        assert p["about"] == f"preset.{p['name']}.about"
        assert p["sizes"] == list(rules.allowed_table_sizes()) and p["lives"] == rules.lives
        assert Rules.from_json(p["rules"]) == rules
        assert set(p["rules"]) == {"preset", *Rules.option_names()}
    assert [o["name"] for o in doc["options"]] == list(Rules.option_names())
    rulebook = Rules.preset()
    for o in doc["options"]:
        assert o["about"] == f"option.{o['name']}"
        default = getattr(rulebook, o["name"])
        assert o["default"] == (list(default) if isinstance(default, tuple) else default)
        assert o["type"] in ("int", "bool", "choice", "int_or_null", "sizes", "number",
                             "text"), o
        if o["type"] == "number":  # pot toepen's stake: a decimal within its bounds
            assert (o["min"], o["max"], o["step"]) == (0, 1000, 0.01)
        if o["type"] == "text":  # pot toepen's currency sign
            assert o["max_length"] == 4
        if o["type"] == "bool":
            assert o["choices"] == [True, False]
        if o["choices"] is not None:
            assert o["default"] in o["choices"] or o["type"] == "sizes"
    # The full rules of a preset are options a table accepts as they are.
    gezin = next(p for p in doc["presets"] if p["name"] == "gezinstoepen")
    options = {k: v for k, v in gezin["rules"].items() if k != "preset"}
    t = create(server, preset="gezinstoepen", options=options, size=3)
    assert t["table"]["rules"] == "gezinstoepen"


def test_join_by_code_and_link_and_full_tables(server: Server) -> None:
    t = create(server, name="Ann", size=3)
    tid, code = t["table"]["id"], t["table"]["code"]
    assert len(t["token"]) >= 30 and len(code) == 6
    r = httpx.get(server.url + f"/join/{code.lower()}", follow_redirects=False)
    assert r.status_code == 307 and r.headers["location"] == f"/?join={code}"
    assert server.get("/").status_code == 200
    paths = server.get("/openapi.json").json()["paths"]
    assert {"/api/tables", "/api/join", "/api/tables/{table_id}/record"} <= set(paths)
    presets = server.get("/api/presets").json()
    assert "rulebook" in [p["name"] for p in presets["presets"]] and "random" in presets["bots"]
    assert presets["default_bot"] in presets["bots"]
    assert server.get(f"/api/codes/{code.lower()}").json()["id"] == tid
    assert server.get("/api/codes/ZZZZZZ").status_code == 404
    bad = server.post(f"/api/tables/{tid}/join", {"name": "Bas\n"})
    assert bad.status_code == 400 and "name" in bad.text
    taken = server.post(f"/api/tables/{tid}/join", {"name": "Bas", "seat": 0})
    assert taken.status_code == 409 and "seat 0 is not open" in taken.text
    cor = server.post(f"/api/tables/{tid}/join", {"name": "Cor", "seat": 2}).json()
    bas = server.post("/api/join", {"code": code, "name": "Bas"}).json()
    assert (cor["seat"], bas["seat"]) == (2, 1)
    assert len({t["token"], cor["token"], bas["token"]}) == 3
    full = server.post("/api/join", {"code": code, "name": "Dirk"})
    assert full.status_code == 409 and "full" in full.text
    listed = [x for x in server.get("/api/tables?status=lobby").json()["tables"]
              if x["id"] == tid]
    assert len(listed) == 1
    assert [s["name"] for s in listed[0]["seats"]] == ["Ann", "Bas", "Cor"]
    assert "token" not in json.dumps(listed) and t["token"] not in json.dumps(listed)
    assert server.get("/api/tables?status=nonsense").status_code == 400
    started = server.post(f"/api/tables/{tid}/start", {},
                          headers={"Authorization": "Bearer " + t["token"]})
    assert started.status_code == 200
    late = server.post(f"/api/tables/{tid}/join", {"name": "Eve"})
    assert late.status_code == 409 and "spectator" in late.text


def test_host_commands(server: Server) -> None:
    t = create(server, name="Ann", size=4, bots={"3": "random"})
    tid = t["table"]["id"]
    bas = server.post(f"/api/tables/{tid}/join", {"name": "Bas"}).json()  # never connects
    cor = server.post(f"/api/tables/{tid}/join", {"name": "Cor"}).json()
    host = Player(server, tid, t["token"])
    c = Player(server, tid, cor["token"])

    def refused(p: Player, **msg: Any) -> dict[str, Any]:
        p.send({"v": 1, "type": "host", "id": 1, **msg})
        err = p.wait(lambda m: m["type"] == "error")
        assert err["id"] == 1
        return err

    assert refused(c, command="remove_seat", seat=1)["code"] == "forbidden"
    err = refused(host, command="remove_seat", seat=2)  # Cor is connected
    assert err["code"] == "bad_command" and "still here" in err["message"]
    assert refused(host, command="remove_seat", seat=9)["code"] == "bad_message"
    assert refused(host, command="dance")["code"] == "bad_message"
    host.send({"v": 1, "type": "host", "command": "remove_seat", "seat": 1})
    table = host.wait(lambda m: m["type"] == "table" and m["table"]["seats"][1]["kind"] == "open")
    check_server_message(table)
    # Bas's token no longer works.
    gone = server.post(f"/api/tables/{tid}/start", {},
                       headers={"Authorization": "Bearer " + bas["token"]})
    assert gone.status_code == 401
    host.send({"v": 1, "type": "host", "command": "start"})
    err = host.wait(lambda m: m["type"] == "error")
    assert err["code"] == "bad_command" and "1" in err["message"]
    host.send({"v": 1, "type": "host", "command": "add_bot", "seat": 1, "bot": "nobody"})
    err = host.wait(lambda m: m["type"] == "error")
    assert err["code"] == "bad_message" and "nobody" in err["message"]
    host.send({"v": 1, "type": "host", "command": "add_bot", "seat": 1, "bot": "random"})
    host.wait(lambda m: m["type"] == "table" and m["table"]["seats"][1]["kind"] == "bot")
    host.send({"v": 1, "type": "host", "command": "remove_bot", "seat": 3})
    host.wait(lambda m: m["type"] == "table" and m["table"]["seats"][3]["kind"] == "open")
    host.send({"v": 1, "type": "host", "command": "add_bot", "seat": 3, "bot": "default"})
    host.wait(lambda m: m["type"] == "table" and m["table"]["seats"][3]["kind"] == "bot")
    # Cor leaves before the start: the seat opens, Cor's socket is closed.
    c.send({"v": 1, "type": "leave"})
    host.wait(lambda m: m["type"] == "table" and m["table"]["seats"][2]["kind"] == "open")
    dan = server.post(f"/api/tables/{tid}/join", {"name": "Dan"}).json()
    assert dan["seat"] == 2
    host.send({"v": 1, "type": "host", "command": "start"})
    state = host.wait(lambda m: m["type"] == "state")
    players = state["view"]["players"]
    assert players[0] == "Ann" and players[1] in BOT_NAMES and players[2] == "Dan"
    assert players[3] in BOT_NAMES and players[1] != players[3]
    assert len(state["view"]["hand"]) == 4
    host.send({"v": 1, "type": "host", "command": "add_bot", "seat": 2, "bot": "random"})
    err = host.wait(lambda m: m["type"] == "error")
    assert err["code"] == "bad_command" and "before the start" in err["message"]
    for p in (host, c):
        p.close()


def test_idle_seat_gets_a_standin_until_its_owner_returns(server: Server) -> None:
    t = create(server, name="Ann", size=3, bots={"1": "random", "2": "random"},
               idle_seconds=1.0, autostart=True, options={"lives": 15})
    tid = t["table"]["id"]
    ann = Player(server, tid, t["token"])
    # Ann does nothing: a bot plays for her after 1 s of her being to act.
    msg = ann.wait(lambda m: m["type"] == "state" and (m["last"] or {}).get("by") == "standin",
                   30)
    assert msg["last"]["seat"] == 0
    table = server.get(f"/api/tables/{tid}").json()
    assert table["seats"][0]["standin"] is True
    ann.send({"v": 1, "type": "back"})
    ann.wait(lambda m: m["type"] == "table" and not m["table"]["seats"][0]["standin"])
    # Back in her hands: the next time she is to act, her own action counts.
    ann.wait(lambda m: m["type"] == "state" and bool(m["view"]["legal"])
             and m["view"]["winner"] is None, 30)
    assert ann.state is not None
    choice = ann.view["legal"][0]
    ann.send({"v": 1, "type": "act", "action": choice, "state": ann.state["state"]})
    mine = ann.wait(lambda m: m["type"] in ("state", "error"))
    if mine["type"] == "state" and mine["last"]["by"] == "standin":
        # the idle clock (1 s, on a busy machine) ran out before her action came: the
        # stand-in's state first, then her action refused as stale, not applied
        assert mine["last"]["seat"] == 0
        mine = ann.wait(lambda m: m["type"] == "error" or (
            m["type"] == "state" and (m["last"] or {}).get("by") == "player"))
        assert mine["type"] == "error", mine
    if mine["type"] == "error":  # the stand-in was quicker: allowed, and nothing changed
        assert mine["code"] == "stale"
    else:
        assert mine["last"] == {"seat": 0, "action": choice, "by": "player"}
    ann.close()


def test_reconnect_gets_the_seat_back(server: Server) -> None:
    t = create(server, name="Ann", size=2, bots={"1": "random"}, autostart=True)
    tid = t["table"]["id"]
    a = Player(server, tid, t["token"])
    a.wait(lambda m: m["type"] == "state")
    a.drain(0.3)
    view = a.view
    a.close()
    time.sleep(0.2)
    assert server.get(f"/api/tables/{tid}").json()["seats"][0]["connected"] is False
    again = Player(server, tid, t["token"])
    again.wait(lambda m: m["type"] == "state")
    assert again.welcome and again.welcome["seat"] == 0
    assert again.view == view
    again.close()


def test_limits(strict_server: Server) -> None:
    srv = strict_server
    made = [create(srv, size=2, bots={"1": "random"}, name="Ann") for _ in range(3)]
    r = srv.post("/api/tables", {"name": "Ann"})
    assert r.status_code == 429 and "3" in r.text
    big = httpx.post(srv.url + "/api/tables", content=b"{" + b" " * 20000 + b"}",
                     headers={"content-type": "application/json"})
    assert big.status_code == 413
    p = Player(srv, made[0]["table"]["id"], made[0]["token"])
    for i in range(12):
        p.send({"v": 1, "type": "ping", "id": i})
    got: list[dict[str, Any]] = []
    end = time.monotonic() + 3
    while len(got) < 12 and time.monotonic() < end:
        m = p.poll(0.2)
        if m is not None and m["type"] in ("pong", "error"):
            got.append(m)
    kinds = [m["type"] for m in got]
    assert kinds.count("pong") == 5 and kinds.count("error") == 7
    assert {m["code"] for m in got if m["type"] == "error"} == {"rate_limited"}
    assert srv.get("/api/health").json() == {"ok": True, "protocol": 1}
    p.close()


def test_emoji_names_count_as_people_see_them(long_names: Server) -> None:
    """Pub names with emoji are welcome; an emoji (skin tone, family, flag) is one
    character of the limit; control and formatting characters are still refused."""
    srv = long_names
    host = "Jan 🍺"
    t = create(srv, name=host, size=4)
    tid = t["table"]["id"]
    assert t["table"]["seats"][0]["name"] == host
    family = "👨\u200d👩\u200d👧"  # one character as people see it, five code points
    for name in ("Els 👍🏽", "🇳🇱 Fien", family * 30):
        r = srv.post(f"/api/tables/{tid}/join", {"name": name})
        assert r.status_code == 200, (name, r.text)
    names = [s["name"] for s in srv.get(f"/api/tables/{tid}").json()["seats"]]
    assert names == [host, "Els 👍🏽", "🇳🇱 Fien", family * 30]
    refused = srv.post("/api/tables", {"name": "🍺" * 31})
    assert refused.status_code == 400 and "1 to 30 characters, not 31" in refused.text
    for bad, shown in (("Ann\x00", "U+0000"), ("Ann\nBo", "U+000A"), ("Ann\u202eBo", "U+202E"),
                       ("A\u200bnn", "U+200B"), ("Ann\x7f", "U+007F")):
        r = srv.post("/api/tables", {"name": bad})
        assert r.status_code == 400 and shown in r.text, (bad, r.text)


def test_an_invite_link_of_no_table_opens_the_page_not_json(server: Server) -> None:
    """A mistyped or expired invite link sends the browser to the join page, which says
    so in the reader's language; the server never answers it with a JSON error."""
    for code, to in (("QQ", "QQ"), ("zzzzzz", "ZZZZZZ"), ("a b&c", "A%20B%26C")):
        r = httpx.get(server.url + f"/join/{code}", follow_redirects=False)
        assert r.status_code == 307, (code, r.text)
        assert r.headers["location"] == f"/?join={to}"
        assert "detail" not in r.text


def test_every_bot_seat_has_its_own_name(server: Server) -> None:
    """Bots of one kind get distinct human-sounding names (from a fixed list, by the
    table's seed), never one a player at the table has; their kind is beside the name
    and in the record's meta."""
    for host in BOT_NAMES[:6]:  # the host's name is never a bot's
        t = create(server, name=host, size=4, bots={"1": "random", "2": "random",
                                                    "3": "random"})
        seats = t["table"]["seats"]
        names = [s["name"] for s in seats]
        assert names[0] == host and len({n.casefold() for n in names}) == 4, names
        assert set(names[1:]) <= set(BOT_NAMES)
        assert [s["bot"] for s in seats[1:]] == ["random"] * 3
    t = create(server, name="Ann", size=4, bots={"1": "random", "2": "heuristic"})
    tid = t["table"]["id"]
    bot1 = t["table"]["seats"][1]["name"]
    # a newcomer with a bot's name (any letter case) keeps it; the bot takes another
    r = server.post(f"/api/tables/{tid}/join", {"name": bot1.upper()})
    assert r.status_code == 200, r.text
    names = [s["name"] for s in server.get(f"/api/tables/{tid}").json()["seats"]]
    assert names[3] == bot1.upper() and names[1] != bot1 and names[1] in BOT_NAMES
    assert len({n.casefold() for n in names}) == 4, names
    start = server.post(f"/api/tables/{tid}/start", {},
                        headers={"Authorization": "Bearer " + t["token"]})
    assert start.status_code == 200, start.text
    assert [s["name"] for s in start.json()["seats"]] == names


@pytest.fixture(scope="module")
def quick_abandon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that leaves a table out of the open list after 1 s with no person."""
    sqlite_db = f"sqlite:///{tmp_path_factory.mktemp('abandon') / 'toepen.sqlite3'}"
    srv = Server(sqlite_db, "--abandoned-after", "1").start()
    yield srv
    srv.stop()


def test_abandoned_tables_leave_the_open_list(quick_abandon: Server) -> None:
    """A table not started with no person connected (a spectator does not count) for
    --abandoned-after seconds is no longer listed as open; it can still be reached by id
    and code, and is listed again once its host is back."""
    srv = quick_abandon

    def open_ids() -> set[str]:
        return {t["id"] for t in srv.get("/api/tables?status=lobby").json()["tables"]}

    left = create(srv, name="Ann", size=3)
    kept = create(srv, name="Bo", size=3)
    lid, kid = left["table"]["id"], kept["table"]["id"]
    host = Player(srv, kid, kept["token"])
    watcher = Player(srv, lid)  # only a spectator at the left table
    assert {lid, kid} <= open_ids()
    time.sleep(1.5)
    ids = open_ids()
    assert kid in ids and lid not in ids
    assert srv.get(f"/api/tables/{lid}").status_code == 200
    assert srv.get(f"/api/codes/{left['table']['code']}").status_code == 200
    assert lid in {t["id"] for t in srv.get("/api/tables").json()["tables"]}
    host.close()
    time.sleep(1.5)
    assert kid not in open_ids()
    back = Player(srv, kid, kept["token"])
    assert kid in open_ids()
    back.close()
    watcher.close()


def test_creating_with_one_request_id_twice_makes_one_table(server: Server) -> None:
    """A table creation sent twice with the same ``request`` id (a double click that got
    through, a retry), even at the same moment, makes one table; a refused one is
    forgotten, so its id can be used again; another id makes another table."""
    body = {"name": "Idem", "size": 3, "request": "dbl-" + "a1" * 8}
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: server.post("/api/tables", body), range(4)))
    assert all(r.status_code == 201 for r in answers), [r.text for r in answers]
    ids = {r.json()["table"]["id"] for r in answers}
    assert len(ids) == 1
    assert len({r.json()["token"] for r in answers}) == 1
    again = server.post("/api/tables", body)
    assert again.status_code == 201 and again.json()["table"]["id"] in ids
    mine = [t for t in server.get("/api/tables").json()["tables"]
            if t["seats"][0]["name"] == "Idem"]
    assert len(mine) == 1
    bad = {"name": "Idem<", "size": 3, "request": "bad-" + "b2" * 8}
    assert server.post("/api/tables", bad).status_code == 400
    good = server.post("/api/tables", {**bad, "name": "Idem2"})
    assert good.status_code == 201, good.text
    other = server.post("/api/tables", {**body, "request": "dbl-" + "c3" * 8})
    assert other.status_code == 201 and other.json()["table"]["id"] not in ids


def test_a_pot_table_is_made_with_its_stake_and_sign(long_names: Server) -> None:
    """Pot toepen (issue 39): a decimal stake and a currency sign travel as given. (On a
    server of its own: this module's shared one holds the address's 20 open tables by
    now, so a 21st is refused, as it should be.)"""
    server = long_names
    t = create(server, preset="rulebook",
               options={"rebuy": "any", "pot": 0.5, "pot_unit": "EUR"}, size=3,
               bots={"1": "random", "2": "random"})
    table = t["table"]
    assert table["rules"] == {"preset": "rulebook", "rebuy": "any", "pot": 0.5,
                              "pot_unit": "EUR"}
    assert table["rules_full"]["pot"] == 0.5 and table["rules_full"]["rebuy"] == "any"
