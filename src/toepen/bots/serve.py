"""A built-in bot served over the external-bot protocol: ``toepen bot NAME``.

The other side of :mod:`toepen.bots.external`: read the JSON lines an engine writes on
stdin (``hello``, ``decide``, ``result``; ``docs/bots.md``), answer each ``decide``
with one line on stdout, and leave when stdin closes. Each ``hello`` builds the bot
afresh with the seed and time budget it names, and every decision is the bot's own on
:meth:`View.from_json <toepen.view.View.from_json>` of the view sent, so that a bot
served from another checkout (``toepen arena --baseline tree:DIR:expert``) plays as
that checkout's bot would in-process: same seed, same view, same decision.

A line that is not the protocol (not JSON, an unknown type, a view that does not read)
is said on stderr and ends the program with status 2: the engine sees the bot exit and
its fallback plays the seat (an incident), as with any failing program.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import IO, Any

from ..rules import Rules
from ..view import View, ViewError
from .external import PROTOCOL
from .protocol import Bot

__all__ = ["ProtocolError", "serve"]


class ProtocolError(ValueError):
    """A line from the engine that is not the protocol; the message says what is wrong."""


def serve(make: Callable[[int | None, float | None], Bot], stdin: IO[str],
          stdout: IO[str]) -> int:
    """Serve the bot that ``make(seed, time_budget)`` builds, line by line, until ``stdin``
    ends; the number of decisions answered. ProtocolError for a line that is not the
    protocol (nothing is written for it)."""
    bot: Bot | None = None
    answered = 0
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError as e:
            raise ProtocolError(f"line {number}: not JSON ({e})") from None
        if not isinstance(msg, dict):
            raise ProtocolError(f"line {number}: not a JSON object")
        kind = msg.get("type")
        if msg.get("protocol", PROTOCOL) != PROTOCOL:
            raise ProtocolError(f"line {number}: protocol {msg.get('protocol')!r}, "
                                f"this bot speaks {PROTOCOL}")
        if kind == "hello":
            bot = _hello(make, msg, number)
        elif kind == "decide":
            view = _view(msg.get("view"), number)
            if bot is None:  # no hello: seeded as the protocol leaves it (no seed)
                bot = make(None, None)
            act = bot.act(view)
            answer: dict[str, Any] = {"action": str(act)}
            if "id" in msg:
                answer["id"] = msg["id"]
            stdout.write(json.dumps(answer) + "\n")
            stdout.flush()
            answered += 1
        elif kind == "result":
            hook: Any = getattr(bot, "end_game", None)
            if bot is not None and callable(hook):
                hook(_view(msg.get("view"), number))
        else:
            raise ProtocolError(f"line {number}: unknown message type {kind!r}")
    return answered


def _hello(make: Callable[[int | None, float | None], Bot], msg: dict[str, Any],
           number: int) -> Bot:
    seed, budget = msg.get("seed"), msg.get("time_budget")
    if seed is not None and type(seed) is not int:
        raise ProtocolError(f"line {number}: hello: seed must be an integer or null")
    if budget is not None and (type(budget) not in (int, float) or budget < 0):
        raise ProtocolError(f"line {number}: hello: time_budget must be a number or null")
    bot = make(seed, None if budget is None else float(budget))
    hook: Any = getattr(bot, "start_game", None)
    if callable(hook):
        try:
            rules = Rules.from_json(msg.get("rules", "rulebook"))
        except ValueError as e:
            raise ProtocolError(f"line {number}: hello: rules: {e}") from None
        players = msg.get("players")
        if not isinstance(players, list) or type(msg.get("seat")) is not int:
            raise ProtocolError(f"line {number}: hello: needs seat and players")
        hook(msg["seat"], rules, tuple(str(p) for p in players), seed)
    return bot


def _view(data: Any, number: int) -> View:
    try:
        return View.from_json(data)
    except ViewError as e:
        raise ProtocolError(f"line {number}: {e}") from None
