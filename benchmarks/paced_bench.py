"""How many tables one process holds at a human pace::

    uv run python benchmarks/paced_bench.py [--processes N ...] [--tables N ...] [--pace S]
        [--window S] [--route spread|table ...] [--cluster] [--cpu-share F] [--json]

(``toepen bench --server --paced`` until the server's benchmarks left the package.)

Each table acts at a human pace (one action every ``pace`` seconds, default 1); the
benchmark adds tables in steps and, over a window at each step, measures the latency
from sending an action to each seat receiving its ``state`` (p99). It reports the
largest step whose p99 stays under the bound (100 ms) while the tables keep the pace
(:data:`KEPT`), with the servers' CPU per action. ``processes=N`` runs N ``toepen serve
--redis`` behind one throwaway Redis and one throwaway PostgreSQL cluster (both started
here, as the tests do), every table's seats spread over the processes (or all on one:
``route``), so the scaling per process shows.

Every seat is a WebSocket of this process, choosing a random legal action, as in
``benchmarks/server_bench.py``; the servers and this client share the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from cpu_share import limited  # the benchmarks' own modules, beside this one
from rich.table import Table
from server_bench import cpu_seconds, free_port, raise_fd_limit, server_env, wait_healthy
from services import throwaway_postgres, throwaway_redis

STEPS = (25, 50, 100, 200, 400, 800, 1600)
"""Table counts the paced search tries, in order, until a step is not held."""
KEPT = 0.95
"""A step is held only if its tables kept at least this share of the pace: a client or
a database that falls behind sends fewer actions rather than slower ones, which the
latency alone does not show (3 limited processes "held" 440 tables at 333 actions a
second, the client's limit)."""
ROUTES = ("spread", "table")
"""Where a table's seats connect: on every process in turn, or all on one."""


@dataclass
class PacedStep:
    """One step of the paced search: ``tables`` acting at the pace over a window."""

    tables: int
    actions: int = 0
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    server_cpu: float = 0.0
    ended: int = 0
    """Tables whose game was over by the end of the window (they no longer act)."""

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return 0.0
        data = sorted(self.latencies)
        return data[min(len(data) - 1, round(q / 100 * (len(data) - 1)))] * 1000

    @property
    def cpu_ms_per_action(self) -> float:
        return self.server_cpu / self.actions * 1000 if self.actions else 0.0

    def kept(self, pace: float) -> bool:
        """Whether the tables still playing acted at (nearly) the pace: :data:`KEPT` of
        it."""
        return (self.seconds > 0
                and self.actions / self.seconds >= KEPT * (self.tables - self.ended) / pace)

    def held(self, bound_ms: float, pace: float) -> bool:
        """p99 under the bound, at the pace."""
        return self.percentile(99) < bound_ms and self.kept(pace)


@dataclass
class PacedResult:
    """The paced search at ``processes`` processes."""

    processes: int
    bound_ms: float
    steps: list[PacedStep] = field(default_factory=list)
    route: str = "spread"
    """``spread``: each table's seats on every process; ``table``: all on one."""
    stack: str = "sqlite"
    """``sqlite`` (one process, the default server) or ``cluster`` (PostgreSQL and Redis)."""
    cpu_share: float | None = None
    """Each server process limited to this share of one core (None: not limited)."""
    pace: float = 1.0
    """Seconds between a table's actions."""

    @property
    def held(self) -> int:
        """The most tables whose p99 stayed under the bound at the pace (0: not even
        the first step)."""
        ok = [s.tables for s in self.steps if s.held(self.bound_ms, self.pace)]
        return max(ok) if ok else 0

    def to_json(self) -> dict[str, Any]:
        return {"processes": self.processes, "route": self.route, "stack": self.stack,
                "bound_ms": self.bound_ms, "pace": self.pace, "cpu_share": self.cpu_share,
                "tables_held": self.held,
                "tables_held_per_process": round(self.held / self.processes, 1),
                "steps": [{"tables": s.tables, "actions": s.actions,
                           "actions_per_second": round(s.actions / s.seconds, 1)
                           if s.seconds else 0.0,
                           "kept_pace": s.kept(self.pace), "ended": s.ended,
                           "latency_ms_p50": round(s.percentile(50), 2),
                           "latency_ms_p99": round(s.percentile(99), 2),
                           "server_cpu_ms_per_action": round(s.cpu_ms_per_action, 3)}
                          for s in self.steps]}


# -- N servers (on the throwaway PostgreSQL and Redis of .services) -------------------------------


@contextlib.contextmanager
def _servers(n: int, most: int, cluster: bool = False) -> Iterator[list[tuple[str, int]]]:
    """``n`` servers: one on SQLite (unless ``cluster``), or ``n`` sharing PostgreSQL and
    Redis; (url, pid)."""
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="toepen-paced-"))
        extra: list[str] = []
        if n == 1 and not cluster:
            db = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        else:
            db = stack.enter_context(throwaway_postgres())
            extra = ["--redis", stack.enter_context(throwaway_redis())]
        procs: list[subprocess.Popen[bytes]] = []

        def stop() -> None:
            for p in procs:
                p.send_signal(signal.SIGTERM)
            for p in procs:
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()

        stack.callback(stop)
        out = []
        for i in range(n):
            port = free_port()
            cmd = [sys.executable, "-m", "toepen.server", "--port", str(port), "--db", db,
                   "--bot-delay", "0", "--log-level", "warning", "--tables-per-client",
                   str(most + 10), "--max-tables", str(most + 10), "--rate", "1000",
                   "--sockets-per-address", "1000000", *extra]
            log = Path(tmp) / f"server{i}.log"
            with log.open("wb") as f:
                procs.append(subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT,
                                              env=server_env()))
            url = f"http://127.0.0.1:{port}"
            # one at a time: the first applies the migrations
            wait_healthy(procs[-1], url, log, what=f"server {i}")
            out.append((url, procs[-1].pid))
        yield out


