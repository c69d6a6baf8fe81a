"""External bots: any program that speaks JSON lines on stdin/stdout (``cmd:COMMAND``).

The engine writes one JSON object per line to the program's stdin and reads one
line back for each decision (the protocol is in ``docs/bots.md``):

* ``{"type": "hello", "protocol": 1, "seat": 2, "players": [...], "rules": ...,
  "seed": 7, "time_budget": null, "timeout": 5.0}`` when a game begins (no answer);
* ``{"type": "decide", "protocol": 1, "id": 1, "view": {...}, "legal": ["play Th", ...]}``,
  answered by ``{"action": "play Th"}`` (an ``"id"`` echo is optional);
* ``{"type": "result", "protocol": 1, "seat": 2, "view": {...}, "winner": null,
  "lives": [...]}`` when the game (or the arena's hand) ends (no answer).

A crash, a timeout, or an answer that is not JSON, not an action or not legal is an
*incident*: it is logged with the reason, appended to :attr:`ExternalBot.incidents`,
the process is stopped, and the seat is played by the fallback it was given (by default
:data:`DEFAULT_FALLBACK`, the registry's :data:`~toepen.bots.base.EXTERNAL_FALLBACK`) for
the rest of the game. The next game (``start_game``) starts the program again.

The view sent is ``observe(game, seat).to_json()``: the seat's own cards and what
is public, nothing else.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

from ..engine.actions import Action, ActionError
from ..rules import Rules
from ..view import View
from .heuristic import HeuristicBot
from .protocol import Bot, BotFactory

log = logging.getLogger("toepen.bots.external")

PROTOCOL = 1
DEFAULT_TIMEOUT = 5.0
"""Seconds a program may take per decision unless told otherwise."""
GRACE = 2.0
"""Seconds added to a time budget to make the per-decision limit."""
DEFAULT_FALLBACK = HeuristicBot
"""The bot that plays a seat whose program failed, unless another is given (the
registry's :data:`~toepen.bots.base.EXTERNAL_FALLBACK` is its name)."""


TREE_PREFIX = "tree:"
"""``tree:DIR:NAME``: bot ``NAME`` of the toepen checkout in ``DIR``, served by that
checkout's own environment (``DIR/.venv/bin/toepen bot NAME``); the arena's form."""


def tree_command(spec: str) -> list[str]:
    """The program of ``tree:DIR:NAME`` as an argument list (no shell):
    ``[DIR/.venv/bin/toepen, "bot", NAME]``, the checkout's own ``toepen`` in its own
    environment (made there by ``uv sync``). ValueError says what is missing.

    >>> tree_command("tree:/nonexistent:expert")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: tree:/nonexistent:expert: no folder /nonexistent
    """
    if not spec.startswith(TREE_PREFIX):
        raise ValueError(f"{spec!r}: not of the form tree:DIR:NAME")
    folder, sep, name = spec[len(TREE_PREFIX):].rpartition(":")
    if not sep or not folder or not name:
        raise ValueError(f"{spec!r}: not of the form tree:DIR:NAME")
    if not name.replace("-", "").replace("_", "").isalnum() or not name[0].isalpha():
        raise ValueError(f"{spec}: {name!r} is not a bot's name")
    root = os.path.abspath(os.path.expanduser(folder))
    if not os.path.isdir(root):
        raise ValueError(f"{spec}: no folder {folder}")
    script = __name__.partition(".")[0]  # the package's command: toepen
    for exe in (os.path.join(root, ".venv", "bin", script),
                os.path.join(root, ".venv", "Scripts", script + ".exe")):  # Windows
        if os.path.isfile(exe) and os.access(exe, os.X_OK):
            return [exe, "bot", name]
    raise ValueError(f"{spec}: no {os.path.join(folder, '.venv', 'bin', script)} "
                     "(run `uv sync --all-extras` in that checkout)")


@dataclass(frozen=True)
class Incident:
    """Why an external bot was replaced by the fallback."""

    kind: str
    """``crash``, ``timeout``, ``garbled`` or ``illegal``."""
    reason: str
    seat: int | None
    hand_no: int
    action_count: int

    def __str__(self) -> str:
        return (f"{self.kind} at seat {self.seat}, hand {self.hand_no}, "
                f"action {self.action_count}: {self.reason}")


class _Failure(Exception):
    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


_EOF = object()


def _pump(stream: IO[str], sink: queue.Queue[object]) -> None:
    """Reader thread: every line of ``stream`` into ``sink``, then ``_EOF``; the stream
    is closed here, by its reader (closing it from another thread would wait for the
    read in progress, that is for the program and everything it started to end)."""
    try:
        for line in stream:
            sink.put(line)
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError, ValueError):
            stream.close()
    sink.put(_EOF)


