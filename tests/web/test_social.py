"""Chat, reactions, rematch and the player's words for every refusal, at the protocol level
(the server in process: FastAPI's TestClient, a real SQLite file, bots that act at once)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from toepen.i18n import LANGUAGES, catalog, placeholders
from toepen.server.app import create_app
from toepen.server.config import ServerConfig
from toepen.server.tables.social import REACTIONS

RANDOM = {1: "random", 2: "random", 3: "random"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("social") / "t.db"
    cfg = ServerConfig(db=f"sqlite:///{db}", bot_workers=1, bot_pool="thread")
    with TestClient(create_app(cfg)) as c:
        yield c


def said(msg: dict[str, Any]) -> str:
    """A message's ``say`` in English, checked against every catalog."""
    say = msg["say"]
    for lang in LANGUAGES:
        text = catalog(lang).get(say["id"])
        assert text is not None, f"{lang} lacks {say['id']}"
        assert placeholders(text) == set(say.get("params", {})), (lang, say)
    out: str = catalog("en")[say["id"]].format(**say.get("params", {}))
    return out


def until(ws: Any, kind: str, pred: Any = lambda m: True, most: int = 2000) -> dict[str, Any]:
    for _ in range(most):
        msg: dict[str, Any] = json.loads(ws.receive_text())
        if msg["type"] == kind and pred(msg):
            return msg
    raise AssertionError(f"no {kind} message")


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_text(json.dumps({"v": 1, "type": "hello", **({"token": token} if token else {})}))
    return until(ws, "welcome")


