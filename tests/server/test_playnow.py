"""Play now over HTTP against a real server: people waiting for the same preset and size
sit at one table, a wait of 0 gets bots at once, leaving (or a second tab, or a closed
tab) takes you out of the queue, and bad requests are refused in five languages and
change nothing."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import httpx
import pytest

from toepen.i18n import catalog
from toepen.server.playnow import STALE, MemoryQueue, PlayNow, Ticket

from .conftest import Player, Server

LANGS = ("en", "nl", "de", "it", "nb")


def ask(server: Server, **body: Any) -> dict[str, Any]:
    r = server.post("/api/playnow", body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def status(server: Server, ticket: str) -> httpx.Response:
    return httpx.get(server.url + "/api/playnow", timeout=10,
                     headers={"Authorization": f"Bearer {ticket}"})


def until(server: Server, ticket: str, want: str, timeout: float = 10.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        r = status(server, ticket)
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        if out["status"] == want:
            return out
        assert out["status"] == "waiting", out
        assert time.monotonic() < end, f"still {out}"
        time.sleep(0.1)


def counts(server: Server, key: str) -> dict[str, int]:
    time.sleep(0.4)  # one matcher round
    got: dict[str, int] = server.get("/api/playnow/counts").json()["counts"].get(
        key, {"waiting": 0, "playing": 0})
    return got


def test_two_people_sit_together(server: Server) -> None:
    a = ask(server, preset="classic", size=2, wait=None, name="Ann", client=uuid.uuid4().hex)
    assert until(server, a["ticket"], "waiting")["status"] == "waiting"
    assert counts(server, "classic/2")["waiting"] == 1
    b = ask(server, preset="classic", size=2, wait=None, name="Bob", client=uuid.uuid4().hex)
    sa = until(server, a["ticket"], "seated")
    sb = until(server, b["ticket"], "seated")
    assert sa["table"] == sb["table"] and {sa["seat"], sb["seat"]} == {0, 1}
    assert sa["bots"] == 0
    info = server.get(f"/api/tables/{sa['table']}").json()
    assert info["status"] == "playing"
    assert sorted(s["name"] for s in info["seats"]) == ["Ann", "Bob"]
    # the ticket is the seat's token; nobody else's is in any answer
    body = str(sa) + str(sb) + str(info)
    assert a["ticket"] not in body and b["ticket"] not in body
    p = Player(server, sa["table"], a["ticket"])
    assert p.welcome is not None and p.welcome["seat"] == sa["seat"]
    p.close()
    assert counts(server, "classic/2") == {"waiting": 0, "playing": 2}
    assert a["ticket"] not in server.log() and b["ticket"] not in server.log()


def test_at_once_gets_bots(server: Server) -> None:
    a = ask(server, preset="rulebook", size=4, wait=0, bot="random", name="Cas")
    seated = until(server, a["ticket"], "seated", timeout=5)
    assert seated["bots"] == 3
    info = server.get(f"/api/tables/{seated['table']}").json()
    kinds = sorted(s["kind"] for s in info["seats"])
    assert kinds == ["bot", "bot", "bot", "human"] and info["status"] == "playing"


def test_leaving_and_a_second_tab(server: Server) -> None:
    client = uuid.uuid4().hex
    a = ask(server, preset="teams", size=4, wait=None, name="Dirk", client=client)
    assert counts(server, "teams/4")["waiting"] == 1
    r = httpx.delete(server.url + "/api/playnow", timeout=10,
                     headers={"Authorization": f"Bearer {a['ticket']}"})
    assert r.json() == {"status": "gone"}
    assert status(server, a["ticket"]).json()["status"] == "gone"
    assert counts(server, "teams/4")["waiting"] == 0
    # a second tab of the same browser: the first tab's ticket is replaced
    first = ask(server, preset="teams", size=4, wait=None, name="Dirk", client=client)
    second = ask(server, preset="teams", size=4, wait=None, name="Dirk", client=client)
    assert status(server, first["ticket"]).json()["status"] == "replaced"
    assert status(server, second["ticket"]).json()["status"] == "waiting"
    assert counts(server, "teams/4")["waiting"] == 1
    # a closing tab's beacon
    r = server.post("/api/playnow/leave", {"ticket": second["ticket"]})
    assert r.json() == {"status": "gone"}
    assert counts(server, "teams/4")["waiting"] == 0


@pytest.mark.parametrize(("body", "msg"), [
    ({"preset": "nope", "name": "Eva"}, "playnow.error.preset"),
    ({"preset": "rulebook", "size": 1, "name": "Eva"}, "playnow.error.size"),
    ({"preset": "gezinstoepen", "size": "4", "name": "Eva"}, "playnow.error.size"),
    ({"wait": 30, "name": "Eva"}, "playnow.error.wait"),
    ({"wait": True, "name": "Eva"}, "playnow.error.wait"),
    ({"bot": "cmd:rm -rf /", "name": "Eva"}, "playnow.error.bot"),
    ({"preset": "kroegtoepen"}, "playnow.error.name"),
    ({"preset": "kroegtoepen", "name": " Eva"}, None),
])
def test_bad_requests_change_nothing(server: Server, body: dict[str, Any],
                                     msg: str | None) -> None:
    before = counts(server, "kroegtoepen/4")
    r = server.post("/api/playnow", {"preset": "kroegtoepen", **body} if "preset" not in body
                    else body)
    assert r.status_code == 400, r.text
    say = r.json()["say"]
    if msg is not None:
        assert say["id"] == msg
        for lang in LANGS:
            assert catalog(lang)[msg], (lang, msg)
    assert counts(server, "kroegtoepen/4") == before
    assert "Traceback" not in server.log()


def test_unknown_tickets(server: Server) -> None:
    assert status(server, "nonsense").status_code == 404
    assert status(server, "nonsense").json()["say"]["id"] == "playnow.error.ticket"
    r = httpx.get(server.url + "/api/playnow", timeout=10)
    assert r.status_code == 401 and r.json()["say"]["id"] == "playnow.error.ticket"


def test_a_closed_tab_is_dropped() -> None:
    """A ticket nobody asked about for :data:`STALE` seconds leaves the queue."""
    asyncio.run(closed_tab())


async def closed_tab() -> None:
    store = MemoryQueue()
    queue = PlayNow(None, store)  # type: ignore[arg-type]  # a round that seats nobody
    ticket = Ticket("t1", "p1", "Fee", None, None, "rulebook", 4, None, "random", time.time())
    await store.put(ticket)
    await queue.match_once()
    assert [t.id for t, _ in await store.waiting()] == ["t1"]
    store.seen["t1"] -= STALE + 1
    await queue.match_once()
    assert await store.waiting() == []
    assert await store.answer("t1") == {"status": "gone"}
