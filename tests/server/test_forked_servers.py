"""The test servers forked by the zygote (tests/zygote.py) behave as the processes
``python -m toepen.server`` would be: a process of their own in the repository's folder,
their bot workers their own children, their exit statuses as :class:`subprocess.Popen`
gives them; a test whose environment differs gets a process of its own."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest
import zygote

from .conftest import ROOT, Player, Server, create


def test_a_forked_server_is_a_server_process_of_its_own(sqlite_db: str) -> None:
    server = Server(sqlite_db).start()
    try:
        first = server.proc
        assert isinstance(first, zygote.Forked)
        assert first.pid != os.getpid() and first.poll() is None
        assert os.readlink(f"/proc/{first.pid}/cwd") == str(ROOT)
        made = create(server, name="Ann", size=2, bots={"1": "random"}, autostart=True)
        p = Player(server, made["table"]["id"], made["token"])
        p.wait(lambda m: m["type"] == "state" and bool(m["view"]["legal"]), 30)
        assert server.children(), "the bot worker is the server's own child"
        p.close()
        server.kill()  # SIGKILL, as a crash
        assert first.returncode == -signal.SIGKILL
        server.start()  # again, on the same database: the table is there
        second = server.proc
        assert isinstance(second, zygote.Forked) and second.pid != first.pid
        assert server.get(f"/api/tables/{made['table']['id']}").status_code == 200
        second.terminate()
        assert second.wait(30) == -signal.SIGTERM  # uvicorn's shutdown, then the signal
    finally:
        server.stop()


def test_a_server_started_with_another_environment_is_not_forked(
        sqlite_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOEPEN_TEST_PROBE", "1")  # as a variable the server reads at import
    server = Server(sqlite_db).start()
    try:
        assert isinstance(server.proc, subprocess.Popen)
    finally:
        server.stop()
