"""Load on a real server over real WebSockets::

    uv run python benchmarks/server_bench.py --tables 10 --tables 100 [--against DIR] [--json]

(``toepen bench --server`` until the server's benchmarks left the package for
``benchmarks/``.)

Starts ``toepen serve`` in a subprocess (its own temporary SQLite file), creates ``N``
four-seat tables over HTTP and drives every seat of every table with a *random bot
running in this process*: one WebSocket per seat, each action chosen uniformly among
the legal ones and sent with its state number, as a browser would. Reports

- tables per second: N / the wall time from the first start to the last game's end;
- action-to-broadcast latency: from sending an action to each seat of the table
  receiving the ``state`` it caused (p50, p99), over every receipt;
- memory per table: the server's peak resident memory above its idle baseline, / N.

Both processes share this machine's cores, so the figures describe the pair.

``--against DIR`` compares this tree's server with another checkout's (``git worktree add
/tmp/old REV``), the way ``toepen bench --against`` compares engines: for each table count
both servers run in turn (which one first alternates from one count to the next, as the
second of a pair measures slower), each on this interpreter and environment with its own
sources first on the path, and the table gives this tree's CPU per action over the other's
in the same pair.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.table import Table

from toepen.tools.bench import source_folder


@dataclass
class ServerBenchResult:
    """What one run measured."""

    tables: int
    actions: int
    seconds: float
    latencies: list[float] = field(default_factory=list)
    base_rss_kib: int = 0
    peak_rss_kib: int = 0
    errors: int = 0
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    label: str = "this tree"
    """Which server ran: ``this tree``, or the other tree's folder (``--against``)."""
    other: bool = False
    """The server of the other tree (``--against``), not this one."""

    @property
    def cpu_ms_per_action(self) -> float:
        """The server's CPU time per action, in milliseconds."""
        return self.server_cpu / self.actions * 1000 if self.actions else 0.0

    @property
    def tables_per_second(self) -> float:
        return self.tables / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        """Latency percentile ``q`` (0..100) in milliseconds."""
        if not self.latencies:
            return 0.0
        data = sorted(self.latencies)
        k = min(len(data) - 1, max(0, round(q / 100 * (len(data) - 1))))
        return data[k] * 1000

    @property
    def kib_per_table(self) -> float:
        return (self.peak_rss_kib - self.base_rss_kib) / self.tables if self.tables else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "tables": self.tables, "actions": self.actions, "seconds": round(self.seconds, 3),
            "tables_per_second": round(self.tables_per_second, 3),
            "actions_per_second": round(self.actions_per_second, 1),
            "latency_ms_p50": round(self.percentile(50), 2),
            "latency_ms_p99": round(self.percentile(99), 2),
            "receipts": len(self.latencies),
            "server_rss_base_mib": round(self.base_rss_kib / 1024, 1),
            "server_rss_peak_mib": round(self.peak_rss_kib / 1024, 1),
            "kib_per_table": round(self.kib_per_table, 1),
            "errors": self.errors,
            "server_cpu_seconds": round(self.server_cpu, 2),
            "client_cpu_seconds": round(self.client_cpu, 2),
            "server_cpu_ms_per_action": round(self.cpu_ms_per_action, 3),
            "label": self.label,
            "other": self.other,
        }


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(proc: subprocess.Popen[bytes], url: str, log: Path | None = None,
                 timeout: float = 120.0, what: str = "the server") -> None:
    """Wait until the server ``proc`` started answers ``GET url/api/health``; a
    RuntimeError (with the end of its ``log``) if it exits first or takes ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None or time.monotonic() > deadline:
            tail = log.read_text(errors="replace")[-2000:] if log is not None else ""
            raise RuntimeError(f"{what} did not start: {tail}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                return
        time.sleep(0.1)


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


class _Table:
    def __init__(self, table_id: str, tokens: list[str], seed: int) -> None:
        self.id = table_id
        self.tokens = tokens
        self.rng = random.Random(seed)
        self.sent: dict[int, float] = {}
        self.done = asyncio.Event()
        self.actions = 0


async def _seat(url: str, table: _Table, token: str, result: ServerBenchResult) -> None:
    from websockets.asyncio.client import connect

    async with connect(f"{url}/ws/{table.id}", max_size=2**20, open_timeout=120,
                       ping_interval=None) as ws:
        await ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "error":
                result.errors += 1
                continue
            if kind != "state":
                continue
            n = msg["state"]
            sent = table.sent.get(n - 1)
            if sent is not None and msg["last"] is not None:
                result.latencies.append(time.perf_counter() - sent)
            view = msg["view"]
            if view["winner"] is not None:
                table.done.set()
                return
            if view["legal"]:
                choice = table.rng.choice(view["legal"])
                table.sent[n] = time.perf_counter()
                table.actions += 1
                await ws.send(json.dumps({"v": 1, "type": "act", "action": choice, "state": n}))


async def _run(url: str, n: int, lives: int, pid: int, result: ServerBenchResult,
               progress: Callable[[str, int], None]) -> None:
    result.base_rss_kib = _rss_kib(pid)
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=url.replace("ws://", "http://"), timeout=120,
                                 limits=limits) as http:
        sem = asyncio.Semaphore(32)

        async def make(i: int) -> _Table:
            async with sem:
                r = await http.post("/api/tables", json={
                    "preset": "rulebook", "options": {"lives": lives}, "size": 4,
                    "name": "Bot0", "autostart": True, "idle_seconds": 3600})
                r.raise_for_status()
                created = r.json()
                tokens = [created["token"]]
                tid = created["table"]["id"]
                for k in range(1, 4):
                    j = await http.post(f"/api/tables/{tid}/join", json={"name": f"Bot{k}"})
                    j.raise_for_status()
                    tokens.append(j.json()["token"])
                progress("created", 1)
                return _Table(tid, tokens, seed=i)

        tables = await asyncio.gather(*(make(i) for i in range(n)))
    peak = _rss_kib(pid)
    start = time.perf_counter()
    cpu0, client0 = cpu_seconds(pid), time.process_time()

    async def drive(t: _Table) -> None:
        await asyncio.gather(*(_seat(url, t, tok, result) for tok in t.tokens))
        result.actions += t.actions
        progress("finished", 1)

    runner = asyncio.gather(*(drive(t) for t in tables))
    while not runner.done():
        peak = max(peak, _rss_kib(pid))
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(runner), 0.5)
    await runner
    result.seconds = time.perf_counter() - start
    result.server_cpu = cpu_seconds(pid) - cpu0
    result.client_cpu = time.process_time() - client0
    result.peak_rss_kib = max(peak, _rss_kib(pid))
    result.tables = n


def server_env(tree: str | Path | None = None) -> dict[str, str]:
    """The environment of a benchmark's server: this process's, unbuffered; with ``tree``
    (a toepen checkout, or its ``src``), that tree's sources first on the path, so that
    ``python -m toepen.server`` is that tree's server (on this interpreter and its
    packages, as ``toepen bench --against`` runs another tree's engine). ValueError
    (:class:`toepen.tools.bench.AgainstError`) if ``tree`` holds no toepen sources."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # trees before 2026-12-05 read this (a benchmark's switch, since gone): a stray one
    # in the shell would put such a tree on its old broadcast
    env.pop("TOEPEN_BROADCAST", None)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(source_folder(tree)), *filter(None, [env.get("PYTHONPATH")])])
    return env


