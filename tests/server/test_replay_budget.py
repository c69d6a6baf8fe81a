"""Issue 37, finding 1: replaying a long finished game costs bounded memory and bytes.

The audit's game: eight random bots with ``{"lives": 99, "max_stake": 1, "armoede":
false}`` play about 24,000 actions. Its whole replay as everyone saw it was 58 MiB in one
answer, and four such requests at once grew the server by more than a GiB. Now a replay
is paged (``from``, ``count``), each page bounded in steps and bytes, worked out in cached
chunks by a bounded number of builders; a client asking too much at once is told to come
back (429 or 503 with ``Retry-After`` and ``error.replay_busy``), never served a 5xx.

The game is played by the engine here and stored through the storage layer (a live table
would take minutes to play itself), then the real server is started on that database.
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from toepen.bots.base import make_bot
from toepen.engine import Game
from toepen.match import play_game
from toepen.rules import Rules
from toepen.server.db.store import ActionRow, SeatRow, Store, TableRow
from toepen.server.http.replays import CHUNK, encode_chunk

from .conftest import Server

TABLE = "0a1b2c3d4e5f"
RULES = {"lives": 99, "max_stake": 1, "armoede": False}
GROWTH = 64 * 2**20
"""The bound on the server's memory growth (peak resident set) while the pages are asked."""
PAGE_BYTES = 600 * 1024
"""The bound on one page's answer (512 KiB of steps and the envelope)."""
VIEWS = ("seat=all", "", "seat=3", "seat=6")


def store_finished(url: str, game: Game, table: str, code: str, seed: int) -> int:
    """Store ``game`` (played to its end) as a server would, under ``table`` and ``code``
    (every seat a random bot); its number of actions."""
    assert game.is_over
    rules, names = game.rules, list(game.players)
    store = Store.open(url)
    try:
        store.create_table(
            TableRow(id=table, code=code, preset=rules.name, rules=rules.to_json(),
                     size=game.n, seed=seed, dealer=game.first_dealer, idle_seconds=60.0,
                     autostart=True, creator="test", host_hash="h" * 64, status="playing",
                     players=names),
            [SeatRow(i, "bot", names[i], "random") for i in range(game.n)])
        n = len(game.actions)
        store.append_actions([ActionRow(table, i, s, str(a), "bot",
                                        game.winner if i == n - 1 else None)
                              for i, (s, a) in enumerate(game.actions)])
    finally:
        store.close()
    return n


def store_long_game(url: str) -> int:
    """Play the audit's game with the engine, store it finished; its number of actions."""
    rules = Rules.preset("rulebook", **RULES)
    game = Game(rules, [f"Bot {i}" for i in range(8)], seed=37, dealer=37 % 8)
    play_game(game, [make_bot("random", seed=i) for i in range(8)])
    return store_finished(url, game, TABLE, "LONGGM", 37)


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, int]]:
    db = tmp_path_factory.mktemp("long") / "toepen.sqlite3"
    n = store_long_game(f"sqlite:///{db}")
    srv = Server(f"sqlite:///{db}").start()
    yield srv, n
    srv.stop()


def status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} in /proc/{pid}/status")


def fetch(url: str) -> tuple[httpx.Response, int]:
    """GET ``url``, coming back as ``Retry-After`` says while the server is busy; the
    answer and how many times it said so."""
    busy = 0
    while True:
        r = httpx.get(url, timeout=60)
        if r.status_code not in (429, 503):
            return r, busy
        busy += 1
        body = r.json()
        assert body["code"] == "limit" and body["say"]["id"] == "error.replay_busy", body
        wait = int(r.headers["Retry-After"])
        assert 1 <= wait <= 10
        time.sleep(0.2)  # the test does not wait the whole advice: it wants to be refused
        assert busy < 400, "never served"