def finished_table(client: TestClient, name: str | None = "Ann") -> dict[str, Any]:
    """A table whose game is over: the human (if any) is played by the stand-in."""
    body: dict[str, Any] = {"preset": "rulebook", "size": 4, "bots": RANDOM if name else
                            {0: "random", **RANDOM}, "name": name, "idle_seconds": 0.1,
                            "autostart": True, "options": {"lives": 2}}
    made: dict[str, Any] = client.post("/api/tables", json=body).json()
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{made['table']['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.05)
    return made


def test_chat_and_reactions_reach_every_client_and_are_limited(client: TestClient) -> None:
    made = client.post("/api/tables", json={"preset": "rulebook", "size": 2, "name": "Ann"}).json()
    tid = made["table"]["id"]
    joined = client.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
    with client.websocket_connect(f"/ws/{tid}") as ann, \
            client.websocket_connect(f"/ws/{tid}") as bob, \
            client.websocket_connect(f"/ws/{tid}") as watcher:
        hello(ann, made["token"])
        hello(bob, joined["token"])
        hello(watcher, None)
        ann.send_text(json.dumps({"v": 1, "type": "chat", "text": "  <b>proost</b> 🍺 "}))
        line = until(bob, "chat")
        assert line == {"v": 1, "type": "chat", "seat": 0, "name": "Ann",
                        "text": "<b>proost</b> 🍺", "react": None, "say": None}
        assert until(watcher, "chat")["text"] == "<b>proost</b> 🍺"  # spectators read along
        assert until(ann, "chat")["seat"] == 0  # the speaker gets the line too
        bob.send_text(json.dumps({"v": 1, "type": "react", "react": "cheers"}))
        got = until(ann, "chat", lambda m: m["seat"] == 1)
        assert (got["seat"], got["react"]) == (1, "cheers")
        assert got["say"] == {"id": "react.cheers", "params": {}}
        for react in REACTIONS:
            assert said({"say": {"id": REACTIONS[react]}})
        # refused, each in the player's words, and nothing is sent
        for bad, word in ((
                {"type": "chat", "text": "x" * 201}, "error.chat.length"),
                ({"type": "chat", "text": "a\nb"}, "error.chat.chars"),
                ({"type": "chat", "text": "   "}, "error.chat.length"),
                ({"type": "react", "react": "boo"}, "error.react.unknown"),
                ({"type": "rematch"}, "error.rematch.not_over")):
            ann.send_text(json.dumps({"v": 1, **bad}))
            err = until(ann, "error")
            assert err["say"]["id"] == word, (bad, err)
            said(err)
        watcher.send_text(json.dumps({"v": 1, "type": "chat", "text": "hi"}))
        assert until(watcher, "error")["say"]["id"] == "error.chat.seat"
        # five lines in ten seconds, then the sixth is refused
        for i in range(4):
            ann.send_text(json.dumps({"v": 1, "type": "chat", "text": f"line {i}"}))
            assert until(bob, "chat", lambda m: m["text"] is not None)["text"] == f"line {i}"
        ann.send_text(json.dumps({"v": 1, "type": "chat", "text": "one too many"}))
        err = until(ann, "error")
        assert err["code"] == "rate_limited"
        assert said(err) == "Not so fast: at most 5 messages in 10 seconds."


def test_rematch_same_seats_same_rules_and_the_tokens_carry_over(client: TestClient) -> None:
    made = finished_table(client)
    old = client.get(f"/api/tables/{made['table']['id']}").json()
    with client.websocket_connect(f"/ws/{old['id']}") as ann, \
            client.websocket_connect(f"/ws/{old['id']}") as watcher:
        hello(ann, made["token"])
        hello(watcher, None)
        watcher.send_text(json.dumps({"v": 1, "type": "rematch"}))
        assert until(watcher, "error")["say"]["id"] == "error.rematch.seat"
        ann.send_text(json.dumps({"v": 1, "type": "rematch"}))
        new_id = until(ann, "table", lambda m: m["table"]["rematch"])["table"]["rematch"]
        seen = until(watcher, "table", lambda m: m["table"]["rematch"])
        assert seen["table"]["rematch"] == new_id
        ann.send_text(json.dumps({"v": 1, "type": "rematch"}))  # a second click: the same table
        assert until(ann, "table", lambda m: m["table"]["rematch"])["table"]["rematch"] == new_id
    new = client.get(f"/api/tables/{new_id}").json()
    assert new["status"] == "playing" and new["rules"] == old["rules"]
    assert [(s["kind"], s["name"], s["bot"]) for s in new["seats"]] == \
        [(s["kind"], s["name"], s["bot"]) for s in old["seats"]]
    with client.websocket_connect(f"/ws/{new_id}") as ann:
        welcome = hello(ann, made["token"])  # the same token: Ann's seat at the new table
        assert (welcome["seat"], welcome["host"]) == (0, True)
        assert until(ann, "state")["view"]["players"][0] == "Ann"


def test_the_host_changes_the_rules_for_the_rematch(client: TestClient) -> None:
    made = finished_table(client, name=None)  # a host without a seat, four bots
    tid = made["table"]["id"]
    with client.websocket_connect(f"/ws/{tid}") as host:
        hello(host, made["token"])
        host.send_text(json.dumps({"v": 1, "type": "rematch", "preset": "rulebook",
                                   "options": {"no_such_option": 1}}))
        err = until(host, "error")
        assert err["say"]["id"] == "error.rematch.rules"
        assert client.get(f"/api/tables/{tid}").json()["rematch"] is None  # nothing made
        host.send_text(json.dumps({"v": 1, "type": "rematch", "preset": "rulebook",
                                   "options": {"lives": 3}}))
        new_id = until(host, "table", lambda m: m["table"]["rematch"])["table"]["rematch"]
    assert client.get(f"/api/tables/{new_id}").json()["rules"]["lives"] == 3


def test_every_http_and_socket_refusal_says_a_catalog_message(client: TestClient) -> None:
    """What a client can be refused carries ``say``: a message of all five catalogs."""
    answers = [
        client.post("/api/tables", json={"preset": "rulebook", "size": 4, "name": "x" * 30}),
        client.post("/api/tables", json={"preset": "rulebook", "size": 4, "name": " Ann"}),
        client.post("/api/tables", json={"preset": "rulebook", "size": 4, "name": "A<b>"}),
        client.get("/api/tables/000000000000"),
        client.get("/api/codes/QQ"),
    ]
    ids = []
    for r in answers:
        assert r.status_code >= 400
        said(r.json())
        ids.append(r.json()["say"]["id"])
    assert ids[:3] == ["error.name.length", "error.name.space", "error.name.chars"]
    tid = client.post("/api/tables", json={"preset": "rulebook", "size": 2}).json()["table"]["id"]
    with client.websocket_connect(f"/ws/{tid}") as ws:
        hello(ws, None)
        for text in ("not json", json.dumps({"v": 9, "type": "ping"}),
                     json.dumps({"v": 1, "type": "act", "action": "knock", "state": 0}),
                     json.dumps({"v": 1, "type": "host", "command": "start"})):
            ws.send_text(text)
            said(until(ws, "error"))


def test_every_error_code_and_server_message_is_in_the_catalogs() -> None:
    """Each protocol error code has its ``error.<code>``; every ``say=Message("...")`` the
    server writes names a message of every catalog."""
    import re

    from toepen.server import protocol
    src = Path(protocol.__file__).parent
    ids = {f"error.{code}" for code in protocol.ERROR_CODES}
    for path in src.rglob("*.py"):
        ids |= set(re.findall(r'Message\(\s*"((?:error|hint|react)\.[a-z_.]+)"', path.read_text()))
    ids |= set(REACTIONS.values())
    assert len(ids) > 40
    for lang in LANGUAGES:
        missing = sorted(i for i in ids if i not in catalog(lang))
        assert not missing, f"{lang}: {missing}"
