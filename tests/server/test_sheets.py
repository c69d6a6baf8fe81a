"""Score sheets over HTTP on a real server: the keeper enters, followers read and wait
for changes, refusals change nothing, the key is needed and never shown again, the
record downloads, and a sheet survives a restart (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from toepen.server.db.store import Store
from toepen.server.site.scoresheets import create_sheet, load_sheet, save_sheet
from toepen.tally import Sheet

from .conftest import Server

PLAYERS = ["Ann", "Bas", "Cor", "Dirk"]


def make(server: Server, **body: Any) -> dict[str, Any]:
    r = server.post("/api/sheets", {"players": PLAYERS, **body})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def enter(server: Server, sheet: dict[str, Any], entry: str, key: str | None = None,
          version: int | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {key if key is not None else sheet['key']}"}
    body: dict[str, Any] = {"entry": entry}
    if version is not None:
        body["version"] = version
    return server.post(f"/api/sheets/{sheet['id']}/entries", body, headers=headers)


def test_keep_follow_refuse_undo_and_download(server: Server) -> None:
    made = make(server, preset="classic", options={"lives": 3}, dealer=0,
                meta={"place": "De Gouden Leeuw"})
    sid, key = made["id"], made["key"]
    assert made["version"] == 0 and made["keep"] == f"/?sheet={sid}#key={key}"
    assert made["follow"] == f"/?sheet={sid}" and key not in made["follow"]
    assert made["sheet"]["phase"] == "exchange"
    assert "1 exchange" in made["sheet"]["legal"]
    # the keeper enters; the answer is the new state
    r = enter(server, made, "1 exchange", version=0)
    assert r.status_code == 200, r.text
    assert r.json()["version"] == 1 and r.json()["sheet"]["phase"] == "exchange_challenge"
    # a follower reads, and waits for the next change
    got: dict[str, Any] = {}

    def follow() -> None:
        got["r"] = httpx.get(f"{server.url}/api/sheets/{sid}?after=1&wait=20", timeout=30)

    t = threading.Thread(target=follow)
    t.start()
    time.sleep(0.5)
    assert t.is_alive()  # nothing changed yet: the follower waits
    assert enter(server, made, "2 challenge caught", version=1).status_code == 200
    t.join(10)
    assert not t.is_alive()
    followed = got["r"].json()
    assert followed["version"] == 2 and followed["sheet"]["seats"][1]["lives"] == 2
    assert any(item["say"]["id"].startswith("log.") for item in followed["log"])
    text = json.dumps(followed)
    assert key not in text and "key" not in followed
    # refused: an answer out of turn, a claim in play; nothing changes
    assert enter(server, made, "1 knock").status_code == 200
    after_knock = server.get(f"/api/sheets/{sid}").json()
    assert enter(server, made, "2 stay").status_code == 200
    before = server.get(f"/api/sheets/{sid}").json()
    r = enter(server, made, "0 stay")
    assert r.status_code == 409
    body = r.json()
    assert body["code"] == "illegal_entry" and "not to act" in body["detail"]
    assert body["say"]["id"] == "tally.said.not_your_turn"
    assert body["say"]["params"]["seat"] == {"seat": 0}
    assert server.get(f"/api/sheets/{sid}").json() == before
    assert enter(server, made, "3 knock").status_code == 200
    r = enter(server, made, "1 claim")
    assert r.status_code == 409 and r.json()["say"]["id"] == "tally.said.not_now"
    # the phase refused names the player it is about (the knocker): "Bas knocked: ..."
    assert r.json()["say"]["params"]["phase"]["params"]["name"] == {"seat": 3}
    # a stale version, a wrong key, no key: refused, nothing changes
    now = server.get(f"/api/sheets/{sid}").json()
    assert enter(server, made, "0 stay", version=2).status_code == 409
    assert enter(server, made, "0 stay", key="forged").status_code == 403
    r = server.post(f"/api/sheets/{sid}/entries", {"entry": "0 stay"})
    assert r.status_code == 403 and r.json()["say"]["id"] == "web.tally.error.key"
    assert server.get(f"/api/sheets/{sid}").json() == now
    # undo, twice: back to just after the knock, exactly
    headers = {"Authorization": f"Bearer {key}"}
    assert server.post(f"/api/sheets/{sid}/undo", {}, headers=headers).status_code == 200
    r = server.post(f"/api/sheets/{sid}/undo", {"version": now["version"] + 1}, headers=headers)
    assert r.status_code == 200
    undone = r.json()
    assert undone["sheet"] == after_knock["sheet"] and undone["log"] == after_knock["log"]
    # the revision counts every change: a follower of the state before the undos is told
    assert undone["version"] == now["version"] + 2
    r = httpx.get(f"{server.url}/api/sheets/{sid}?after={after_knock['version']}&wait=5",
                  timeout=10)
    assert r.json()["version"] == undone["version"]  # at once: the sheet has changed since
    # the record downloads and is the sheet
    r = server.get(f"/api/sheets/{sid}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = r.json()
    assert record["kind"] == "sheet" and record["meta"] == {"place": "De Gouden Leeuw"}
    again = Sheet.from_record(record)
    assert [str(e) for e in again.entries] == server.get(f"/api/sheets/{sid}").json()[
        "sheet"]["entries"]
    result = server.get(f"/api/sheets/{sid}/result").json()
    assert result["over"] is False and [s["seat"] for s in result["standings"]] != []


def test_bad_requests_name_the_fault(server: Server) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"players": ["Ann"]}, "players:"),
        ({"players": PLAYERS, "preset": "poker"}, "rules: option preset"),
        ({"players": PLAYERS, "options": {"lives": 0}}, "rules: option lives"),
        ({"players": ["Ann", "ann", "Bas"]}, "same name"),
        ({"players": ["Ann", "Bas", "Cor", "Dirk", "Eva"], "preset": "teams"}, "option teams"),
        ({"players": PLAYERS, "dealer": 9}, "dealer:"),
        ({"players": PLAYERS, "display": "stars"}, "display:"),
        ({"players": ["Ann", "\u0007"]}, "players:"),
    ]
    for body, fault in cases:
        r = server.post("/api/sheets", body)
        assert r.status_code == 400, (body, r.text)
        assert fault in r.json()["detail"], (fault, r.json())
        assert r.json()["say"]["id"] == "web.tally.error.bad"
    for path in ["/api/sheets/nosuchsheet", "/api/sheets/../../etc", "/api/sheets/x/record"]:
        r = server.get(path)
        assert r.status_code == 404
    r = server.post("/api/sheets/nosuch/entries", {"entry": "1 knock"},
                    headers={"Authorization": "Bearer x"})
    assert r.status_code == 404 and r.json()["say"]["id"] == "web.tally.error.not_found"


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_a_sheet_survives_a_restart(db: str, tmp_path: Path, request: pytest.FixtureRequest
                                    ) -> None:
    """What a restart does: a new store on the same database (migrated to every head)
    finds the sheet as it was saved; a save against an old version is refused."""
    url = (f"sqlite:///{tmp_path / 'toepen.sqlite3'}" if db == "sqlite"
           else request.getfixturevalue("postgres_url"))
    store = Store.open(url)
    sheet = Sheet.new("rulebook", PLAYERS, lives=2)
    sid, key = create_sheet(store.engine, sheet)
    for entry in ["1 knock", "2 stay", "3 stay", "0 stay", "1 last"]:
        version = len(sheet.entries)
        sheet.add(entry)
        assert save_sheet(store.engine, sid, sheet, version)
    assert not save_sheet(store.engine, sid, sheet, 2)  # a stale writer changes nothing
    store.close()
    again = Store.open(url)
    try:
        loaded = load_sheet(again.engine, sid)
        assert loaded is not None
        got, key_hash = loaded
        assert got.to_json() == sheet.to_json() and got.eliminated == [1]
        assert key_hash != key and len(key_hash) == 64  # only the key's hash is kept
        assert load_sheet(again.engine, "nosuch") is None
    finally:
        again.close()


def test_a_buy_in_is_entered_over_http(server: Server) -> None:
    """Pot toepen (issue 39): the keeper enters a buy-in; the sheet's answer carries the
    buy-ins, the pot and, once over, each player's balance."""
    made = make(server, preset="rulebook",
                options={"lives": 2, "rebuy": "once", "pot": 0.5, "armoede": False})
    for entry in ("1 last", "1 last"):
        assert enter(server, made, entry).status_code == 200
    sheet = server.get(f"/api/sheets/{made['id']}").json()["sheet"]
    assert sheet["phase"] == "rebuy" and sheet["rebuyers"] == [1] and "1 rebuy" in sheet["legal"]
    r = enter(server, made, "2 rebuy")
    assert r.status_code == 409 and r.json()["say"]["id"] == "tally.said.not_now"
    r = enter(server, made, "1 rebuy")
    assert r.status_code == 200, r.text
    sheet = r.json()["sheet"]
    assert sheet["rebuys"] == [0, 1, 0, 0] and sheet["seats"][1]["in"]
    assert sheet["pot"] == 250 and sheet["pot_unit"] == "€" and sheet["pot_balances"] is None


def test_one_address_makes_a_bounded_number_of_sheets(server: Server) -> None:
    """At most --tables-per-client (20) sheets an hour from one address; then 429, and
    nothing is made."""
    codes = [server.post("/api/sheets", {"players": PLAYERS}).status_code for _ in range(21)]
    assert codes.count(429) >= 1 and set(codes) <= {201, 429}
    first = codes.index(429)
    assert all(c == 429 for c in codes[first:])
    r = server.post("/api/sheets", {"players": PLAYERS})
    assert r.status_code == 429 and r.json()["say"] == {
        "id": "web.tally.error.limit", "params": {"n": 20}}

