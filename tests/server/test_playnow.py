"""Play now and who is here over HTTP against a real server. Play now: people waiting
for the same preset and size sit at one table, a wait of 0 gets bots at once, leaving
(or a second tab, or a closed tab) takes you out of the queue, and bad requests are
refused in five languages and change nothing. Who is here: three accounts follow each
other, see who is online and at a table, an invitation accepted and one declined;
guests stay anonymous."""

from __future__ import annotations

import asyncio
import time
import uuid
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from toepen.i18n import catalog
from toepen.server.site.playnow import STALE, MemoryQueue, PlayNow, Ticket

from .conftest import Player, Server, create
from .test_accounts import Browser

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


def counts(server: Server, key: str, **expect: int) -> dict[str, int]:
    """The counts of ``key`` after one matcher round; with ``expect`` (e.g. waiting=1),
    the first counts that say so within 5 s (a cluster's processes count once a
    second), else the last."""
    time.sleep(0.4)  # one matcher round
    end = time.monotonic() + 5
    while True:
        got: dict[str, int] = server.get("/api/playnow/counts").json()["counts"].get(
            key, {"waiting": 0, "playing": 0})
        if all(got.get(k) == v for k, v in expect.items()) or time.monotonic() > end:
            return got
        time.sleep(0.2)


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


def test_the_matcher_sleeps_on_an_empty_queue_until_nudged() -> None:
    """An empty queue is looked at every ``idle_every`` seconds (2), not every tick
    (0.3): an idle process spends nothing on it; a person asking (or asking after a
    ticket) wakes the matcher at once."""
    asyncio.run(sleeping_matcher())


async def sleeping_matcher() -> None:
    looks: list[float] = []

    class Watched(MemoryQueue):
        async def anyone(self) -> bool:
            looks.append(time.monotonic())
            return await super().anyone()

    queue = PlayNow(None, Watched())  # type: ignore[arg-type]  # nobody to seat
    assert queue.store.idle_every == 2.0
    queue.start()
    await asyncio.sleep(0.9)  # three ticks
    assert len(looks) == 1
    queue.nudge()
    await asyncio.sleep(0.1)
    assert len(looks) == 2
    queue.lobby = SimpleNamespace(limits=SimpleNamespace(name_length=24))  # type: ignore[assignment]
    await asyncio.sleep(0.3)  # asleep again
    assert len(looks) == 2
    await queue.ask(preset="rulebook", size=4, wait=None, bot="random", name="Fee",
                    person="p1", account=None, rating=None)
    await asyncio.sleep(0.1)  # an ask: a round at once, then one a tick while Fee waits
    assert len(looks) == 3
    await asyncio.sleep(0.75)
    assert len(looks) in (5, 6)
    await queue.close()


# -- who is here: presence, follows, invitations (issue 26, point 2) ------------------------


