"""What the server's stack costs per action with no game in it: the floor under
``benchmarks/server_bench.py``'s CPU per action.

``python benchmarks/server_floor.py serve --port P`` is a server that speaks just enough
of the protocol for the load benchmark's clients: ``POST /api/tables`` and ``/join``
(tokens), ``/ws/{table}`` with ``hello``, and for each ``act`` the same steps as
``toepen serve`` minus the game: the frame read through the wire
(:mod:`toepen.server.socket.wire`) and parsed (``protocol.parse``), the table's lock, the
action group-committed by the real storage (:class:`toepen.server.db.commit.Storage`, a
real SQLite file), then four ``state`` frames sent through the wire. The frames are made
once: each seat's is a real 1.3 KB view (the median size) with that seat's ``legal``
set when it is to act. A game ends after ``--actions`` actions (54: the load
benchmark's games at 5 lives).

``python benchmarks/server_floor.py bench`` starts that server (with and without the
commit: ``serve --no-commit``) and runs the load benchmark's own clients against it
(``benchmarks/server_bench._seat``), and prints the server's CPU per action, beside the real
server's (``benchmarks/server_bench.py``) in turn with it::

    uv run python benchmarks/server_floor.py bench --tables 50 --rounds 3

Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import orjson
import server_bench as sb
from rich.console import Console
from rich.table import Table as RichTable

from toepen.engine import Game
from toepen.rules import Rules
from toepen.server import protocol
from toepen.server.app import tune_collector
from toepen.server.db.commit import Storage
from toepen.server.db.store import ActionRow, SeatRow, Store, TableRow
from toepen.server.socket import wire
from toepen.server.tables.master import view_bytes

SIZE = 4


def _frames(actions: int) -> list[list[bytes]]:
    """For each state number, each seat's frame: a real view (a game of ``rulebook``
    mid-hand), this state's number, ``legal`` only for the seat to act, the winner at
    the last state."""
    game = Game(Rules.preset("rulebook"), SIZE, seed=1)
    for _ in range(5):
        game.apply(game.turn, game.legal_actions()[0])
    views = view_bytes(game, set(range(SIZE)))
    out = []
    for n in range(actions + 1):
        turn = n % SIZE
        row = []
        for seat in range(SIZE):
            view = orjson.loads(views[seat])
            view["legal"] = ["play 7c"] if seat == turn and n < actions else []
            view["winner"] = 0 if n == actions else None
            view["action_count"] = n
            row.append(orjson.dumps({"v": 1, "type": "state", "view": view, "events": [],
                                     "last": None if n == 0 else
                                     {"seat": (n - 1) % SIZE, "action": "play 7c",
                                      "by": "player"}, "state": n}))
        out.append(row)
    return out


class _Table:
    def __init__(self, table_id: str) -> None:
        self.id = table_id
        self.tokens: list[str] = []
        self.sockets: dict[int, wire.Wire] = {}
        self.n = 0
        self.lock = asyncio.Lock()


def make_app(db: str, actions: int, commit: bool = True) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket

    frames = _frames(actions)
    tables: dict[str, _Table] = {}
    state: dict[str, Any] = {}
    limits = protocol.Limits()

    async def health(_request: Request) -> JSONResponse:
        return JSONResponse({"ok": True})

    async def create(_request: Request) -> JSONResponse:
        t = _Table(secrets.token_hex(6))
        tables[t.id] = t
        t.tokens.append(secrets.token_hex(8))
        row = TableRow(id=t.id, code=t.id[:6], preset="rulebook", rules="rulebook",
                       size=SIZE, seed=1, dealer=0, idle_seconds=3600, autostart=True,
                       creator="floor", host_hash="x", status="playing",
                       players=[f"Bot{k}" for k in range(SIZE)])
        await state["storage"].create_table(row, [SeatRow(k, "human", f"Bot{k}", None, None)
                                                 for k in range(SIZE)])
        return JSONResponse({"token": t.tokens[0], "table": {"id": t.id}}, status_code=201)

    async def join(request: Request) -> JSONResponse:
        t = tables[request.path_params["tid"]]
        t.tokens.append(secrets.token_hex(8))
        return JSONResponse({"token": t.tokens[-1]})

    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        t = tables[websocket.path_params["tid"]]
        door = wire.of(websocket.scope)
        assert door is not None, "run under uvicorn with ws=toepen.server.socket.wire.PROTOCOL"
        door.take()
        hello = protocol.parse(await door.receive() or "", limits)
        seat = t.tokens.index(hello["token"])
        t.sockets[seat] = door
        if len(t.sockets) == SIZE:
            for s, d in t.sockets.items():
                d.send(frames[0][s])
        storage: Storage = state["storage"]
        while True:
            text = await door.receive()
            if text is None:
                return
            msg = protocol.parse(text, limits)
            async with t.lock:
                if msg["state"] != t.n:
                    continue
                n = t.n
                if commit:
                        await storage.append(ActionRow(t.id, n, seat, str(msg["action"]),
                                                   "player", 0 if n + 1 == actions else None))
                t.n = n + 1
                for s, d in t.sockets.items():
                    d.send(frames[n + 1][s])

    async def lifespan(_app: Any) -> Any:
        store = await asyncio.to_thread(Store.open, db)
        state["storage"] = Storage(store)
        tune_collector()  # as toepen serve does once started
        yield
        state["storage"].close()

    return Starlette(routes=[Route("/api/health", health), Route("/api/tables", create,
                                                                 methods=["POST"]),
                             Route("/api/tables/{tid}/join", join, methods=["POST"]),
                             WebSocketRoute("/ws/{tid}", ws)],
                     lifespan=contextlib.asynccontextmanager(lifespan))


def serve(port: int, db: str, actions: int, commit: bool = True) -> None:
    import uvicorn

    app = make_app(db, actions, commit)
    uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, ws=wire.PROTOCOL or "auto",
                                  log_level="warning", ws_per_message_deflate=False)).run()


async def _drive(url: str, tables: int, pid: int) -> tuple[int, float]:
    result = sb.ServerBenchResult(tables=tables, actions=0, seconds=0.0, label="floor")
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        made = []
        for i in range(tables):
            r = (await http.post("/api/tables", json={})).json()
            tokens = [r["token"]]
            for _ in range(SIZE - 1):
                tokens.append((await http.post(f"/api/tables/{r['table']['id']}/join",
                                               json={})).json()["token"])
            made.append(sb._Table(r["table"]["id"], tokens, seed=i))
    cpu0 = sb.cpu_seconds(pid)
    ws = url.replace("http://", "ws://")

    async def drive(t: sb._Table) -> None:
        await asyncio.gather(*(sb._seat(ws, t, token, result) for token in t.tokens))
        result.actions += t.actions

    await asyncio.gather(*(drive(t) for t in made))
    return result.actions, sb.cpu_seconds(pid) - cpu0


def bench_floor(tables: int, actions: int, commit: bool = True) -> float:
    """The floor server's CPU per action (ms), one run (``commit``: store each action)."""
    port = sb.free_port()
    with tempfile.TemporaryDirectory(prefix="toepen-floor-") as tmp:
        cmd = [sys.executable, __file__, "serve", "--port", str(port), "--db",
               f"sqlite:///{Path(tmp) / 'floor.sqlite3'}", "--actions", str(actions),
               *([] if commit else ["--no-commit"])]
        proc = subprocess.Popen(cmd)
        url = f"http://127.0.0.1:{port}"
        try:
            sb.wait_healthy(proc, url, timeout=60, what="the floor server")
            done, cpu = asyncio.run(_drive(url, tables, proc.pid))
        finally:
            proc.terminate()
            proc.wait(15)
        return cpu / max(done, 1) * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    s = sub.add_parser("serve")
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--db", required=True)
    s.add_argument("--actions", type=int, default=54)
    s.add_argument("--no-commit", action="store_true",
                   help="store nothing (to see the commit's part)")
    b = sub.add_parser("bench")
    b.add_argument("--tables", type=int, default=50)
    b.add_argument("--actions", type=int, default=54)
    b.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if args.command == "serve":
        serve(args.port, args.db, args.actions, not args.no_commit)
        return
    out = RichTable(title=f"server CPU per action, {args.tables} tables of 4 seats "
                          f"({datetime.now(UTC):%Y-%m-%d %H:%M} UTC)")
    for name in ("round", "the stack alone (floor)", "floor, no commit", "toepen serve",
                 "floor / toepen"):
        out.add_column(name, justify="right")
    for r in range(1, args.rounds + 1):
        floor = bench_floor(args.tables, args.actions)
        bare = bench_floor(args.tables, args.actions, commit=False)
        real = sb.run_server_bench(args.tables).cpu_ms_per_action
        out.add_row(str(r), f"{floor:.3f} ms", f"{bare:.3f} ms", f"{real:.3f} ms",
                    f"{floor / real:.2f}")
    Console().print(out)


if __name__ == "__main__":
    main()
