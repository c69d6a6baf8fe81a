"""Bots thinking off the event loop: a ``concurrent.futures`` worker pool.

A decision is a pure function of the bot's name, a seed and the view, so it can run in
another process: a slow bot never stalls the event loop or other tables, and the same
table replays the same bot decisions. Views travel by pickle; actions are re-interned
on arrival (the engine compares actions by identity). A bot is asked as everywhere else
(:func:`toepen.match.ask`): an answer that cannot be played is its fallback's, and the
:class:`~toepen.match.Incident` comes back with it.

>>> from toepen.engine import Game
>>> from toepen.view import observe
>>> g = Game.new("rulebook", 4, seed=1)
>>> act, incident = decide("random", 3, observe(g, g.turn))
>>> act in g.legal_actions(), incident
(True, None)
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import copyreg
import functools
import logging
import multiprocessing
import os
import threading
import time
from typing import Any

from ..bots.base import (
    CMD_PREFIX,
    DEFAULT,
    DEFAULT_WORD,
    LEVELS,
    bot_names,
    fallback_chain,
    make_bot,
    resolve_name,
)
from ..bots.expert import Evaluation
from ..engine.actions import Action, action
from ..match import Incident, Report, ask, fall_back
from ..review import evaluate
from ..view import View

PREFERRED = fallback_chain(DEFAULT)
"""The default bot, then the bots that stand in for it (``expert``, ``heuristic``, ``random``)."""


def _reduce_action(a: Action) -> tuple[Any, tuple[int]]:
    return action, (int(a),)


# Unpickled actions must be the interned ones (the engine tests ``act is STAY``).
copyreg.pickle(Action, _reduce_action)


@functools.cache
def available_bots() -> tuple[str, ...]:
    """Bot names that can be built here (checked once per process)."""
    out = []
    for name in bot_names():
        try:
            make_bot(name, seed=0)
        except Exception:  # noqa: BLE001 - a bot module that fails to import is unavailable
            continue
        out.append(name)
    return tuple(out)


def default_bot() -> str:
    """The strongest installed bot: ``expert``, else ``heuristic``, else ``random``."""
    have = set(available_bots())
    for name in PREFERRED:
        if name in have:
            return name
    raise RuntimeError("no bot is available")


def available_levels() -> list[dict[str, str]]:
    """The levels whose bot can be built here, weakest first: ``{"name", "bot"}`` each
    (what the lobby offers; the words are the catalogs' ``level.NAME``)."""
    have = set(available_bots())
    return [{"name": lv.name, "bot": lv.bot} for lv in LEVELS if lv.bot in have]


def resolve_bot(name: str) -> str:
    """A bot name a table may use (``default`` and a level resolved to their bot), or
    ValueError naming it."""
    if name == DEFAULT_WORD:
        return default_bot()
    name = resolve_name(name)
    if name not in available_bots():
        raise ValueError(f"unknown bot {name!r} (available: {', '.join(available_bots())})")
    return name


def decide(name: str, seed: int, view: View) -> tuple[Action, Incident | None]:
    """One decision of bot ``name`` (seeded) for ``view``, always one of ``view.legal``
    (:func:`toepen.match.ask`), and the incident if the fallback made it.

    A built-in bot only: the pool never starts a program, whatever name reaches it (a
    stored table's seat included); ``cmd:...`` is refused with ValueError.
    """
    if name.startswith(CMD_PREFIX):
        raise ValueError("the bot pool plays built-in bots only, never a command")
    got: list[Incident] = []
    try:
        bot = make_bot(name, seed=seed)
    except Exception as e:  # noqa: BLE001 - a bot that cannot be built fails like any
        incident = fall_back(view, name, "error", f"{type(e).__name__}: {e}", seed)
        return incident.action, incident
    act = ask(bot, view, seed, got.append, name)
    return act, (got[0] if got else None)


def review_values(view: View, samples: int, seed: int,
                  hands: tuple[int, ...] | None) -> tuple[list[tuple[int, float]], int,
                                                          list[int], int]:
    """One decision of a review valued in the pool (:func:`toepen.review.evaluate`):
    every legal action's (id, value), the best's id, the mixed actions' ids and the
    choice's id."""
    ev = evaluate(view, samples=samples, seed=seed, hands=hands)
    return ([(int(a), v) for a, v in ev.values.items()], int(ev.best),
            [int(a) for a in ev.near], int(ev.choice))


def _worker_init(parent: int) -> None:
    """In each worker: intern actions, and exit as soon as the server is gone (a killed
    server cannot tell its workers, and they would wait for work forever)."""
    copyreg.pickle(Action, _reduce_action)
    # An incident comes back with the decision and the scheduler logs it with its table.
    logging.getLogger("toepen.match").setLevel(logging.ERROR)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="toepen-bot-watchdog", daemon=True).start()


class BotPool:
    """A pool of workers that run :func:`decide`; ``kind`` is ``process`` or ``thread``."""

    def __init__(self, workers: int = 2, kind: str = "process") -> None:
        self.kind = kind
        self.workers = workers
        self.executor: concurrent.futures.Executor
        if kind == "process":
            self.executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_init,
                initargs=(os.getpid(),),
            )
        elif kind == "thread":
            self.executor = concurrent.futures.ThreadPoolExecutor(
                max_workers=workers, thread_name_prefix="toepen-bot"
            )
        else:
            raise ValueError(f"bot pool kind: 'process' or 'thread', not {kind!r}")

    def warm(self) -> None:
        """Start the workers now (a process imports the bots once) instead of at the
        first decision."""
        self.executor.submit(available_bots)

    async def decide(self, name: str, seed: int, view: View,
                     report: Report | None = None) -> Action:
        """The bot's action, computed in the pool (an incident handed to ``report``)."""
        loop = asyncio.get_running_loop()
        result, incident = await loop.run_in_executor(self.executor, decide, name, seed, view)
        if incident is not None and report is not None:
            report(incident)
        return action(int(result))

    async def review_values(self, view: View, samples: int, seed: int,
                            hands: tuple[int, ...] | None) -> Evaluation:
        """One decision of a review valued in the pool (:func:`review_values`); a
        :class:`~toepen.review.ReviewError` comes back raised."""
        loop = asyncio.get_running_loop()
        pairs, best, near, choice = await loop.run_in_executor(
            self.executor, review_values, view, samples, seed, hands)
        return Evaluation({action(a): v for a, v in pairs}, action(best),
                          tuple(action(a) for a in near), action(choice))

    def close(self) -> None:
        """Stop the workers (waiting for processes to exit, so none is left behind)."""
        self.executor.shutdown(wait=self.kind == "process", cancel_futures=True)
