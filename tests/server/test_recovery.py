"""Never lose a game: SIGKILL the server mid-hand, restart it, the same game goes on."""

from __future__ import annotations

import random
import time
from pathlib import Path

from toepen.record import replay

from .audit import audit, timeline
from .conftest import Player, Server, create
from .schema import check_server_message
from .test_session import calm, over, play_until


def mid_hand(p: Player) -> bool:
    """It is ``p``'s turn in the middle of a hand: cards on the table or a trick done."""
    if not p.my_turn() or p.view["winner"] is not None:
        return False
    v = p.view
    return v["phase"] in ("play", "answer") and (bool(v["trick"]) or v["trick_no"] >= 1)


def kill_and_resume(db: str) -> None:
    server = Server(db).start()
    try:
        host = create(server, name="Ann", size=4, bots={"2": "random", "3": "random"},
                      options={"lives": 6}, autostart=False)
        tid = host["table"]["id"]
        bas = server.post(f"/api/tables/{tid}/join", {"name": "Bas", "seat": 1}).json()
        a = Player(server, tid, host["token"])
        b = Player(server, tid, bas["token"])
        spectator = Player(server, tid)
        server.post(f"/api/tables/{tid}/start", {},
                    headers={"Authorization": "Bearer " + host["token"]})
        rng = random.Random(11)
        play_until([a, b], rng, lambda: mid_hand(a) or mid_hand(b) or over(a), choose=calm)
        assert not over(a), "the game ended before a person was to act mid-hand"
        for p in (a, b, spectator):
            p.drain(0.2)
        before = {0: a.view, 1: b.view, None: spectator.view}
        n = before[0]["action_count"]
        assert n == before[1]["action_count"] == before[None]["action_count"] > 0

        server.kill()  # SIGKILL: nothing is flushed or closed on the way out
        server.start()  # same port, same database

        # The clients notice on their own and come back with their tokens.
        for p in (a, b, spectator):
            end = time.monotonic() + 30
            while p.reconnects == 0:  # reading notices the closed socket and reconnects
                assert time.monotonic() < end
                p.poll(0.2)
            p.wait(lambda m: m["type"] == "state", 10)
        after = {0: a.view, 1: b.view, None: spectator.view}
        assert after == before  # exactly where it was: same hands, same state number

        play_until([a, b], rng, lambda: over(a) and over(b), timeout=90)
        for p in (a, b, spectator):
            p.drain(0.2)
        record = server.get(f"/api/tables/{tid}/record").json()
        game = replay(record)
        assert game.is_over and game.winner == a.view["winner"]
        assert len(record["actions"]) == a.view["action_count"] > n
        # Every message before and after the kill belongs to this one game.
        games = timeline(record)
        for p, seat in ((a, 0), (b, 1), (spectator, None)):
            for msg in p.messages:
                check_server_message(msg)
            audit(p.messages, seat, games)
        for p in (a, b, spectator):
            p.close()
    finally:
        server.stop()


def test_sigkill_mid_hand_sqlite(sqlite_db: str) -> None:
    kill_and_resume(sqlite_db)


def test_sigkill_mid_hand_postgresql(postgres_url: str) -> None:
    kill_and_resume(postgres_url)


def test_repeated_kills(sqlite_db: str) -> None:
    """Kill the server again and again: a lobby keeps its seats and tokens, and a bot-only
    table, killed while it plays, finishes its one game."""
    server = Server(sqlite_db).start()
    try:
        lobby = create(server, name="Ann", size=3, bots={"2": "random"})
        lobby_id, code = lobby["table"]["id"], lobby["table"]["code"]
        t = create(server, size=4, bots={str(i): "random" for i in range(4)},
                   options={"lives": 6}, autostart=True)
        tid = t["table"]["id"]
        watcher = Player(server, tid)
        seen = [0]
        for _ in range(2):
            watcher.wait(lambda m: m["type"] == "state" and m["state"] > seen[-1], 30)
            seen.append(watcher.state["state"] if watcher.state else 0)
            workers = server.children()
            assert workers, "the bots think in worker processes"
            server.kill()
            end = time.monotonic() + 15  # orphaned workers notice and exit by themselves
            while any(Path(f"/proc/{pid}").exists() for pid in workers):
                assert time.monotonic() < end, f"bot workers {workers} outlived the server"
                time.sleep(0.2)
            server.start()
        watcher.wait(lambda m: m["type"] == "state" and m["view"]["winner"] is not None, 60)
        record = server.get(f"/api/tables/{tid}/record").json()
        audit(watcher.messages, None, timeline(record))
        assert replay(record).is_over and watcher.reconnects >= 1
        watcher.close()

        assert server.get(f"/api/codes/{code}").json()["id"] == lobby_id
        bas = server.post("/api/join", {"code": code, "name": "Bas"})
        assert bas.status_code == 200 and bas.json()["seat"] == 1
        a = Player(server, lobby_id, lobby["token"])
        assert a.welcome and a.welcome["seat"] == 0 and a.welcome["host"]
        a.send({"v": 1, "type": "host", "command": "start"})
        assert len(a.wait(lambda m: m["type"] == "state")["view"]["hand"]) == 4
        a.close()
    finally:
        server.stop()
