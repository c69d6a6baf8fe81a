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
import contextlib
import copyreg
import functools
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

from ...bots.base import (
    CMD_PREFIX,
    DEFAULT,
    DEFAULT_WORD,
    LEVELS,
    bot_names,
    fallback_chain,
    make_bot,
    resolve_name,
)
from ...bots.expert import Evaluation
from ...engine.actions import Action, action
from ...match import Incident, Report, ask, fall_back
from ...review import evaluate
from ...view import View

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


MOVE, HINT, REVIEW = 0, 1, 2
"""The lanes of the pool, first served first: a table's move (a bot or a stand-in), a
hint, a review's decision."""
LANES = (MOVE, HINT, REVIEW)


def extra_share(workers: int) -> int:
    """The workers hints and reviews may hold together: half the pool, at least one.

    >>> [extra_share(n) for n in (1, 2, 3, 4, 8)]
    [1, 1, 1, 2, 4]
    """
    return max(1, workers // 2)


class Lanes:
    """Who gets the next free worker of the pool.

    At most ``workers`` jobs are handed to the executor at once (so none waits in its
    queue behind another), a table's move before any hint, a hint before any review's
    decision, and hints and reviews together on at most ``share`` workers: with two
    workers or more a table's move always finds one that no hint or review holds (with
    one, it waits for at most the one hint or review decision under way). A slot is
    handed over as it frees, never raced for.

    Table moves wait in one queue per owner (the client whose table it is: its creator's
    address, play now's asker), served in turn: a client with twenty tables of bots gets
    a free worker as often as a client with one, not twenty times as often, so its
    tables cannot slow another's (issue 37's soak).
    """

    def __init__(self, workers: int, share: int) -> None:
        self.workers = max(1, workers)
        self.share = max(1, min(share, self.workers))
        self.busy = 0
        """Jobs in the executor."""
        self.extra = 0
        """Of them, hints and reviews."""
        self.waiting: tuple[deque[asyncio.Future[None]], ...] = tuple(deque() for _ in LANES)
        """Hints and reviews waiting, in order (the move lane's deque stays empty)."""
        self.moves: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        """Table moves waiting, by owner; the owner served last goes to the end."""

    def _may(self, lane: int) -> bool:
        return self.busy < self.workers and (lane == MOVE or self.extra < self.share)

    def _take(self, lane: int) -> None:
        self.busy += 1
        if lane != MOVE:
            self.extra += 1

    def queued(self, lane: int) -> int:
        """Jobs of ``lane`` waiting for a worker."""
        if lane == MOVE:
            return sum(len(q) for q in self.moves.values())
        return len(self.waiting[lane])

    def _queue(self, lane: int, owner: str) -> deque[asyncio.Future[None]]:
        if lane != MOVE:
            return self.waiting[lane]
        queue = self.moves.get(owner)
        if queue is None:
            queue = self.moves[owner] = deque()
        return queue

    async def acquire(self, lane: int, owner: str = "") -> None:
        """Wait for a worker of ``lane`` (it is this caller's until :meth:`release`);
        a table's move waits in its ``owner``'s queue."""
        if self._may(lane):
            self._take(lane)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue = self._queue(lane, owner)
        queue.append(fut)
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():  # handed over meanwhile: pass it on
                self.release(lane)
            elif fut in queue:  # (a release may have dropped it already)
                queue.remove(fut)
            raise

    def _next_move(self) -> asyncio.Future[None] | None:
        """The first waiting move of the owner whose turn it is (who then goes last)."""
        for owner in list(self.moves):
            queue = self.moves[owner]
            while queue and queue[0].done():  # cancelled while waiting
                queue.popleft()
            if not queue:
                del self.moves[owner]
                continue
            fut = queue.popleft()
            if queue:
                self.moves.move_to_end(owner)
            else:
                del self.moves[owner]
            return fut
        return None

    def release(self, lane: int) -> None:
        """A job of ``lane`` left the executor: its worker goes to the next in line."""
        self.busy -= 1
        if lane != MOVE:
            self.extra -= 1
        while self.busy < self.workers:
            move = self._next_move()
            if move is not None:
                self._take(MOVE)
                move.set_result(None)
                continue
            for nxt in (HINT, REVIEW):
                queue = self.waiting[nxt]
                while queue and queue[0].done():  # cancelled while waiting
                    queue.popleft()
                if queue and self._may(nxt):
                    self._take(nxt)
                    queue.popleft().set_result(None)
                    break
            else:
                return


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Answers(Generic[K, V]):
    """Answers by key, worked out once: concurrent asks of one key share one
    computation, and the last ``most`` answers are kept (the least recently asked
    forgotten first). A computation that fails is not kept (the next ask tries again)."""

    def __init__(self, most: int = 1024) -> None:
        self.most = most
        self.kept: OrderedDict[K, V] = OrderedDict()
        self.running: dict[K, asyncio.Task[V]] = {}
        self.computed = 0
        """Computations started (the others were kept or shared answers)."""

    async def get(self, key: K, work: Callable[[], Awaitable[V]]) -> V:
        """The answer of ``key``: kept, shared with an ask under way, or ``work()``'s."""
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
        task = self.running.get(key)
        if task is None:
            async def compute() -> V:
                return await work()

            task = asyncio.ensure_future(compute())
            self.running[key] = task
            self.computed += 1

            def done(t: asyncio.Task[V]) -> None:
                if self.running.get(key) is t:
                    del self.running[key]
                if not t.cancelled() and t.exception() is None:
                    self.kept[key] = t.result()
                    while len(self.kept) > self.most:
                        self.kept.popitem(last=False)

            task.add_done_callback(done)
        # one asker leaving (a closed connection) does not cancel the others' answer
        return await asyncio.shield(task)


class BotPool:
    """A pool of workers that run :func:`decide`; ``kind`` is ``process`` or ``thread``.

    Table moves, hints and reviews share its workers through :class:`Lanes`: hints and
    reviews together on :func:`extra_share` of them at most (``share``), the tables'
    moves first."""

    def __init__(self, workers: int = 2, kind: str = "process",
                 share: int | None = None) -> None:
        self.kind = kind
        self.workers = workers
        self.lanes = Lanes(workers, extra_share(workers) if share is None else share)
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

    async def run(self, lane: int, fn: Callable[..., Any], *args: Any,
                  owner: str = "") -> Any:
        """``fn(*args)`` in a worker, when :class:`Lanes` gives ``lane`` one (a table's
        move: in its ``owner``'s turn). The worker counts as held until the job ends,
        even if the caller stops waiting (a job under way in a process cannot be
        stopped)."""
        await self.lanes.acquire(lane, owner)
        loop = asyncio.get_running_loop()
        try:
            job = self.executor.submit(fn, *args)
        except BaseException:
            self.lanes.release(lane)
            raise

        def ended(_job: concurrent.futures.Future[Any]) -> None:
            with contextlib.suppress(RuntimeError):  # a closed loop: the server is gone
                loop.call_soon_threadsafe(self.lanes.release, lane)

        job.add_done_callback(ended)
        return await asyncio.wrap_future(job)

    async def decide(self, name: str, seed: int, view: View,
                     report: Report | None = None, lane: int = MOVE,
                     owner: str = "") -> Action:
        """The bot's action, computed in the pool (an incident handed to ``report``);
        ``lane`` :data:`HINT` for a hint; a table's move in its ``owner``'s turn
        (:class:`Lanes`)."""
        result, incident = await self.run(lane, decide, name, seed, view, owner=owner)
        if incident is not None and report is not None:
            report(incident)
        return action(int(result))

    async def review_values(self, view: View, samples: int, seed: int,
                            hands: tuple[int, ...] | None, lane: int = REVIEW) -> Evaluation:
        """One decision of a review valued in the pool (:func:`review_values`, lane
        :data:`REVIEW`, or ``lane``: the hint's is :data:`HINT`); a
        :class:`~toepen.review.ReviewError` comes back raised."""
        pairs, best, near, choice = await self.run(lane, review_values, view,
                                                   samples, seed, hands)
        return Evaluation({action(a): v for a, v in pairs}, action(best),
                          tuple(action(a) for a in near), action(choice))

    def close(self) -> None:
        """Stop the workers (waiting for processes to exit, so none is left behind)."""
        self.executor.shutdown(wait=self.kind == "process", cancel_futures=True)