# -- the paced driver ---------------------------------------------------------------------


class _Paced:
    def __init__(self, table_id: str, tokens: list[str], seed: int, pace: float) -> None:
        self.id = table_id
        self.tokens = tokens
        self.rng = random.Random(seed)
        self.pace = pace
        self.next_at = time.perf_counter() + self.rng.random() * pace
        self.sent: dict[int, float] = {}
        self.ready = 0
        """Seats that got their first state (connected, welcomed, history read)."""
        self.over = False
        """Its game is over: it acts no more."""


class _Driver:
    def __init__(self, urls: list[str], pace: float, lives: int, route: str = "spread") -> None:
        self.urls = urls
        self.route = route
        self.pace = pace
        self.lives = lives
        self.tables: list[_Paced] = []
        self.step: PacedStep | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.errors = 0

    async def add(self, http: httpx.AsyncClient, count: int) -> None:
        sem = asyncio.Semaphore(16)

        async def make(i: int) -> None:
            async with sem:
                base = self.urls[i % len(self.urls)]
                r = await http.post(f"{base}/api/tables", json={
                    "preset": "rulebook", "options": {"lives": self.lives}, "size": 4,
                    "name": "Seat0", "autostart": True, "idle_seconds": 3600})
                r.raise_for_status()
                tid = r.json()["table"]["id"]
                tokens = [r.json()["token"]]
                # spread: seat k of table i on process i + k; table: every seat on
                # process i (as a proxy that routes by table sends them)
                spread = 1 if self.route == "spread" else 0
                for k in range(1, 4):
                    j = await http.post(f"{self.urls[(i + spread * k) % len(self.urls)]}"
                                        f"/api/tables/{tid}/join", json={"name": f"Seat{k}"})
                    j.raise_for_status()
                    tokens.append(j.json()["token"])
                t = _Paced(tid, tokens, seed=i, pace=self.pace)
                self.tables.append(t)
                for k, tok in enumerate(tokens):
                    url = self.urls[(i + spread * k) % len(self.urls)].replace("http://",
                                                                               "ws://")
                    self.tasks.append(asyncio.get_running_loop().create_task(
                        self._seat(url, t, tok)))

        start = len(self.tables)
        await asyncio.gather(*(make(i) for i in range(start, start + count)))

    async def _seat(self, url: str, table: _Paced, token: str) -> None:
        from websockets.asyncio.client import connect

        with contextlib.suppress(Exception):
            async with connect(f"{url}/ws/{table.id}", max_size=2**20, open_timeout=120,
                               ping_interval=None) as ws:
                await ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
                async for raw in ws:
                    msg = orjson.loads(raw)  # the client's own cost, kept small
                    if msg["type"] == "error":
                        self.errors += 1
                        continue
                    if msg["type"] != "state":
                        continue
                    if "history" in msg:
                        table.ready += 1
                    n = msg["state"]
                    sent = table.sent.get(n - 1)
                    step = self.step
                    if sent is not None and msg["last"] is not None and step is not None:
                        step.latencies.append(time.perf_counter() - sent)
                    view = msg["view"]
                    if view["winner"] is not None:
                        table.over = True
                        return
                    if view["legal"]:
                        wait = table.next_at - time.perf_counter()
                        if wait > 0:
                            await asyncio.sleep(wait)
                        table.next_at = time.perf_counter() + table.pace
                        table.sent[n] = time.perf_counter()
                        if self.step is not None:  # counted when sent (after the wait)
                            self.step.actions += 1
                        await ws.send(json.dumps({"v": 1, "type": "act",
                                                  "action": table.rng.choice(view["legal"]),
                                                  "state": n}))


