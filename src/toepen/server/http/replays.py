"""Replays of finished games, page by page, from a bounded cache of encoded chunks.

``GET /api/tables/{id}/replay?seat=N|all&from=K&count=M`` (finished games only): the
steps ``K`` to ``K+M-1`` of the game as one seat, a spectator (no ``seat``) or everyone
(``all``, with every hand) saw them. Step 0 is the position before the first action; step
``k`` follows action ``k``. The answer says how many steps the game has (``total``) and
where the next page begins (``next``, null at the end).

What a request may cost is bounded (docs/security.md, "budget"):

- a page is at most :data:`PAGE_MAX` steps and :data:`PAGE_BYTES` bytes (fewer steps when
  they would pass it: ``next`` says where to go on);
- the steps are worked out in chunks of :data:`CHUNK` steps: replaying the game's actions
  on its decks costs little (about 35 ms for 24,000 actions), encoding each step's view
  is what costs (about a quarter of a millisecond a step), so a chunk is worked out once
  and kept encoded and compressed (zlib: about 30 times smaller) in a cache of at most
  :data:`CACHE_BYTES`, the least recently used chunk dropped first;
- at most :data:`BUILDERS` chunks are worked out at once (in threads), at most
  :data:`WAITING` more wait, and one client (address) has at most :data:`PER_CLIENT`
  being worked out or waiting; past that the answer is 503 or 429 with ``Retry-After``
  and the catalog message ``error.replay_busy``. Requests for a chunk being worked out
  wait for that same work.

Hidden cards: as every replay, only of a finished game (409 before its end); each step's
view is ``observe`` for the seat asked for and its events are redacted for it.
"""

from __future__ import annotations

import asyncio
import zlib
from collections import Counter, OrderedDict
from typing import Any

import orjson
from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response

from ...cards import card_str, cards_of
from ...engine import Event, Game
from ...narration import Message
from ...record import restart
from ...view import observe
from ..protocol import Refused, events_json
from ..site.accounts.limits import client_key
from .routes import LobbyDep

router = APIRouter()

CHUNK = 50
"""Steps worked out, encoded and cached together."""
PAGE = 100
"""Steps of a page when ``count`` is not given."""
PAGE_MAX = 200
"""The most steps a page has (``count`` above it is refused)."""
PAGE_BYTES = 512 * 1024
"""The most bytes of steps a page has: steps past it go to the next page (a page has at
least one step; the largest step, a table of eight with every hand shown, is about 3 KiB)."""
FROM_MAX = 10_000_000
"""The largest ``from`` accepted at all (a game has far fewer steps)."""
BUILDERS = 2
"""Chunks worked out at once."""
WAITING = 8
"""Chunks waiting for a builder; past them a request is refused (503)."""
PER_CLIENT = 2
"""Chunks one client (address) may have worked out or waiting; past them 429."""
CACHE_BYTES = 32 * 1024 * 1024
"""The most bytes of compressed chunks kept."""
RETRY_AFTER = 2
"""Seconds a refused client is asked to wait (``Retry-After``)."""
CURSORS = 8
"""Replayed games kept to go on from (each at most a few MiB: its list of actions)."""

Key = tuple[str, tuple[str, ...], int | None, bool, int]
"""A chunk: table id, the game's players (a renamed seat makes new chunks), the seat
(None: a spectator, or everyone with ``all``), everyone, the chunk's number."""


