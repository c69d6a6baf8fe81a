"""External bots at server tables: programs the operator registers by name.

``toepen serve --bot mybot="cmd:python mybot.py"`` registers the program as the bot
``mybot``; clients choose it by that name like a built-in bot. A client can never name a
command: ``cmd:...`` is not a bot name at a server table.

A built-in bot is a pure function of a seed and a view (it thinks in the bot pool); an
external bot is a process that follows its game. :class:`ExternalSeat` holds one
:class:`~toepen.bots.external.ExternalBot` for one seat of one table, in the server
process, with a thread of its own: every call to the program (``start_game``, ``act``,
``end_game``, ``close``) runs in that thread, one after the other, so the event loop never
waits on the program and two decisions never talk to it at once. The program starts at
the seat's first decision and is stopped when the game ends, when the seat is cleared
and when the server stops.

What clients are told of an incident comes from :func:`public_incident`: its kind and a
fixed text, never the program's answer or its stderr (they may name the seat's cards).

>>> parse_bot_option("mybot=cmd:sh mybot.sh --fast")
('mybot', 'sh mybot.sh --fast')
>>> parse_bot_option("heuristic=cmd:python3 mybot.py")
Traceback (most recent call last):
...
ValueError: 'heuristic' is the name of a built-in bot: choose another name
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import re
import shlex
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ...bots.base import CMD_PREFIX, EXTERNAL_FALLBACK, bot_names
from ...bots.base import RESERVED as BOT_RESERVED
from ...bots.external import ExternalBot, Incident
from ...engine.actions import Action
from ...rules import Rules
from ...view import View

NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,23}$")
"""An external bot's name: a letter, then letters, digits, ``_`` or ``-`` (24 at most)."""
RESERVED = BOT_RESERVED
"""Names an external bot may not take: the registry's built-in bots and ``default``."""
FALLBACK = EXTERNAL_FALLBACK
"""The built-in bot that plays a seat whose external bot failed or is not registered."""


def reserved_names() -> set[str]:
    """Names an external bot may not take (the built-in bots and ``default``)."""
    return {*RESERVED, *bot_names()}


def check_external(name: str, command: str) -> list[str]:
    """The program's arguments, or ValueError naming what is wrong with ``name``/``command``.

    ``command`` is what follows ``cmd:``; its program must be found (on ``PATH``, or a
    path).
    """
    if not NAME.match(name):
        raise ValueError(f"name {name!r}: a letter, then letters, digits, '_' or '-' "
                         "(24 characters at most)")
    if name.lower() in {n.lower() for n in reserved_names()}:
        raise ValueError(f"{name!r} is the name of a built-in bot: choose another name")
    try:
        args = shlex.split(command)
    except ValueError as e:
        raise ValueError(f"{name}: cannot split the command {command!r} ({e})") from None
    if not args:
        raise ValueError(f"{name}: 'cmd:' needs a command after it, e.g. "
                         f"{name}=\"cmd:python mybot.py\"")
    if shutil.which(args[0]) is None:
        raise ValueError(f"{name}: program {args[0]!r} not found (not on PATH, not an "
                         "executable file)")
    return args


def parse_bot_option(text: str) -> tuple[str, str]:
    """``NAME=cmd:COMMAND`` as (name, command), or ValueError naming what is wrong."""
    name, sep, value = text.partition("=")
    if not sep:
        raise ValueError(f"{text!r}: NAME=cmd:COMMAND expected, e.g. "
                         "mybot=\"cmd:python mybot.py\"")
    name = name.strip()
    if not value.startswith(CMD_PREFIX):
        raise ValueError(f"{name}: the value must start with 'cmd:' (NAME=cmd:COMMAND), "
                         f"not {value!r}")
    command = value[len(CMD_PREFIX):].strip()
    check_external(name, command)
    return name, command