def run_server_bench(n: int, lives: int = 5,
                     progress: Callable[[str, int], None] | None = None,
                     server_args: tuple[str, ...] = (),
                     tree: str | Path | None = None) -> ServerBenchResult:
    """Run the load benchmark with ``n`` tables; see the module docstring. ``tree``: the
    server of that toepen checkout instead of this one's (:func:`server_env`)."""
    if n < 1:
        raise ValueError(f"tables: at least 1, not {n}")
    env = server_env(tree)
    raise_fd_limit()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="toepen-bench-") as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        cmd = [sys.executable, "-m", "toepen.server", "--port", str(port), "--db", db,
               "--bot-delay", "0", "--log-level", "warning", "--tables-per-client",
               str(n + 10), "--max-tables", str(n + 10), "--rate", "1000",
               "--sockets-per-address", "1000000", *server_args]
        log = Path(tmp) / "server.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            url = f"http://127.0.0.1:{port}"
            wait_healthy(proc, url, log)
            result = ServerBenchResult(tables=n, actions=0, seconds=0.0,
                                       label="this tree" if tree is None else str(tree),
                                       other=tree is not None)
            asyncio.run(_run(f"ws://127.0.0.1:{port}", n, lives, proc.pid, result,
                             progress or (lambda _what, _k: None)))
            return result
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)


