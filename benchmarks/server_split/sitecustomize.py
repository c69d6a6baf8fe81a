"""Where the server's CPU per action goes: thread CPU time around its hot parts.

Put this folder first on ``PYTHONPATH`` and name an output file, then run the load
benchmark; the server it starts (``python -m toepen.server``, which inherits both) loads
this module at start-up, wraps the parts below and writes, every 0.2 s, the CPU time
(``time.thread_time``, the calling thread's, kernel time included) each part took and
how often it ran::

    PYTHONPATH=benchmarks/server_split CPU_SPLIT_OUT=/tmp/split.json \\
        uv run python benchmarks/server_bench.py --tables 50 --json
    uv run python benchmarks/server_split/report.py /tmp/split.json ACTIONS

(``ACTIONS``: the ``actions`` of the benchmark's JSON.) The file holds the whole life of
the server: the start-up's collections (``gc.genN``) are in it too.

Parts nest (``master.broadcast_state`` holds ``master.view_bytes``, which holds
``view.observe``); each wrapper adds about 1 us per call. The garbage collector's passes
are counted too (``gc.genN``). Any other process ignores the module.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import threading
import time
from typing import Any

OUT = os.environ.get("CPU_SPLIT_OUT")
_cpu: dict[str, float] = {}
_calls: dict[str, int] = {}
_lock = threading.Lock()
_clock = time.thread_time


def _count(label: str, seconds: float) -> None:
    with _lock:
        _cpu[label] = _cpu.get(label, 0.0) + seconds
        _calls[label] = _calls.get(label, 0) + 1


def _timed(fn: Any, label: str) -> Any:
    @functools.wraps(fn)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = _clock()
        try:
            return fn(*args, **kwargs)
        finally:
            _count(label, _clock() - start)

    return timed


def _wrap(owner: Any, name: str, label: str) -> None:
    setattr(owner, name, _timed(getattr(owner, name), label))


def install() -> None:
    """Wrap the parts (imported here: the server's modules load first)."""
    import gc

    import starlette.websockets as sw
    from uvicorn.protocols.websockets import websockets_sansio_impl as ws

    import toepen.engine.state as state
    import toepen.server.db.store as store
    import toepen.server.protocol as protocol
    import toepen.server.site.accounts.core as accounts
    import toepen.server.site.accounts.service as service
    import toepen.server.tables.master as master
    import toepen.server.tables.scheduler as scheduler
    import toepen.server.tables.table as table

    began: dict[str, float] = {}

    def collected(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began["t"] = _clock()
        else:
            _count(f"gc.gen{info['generation']}", _clock() - began.get("t", _clock()))

    gc.callbacks.append(collected)
    for owner, name, label in (
            (master.Master, "check", "master.check"),
            (state.Game, "clone", "game.clone"),
            (state.Game, "apply", "game.apply"),
            (master.Master, "broadcast_state", "master.broadcast_state"),
            (master.Master, "broadcast_table", "master.broadcast_table"),
            (master.Master, "attach", "master.attach"),
            (store.Store, "append_actions", "db.append_actions"),
            (service.AccountStore, "record", "accounts.record(db)"),
            (protocol, "parse", "protocol.parse"),
            (protocol, "state_frame", "protocol.state_frame"),
            (scheduler.Scheduler, "kick", "scheduler.kick"),
            (table.Client, "send", "client.send"),
            (ws.WebSocketsSansIOProtocol, "data_received", "uvicorn.data_received"),
            (master, "observe", "view.observe"),
            (master, "view_bytes", "master.view_bytes"),
            (master, "closing", "master.closing"),
            (accounts, "seat_results", "accounts.seat_results")):
        _wrap(owner, name, label)
    send_text = sw.WebSocket.send_text

    async def timed_send(self: Any, data: str) -> None:
        start = _clock()  # the send does not wait while the socket takes it
        await send_text(self, data)
        _count("ws.send_text", _clock() - start)

    sw.WebSocket.send_text = timed_send  # type: ignore[method-assign]


def _dump() -> None:
    with _lock:
        data = {"cpu": dict(_cpu), "calls": dict(_calls), "times": list(os.times()[:2])}
    assert OUT is not None
    with open(OUT, "w") as f:
        json.dump(data, f)


def _dumper() -> None:
    while True:  # uvicorn ends by its signal: no exit handler would run
        time.sleep(0.2)
        _dump()


if OUT and sys.orig_argv[1:3] == ["-m", "toepen.server"]:
    import builtins

    _import = builtins.__import__
    _done = [False]

    def _hook(name: str, *args: Any, **kwargs: Any) -> Any:
        module = _import(name, *args, **kwargs)
        if not _done[0] and name == "uvicorn":  # serve() imports uvicorn, then runs
            _done[0] = True
            builtins.__import__ = _import
            install()
        return module

    builtins.__import__ = _hook
    threading.Thread(target=_dumper, daemon=True).start()
