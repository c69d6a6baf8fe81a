"""Clubs and tournaments over HTTP against a real server on real SQLite: refusals that
change nothing, keys never shown again, rounds, drop-outs and late arrivals, standings,
a SIGKILL and restart on the same file, and a round of online tables through the lobby."""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from toepen import tourney

from .conftest import Player, Server
from .test_session import calm, over, play_until


def ok(r: Any, status: int = 200) -> dict[str, Any]:
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def refused(r: Any, status: int, why: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert body["code"] == why and body["say"]["id"] == f"web.club.error.{why}", body
    assert isinstance(body["detail"], str) and body["detail"]
    return body


def auth(key: str) -> dict[str, dict[str, str]]:
    return {"headers": {"Authorization": f"Bearer {key}"}}


def test_a_club_season_of_tournaments_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "clubs.sqlite3"
    srv = Server(f"sqlite:///{db}").start()
    try:
        # bad clubs change nothing, each refusal names what is wrong
        refused(srv.post("/api/clubs", {"name": "De Kroeg", "admin": "Ann",
                                        "house_rules": {"preset": "nope"}}), 400, "rules")
        refused(srv.post("/api/clubs", {"name": "De Kroeg", "admin": "Ann",
                                        "house_rules": {"options": {"lives": 0}}}), 400,
                "rules")
        refused(srv.post("/api/clubs", {"name": "De Kroeg", "admin": " Ann"}), 400, "bad_name")
        refused(srv.post("/api/clubs", {"name": "De Kroeg", "admin": "Ann",
                                        "scheme": {"points": [1, 5]}}), 400, "scheme")
        refused(srv.post("/api/clubs", {"name": "De Kroeg", "admin": "Ann",
                                        "house_rules": {"preset": "teams"}}), 400, "teams")
        assert ok(srv.get("/api/clubs"))["clubs"] == []
        made = ok(srv.post("/api/clubs", {
            "name": "De Kroeg", "admin": "Ann", "scheme": "ladder",
            "house_rules": {"name": "Kroegregels", "preset": "classic",
                            "options": {"lives": 15}}}), 201)
        club, key = made["club"], made["key"]
        refused(srv.post("/api/clubs", {"name": "de kroeg", "admin": "Bas"}), 409, "club_taken")
        assert club["house_rules"]["name"] == "Kroegregels"
        assert club["house_rules"]["rules"] == {"preset": "classic", "lives": 15}
        assert [m["name"] for m in club["members"]] == ["Ann"] and club["members"][0]["admin"]
        cid = club["id"]
        # admins only; keys are hashed: never in any answer again
        refused(srv.post(f"/api/clubs/{cid}/members", {"name": "Bas"}), 401, "auth")
        refused(srv.post(f"/api/clubs/{cid}/members", {"name": "Bas"}, **auth("x" * 32)), 403,
                "forbidden")
        for name in ("Bas", "Cor", "Dirk"):
            ok(srv.post(f"/api/clubs/{cid}/members", {"name": name}, **auth(key)), 201)
        els = ok(srv.post(f"/api/clubs/{cid}/members", {"name": "Els", "admin": True},
                          **auth(key)), 201)
        refused(srv.post(f"/api/clubs/{cid}/members", {"name": "bas"}, **auth(key)), 409,
                "member_taken")
        refused(httpx.put(f"{srv.url}/api/clubs/{cid}", timeout=10,
                          json={"house_rules": {"options": {"x": 1}}}, **auth(key)),
                400, "rules")
        page = ok(srv.get(f"/api/clubs/{cid}"))
        assert key not in json.dumps(page) and els["key"] not in json.dumps(page)
        assert "key_hash" not in json.dumps(page)

        # a tournament of the club: its house rules and scheme by default
        refused(srv.post("/api/tournaments", {"name": "Vrijdag", "club": cid}), 401, "auth")
        t = ok(srv.post("/api/tournaments", {"name": "Vrijdag", "club": cid},
                        **auth(els["key"])), 201)
        tid, tkey = t["tournament"]["id"], t["key"]
        assert t["tournament"]["rules"] == {"preset": "classic", "lives": 15}
        assert t["tournament"]["scheme"]["name"] == "ladder"
        base = f"/api/tournaments/{tid}"
        names = ["Ann", "bas", "Cor", "Dirk", "Fien", "Gijs", "Hanna"]
        for n in names:
            ok(srv.post(f"{base}/players", {"name": n}, **auth(tkey)))
        before = ok(srv.get(base))
        assert [p["name"] for p in before["players"]][1] == "Bas"  # the member's own name
        assert before["players"][1]["member"] is not None and before["players"][4]["member"] is None
        refused(srv.post(f"{base}/players", {"name": "ANN"}, **auth(tkey)), 409, "name_taken")
        refused(srv.post(f"{base}/rounds", {"mode": "chess"}, **auth(tkey)), 400, "mode")
        assert ok(srv.get(base)) == before
        assert before["next_sizes"] == [4, 3]

        def play_round(r: int, seed: int) -> list[list[str]]:
            state = ok(srv.post(f"{base}/rounds", {"mode": "cards"}, **auth(tkey)))
            tables = state["rounds"][r - 1]["tables"]
            refused(srv.post(f"{base}/rounds", {}, **auth(tkey)), 409, "round_open")
            rng = random.Random(seed)
            orders = []
            for table in tables:
                order = list(table["seats"])
                rng.shuffle(order)
                bad = order[:-1] + ["Nobody"]
                refused(srv.post(f"{base}/results", {"round": r, "table": table["no"],
                                                     "order": bad}, **auth(tkey)), 400, "order")
                ok(srv.post(f"{base}/results", {"round": r, "table": table["no"],
                                                "order": order}, **auth(tkey)))
                orders.append(order)
            return orders

        results = [play_round(1, 1)]
        # a drop-out and a late arrival between rounds
        ok(srv.post(f"{base}/drop", {"name": "cor"}, **auth(tkey)))
        refused(srv.post(f"{base}/drop", {"name": "Cor"}, **auth(tkey)), 409, "already_dropped")
        refused(srv.post(f"{base}/drop", {"name": "Zed"}, **auth(tkey)), 404, "unknown_player")
        ok(srv.post(f"{base}/players", {"name": "Ivo"}, **auth(tkey)))
        ok(srv.post(f"{base}/players", {"name": "Joke"}, **auth(tkey)))
        results.append(play_round(2, 2))
        seated = {p for t in results[1] for p in t}
        assert "Cor" not in seated and {"Ivo", "Joke"} <= seated
        state = ok(srv.post(f"{base}/rounds", {"mode": "cards"}, **auth(tkey)))
        refused(srv.post(f"{base}/drop", {"name": "Ivo"}, **auth(tkey)), 409, "plays_now")
        before_kill = ok(srv.get(base))

        # SIGKILL, then the same file: everything is there, and the evening goes on
        srv.kill()
        srv.start()
        assert ok(srv.get(base)) == before_kill
        tables = state["rounds"][2]["tables"]
        third = []
        for table in tables:
            ok(srv.post(f"{base}/results", {"round": 3, "table": table["no"],
                                            "order": table["seats"]}, **auth(tkey)))
            third.append(table["seats"])
        results.append(third)
        final = ok(srv.post(f"{base}/finish", {}, **auth(tkey)))
        expected = tourney.standings(results, tourney.SCHEMES["ladder"],
                                     [p["name"] for p in final["players"]])
        assert [(s["place"], s["player"], s["points"], s["wins"], s["opponents"])
                for s in final["standings"]] == [
            (r.place, r.player, r.points, r.wins, r.opponents) for r in expected]
        assert [s for s in final["standings"] if s["player"] == "Cor"][0]["played"] == 1
        refused(srv.post(f"{base}/players", {"name": "Kees"}, **auth(tkey)), 409, "finished")

        # the club's season standings count the tournament, members by their names
        page = ok(srv.get(f"/api/clubs/{cid}"))
        assert page["tournaments"][0]["status"] == "over"
        assert {r["player"]: r["points"] for r in page["standings"]} == {
            r.player: r.points for r in expected}
        other = ok(srv.get(f"/api/clubs/{cid}?season=1999"))
        assert other["standings"] == []
    finally:
        srv.stop()


def test_an_online_round_is_played_at_lobby_tables(server: Server) -> None:
    made = ok(server.post("/api/tournaments", {
        "name": "Online", "house_rules": {"preset": "rulebook", "options": {"lives": 2}}}), 201)
    tid, key = made["tournament"]["id"], made["key"]
    base = f"/api/tournaments/{tid}"
    for n in ("Ann", "Bas", "Cor"):
        ok(server.post(f"{base}/players", {"name": n}, **auth(key)))
    state = ok(server.post(f"{base}/rounds", {"mode": "online"}, **auth(key)))
    table = state["rounds"][0]["tables"][0]
    assert table["table_id"] and "code" not in table
    lobby = ok(server.get(f"/api/tables/{table['table_id']}"))
    assert lobby["size"] == 3 and lobby["preset"] == "rulebook"
    refused(server.post(f"{base}/seat", {"round": 1, "table": 1, "name": "Zed"}), 409,
            "not_at_table")
    # each player takes the seat with the key the organiser hands them
    handed = ok(httpx.get(f"{server.url}{base}/seats", timeout=10, **auth(key)))
    keys = {s["name"]: s["key"] for s in handed["tables"][0]["seats"]}
    players = []
    for name in table["seats"]:
        joined = ok(server.post(f"{base}/seat", {"key": keys[name]}))
        assert joined["seat"] == table["seats"].index(name)
        players.append(Player(server, table["table_id"], joined["token"]))
    rng = random.Random(3)
    play_until(players, rng, lambda: over(players[0]), choose=calm)
    winner = players[0].view["winner"]
    done = ok(server.get(base))
    result = done["rounds"][0]["tables"][0]
    assert result["by"] == "game" and result["result"][0] == table["seats"][winner]
    assert sorted(result["result"]) == sorted(table["seats"])
    assert done["standings"][0]["player"] == table["seats"][winner]
    for p in players:
        p.close()


def test_a_sheet_round_takes_its_results_from_the_score_sheets(server: Server) -> None:
    made = ok(server.post("/api/tournaments", {
        "name": "Kaarten", "house_rules": {"preset": "rulebook", "options": {"lives": 2}}}), 201)
    tid, key = made["tournament"]["id"], made["key"]
    base = f"/api/tournaments/{tid}"
    for n in ("Ann", "Bas", "Cor", "Dirk", "Els", "Fien"):
        ok(server.post(f"{base}/players", {"name": n}, **auth(key)))
    state = ok(server.post(f"{base}/rounds", {"mode": "sheet"}, **auth(key)))
    tables = state["rounds"][0]["tables"]
    keys = state.pop("sheet_keys")
    assert sorted(keys) == ["1", "2"]
    again = ok(server.get(base))
    assert "sheet_keys" not in again
    assert not any(k in json.dumps(again) for k in keys.values())
    rng = random.Random(5)
    # table 1 keeps its sheet to the end: some legal entry each time, as the table calls it
    sheet_id = tables[0]["sheet"]
    sheet = ok(server.get(f"/api/sheets/{sheet_id}"))
    assert sheet["sheet"]["players"] == tables[0]["seats"]
    while not sheet["sheet"]["over"]:
        legal = sheet["sheet"]["legal"]
        quiet = [e for e in legal if not e.endswith(("knock", "fold"))] or legal
        sheet = ok(server.post(f"/api/sheets/{sheet_id}/entries",
                               {"entry": rng.choice(quiet), "version": sheet["version"]},
                               **auth(keys["1"])))
    standings = [s["name"] for s in sheet["sheet"]["standings"]]
    done = ok(server.get(base))
    first = done["rounds"][0]["tables"][0]
    assert first["by"] == "sheet" and first["result"] == standings
    assert done["rounds"][0]["complete"] is False  # table 2 plays on
    # table 2's sheet was abandoned: the organiser enters its order instead
    order = list(reversed(tables[1]["seats"]))
    done = ok(server.post(f"{base}/results", {"round": 1, "table": 2, "order": order},
                          **auth(key)))
    assert done["rounds"][0]["complete"] and done["standings"][0]["player"] in (
        standings[0], order[0])


def test_members_linked_to_accounts_and_admins_by_login(server: Server) -> None:
    from .test_accounts import Browser

    wim, guest = Browser(server), Browser(server)
    wim.register("wimclub")
    made = wim.post("/api/clubs", {"name": "Accountclub"})
    club = ok(made, 201)
    cid = club["club"]["id"]
    assert club["member"] == {**club["member"], "name": "wimclub", "account": "wimclub",
                              "admin": True}
    # the logged-in admin needs no key; a guest without one is refused; no CSRF, no login
    joke = Browser(server)
    joke.register("jokeclub")
    member = ok(wim.post(f"/api/clubs/{cid}/members", {"account": "JOKECLUB"}), 201)
    assert member["member"]["account"] == "jokeclub" and member["member"]["name"] == "jokeclub"
    refused(wim.post(f"/api/clubs/{cid}/members", {"account": "wimclub", "name": "Wim 2"}),
            409, "member_taken")
    refused(wim.post(f"/api/clubs/{cid}/members", {"account": "nobody-here"}), 404,
            "no_account")
    refused(guest.post(f"/api/clubs/{cid}/members", {"name": "Eve"}), 401, "auth")
    refused(wim.post(f"/api/clubs/{cid}/members", {"name": "Eve"}, csrf=False), 401, "auth")
    refused(guest.post("/api/clubs", {"name": "Nameless"}), 400, "bad_name")
    # the club's tournament is organised by its logged-in admin, key or not
    t = ok(wim.post("/api/tournaments", {"name": "Clubavond", "club": cid}), 201)
    tid = t["tournament"]["id"]
    ok(wim.post(f"/api/tournaments/{tid}/players", {"name": "wimclub"}))
    refused(guest.post(f"/api/tournaments/{tid}/players", {"name": "Eve"}), 401, "auth")
    page = ok(server.get(f"/api/clubs/{cid}"))
    assert page["you_admin"] is False
    assert ok(wim.http.get(f"/api/clubs/{cid}", headers={"X-CSRF-Token": wim.csrf}))["you_admin"]
    assert {m["name"]: m["account"] for m in page["members"]} == {
        "wimclub": "wimclub", "jokeclub": "jokeclub"}
    # joke is a member, not an admin: logged in, still refused
    refused(joke.post(f"/api/clubs/{cid}/members", {"name": "Eve"}), 403, "forbidden")


def evening(srv: Server) -> dict[str, Any]:
    """A club, its tournament of nine players over two rounds; the final state."""
    made = ok(srv.post("/api/clubs", {"name": f"Club {srv.port}", "admin": "Ann"}), 201)
    t = ok(srv.post("/api/tournaments", {"name": "Avond", "club": made["club"]["id"]},
                    **auth(made["key"])), 201)
    base, tkey = f"/api/tournaments/{t['tournament']['id']}", t["key"]
    for n in ("Ann", "Bas", "Cor", "Dirk", "Els", "Fien", "Gijs", "Hanna", "Ivo"):
        ok(srv.post(f"{base}/players", {"name": n}, **auth(tkey)))
    for r in (1, 2):
        state = ok(srv.post(f"{base}/rounds", {"mode": "cards"}, **auth(tkey)))
        for table in state["rounds"][r - 1]["tables"]:
            state = ok(srv.post(f"{base}/results", {"round": r, "table": table["no"],
                                                    "order": table["seats"]}, **auth(tkey)))
    return state


def test_the_same_evening_on_postgresql(postgres_url: str) -> None:
    srv = Server(postgres_url).start()
    try:
        state = evening(srv)
        assert [len(t["seats"]) for t in state["rounds"][0]["tables"]] == [5, 4]
        assert sum(s["played"] for s in state["standings"]) == 18
        refused(srv.post("/api/clubs", {"name": f"club {srv.port}", "admin": "Bas"}), 409,
                "club_taken")
        assert ok(srv.get(f"/api/tournaments/{state['id']}"))["standings"] == state["standings"]
    finally:
        srv.stop()


def test_concurrent_changes_are_not_lost(server: Server) -> None:
    made = ok(server.post("/api/tournaments", {"name": "Druk"}), 201)
    base, key = f"/api/tournaments/{made['tournament']['id']}", made["key"]
    names = [f"Speler {i}" for i in range(16)]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda n: server.post(f"{base}/players", {"name": n},
                                                      **auth(key)), names + names[:4]))
    assert sorted(r.status_code for r in answers) == [200] * 16 + [409] * 4
    state = ok(server.get(base))
    assert sorted(p["name"] for p in state["players"]) == sorted(names)


