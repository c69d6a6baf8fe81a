"""Test servers forked from a Python that has already imported the server.

A test server is ``python -m toepen.server``; most of its start is importing (FastAPI,
SQLAlchemy, Alembic, the bots: about half of it, more on a busy machine). The suite
starts hundreds of them, so the first start runs this file as a *zygote*: a process that
imports the server's modules once, then forks a child for each start, the child running
``python -m toepen.server`` with the test's arguments, environment, folder and log as a
fresh process would (``runpy``, then Python's own exit). :func:`start` hands back a
:class:`Forked`, which answers as much of :class:`subprocess.Popen` as the tests use
(``pid``, ``poll``, ``wait``, ``send_signal``, ``terminate``, ``kill``, ``returncode``);
the zygote reaps its children and reports each exit status.

A start whose environment is not the zygote's (a test that set a variable the server
reads at import) is not forked: :func:`start` answers None and the caller starts a process
of its own, as before; so does every start under ``TOEPEN_TEST_FORK=0`` (to compare, or to
rule the zygote out).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

PRELOAD = ("uvicorn", "uvicorn.loops.uvloop", "uvicorn.lifespan.on",
           "uvicorn.protocols.http.httptools_impl",
           "uvicorn.protocols.websockets.websockets_sansio_impl", "alembic.command",
           "alembic.config", "sqlalchemy.dialects.sqlite", "sqlalchemy.dialects.postgresql",
           "psycopg", "sqlite3", "concurrent.futures.process", "multiprocessing.spawn")
"""What the zygote imports besides every module of ``toepen.server`` (the migrations and
``__main__`` left out): what a server's start imports (a module that is not there is left
to the child, which imports what it needs as a fresh process would)."""


def _preload(package: str = "toepen.server") -> None:
    import importlib
    import pkgutil

    with contextlib.suppress(Exception):
        module = importlib.import_module(package)
        for info in pkgutil.iter_modules(module.__path__, package + "."):
            if not info.name.endswith(("__main__", ".migrations")):
                if info.ispkg:
                    _preload(info.name)
                else:
                    with contextlib.suppress(Exception):
                        importlib.import_module(info.name)


IGNORED = ("PYTEST_CURRENT_TEST",)
"""Variables that change as the tests run and that a server never reads."""


# --- the zygote ----------------------------------------------------------------------------

def _send(msg: dict[str, Any]) -> None:
    data = (json.dumps(msg) + "\n").encode()
    while data:
        data = data[os.write(1, data):]


def _reap() -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _send({"exit": pid, "code": os.waitstatus_to_exitcode(status)})


def _zygote() -> dict[str, Any] | None:
    """Import, then fork a child per request line on stdin; None when stdin closes (in
    the zygote), the request (in a child)."""
    import importlib

    with contextlib.redirect_stdout(sys.stderr):  # stdout is for the replies alone
        _preload()
        for name in PRELOAD:
            with contextlib.suppress(ImportError):
                importlib.import_module(name)
    if threading.active_count() != 1:  # a fork would lose a thread: refuse to serve
        _send({"error": f"threads after the imports: {threading.enumerate()}"})
        return None
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is for pytest, which stops us
    _send({"ready": os.getpid()})
    buffer = b""
    while True:
        ready, _, _ = select.select([0, wake_r], [], [])
        if wake_r in ready:
            with contextlib.suppress(BlockingIOError):
                while os.read(wake_r, 512):
                    pass
            _reap()
        if 0 not in ready:
            continue
        data = os.read(0, 1 << 16)
        if not data:
            return None
        buffer += data
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            request: dict[str, Any] = json.loads(line)
            pid = os.fork()
            if pid == 0:
                signal.set_wakeup_fd(-1)
                os.close(wake_r)
                os.close(wake_w)
                return request
            _send({"pid": pid})
            _reap()


def _become(request: dict[str, Any]) -> None:
    """In the child: the process ``python -m toepen.server ARGS`` would have been."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(null)
    os.close(log)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    if request.get("faults"):  # a crash test's, installed before the server starts
        import faults

        faults.install(request["faults"])
    sys.path[0] = request["cwd"]  # as ``-m`` puts it
    sys.argv = ["-m", *request["args"]]
    import multiprocessing
    import runpy

    multiprocessing.current_process().authkey = os.urandom(32)  # its own, as a new process

    runpy.run_module("toepen.server", run_name="__main__", alter_sys=True)


