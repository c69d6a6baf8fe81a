"""Random garbage from clients (seeded, and property-based with Hypothesis): always a clear
error, never a crash, a traceback or a secret in the log, never a change."""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toepen.server.protocol import CLIENT_TYPES, HOST_COMMANDS

from .conftest import Player, Server, create
from .schema import check_server_message

VALUES: list[Any] = [None, True, 0, -1, 2**70, 1.5, "", "x" * 300, "play Th", "knock",
                     [], [1, "a"], {}, {"v": 1}, "\u0000", "ÿ"]


def garbage(rng: random.Random, state: int) -> str:
    """One message that is not a valid action at ``state`` (wrong in at least one way)."""
    msg: dict[str, Any] = {}
    for key in rng.sample(["v", "type", "action", "state", "id", "token", "command", "seat",
                           "bot", "extra"], rng.randint(0, 6)):
        msg[key] = rng.choice(VALUES)
    if rng.random() < 0.5:
        msg["v"] = 1
        msg["type"] = rng.choice(["act", "hello", "host", "ping", "nope", 7])
    if msg.get("type") == "act" and msg.get("state") == state:
        msg["state"] = state + 1  # a valid action would (rightly) change the table
    if msg.get("type") == "host":
        msg["command"] = rng.choice(["start", "add_bot", "remove_bot", "remove_seat", None])
    kind = rng.random()
    if kind < 0.1:
        return json.dumps(msg)[: rng.randint(0, 20)]
    if kind < 0.15:
        return json.dumps([msg])
    if kind < 0.2:
        return "[" * 5000  # deep nesting, within the size limit
    return json.dumps(msg)


def test_garbage_never_changes_a_table(server: Server) -> None:
    t = create(server, name="Ann", size=3, bots={"1": "random", "2": "random"}, autostart=True,
               options={"lives": 5})
    tid = t["table"]["id"]
    ann = Player(server, tid, t["token"])
    ann.wait(lambda m: m["type"] == "state" and bool(m["view"]["legal"]), 20)
    assert ann.state is not None
    state, view = ann.state["state"], ann.view
    rng = random.Random(2024)
    answers = 0
    for _ in range(150):
        ann.send(garbage(rng, state))
        msg = ann.wait(lambda m: m["type"] in ("error", "pong", "table", "state"))
        check_server_message(msg)
        if msg["type"] == "state":  # only a host command could do this; none may start twice
            raise AssertionError(f"garbage changed the game: {msg}")
        answers += msg["type"] == "error"
    assert answers >= 100
    ann.drain(0.3)
    assert server.get(f"/api/tables/{tid}").json()["state"] == state
    again = Player(server, tid, t["token"])
    again.wait(lambda m: m["type"] == "state")
    assert again.view == view
    # Still playable.
    again.send({"v": 1, "type": "act", "action": view["legal"][0], "state": state})
    assert again.wait(lambda m: m["type"] in ("state", "error"))["type"] == "state"
    for p in (ann, again):
        p.close()


# -- property-based: every JSON endpoint and the WebSocket (issue 23) ---------------------

SECRET_PASSWORD = "fuzz-secret-password-7"
TEXT = st.text(st.characters(codec=None, categories=None), max_size=30)
"""Any code point: lone surrogates, controls, combining marks, private use, emoji."""
ODD_TEXT = st.sampled_from(["\ud800", "\udfff", "a\u0301\u0301\u0301", "\u0000", "\u202e",
                            "\ufeff", "\U000e0041", "👨\u200d👩", "x" * 5000, " ", ""])
NUMBERS = st.one_of(st.integers(), st.sampled_from([2**63, -(2**63) - 1, 10**30, 2**53 + 1]),
                    st.floats(allow_nan=True, allow_infinity=True))
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, TEXT, ODD_TEXT)
VALUES_ = st.recursive(SCALARS, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.one_of(TEXT, ODD_TEXT), kids, max_size=4)),
    max_leaves=12)