def test_titles_take_punctuation_but_no_markup(server: Server) -> None:
    made = ok(server.post("/api/clubs", {"name": "Café 't Hoekje & Co", "admin": "Ann"}), 201)
    assert made["club"]["name"] == "Café 't Hoekje & Co"
    t = ok(server.post("/api/tournaments", {"name": "Vrijdag 5/12 (finale!)",
                                             "season": "2026/27"}), 201)
    assert t["tournament"]["season"] == "2026/27"
    for bad in ("<b>Kroeg</b>", " Kroeg", "Kroeg\u202e", "", "K" * 61):
        refused(server.post("/api/clubs", {"name": bad, "admin": "Ann"}), 400, "bad_title")
    refused(server.post("/api/tournaments", {"name": "Avond", "season": "2026\n"}), 400,
            "bad_title")


def test_a_round_mixes_real_cards_sheets_and_online_tables(server: Server) -> None:
    made = ok(server.post("/api/tournaments", {"name": "Gemengd"}), 201)
    base, key = f"/api/tournaments/{made['tournament']['id']}", made["key"]
    for n in ("Ann", "Bas", "Cor", "Dirk", "Els", "Fien", "Gijs", "Hanna", "Ivo", "Joke"):
        ok(server.post(f"{base}/players", {"name": n}, **auth(key)))
    state = ok(server.post(f"{base}/rounds", {"mode": "cards"}, **auth(key)))
    assert [t["mode"] for t in state["rounds"][0]["tables"]] == ["cards"] * 3
    sheet = ok(server.post(f"{base}/tables", {"round": 1, "table": 1, "mode": "sheet"},
                           **auth(key)))
    assert list(sheet["sheet_keys"]) == ["1"]
    online = ok(server.post(f"{base}/tables", {"round": 1, "table": 2, "mode": "online"},
                            **auth(key)))
    tables = online["rounds"][0]["tables"]
    assert [t["mode"] for t in tables] == ["sheet", "online", "cards"]
    assert ok(server.get(f"/api/tables/{tables[1]['table_id']}"))["size"] == len(
        tables[1]["seats"])
    before = ok(server.get(base))
    refused(server.post(f"{base}/tables", {"round": 1, "table": 2, "mode": "sheet"},
                        **auth(key)), 409, "not_cards")
    refused(server.post(f"{base}/tables", {"round": 1, "table": 4, "mode": "sheet"},
                        **auth(key)), 404, "no_table")
    refused(server.post(f"{base}/tables", {"round": 1, "table": 3, "mode": "cards"},
                        **auth(key)), 400, "mode")
    refused(server.post(f"{base}/tables", {"round": 1, "table": 3, "mode": "online"}), 401,
            "auth")
    assert ok(server.get(base)) == before