def parse_bot_options(texts: Iterable[str]) -> dict[str, str]:
    """Every ``--bot NAME=cmd:COMMAND``, checked; a name given twice is refused."""
    out: dict[str, str] = {}
    for text in texts:
        name, command = parse_bot_option(text)
        if name.lower() in {n.lower() for n in out}:
            raise ValueError(f"{name!r} is registered twice")
        out[name] = command
    return out


@dataclass(frozen=True)
class ExternalBots:
    """The operator's external bots: name -> command, and the per-decision time limit."""

    commands: Mapping[str, str] = field(default_factory=dict)
    timeout: float | None = None
    """Seconds per decision (None: the :class:`ExternalBot` default)."""

    def __post_init__(self) -> None:
        for name, command in self.commands.items():
            check_external(name, command)
        if self.timeout is not None and not self.timeout > 0:
            raise ValueError(f"bot timeout: must be positive, not {self.timeout}")

    def __contains__(self, name: object) -> bool:
        return name in self.commands

    def names(self) -> list[str]:
        return list(self.commands)


def public_incident(kind: str, timeout: float) -> str:
    """What the table's clients are told of an incident: its kind and a fixed text.

    The program's own words (its answer, its stderr) go to the server's log only: they
    may name the cards of the seat, which the other seats must not see.

    >>> public_incident("timeout", 2.0)
    'timeout: no answer within 2 s'
    """
    texts = {
        "crash": "the program stopped or could not start",
        "timeout": f"no answer within {timeout:g} s",
        "garbled": "the answer was not an action",
        "illegal": "the answer was not a legal action",
    }
    return f"{kind}: {texts.get(kind, 'the program failed')}"


class ExternalSeat:
    """One external bot at one seat of one table, with a thread of its own.

    Calls from the event loop are queued on the thread, so they reach the program in
    order; after :meth:`finish` or :meth:`kill` nothing starts the program again.
    """

    def __init__(self, name: str, command: str, *, seat: int, seed: int,
                 timeout: float | None) -> None:
        self.name = name
        self.seat = seat
        self.seed = seed
        self.bot = ExternalBot(command, seed=seed, timeout=timeout)
        self.thread = concurrent.futures.ThreadPoolExecutor(
            1, thread_name_prefix=f"toepen-external-{name}")
        self.started = False
        self.closed = False
        self.reported = 0

    @property
    def timeout(self) -> float:
        return self.bot.timeout

    @property
    def pid(self) -> int | None:
        return self.bot.pid

    def _act(self, rules: Rules, players: Sequence[str], view: View) -> Action | None:
        if self.closed:
            return None
        if not self.started:
            self.started = True
            self.bot.start_game(self.seat, rules, players, self.seed)
        return self.bot.act(view)

    async def act(self, rules: Rules, players: Sequence[str], view: View) -> Action | None:
        """The program's decision (or its fallback's); None once the seat is closed.

        The first call starts the program and sends its ``hello``.
        """
        if self.closed:
            return None
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.thread, self._act, rules, players, view)
        except RuntimeError:  # the thread was shut down meanwhile: the seat is closed
            if self.closed:
                return None
            raise

    def new_incidents(self) -> list[Incident]:
        """Incidents not yet reported (each is returned once)."""
        fresh = self.bot.incidents[self.reported:]
        self.reported += len(fresh)
        return fresh

    def _finish(self, view: View | None) -> None:
        if not self.closed:
            self.closed = True
            if view is not None and self.started:
                self.bot.end_game(view)
        self.bot.close()

    async def finish(self, view: View | None = None) -> None:
        """After what is queued: send the result (``view``, if any), stop the program."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(RuntimeError):  # the thread is already shut down: killed
            await loop.run_in_executor(self.thread, self._finish, view)
        self.thread.shutdown(wait=False)

    def kill(self) -> None:
        """Stop the program now, whatever it is doing (blocking: call it in a thread)."""
        self.closed = True
        self.bot.close()  # a decision in progress ends at once (crash, then fallback)
        self.thread.shutdown(wait=True)  # what is queued sees ``closed`` and returns
        self.bot.close()  # in case a decision restarted it meanwhile