def test_long_replay_is_paged_with_bounded_memory(long_game: tuple[Server, int]) -> None:
    server, n = long_game
    assert n > 20_000  # the audit's game: about 24,000 actions
    assert server.proc is not None
    pid = server.proc.pid
    record = server.get(f"/api/tables/{TABLE}/record").json()
    assert len(record["actions"]) == n
    time.sleep(0.5)
    before = status_kib(pid, "VmRSS")
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # the peak (VmHWM) starts again here

    total = n + 1
    # one page first, alone: the old server answered the whole game here (58 MiB)
    one = httpx.get(f"{server.url}/api/tables/{TABLE}/replay?from={total - 200}&count=200"
                    "&seat=all", timeout=120)
    assert one.status_code == 200 and len(one.content) <= PAGE_BYTES, len(one.content)
    assert (status_kib(pid, "VmHWM") - before) * 1024 < GROWTH

    starts = (0, total // 2, total - 200, total - 1)
    urls = [(view, k, f"{server.url}/api/tables/{TABLE}/replay?from={k}&count=200&{view}")
            for view in VIEWS for k in starts]
    with concurrent.futures.ThreadPoolExecutor(len(urls)) as pool:
        answers = list(pool.map(lambda u: fetch(u[2]), urls))
    peak = status_kib(pid, "VmHWM")

    refused = sum(busy for _, busy in answers)
    assert refused > 0  # sixteen cold pages at once from one address: some told to wait
    for (view, k, _url), (r, _busy) in zip(urls, answers, strict=True):
        assert r.status_code == 200, r.text
        assert len(r.content) <= PAGE_BYTES
        page: dict[str, Any] = r.json()
        assert page["from"] == k and page["total"] == total
        steps = page["steps"]
        assert 1 <= len(steps) == page["count"] <= 200
        assert page["next"] == (None if k + len(steps) == total else k + len(steps))
        for i, step in enumerate(steps, k):
            assert step["state"] == step["view"]["action_count"] == i
            if i:
                seat, action = record["actions"][i - 1].split(" ", 1)
                assert step["last"] == {"seat": int(seat), "action": action}
            assert ("hands" in step) == (view == "seat=all")
            if view == "seat=3":
                assert step["view"]["seat"] == 3
        if k == total - 1:
            assert steps[-1]["view"]["winner"] is not None
    growth = (peak - before) * 1024
    print(f"peak growth {growth / 2**20:.1f} MiB, {refused} refusals, largest page "
          f"{max(len(r.content) for r, _ in answers) / 1024:.0f} KiB")
    assert growth < GROWTH, f"the server grew {growth / 2**20:.0f} MiB"

    # asked again: served from the cache, the same bytes
    again = httpx.get(urls[0][2], timeout=60)
    assert again.status_code == 200 and again.content == answers[0][0].content


def test_page_bounds_are_checked(long_game: tuple[Server, int]) -> None:
    server, n = long_game
    base = f"/api/tables/{TABLE}/replay"
    for query in ("count=201", "count=0", "count=-1", "from=-1", "from=x",
                  "from=99999999999999999999"):
        r = server.get(f"{base}?{query}")
        assert r.status_code == 422, (query, r.text)
        assert r.json()["code"] == "bad_message"
    r = server.get(f"{base}?from={n + 1}")
    assert r.status_code == 400 and "from" in r.json()["detail"]
    # no count: a page of 100 steps, the first one by default
    page = server.get(base).json()
    assert page["from"] == 0 and page["count"] == 100 and page["next"] == 100


def test_chunks_from_a_cursor_are_the_chunks_from_the_start() -> None:
    """A page read after the one before goes on from the game replayed for that one
    (once through the game, not once a page); its steps are the same bytes."""
    rules = Rules.preset("rulebook", lives=10, max_stake=1, armoede=False)
    game = Game(rules, ["A", "B", "C", "D"], seed=7, dealer=3)
    play_game(game, [make_bot("random", seed=i) for i in range(4)])
    total = len(game.actions) + 1
    assert total > 4 * CHUNK
    for seat, everyone in ((None, True), (None, False), (2, False)):
        cursor: Game | None = None
        for start in range(0, total, CHUNK):
            stop = min(start + CHUNK, total)
            fresh, _ = encode_chunk(game, seat, everyone, start, stop)
            went_on, cursor = encode_chunk(game, seat, everyone, start, stop, cursor)
            assert went_on == fresh
            assert len(cursor.actions) == stop - 1
        # a cursor past the start is not used: the game is replayed from its beginning
        again, _ = encode_chunk(game, seat, everyone, 0, CHUNK, cursor)
        assert again == encode_chunk(game, seat, everyone, 0, CHUNK)[0]