def table(results: list[ServerBenchResult]) -> Table:
    """The results of :func:`run_server_bench` as a terminal table, one row per run; a
    run of this tree beside one of the other tree's (``--against``) of the same size, just
    before or after it, shows its CPU per action over the other's."""
    out = Table(title="server_bench (random bots in the client drive every seat "
                "over WebSockets; server and client share this machine)")
    out.add_column("server")
    for col in ("tables", "games/s", "actions/s", "p50 ms", "p99 ms", "CPU ms/action",
                "vs other", "server MiB", "KiB/table", "errors"):
        out.add_column(col, justify="right")
    ratios = against_ratios(results)
    for i, r in enumerate(results):
        j = r.to_json()
        ratio = f"{ratios[i]:.2f}" if i in ratios else ""
        out.add_row(r.label, str(r.tables), f"{r.tables_per_second:.2f}",
                    f"{r.actions_per_second:,.0f}",
                    f"{j['latency_ms_p50']:.1f}", f"{j['latency_ms_p99']:.1f}",
                    f"{r.cpu_ms_per_action:.3f}", ratio,
                    f"{j['server_rss_peak_mib']:.0f}", f"{r.kib_per_table:,.0f}",
                    str(r.errors))
    return out


def against_ratios(results: list[ServerBenchResult]) -> dict[int, float]:
    """For each run of this tree (by its index) paired with a run of the other tree of the
    same size just before or after it (each used once): this tree's CPU per action over
    the other's."""
    out: dict[int, float] = {}
    used: set[int] = set()
    for i, r in enumerate(results):
        if r.other:
            continue
        for k in (i - 1, i + 1):
            o = results[k] if 0 <= k < len(results) else None
            if (o is not None and k not in used and o.other and o.tables == r.tables
                    and o.cpu_ms_per_action):
                out[i] = r.cpu_ms_per_action / o.cpu_ms_per_action
                used.add(k)
                break
    return out


def main(argv: list[str] | None = None) -> None:
    """One run per table count (``--against DIR``: that tree's server and this one's, in
    turn), a bar each, then the table (or ``--json``)."""
    import argparse

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0].rstrip(":"))
    parser.add_argument("--tables", type=int, action="append", metavar="N",
                        help="concurrent tables (repeatable; default 10)")
    parser.add_argument("--against", metavar="DIR",
                        help="also run the server of another toepen checkout (e.g. an "
                        "older commit checked out with git worktree), in turn with this "
                        "one's, for the ratio of their CPU per action")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    if any(n < 1 for n in args.tables or []):
        parser.error("--tables: at least 1")
    if args.against is not None:
        try:
            source_folder(args.against)
        except ValueError as e:
            parser.error(f"--against: {e}")
    results = []
    runs: list[tuple[int, str | None]] = []
    for i, n in enumerate(args.tables or [10]):
        pair: list[str | None] = [args.against, None] if args.against is not None else [None]
        runs += [(n, tree) for tree in (pair if i % 2 == 0 else pair[::-1])]
    for n, tree in runs:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      transient=True) as bar:
            what = f"{tree}, " if tree is not None else ""
            made = bar.add_task(f"{n} tables ({what}creating)", total=n)
            done = bar.add_task(f"{n} tables ({what}playing)", total=n)

            def progress(what: str, k: int, made: TaskID = made, done: TaskID = done,
                         bar: Progress = bar) -> None:
                bar.advance(made if what == "created" else done, k)

            try:
                results.append(run_server_bench(n, lives=5, progress=progress, tree=tree))
            except RuntimeError as e:  # a server that did not start: its log's end
                print(f"server_bench: {e}", file=sys.stderr)
                raise SystemExit(1) from None
    if args.json:
        print(json.dumps([r.to_json() for r in results]))
        return
    Console().print(table(results))


if __name__ == "__main__":
    main()