def run_paced(processes: int = 1, steps: tuple[int, ...] = STEPS, pace: float = 1.0,
              window: float = 6.0, bound_ms: float = 100.0, lives: int = 99,
              progress: Callable[[str], None] | None = None, route: str = "spread",
              cluster: bool = False, cpu_share: float | None = None) -> PacedResult:
    """The paced search at ``processes`` processes (see the module docstring):
    ``route`` ``spread`` puts each table's seats on every process (every action
    relayed somewhere), ``table`` all of them on one process (a proxy routing by
    table); ``cluster`` runs even one process on PostgreSQL and Redis; ``cpu_share``
    limits each server process to that share of one core (:mod:`.cpu_share`: a
    process with a core of its own on a bigger machine, scaled down). Each table's
    game has ``lives`` (99: thousands of actions, longer than a search); a table whose
    game is over acts no more, and a step's pace is asked of the others (``ended``)."""
    if route not in ROUTES:
        raise ValueError(f"route {route!r}: one of {', '.join(ROUTES)}")
    raise_fd_limit()
    stack = "cluster" if cluster or processes > 1 else "sqlite"
    result = PacedResult(processes, bound_ms, route=route, stack=stack, cpu_share=cpu_share,
                         pace=pace)
    say = progress or (lambda _text: None)
    with contextlib.ExitStack() as resources:
        servers = resources.enter_context(_servers(processes, max(steps), cluster=cluster))
        urls = [u for u, _ in servers]
        pids = [p for _, p in servers]
        if cpu_share is not None:
            resources.enter_context(limited(pids, cpu_share))

        async def main() -> None:
            driver = _Driver(urls, pace, lives, route)
            async with httpx.AsyncClient(timeout=120) as http:
                for n in steps:
                    say(f"{processes} process(es): {n} tables, creating")
                    await driver.add(http, n - len(driver.tables))
                    deadline = time.monotonic() + 60  # every seat connected, then under way
                    while (any(t.ready < 4 for t in driver.tables)
                           and time.monotonic() < deadline):
                        await asyncio.sleep(0.1)
                    # routed by table: the leases move to where the clients are first
                    settle = 3.0 if route == "table" and processes > 1 else 0.0
                    await asyncio.sleep(min(2.0, pace * 2) + settle)
                    step = PacedStep(n)
                    # this client's own collector pauses (a full pass took 90 to 140 ms
                    # at 120 tables) are not the servers' latency: none while measuring
                    collecting = gc.isenabled()
                    gc.collect()
                    gc.disable()
                    cpu0 = sum(cpu_seconds(p) for p in pids)
                    t0 = time.perf_counter()
                    driver.step = step
                    say(f"{processes} process(es): {n} tables, measuring {window:.0f} s")
                    try:
                        await asyncio.sleep(window)
                    finally:
                        if collecting:
                            gc.enable()
                    driver.step = None
                    step.seconds = time.perf_counter() - t0
                    step.server_cpu = sum(cpu_seconds(p) for p in pids) - cpu0
                    step.ended = sum(1 for t in driver.tables if t.over)
                    result.steps.append(step)
                    if not step.held(bound_ms, pace):
                        break
            for task in driver.tasks:
                task.cancel()
            await asyncio.gather(*driver.tasks, return_exceptions=True)

        asyncio.run(main())
    return result