def test_a_pot_evening_is_settled_in_the_fewest_transfers(server: Server) -> None:
    """Pot toepen (issue 39): a tournament with a pot adds each table's balances per
    player (a sheet's with its buy-ins; a table entered by hand: none) and says who pays
    whom, in at most players - 1 transfers that settle every balance."""
    made = ok(server.post("/api/tournaments", {
        "name": "Potje", "house_rules": {"preset": "rulebook", "options": {
            "lives": 2, "rebuy": "once", "pot": 0.5}}}), 201)
    tid, key = made["tournament"]["id"], made["key"]
    base = f"/api/tournaments/{tid}"
    players = ("Ann", "Bas", "Cor", "Dirk", "Els", "Fien")
    for n in players:
        ok(server.post(f"{base}/players", {"name": n}, **auth(key)))
    state = ok(server.post(f"{base}/rounds", {"mode": "sheet"}, **auth(key)))
    assert state["pot"] == {"stake": 50, "unit": "€", "balances": {}, "settlement": []}
    tables, keys = state["rounds"][0]["tables"], state["sheet_keys"]
    rng = random.Random(8)
    sheet_id = tables[0]["sheet"]
    sheet = ok(server.get(f"/api/sheets/{sheet_id}"))
    bought = 0
    while not sheet["sheet"]["over"]:
        legal = sheet["sheet"]["legal"]
        rebuy = [e for e in legal if e.endswith("rebuy")]
        quiet = rebuy or [e for e in legal if not e.endswith(("knock", "fold"))] or legal
        bought += bool(rebuy)
        sheet = ok(server.post(f"/api/sheets/{sheet_id}/entries",
                               {"entry": rng.choice(quiet), "version": sheet["version"]},
                               **auth(keys["1"])))
    assert bought
    played = sheet["sheet"]
    order = list(reversed(tables[1]["seats"]))
    done = ok(server.post(f"{base}/results", {"round": 1, "table": 2, "order": order},
                          **auth(key)))
    pot = done["pot"]
    want = {name: cents for name, cents in zip(played["players"], played["pot_balances"],
                                               strict=True)}
    want |= {order[0]: 50 * (len(order) - 1), **{n: -50 for n in order[1:]}}
    assert pot["balances"] == {n: want[n] for n in pot["balances"]} and sum(
        pot["balances"].values()) == 0
    assert set(pot["balances"]) == set(players)
    left = dict(pot["balances"])
    for t in pot["settlement"]:
        left[t["payer"]] += t["cents"]
        left[t["payee"]] -= t["cents"]
    assert not any(left.values())
    assert len(pot["settlement"]) <= len(players) - 1
