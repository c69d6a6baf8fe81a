"""The browser client's endpoints: hints, replays of finished games, message catalogs."""

from __future__ import annotations

import random
from typing import Any

import httpx

from toepen.cards import card_str, cards_of
from toepen.i18n import catalog_json
from toepen.record import replay

from .audit import audit, timeline
from .conftest import Player, Server
from .test_session import new_table, over


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": "Bearer " + token}


def all_steps(server: Server, tid: str, query: str = "") -> list[dict[str, Any]]:
    """Every step of a finished table's replay, page after page (``query``: ``seat=N``)."""
    steps: list[dict[str, Any]] = []
    at: int | None = 0
    while at is not None:
        r = server.get(f"/api/tables/{tid}/replay?from={at}&{query}")
        assert r.status_code == 200, r.text
        page = r.json()
        assert page["from"] == at == len(steps) and page["count"] == len(page["steps"])
        steps += page["steps"]
        at = page["next"]
        assert at is None or at == len(steps)
    assert len(steps) == page["total"]
    return steps


def test_catalogs_are_served_for_the_five_languages(server: Server) -> None:
    for lang in ("en", "nl", "de", "it", "nb"):
        r = server.get(f"/api/i18n/{lang}")
        assert r.status_code == 200
        assert r.json() == catalog_json(lang)
    r = server.get("/api/i18n/fr")
    assert r.status_code == 404 and "fr" in r.json()["detail"]


def test_hint_and_replay(server: Server) -> None:
    host, bas = new_table(server)
    tid = host["table"]["id"]
    a = Player(server, tid, host["token"])
    b = Player(server, tid, bas["token"])
    r = server.post(f"/api/tables/{tid}/start", {}, headers=bearer(host["token"]))
    assert r.status_code == 200, r.text

    # The hint: only for the seat to act, computed for its view now.
    hinted = 0
    rounds = 0
    rng = random.Random(3)
    while not (over(a) and over(b)):
        for p, token in ((a, host["token"]), (b, bas["token"])):
            p.poll(0.01)
            if not (p.my_turn() and p.view["winner"] is None):
                continue
            if hinted < 3:
                h = httpx.get(f"{server.url}/api/tables/{tid}/hint", headers=bearer(token),
                              timeout=30)
                assert h.status_code == 200, h.text
                hint = h.json()
                assert hint["state"] == p.view["action_count"]
                if len(p.view["legal"]) == 1:  # nothing to decide: no action is hinted
                    assert hint["action"] is None
                    assert hint["reason"]["id"] == "hint.reason.forced"
                else:
                    assert hint["action"] in p.view["legal"]
                    assert hint["reason"]["id"] in ("hint.reason.better", "hint.reason.even",
                                                    "hint.reason.others")
                other = b if p is a else a
                other_token = bas["token"] if p is a else host["token"]
                o = httpx.get(f"{server.url}/api/tables/{tid}/hint",
                              headers=bearer(other_token), timeout=30)
                assert o.status_code == 409 and "not to act" in o.json()["detail"]
                assert not other.my_turn() or other.view["action_count"] != hint["state"]
                hinted += 1
            legal = p.view["legal"]
            p.send({"v": 1, "type": "act", "action": rng.choice(legal),
                    "state": p.view["action_count"]})
            p.wait(lambda m: m["type"] in ("state", "error"))
        rounds += 1
        assert rounds < 5000, "the game did not end"
    assert hinted == 3
    assert httpx.get(f"{server.url}/api/tables/{tid}/hint", timeout=10).status_code == 401
    assert httpx.get(f"{server.url}/api/tables/{tid}/hint", headers=bearer("forged" * 5),
                     timeout=10).status_code == 401

    record = server.get(f"/api/tables/{tid}/record").json()
    games = timeline(record)
    final = replay(record)

    # Replays: one step per action plus the start; each view exactly observe() for the
    # seat asked for, and no card that seat had not seen by then.
    for seat in (0, 1, None):
        steps = all_steps(server, tid, "" if seat is None else f"seat={seat}")
        assert len(steps) == len(record["actions"]) + 1
        assert steps[0]["last"] is None
        assert [s["last"]["action"] for s in steps[1:]] == [m.split(" ", 1)[1]
                                                          for m in record["actions"]]
        messages = [{"type": "state", **s} for s in steps]
        assert audit(messages, seat, games) == len(steps)
    everything = all_steps(server, tid, "seat=all")
    assert everything[-1]["hands"] == [[card_str(c) for c in cards_of(h)]
                                       for h in final.hand_masks()]
    assert everything[0]["hands"] == [[card_str(c) for c in cards_of(h)]
                                      for h in games[0].hand_masks()]
    for bad in ("9", "x", "-1"):
        r = server.get(f"/api/tables/{tid}/replay?seat={bad}")
        assert r.status_code == 400 and "seat" in r.json()["detail"]
    for p in (a, b):
        p.close()


def test_replay_and_hint_refused_before_the_end(server: Server) -> None:
    host, bas = new_table(server)
    tid = host["table"]["id"]
    r = server.get(f"/api/tables/{tid}/replay?seat=all")
    assert r.status_code == 409 and "hidden" in r.json()["detail"]
    r = httpx.get(f"{server.url}/api/tables/{tid}/hint", headers=bearer(bas["token"]),
                  timeout=10)
    assert r.status_code == 409  # the game has not started: nobody is to act
    r = server.get("/api/tables/nosuchtable/replay")
    assert r.status_code == 404
