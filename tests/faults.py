"""Faults for the crash tests, installed in a test server's own process.

The server has no fault switch of its own (no environment variable, no option): its
storage (``toepen.server.db.commit``) has two hooks, ``after_call`` and
``before_commit``, None in service. A test asks for a fault with ``Server(...,
faults=...)`` (tests/server/conftest.py); the server's process installs it here before the
server starts: a child of the zygote (tests/zygote.py) right after its fork, a process of
its own through this file run as a script (``python tests/faults.py FAULTS ARGS``, then
``python -m toepen.server ARGS`` as it would have run).

``FAULTS`` is a dict of these (JSON on the command line):

``{"after": "METHOD"}``
    SIGKILL the process right after the store's ``METHOD`` committed, before anyone is
    told (e.g. ``set_seats``).
``{"pause": "METHOD"}``
    SIGSTOP it there, the first time only (the test sends SIGCONT: e.g. ``load_tables``,
    a process starting that read the tables and not yet their actions).
``{"stop_file": "PATH"}``
    A file the test writes when it wants the fault. Holding ``stop:owner-commit``, the
    first process to commit an action under a lease (an owner's write) takes the file
    (renamed to ``PATH.<pid>``, where it writes the action's table, number and epoch) and
    SIGSTOPs itself just before the commit: an owner frozen with a write in flight.
    ``stop:owner-commit:<table id>``: only a commit of that table's.
"""

from __future__ import annotations

import json
import os
import runpy
import signal
import sys
import threading
from typing import Any


def _after(method: str) -> Any:
    def hook(name: str) -> None:
        if name == method:
            os.kill(os.getpid(), signal.SIGKILL)
    return hook


def _pause(method: str) -> Any:
    paused: set[str] = set()

    def hook(name: str) -> None:
        if name == method and name not in paused:
            paused.add(name)
            os.kill(os.getpid(), signal.SIGSTOP)
    return hook


def _stop_file(path: str) -> Any:
    def hook(rows: list[Any]) -> None:
        if not any(r.epoch is not None for r in rows):
            return
        try:
            with open(path) as f:
                what, armed, only = f.read().strip().partition("stop:owner-commit")
            mine = [r for r in rows if r.epoch is not None and only in ("", ":" + r.table_id)]
            if what or not armed or not mine:  # (an empty file: being written, not armed)
                return
            taken = f"{path}.{os.getpid()}"
            os.rename(path, taken)  # one process wins
        except OSError:
            return
        r = mine[0]
        with open(taken, "w") as f:
            f.write(f"{r.table_id} {r.n} {r.epoch}\n")
        # to this thread: it stops before its next step (a stop sent to the process may
        # be taken by another thread, and this one would go on into the commit meanwhile)
        signal.pthread_kill(threading.get_ident(), signal.SIGSTOP)
    return hook


def install(faults: dict[str, str]) -> None:
    """Set the storage's hooks for ``faults`` (see above) in this process."""
    from toepen.server.db import commit

    unknown = set(faults) - {"after", "pause", "stop_file"}
    if unknown:
        raise ValueError(f"unknown faults: {sorted(unknown)}")
    if "after" in faults and "pause" in faults:
        raise ValueError("one of after and pause")
    if "after" in faults:
        commit.after_call = _after(faults["after"])
    if "pause" in faults:
        commit.after_call = _pause(faults["pause"])
    if "stop_file" in faults:
        commit.before_commit = _stop_file(faults["stop_file"])


if __name__ == "__main__":  # python tests/faults.py FAULTS ARGS: python -m toepen.server ARGS
    install(json.loads(sys.argv[1]))
    sys.path[0] = os.getcwd()  # as ``-m`` puts it
    sys.argv = ["-m", *sys.argv[2:]]
    runpy.run_module("toepen.server", run_name="__main__", alter_sys=True)