def here(b: Browser, **body: Any) -> dict[str, Any]:
    r = b.post("/api/here", body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_friends_online_and_invitations(server: Server) -> None:
    tag = uuid.uuid4().hex[:6]
    ann, bob, cor = (Browser(server) for _ in range(3))
    names = [f"ann{tag}", f"bob{tag}", f"cor{tag}"]
    for b, n in zip((ann, bob, cor), names, strict=True):
        b.register(n)
    assert ann.post("/api/follows", {"name": names[1]}).status_code == 200
    assert ann.post("/api/follows", {"name": names[2]}).status_code == 200
    assert bob.post("/api/follows", {"name": names[0]}).status_code == 200
    here(bob)
    seen = here(ann)
    friends = {f["name"]: f for f in seen["friends"]}
    assert friends[names[1]]["online"] and not friends[names[2]]["online"]
    assert seen["followers"] == [names[1]]
    assert names[1] in [o["name"] for o in seen["online"]]
    # Ann's table with two open seats; Bob and Cor invited
    r = ann.post("/api/tables", {"preset": "rulebook", "size": 3, "name": names[0]})
    assert r.status_code == 201, r.text
    host = r.json()
    table = host["table"]["id"]
    to_bob = ann.post("/api/invitations", {"to": names[1], "table": table})
    to_cor = ann.post("/api/invitations", {"to": names[2], "table": table})
    assert to_bob.status_code == 201 and to_cor.status_code == 201, to_cor.text
    mine = here(bob)["invitations"]
    assert [(i["from"], i["table"], i["status"]) for i in mine] == [(names[0], table, "open")]
    # someone else's invitation cannot be answered; nothing changes
    r = cor.post(f"/api/invitations/{to_bob.json()['id']}/accept")
    assert r.status_code == 404 and r.json()["say"]["id"] == "here.error.invitation"
    ok = bob.post(f"/api/invitations/{to_bob.json()['id']}/accept")
    assert ok.status_code == 200, ok.text
    seated = ok.json()
    assert seated["status"] == "accepted" and seated["table"]["id"] == table
    info = server.get(f"/api/tables/{table}").json()
    assert info["seats"][seated["seat"]]["name"] == names[1]
    p = Player(server, table, seated["token"])
    assert p.welcome is not None and p.welcome["seat"] == seated["seat"]
    again = bob.post(f"/api/invitations/{to_bob.json()['id']}/accept")
    assert again.status_code == 409 and again.json()["say"]["id"] == "here.error.answered"
    no = cor.post(f"/api/invitations/{to_cor.json()['id']}/decline")
    assert no.json()["status"] == "declined"
    sent = {i["to"]: i["status"] for i in here(ann)["sent"]}
    assert sent == {names[1]: "accepted", names[2]: "declined"}
    end = time.monotonic() + 15  # Bob's socket at the table marks him there
    while here(ann)["friends"][0]["table"] != table:
        assert time.monotonic() < end, "Bob is not shown at the table"
        time.sleep(0.5)
    p.close()
    info = server.get(f"/api/tables/{table}").json()
    assert [s["kind"] for s in info["seats"]].count("open") == 1  # Cor did not sit
    for b in (ann, bob, cor):
        for text in b.answers:
            assert host["token"] not in text or b is ann
            assert seated["token"] not in text or b is bob


def test_guests_stay_anonymous(server: Server) -> None:
    guest, other = Browser(server), Browser(server)
    here(guest, client=uuid.uuid4().hex, name="Geheim")
    seen = here(other, client=uuid.uuid4().hex)
    assert "Geheim" not in str(seen)
    assert seen["counts"]["guests"] >= 2 and seen["me"] is None and "friends" not in seen
    client = uuid.uuid4().hex
    here(guest, client=client, visible=True, name="Zichtbaar")
    assert {"name": "Zichtbaar", "guest": True} in here(other, client=uuid.uuid4().hex)["guests"]


@pytest.mark.parametrize(("path", "body", "status_code", "msg"), [
    ("/api/follows", {"name": "nobody-at-all"}, 404, "here.error.no_player"),
    ("/api/invitations", {"to": "nobody-at-all", "table": "x"}, 404, "here.error.no_player"),
    ("/api/invitations/99999/accept", {}, 404, "here.error.invitation"),
])
def test_bad_friend_requests(server: Server, path: str, body: dict[str, Any],
                             status_code: int, msg: str) -> None:
    me = Browser(server)
    assert me.post(path, body).json()["say"]["id"] == "here.error.login"  # a guest
    me.register(f"eve{uuid.uuid4().hex[:6]}")
    r = me.post(path, body)
    assert r.status_code == status_code and r.json()["say"]["id"] == msg, r.text
    for lang in LANGS:
        assert catalog(lang)[msg]
    assert here(me)["friends"] == [] and here(me)["sent"] == []


def test_invite_only_followed_to_own_table(server: Server) -> None:
    tag = uuid.uuid4().hex[:6]
    ann, bob = Browser(server), Browser(server)
    ann.register(f"ann{tag}")
    bob.register(f"bob{tag}")
    table = create(server, preset="rulebook", size=3)["table"]["id"]
    r = ann.post("/api/invitations", {"to": f"bob{tag}", "table": table})
    assert r.status_code == 403 and r.json()["say"]["id"] == "here.error.not_followed"
    ann.post("/api/follows", {"name": f"bob{tag}"})
    r = ann.post("/api/invitations", {"to": f"bob{tag}", "table": table})
    assert r.status_code == 403 and r.json()["say"]["id"] == "here.error.not_seated"
    r = ann.post("/api/follows", {"name": f"ann{tag}"})
    assert r.status_code == 400 and r.json()["say"]["id"] == "here.error.self"
    assert here(bob)["invitations"] == []


def test_rate_limits() -> None:
    """Past its window's limit a request is refused (429) in the player's words; the
    accounts' windows (in Redis with --redis) count them."""
    from starlette.requests import Request

    from toepen.server.protocol import Refused
    from toepen.server.site.accounts.limits import MemoryWindow
    from toepen.server.site.playnow import limited

    request = Request({"type": "http", "client": ("192.0.2.7", 1), "headers": []})

    async def three() -> Refused:
        window = MemoryWindow(2, 60.0)
        for area in ("playnow", "here"):
            await limited(request, window, "x", key=area)
            await limited(request, window, "x", key=area)
        try:
            await limited(request, window, "x", key="here", area="here")
        except Refused as e:
            return e
        raise AssertionError("not limited")

    e = asyncio.run(three())
    assert e.status == 429 and e.say_json()["id"] == "here.error.rate_limited"
    assert all(catalog(lang)["here.error.rate_limited"] for lang in LANGS)
    assert all(catalog(lang)["playnow.error.rate_limited"] for lang in LANGS)


def test_tables_being_played_are_listed_to_watch(server: Server) -> None:
    """Who is here lists the tables being played (to watch), with their preset, size and
    players; a table still waiting for players is not among them."""
    host = create(server, name="Wim", size=2, bots={"1": "random"}, options={"lives": 9},
                  autostart=False)
    tid = host["table"]["id"]
    watcher = Browser(server)
    assert tid not in [t["id"] for t in here(watcher, client=uuid.uuid4().hex)["tables"]]
    r = server.post(f"/api/tables/{tid}/start", {},
                    headers={"Authorization": "Bearer " + host["token"]})
    assert r.status_code == 200, r.text
    listed = {t["id"]: t for t in here(watcher, client=uuid.uuid4().hex)["tables"]}
    assert tid in listed, listed
    assert listed[tid]["preset"] == host["table"]["preset"] and listed[tid]["size"] == 2
    assert listed[tid]["players"][0] == "Wim" and len(listed[tid]["players"]) == 2