def body_for(fields: list[str]) -> st.SearchStrategy[Any]:
    """A body for an endpoint with ``fields``: its own fields with random values, odd
    keys, or anything at all."""
    known = st.dictionaries(st.sampled_from(fields), VALUES_, max_size=len(fields)) \
        if fields else st.just({})
    return st.one_of(known, known.flatmap(lambda d: st.dictionaries(
        st.one_of(TEXT, ODD_TEXT), VALUES_, max_size=3).map(lambda e: {**d, **e})), VALUES_)


def encode(doc: Any) -> bytes:
    """JSON as a client may write it: surrogates escaped, NaN and Infinity too."""
    return json.dumps(doc, ensure_ascii=True, allow_nan=True).encode()


def fingerprint(db: Path) -> str:
    """Every row of every table of the server's database (SQLite, read-only)."""
    digest = hashlib.sha256()
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        for name in names:
            for row in conn.execute(f'SELECT * FROM "{name}" ORDER BY 1'):
                digest.update(repr(row).encode())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def loud(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    db = tmp_path_factory.mktemp("fuzz") / "toepen.sqlite3"
    srv = Server(f"sqlite:///{db}", "--log-level", "info").start()
    yield srv, db
    srv.stop()


class World:
    """Real things for the fuzzer to aim at: a table, a sheet, a club, a tournament, a
    logged-in browser; and every secret the server handed out (none may be logged)."""

    def __init__(self, server: Server) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=20)
        self.csrf = self.http.get("/api/account").json()["csrf"]
        r = self.post("/api/account/register", {"name": "Fuzzy", "password": SECRET_PASSWORD})
        assert r.status_code == 201, r.text
        self.csrf = r.json()["csrf"]
        table = self.post("/api/tables", {"size": 3, "bots": {"1": "random", "2": "random"},
                                          "autostart": True}).json()
        sheet = self.post("/api/sheets", {"players": ["A", "B", "C"]}).json()
        club = self.post("/api/clubs", {"name": "Fuzzclub", "admin": "Fuzzy"}).json()
        tour = self.post("/api/tournaments", {"name": "Fuzznight"}).json()
        self.ids = {"table_id": table["table"]["id"], "code": table["table"]["code"],
                    "sheet_id": sheet["id"], "club_id": club["club"]["id"],
                    "member_id": club["member"]["id"], "tournament_id": tour["tournament"]["id"],
                    "name": "Fuzzy", "lang": "nl"}
        self.keys = [table["token"], sheet["key"], club["key"], tour["key"]]
        self.secrets = {SECRET_PASSWORD, *self.keys,
                        self.http.cookies.get("toepen_session") or SECRET_PASSWORD}

    def post(self, path: str, body: Any) -> httpx.Response:
        return self.http.post(path, content=encode(body), headers={
            "X-CSRF-Token": self.csrf, "content-type": "application/json"})


def endpoints(server: Server) -> list[tuple[str, str, list[str], list[str]]]:
    """(method, path, query names, body fields) of every endpoint in the OpenAPI."""
    spec = server.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    out = []
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            query = [p["name"] for p in op.get("parameters", []) if p["in"] == "query"
                     and p["name"] != "wait"]  # a long poll: waits are not refusals
            ref = op.get("requestBody", {}).get("content", {}).get(
                "application/json", {}).get("schema", {}).get("$ref", "")
            fields = list(schemas[ref.rsplit("/", 1)[1]].get("properties", {})) if ref else []
            out.append((method, path, query, fields))
    return out