def table(results: list[PacedResult]) -> Table:
    """The paced searches as a terminal table: one row per process count and step."""
    out = Table(title="paced_bench (each table one action per "
                "second; servers and client share this machine)")
    shares = any(r.cpu_share is not None for r in results)
    for col in ("processes", *(("core share",) if shares else ()), "stack", "seats", "tables",
                "actions/s", "p50 ms", "p99 ms", "CPU ms/action", "held (p99 < bound, at pace)",
                "per process"):
        out.add_column(col, justify="right")
    for r in results:
        for i, s in enumerate(r.steps):
            last = i == len(r.steps) - 1
            share = () if not shares else ("" if r.cpu_share is None else f"{r.cpu_share:g}",)
            out.add_row(str(r.processes), *share, r.stack,
                        "" if r.processes == 1 else r.route, str(s.tables),
                        f"{s.actions / s.seconds:,.0f}" if s.seconds else "",
                        f"{s.percentile(50):.1f}", f"{s.percentile(99):.1f}",
                        f"{s.cpu_ms_per_action:.3f}", str(r.held) if last else "",
                        f"{r.held / r.processes:,.0f}" if last else "")
    return out


def main(argv: list[str] | None = None) -> None:
    """The paced search per process count (and route), then the table (or ``--json``)."""
    import argparse

    from cpu_share import available
    from rich.console import Console
    from rich.progress import Progress, TextColumn

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0].rstrip(":"))
    parser.add_argument("--processes", type=int, action="append", metavar="N",
                        help="server processes behind one Redis and PostgreSQL started for "
                        "the run (repeatable: 1, 2, 3; default 1)")
    parser.add_argument("--tables", type=int, action="append", metavar="N",
                        help=f"the steps of tables (repeatable; default {STEPS})")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="seconds between a table's actions (0.05 to 60)")
    parser.add_argument("--window", type=float, default=6.0,
                        help="seconds measured per step (1 to 600)")
    parser.add_argument("--route", action="append", choices=ROUTES,
                        help="with --processes above 1: where each table's seats connect: "
                        "'spread' over every process (the default; most actions relayed) "
                        "or 'table', all on one (as a proxy routing by table does); "
                        "repeatable")
    parser.add_argument("--cluster", action="store_true",
                        help="run even one process on PostgreSQL and Redis (the cluster's "
                        "stack) instead of SQLite")
    parser.add_argument("--cpu-share", type=float, metavar="F",
                        help="limit each server process to this share of one core (a Linux "
                        "cgroup quota; needs root), 0.01 to 64")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if any(not 1 <= n <= 16 for n in args.processes or []):
        parser.error("--processes: 1 to 16")
    if any(n < 1 for n in args.tables or []):
        parser.error("--tables: at least 1")
    if not 0.05 <= args.pace <= 60 or not 1 <= args.window <= 600:
        parser.error("--pace: 0.05 to 60 seconds; --window: 1 to 600 seconds")
    if args.cpu_share is not None:
        if not 0.01 <= args.cpu_share <= 64:
            parser.error("--cpu-share: 0.01 to 64")
        why = available()
        if why is not None:
            parser.error(f"--cpu-share: {why}")
    steps = tuple(sorted(args.tables)) if args.tables else STEPS
    results = []
    with Progress(TextColumn("{task.description}"), transient=True) as bar:
        task = bar.add_task("starting")
        for n in args.processes or [1]:
            for route in dict.fromkeys(args.route or ["spread"]) if n > 1 else ["spread"]:
                results.append(run_paced(
                    n, steps=steps, pace=args.pace, window=args.window, route=route,
                    cluster=args.cluster, cpu_share=args.cpu_share,
                    progress=lambda text: bar.update(task, description=text)))
    if args.json:
        print(json.dumps([r.to_json() for r in results]))
        return
    Console().print(table(results))


if __name__ == "__main__":
    main()