# --- the tests' side -----------------------------------------------------------------------

class Forked:
    """A server forked by the zygote, seen as a :class:`subprocess.Popen`."""

    def __init__(self, zygote: Zygote, pid: int, args: list[str]) -> None:
        self.zygote = zygote
        self.pid = pid
        self.args = args
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.zygote.exit_code(self.pid, 0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self.returncode = self.zygote.exit_code(self.pid, timeout)
            if self.returncode is None:
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Zygote:
    """The zygote process, as the tests' process sees it."""

    def __init__(self) -> None:
        self.env = dict(os.environ)
        fd, name = tempfile.mkstemp(prefix="toepen-zygote-", suffix=".log")
        self.log = Path(name)
        self.proc = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=fd, cwd=Path.cwd())
        os.close(fd)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin = self.proc.stdin
        self.stdout = self.proc.stdout
        self.lock = threading.Lock()
        self.changed = threading.Condition()
        self.codes: dict[int, int] = {}
        self.started: list[int] = []
        self.alive = self.ready = True
        atexit.register(self.close)
        first = self.stdout.readline()
        try:
            ready = "ready" in json.loads(first)
        except ValueError:
            ready = False
        if not ready:  # each start then a process of its own; why is in the log, kept
            self.alive = self.ready = False
            return
        threading.Thread(target=self._read, daemon=True, name="zygote").start()

    def close(self) -> None:
        """Stop the zygote (its children that still run are left to their owners)."""
        with contextlib.suppress(OSError):
            self.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)
        if self.ready:
            self.log.unlink(missing_ok=True)

    def _read(self) -> None:
        for line in self.stdout:
            msg = json.loads(line)
            with self.changed:
                if "pid" in msg:
                    self.started.append(msg["pid"])
                elif "exit" in msg:
                    self.codes[msg["exit"]] = msg["code"]
                self.changed.notify_all()
        with self.changed:
            self.alive = False
            self.changed.notify_all()

    def exit_code(self, pid: int, timeout: float | None) -> int | None:
        with self.changed:
            self.changed.wait_for(lambda: pid in self.codes or not self.alive, timeout)
            if pid in self.codes:
                return self.codes.pop(pid)
        if not self.alive:  # its children went to init: gone or not is all one can tell
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return -signal.SIGKILL
        return None

    def fork(self, args: list[str], log: Path, cwd: Path,
             faults: dict[str, str] | None = None) -> Forked | None:
        env = {k: v for k, v in os.environ.items() if k not in IGNORED}
        if not self.alive or env != {k: v for k, v in self.env.items() if k not in IGNORED}:
            return None
        request = {"args": args, "log": str(log), "cwd": str(cwd), "env": dict(os.environ),
                   "faults": faults}
        with self.lock, self.changed:
            self.stdin.write((json.dumps(request) + "\n").encode())
            self.stdin.flush()
            self.changed.wait_for(lambda: bool(self.started) or not self.alive, 60)
            if not self.started:
                return None
            return Forked(self, self.started.pop(0), args)


_ZYGOTE: Zygote | None = None
_START = threading.Lock()


def start(args: list[str], log: Path, cwd: Path,
          faults: dict[str, str] | None = None) -> Forked | None:
    """``python -m toepen.server ARGS`` forked from the zygote (started at the first
    call), its output appended to ``log``, with a crash test's ``faults`` installed
    (tests/faults.py); None where it cannot be forked (the caller then starts the process
    itself)."""
    global _ZYGOTE
    if os.environ.get("TOEPEN_TEST_FORK") == "0":
        return None
    with _START:
        if _ZYGOTE is None:
            _ZYGOTE = Zygote()
        zygote = _ZYGOTE
    return zygote.fork(args, log, cwd, faults)


if __name__ == "__main__":
    _request = _zygote()
    if _request is None:
        sys.exit(0)
    _become(_request)