class Busy(Exception):
    """Too many replays are being worked out (for everyone, or for this client)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def encode_chunk(game: Game, seat: int | None, all_cards: bool, start: int, stop: int,
                 replay: Game | None = None) -> tuple[bytes, Game]:
    """Steps ``start`` to ``stop - 1`` of the finished ``game`` as ``seat`` saw them
    (``all_cards``: everyone, with every hand): each step's JSON, one a line, compressed;
    and the replayed game, at step ``stop - 1`` (a cursor to go on from).

    The game is replayed on its decks from the start, or from ``replay`` (a cursor of the
    same game, at most at step ``start - 1``); only the steps asked for are observed and
    encoded (what costs)."""
    if replay is None or not 0 < len(replay.actions) < start:
        replay = restart(game)
    done = len(replay.actions)
    viewer = None if all_cards else seat
    out: list[bytes] = []

    def step(events: list[Event], last: dict[str, Any] | None) -> None:
        view = observe(replay, viewer)
        item: dict[str, Any] = {"state": view.action_count, "last": last,
                                "events": events_json(events, viewer), "view": view.to_json()}
        if all_cards:
            item["hands"] = [[card_str(c) for c in cards_of(h)] for h in replay.hand_masks()]
        out.append(orjson.dumps(item))

    if start == 0:
        step(replay.opening_events(omniscient=True), None)
    for k, (s, act) in enumerate(game.actions[done:stop - 1], done + 1):
        events = replay.apply(s, act)
        if k >= start:
            step(events, {"seat": s, "action": str(act)})
    return zlib.compress(b"\n".join(out), 6), replay


class Replays:
    """The cache of encoded chunks and the bounds on working them out."""

    def __init__(self, builders: int = BUILDERS, waiting: int = WAITING,
                 per_client: int = PER_CLIENT, cache_bytes: int = CACHE_BYTES) -> None:
        self.builders = asyncio.Semaphore(builders)
        self.most = builders + waiting
        self.per_client = per_client
        self.cache_bytes = cache_bytes
        self.cache: OrderedDict[Key, bytes] = OrderedDict()
        self.size = 0
        self.work: dict[Key, asyncio.Task[bytes]] = {}
        """Chunks being worked out (or waiting for a builder)."""
        self.clients: Counter[str] = Counter()
        self.cursors: OrderedDict[tuple[str, tuple[str, ...], int], Game] = OrderedDict()
        """Games replayed up to the end of a chunk (by table, players and position), to
        go on from: a game read page after page is replayed once, not once a page."""
        self.built = 0
        """How many chunks were worked out (the cache's misses)."""

    async def chunk(self, key: Key, game: Game, client: str) -> bytes:
        """The compressed chunk ``key`` of ``game``: kept, being worked out, or worked
        out now (Busy: not now)."""
        kept = self.cache.get(key)
        if kept is not None:
            self.cache.move_to_end(key)
            return kept
        task = self.work.get(key)
        if task is None:
            if len(self.work) >= self.most:
                raise Busy(503, f"{len(self.work)} replay pages are being worked out; "
                                "try again shortly")
            if self.clients[client] >= self.per_client:
                raise Busy(429, f"you have {self.clients[client]} replay pages being "
                                "worked out; try again shortly")
            self.clients[client] += 1
            task = asyncio.get_running_loop().create_task(self._build(key, game))
            self.work[key] = task

            def done(_: asyncio.Task[bytes]) -> None:
                self.work.pop(key, None)
                self.clients[client] -= 1
                if self.clients[client] <= 0:
                    del self.clients[client]

            task.add_done_callback(done)
        # shielded: a client that goes away does not stop work another may wait for
        return await asyncio.shield(task)

    async def _build(self, key: Key, game: Game) -> bytes:
        _tid, _players, seat, all_cards, index = key
        start = index * CHUNK
        stop = min(start + CHUNK, len(game.actions) + 1)
        async with self.builders:
            data, replayed = await asyncio.to_thread(encode_chunk, game, seat, all_cards,
                                                     start, stop,
                                                     self._cursor(_tid, _players, start))
        self.cursors[(_tid, _players, len(replayed.actions))] = replayed
        while len(self.cursors) > CURSORS:
            self.cursors.popitem(last=False)
        self.built += 1
        self._keep(key, data)
        return data

    def _cursor(self, table_id: str, players: tuple[str, ...], start: int) -> Game | None:
        """The furthest cursor of this game before step ``start``, taken (a thread
        replays it on; it comes back at its new position)."""
        best: tuple[str, tuple[str, ...], int] | None = None
        for key in self.cursors:
            if key[0] == table_id and key[1] == players and 0 < key[2] < start and (
                    best is None or key[2] > best[2]):
                best = key
        return None if best is None else self.cursors.pop(best)

    def _keep(self, key: Key, data: bytes) -> None:
        if len(data) > self.cache_bytes:
            return
        self.cache[key] = data
        self.size += len(data)
        while self.size > self.cache_bytes:
            _old, dropped = self.cache.popitem(last=False)
            self.size -= len(dropped)

    async def page(self, table_id: str, game: Game, seat: int | None, all_cards: bool,
                   start: int, count: int, client: str) -> bytes:
        """The answer's JSON for ``count`` steps from ``start`` (at most
        :data:`PAGE_BYTES` of steps)."""
        total = len(game.actions) + 1
        stop = min(start + count, total)
        steps: list[bytes] = []
        size = 0
        at = start
        players = tuple(game.players)
        while at < stop:
            index = at // CHUNK
            data = await self.chunk((table_id, players, seat, all_cards, index), game, client)
            lines = zlib.decompress(data).split(b"\n")
            for line in lines[at - index * CHUNK:stop - index * CHUNK]:
                if steps and size + len(line) > PAGE_BYTES:
                    stop = at
                    break
                steps.append(line)
                size += len(line) + 1
                at += 1
        following = b"null" if stop >= total else str(stop).encode()
        return (b'{"from":%d,"count":%d,"total":%d,"next":%s,"steps":[' % (
            start, len(steps), total, following) + b",".join(steps) + b"]}")


def replays_of(request: Request) -> Replays:
    """The running server's replays (made with the first)."""
    state = request.app.state
    found: Replays | None = getattr(state, "replays", None)
    if found is None:
        found = state.replays = Replays()
    return found


@router.get("/api/tables/{table_id}/replay", response_model=None)
async def replay(table_id: str, request: Request, lobby: LobbyDep, seat: str | None = None,
                 start: int = Query(0, alias="from", ge=0, le=FROM_MAX),
                 count: int = Query(PAGE, ge=1, le=PAGE_MAX)) -> Response:
    """Steps of a finished game, a page at a time, as one seat, a spectator or everyone
    saw them."""
    table = await lobby.find(table_id)
    await lobby.fresh_copy(table)
    game = table.game
    if table.row.status != "over" or game is None or not game.is_over:
        raise Refused("bad_command", "the game is not over: a replay would show hidden "
                      "cards", 409)
    if seat is None or seat == "all":
        who: int | None = None
    elif seat.isascii() and seat.isdigit() and len(seat) < 3 and int(seat) < game.n:
        who = int(seat)
    else:
        raise Refused("bad_message", f"seat: a seat from 0 to {game.n - 1} or 'all', "
                      f"not {seat!r}")
    total = len(game.actions) + 1
    if start >= total:
        raise Refused("bad_message", f"from: a step from 0 to {total - 1}, not {start}")
    try:
        body = await replays_of(request).page(table.id, game, who, seat == "all", start,
                                              count, client_key(request))
    except Busy as e:
        return JSONResponse({"detail": e.message, "code": "limit",
                             "say": Message("error.replay_busy").to_json()},
                            status_code=e.status, headers={"Retry-After": str(RETRY_AFTER)})
    return Response(body, media_type="application/json")