def _drain(stream: IO[str], tail: deque[str]) -> None:
    """Reader thread: keep the last lines of the program's stderr for diagnostics."""
    try:
        for line in stream:
            tail.append(line.rstrip("\n"))
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError, ValueError):
            stream.close()


GROUPS = os.name == "posix"
"""Whether each program runs in a process group of its own (POSIX), so that stopping it
stops what it started too (``sh -c "...; sleep 100"``: the shell and its sleep)."""
STOP_GRACE = 0.2
"""Seconds a program has to leave after its stdin closes before it is killed."""


def _kill(proc: subprocess.Popen[str]) -> None:
    """Stop the program: close its stdin, give it :data:`STOP_GRACE` seconds, then kill
    its whole process group (what it started too); never waits longer than that."""
    try:
        if proc.stdin is not None:
            proc.stdin.close()
    except (OSError, ValueError):
        pass
    if proc.poll() is None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=STOP_GRACE)
    if GROUPS:
        # The group outlives its leader while a child of it runs: kill it either way.
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)


class ExternalBot:
    """A bot played by an external program over JSON lines, with a fallback bot.

    ``fallback`` builds the bot that plays the seat after a failure (called with
    ``seed`` and ``time_budget``), ``fallback_name`` names it; by default the
    registry's fallback of external bots.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        seed: int | None = None,
        time_budget: float | None = None,
        timeout: float | None = None,
        fallback: BotFactory | None = None,
        fallback_name: str | None = None,
    ) -> None:
        args = shlex.split(command) if isinstance(command, str) else list(command)
        if not args:
            raise ValueError("external bot: empty command")
        self.args = args
        self.name = "cmd:" + (command if isinstance(command, str) else shlex.join(args))
        self.seed = seed
        self.time_budget = time_budget
        if timeout is not None and timeout <= 0:
            raise ValueError(f"external bot: timeout must be positive, not {timeout}")
        self.timeout = timeout if timeout is not None else (
            time_budget + GRACE if time_budget is not None else DEFAULT_TIMEOUT)
        if fallback is None:
            fallback, fallback_name = DEFAULT_FALLBACK, DEFAULT_FALLBACK.name
        self.fallback_name = fallback_name or getattr(fallback, "name", "fallback")
        self._fallback_factory: BotFactory = fallback
        self.incidents: list[Incident] = []
        """Every failure so far, oldest first."""
        self.fallback: Bot | None = None
        """The bot playing this seat after a failure in the current game (else None)."""
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[object] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._seat: int | None = None
        self._greeted = False
        self._id = 0
        self._finalizer: weakref.finalize[Any, Any] | None = None

    # -- process ------------------------------------------------------------------------

    def _start(self) -> subprocess.Popen[str]:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            return proc
        try:
            proc = subprocess.Popen(
                self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, bufsize=1, encoding="utf-8",
                errors="replace", start_new_session=GROUPS,
            )
        except OSError as e:
            raise _Failure("crash", f"cannot start {self.args[0]!r}: {e}") from None
        self._proc = proc
        self._lines = queue.Queue()
        self._stderr = deque(maxlen=20)
        self._greeted = False
        assert proc.stdout is not None and proc.stderr is not None
        threading.Thread(target=_pump, args=(proc.stdout, self._lines), daemon=True).start()
        threading.Thread(target=_drain, args=(proc.stderr, self._stderr), daemon=True).start()
        if self._finalizer is not None:
            self._finalizer.detach()
        self._finalizer = weakref.finalize(self, _kill, proc)
        return proc

    @property
    def pid(self) -> int | None:
        """The process id of the running program (None when not running)."""
        proc = self._proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def close(self) -> None:
        """Stop the program (closing its stdin first, then killing its process group if
        it lingers). Safe from another thread while :meth:`act` waits for an answer: the
        wait ends at once (the program is gone) and the fallback decides."""
        proc = self._proc
        self._proc = None
        if proc is not None:
            _kill(proc)  # its reader threads see the end of its output and close it
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _send(self, message: dict[str, Any], start: bool = False) -> None:
        """Write one line; ``start``: (re)start the program first (only for a hello)."""
        if start:
            proc = self._start()
        else:
            running = self._proc
            if running is None or running.poll() is not None:
                raise _Failure("crash", self._died("it exited"))
            proc = running
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError) as e:
            raise _Failure("crash", self._died(f"cannot write to it ({e})")) from None

    def _died(self, what: str) -> str:
        proc = self._proc
        code = proc.poll() if proc is not None else None
        if proc is not None and code is None:
            try:
                code = proc.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                code = None
        text = what if code is None else f"{what}; exit status {code}"
        # Give the stderr reader a moment to catch the last words.
        time.sleep(0.05)
        if self._stderr:
            text += f"; stderr: {' | '.join(list(self._stderr)[-3:])}"
        return text

    # -- the game -----------------------------------------------------------------------

    def start_game(self, seat: int, rules: Rules, players: Sequence[str],
                   seed: int | None = None) -> None:
        """A new game: forget the fallback, (re)start the program, send the hello line."""
        self.fallback = None
        self._seat = seat
        if seed is not None:
            self.seed = seed
        try:
            self._hello(seat, rules, players)
        except _Failure as e:
            self._fail(e, seat, 0, 0)

    def _hello(self, seat: int, rules: Rules, players: Sequence[str]) -> None:
        self._send({
            "type": "hello", "protocol": PROTOCOL, "seat": seat, "players": list(players),
            "rules": rules.to_json(), "seed": self.seed, "time_budget": self.time_budget,
            "timeout": self.timeout,
        }, start=True)
        self._greeted = True

    def act(self, view: View) -> Action:
        if self.fallback is not None:
            return self.fallback.act(view)
        try:
            if not self._greeted or self._proc is None or view.seat != self._seat:
                if view.seat is None:
                    raise ValueError("external bot: a spectator's view has no decision")
                self._seat = view.seat
                self._hello(view.seat, view.rules, view.players)
            return self._ask(view)
        except _Failure as e:
            self._fail(e, view.seat, view.hand_no, view.action_count)
            assert self.fallback is not None
            return self.fallback.act(view)

    def _ask(self, view: View) -> Action:
        self._id += 1
        ident = self._id
        legal = [str(a) for a in view.legal]
        self._send({"type": "decide", "protocol": PROTOCOL, "id": ident,
                    "view": view.to_json(), "legal": legal})
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(left, 0.0)) if left > 0 else \
                    self._lines.get_nowait()
            except queue.Empty:
                raise _Failure("timeout", f"no answer within {self.timeout:g} s") from None
            if line is _EOF:
                raise _Failure("crash", self._died("it exited before answering"))
            assert isinstance(line, str)
            if line.strip():
                break
        text = line.strip()
        short = text if len(text) <= 120 else text[:117] + "..."
        try:
            answer = json.loads(text)
        except json.JSONDecodeError:
            raise _Failure("garbled", f"answer is not JSON: {short!r}") from None
        if not isinstance(answer, dict) or not isinstance(answer.get("action"), str):
            raise _Failure("garbled", f"answer has no \"action\" text: {short!r}")
        if "id" in answer and answer["id"] != ident:
            raise _Failure("garbled", f"answer id {answer['id']!r} is not {ident}")
        try:
            act = Action.parse(answer["action"])
        except ActionError as e:
            raise _Failure("garbled", f"answer is not an action: {e}") from None
        if act not in view.legal:
            raise _Failure("illegal", f"{act} is not legal (legal: {', '.join(legal)})")
        return act

    def _fail(self, failure: _Failure, seat: int | None, hand_no: int, count: int) -> None:
        incident = Incident(failure.kind, failure.reason, seat, hand_no, count)
        self.incidents.append(incident)
        log.warning("external bot %s: %s; %s plays this seat for the rest of the game",
                    self.name, incident, self.fallback_name)
        self.close()
        self.fallback = self._fallback_factory(seed=self.seed, time_budget=self.time_budget)

    def end_game(self, view: View) -> None:
        """Send the result line (the seat's final view); nothing is read back."""
        if self.fallback is not None or self._proc is None or not self._greeted:
            return
        # The game is over: a program that left early harms nobody.
        with contextlib.suppress(_Failure):
            self._send({"type": "result", "protocol": PROTOCOL, "seat": view.seat,
                        "view": view.to_json(), "winner": view.winner,
                        "lives": list(view.lives)})
        self._greeted = False