def test_every_endpoint_under_random_requests(loud: tuple[Server, Path]) -> None:
    server, db = loud
    world = World(server)
    found = endpoints(server)
    assert len(found) > 40
    sent: Counter[str] = Counter()

    @settings(max_examples=250, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def one(data: st.DataObject) -> None:
        method, path, query, fields = data.draw(st.sampled_from(found))
        params = {}
        for name in re.findall(r"{(\w+)}", path):
            value = data.draw(st.one_of(st.just(world.ids.get(name, "x")), TEXT, ODD_TEXT))
            params[name] = quote(value.encode("utf-8", "surrogatepass"), safe="")
        url = path.format(**params)
        q = {n: data.draw(st.one_of(NUMBERS.map(str), TEXT, ODD_TEXT))
             for n in query if data.draw(st.booleans())}
        url += "?" + "&".join(f"{n}={quote(v.encode('utf-8', 'surrogatepass'), safe='')}"
                              for n, v in q.items()) if q else ""
        headers = {"X-CSRF-Token": world.csrf, "content-type": "application/json"}
        if data.draw(st.booleans()):
            headers["Authorization"] = "Bearer " + data.draw(st.sampled_from(world.keys))
        content = None
        if method in ("post", "put"):
            kind = data.draw(st.integers(0, 9))
            if kind == 0:
                content = data.draw(st.binary(max_size=200))
            elif kind == 1:
                content = encode(data.draw(body_for(fields)))[: data.draw(st.integers(0, 40))]
            else:
                content = encode(data.draw(body_for(fields)))
        before = fingerprint(db)
        r = world.http.request(method.upper(), url, content=content, headers=headers)
        sent[f"{r.status_code // 100}xx"] += 1
        assert r.status_code < 500, (method, url, content, r.status_code, r.text)
        if r.status_code >= 400:
            assert fingerprint(db) == before, ("a refusal changed the state", method, url,
                                               content, r.text)
        json_answer = r.headers.get("content-type", "").startswith("application/json")
        for key in ("token", "key"):  # (a QR code is an SVG answer)
            if (r.status_code < 300 and json_answer and isinstance(r.json(), dict)
                    and key in r.json()):
                world.secrets.add(str(r.json()[key]))

    one()
    assert sent["4xx"] > 120, sent
    time.sleep(0.2)
    log = server.logpath.read_text(errors="replace")
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
    for secret in world.secrets:
        assert secret not in log, "a secret is in the log"


def test_websocket_under_random_messages(loud: tuple[Server, Path]) -> None:
    server, db = loud
    t = create(server, name="Ann", size=3, bots={"1": "random", "2": "random"},
               autostart=True, options={"lives": 5})
    tid = t["table"]["id"]
    ann = Player(server, tid, t["token"])
    ann.wait(lambda m: m["type"] == "state" and bool(m["view"]["legal"]), 20)
    assert ann.state is not None
    state = ann.state["state"]
    kinds = [k for k in CLIENT_TYPES if k != "leave"]  # leaving is a change, rightly
    message = st.fixed_dictionaries(
        {"v": st.one_of(st.just(1), SCALARS), "type": st.one_of(st.sampled_from(kinds),
                                                                SCALARS)},
        optional={"action": st.one_of(st.sampled_from(["play Th", "knock", "fold"]), SCALARS),
                  "state": st.one_of(NUMBERS.filter(lambda n: n != state), SCALARS),
                  "text": st.one_of(TEXT, ODD_TEXT), "name": SCALARS, "id": SCALARS,
                  "command": st.one_of(st.sampled_from(HOST_COMMANDS), SCALARS),
                  "seat": NUMBERS, "bot": SCALARS, "token": SCALARS})

    @settings(max_examples=100, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(message.map(encode), VALUES_.map(encode), st.text(max_size=50)))
    def one(text: bytes | str) -> None:
        before = fingerprint(db)
        ann.send(text if isinstance(text, str) else text.decode())
        msg = ann.wait(lambda m: m["type"] in ("error", "pong", "chat", "reaction", "table",
                                              "state", "rematch"))
        check_server_message(msg)
        assert msg["type"] != "state", f"a random message changed the game: {text!r}"
        if msg["type"] == "error":
            assert fingerprint(db) == before

    one()
    ann.drain(0.3)
    assert ann.reconnects == 0, "the server dropped the socket"
    assert server.get(f"/api/tables/{tid}").json()["state"] == state
    ann.close()
    log = server.logpath.read_text(errors="replace")
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
    assert t["token"] not in log
