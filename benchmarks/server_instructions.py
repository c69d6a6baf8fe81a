"""The server's instructions per action under callgrind: a measure the machine's load
does not move, to compare two trees of the server.

The load benchmark's CPU time per action moves by 15% or more between runs on a shared
2-core machine; the count of instructions moves by about 3%. This starts the server of
each tree (``--tree DIR``, default this one; another checkout, e.g. ``git worktree add
/tmp/old REV``) under ``valgrind --tool=callgrind`` with counting off, makes the tables
as the load benchmark does (4 seats, ``rulebook``, autostart), turns counting on, lets
the benchmark's random-bot clients play every game to its end (and three seconds more:
the game-end work), and divides the server's instructions (every thread) by the actions.
The games are the same in each tree (the same seeds, ``PYTHONHASHSEED=0``)::

    uv run python benchmarks/server_instructions.py --tree /tmp/old --tree . --rounds 2

Needs ``valgrind`` (Debian's package); about a minute per tree and round at 5 tables.
Prints a table; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
from pathlib import Path

import httpx
import server_bench as sb
from rich.console import Console
from rich.table import Table


def _totals(out: Path) -> int:
    total = 0
    for dump in out.parent.glob(out.name + "*"):
        for line in dump.read_text(errors="replace").splitlines():
            if line.startswith("totals:"):
                total += int(line.split()[1])
                break
    return total


async def _play(url: str, pid: int, tables: int, lives: int) -> sb.ServerBenchResult:
    result = sb.ServerBenchResult(tables=tables, actions=0, seconds=0.0, label="callgrind")
    async with httpx.AsyncClient(base_url=url, timeout=300) as http:
        made = []
        for i in range(tables):
            r = await http.post("/api/tables", json={
                "preset": "rulebook", "options": {"lives": lives}, "size": 4,
                "name": "Bot0", "autostart": True, "idle_seconds": 3600})
            r.raise_for_status()
            tokens, tid = [r.json()["token"]], r.json()["table"]["id"]
            for k in range(1, 4):
                j = await http.post(f"/api/tables/{tid}/join", json={"name": f"Bot{k}"})
                j.raise_for_status()
                tokens.append(j.json()["token"])
            made.append(sb._Table(tid, tokens, seed=i))
    subprocess.run(["callgrind_control", "-i", "on", str(pid)], check=True,
                   capture_output=True)
    ws = url.replace("http://", "ws://")

    async def drive(t: sb._Table) -> None:
        await asyncio.gather(*(sb._seat(ws, t, token, result) for token in t.tokens))
        result.actions += t.actions

    await asyncio.gather(*(drive(t) for t in made))
    await asyncio.sleep(3)  # the games' ends: results stored
    subprocess.run(["callgrind_control", "-i", "off", str(pid)], check=True,
                   capture_output=True)
    subprocess.run(["callgrind_control", "-d", str(pid)], check=True, capture_output=True)
    return result


def measure(tree: Path, tables: int, lives: int) -> tuple[int, int, int]:
    """(actions, errors, instructions) of one run of ``tree``'s server."""
    with tempfile.TemporaryDirectory(prefix="toepen-callgrind-") as tmp:
        out = Path(tmp) / "callgrind.out"
        port = sb.free_port()
        env = {**sb.server_env(tree), "PYTHONHASHSEED": "0"}
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
               f"--callgrind-out-file={out}", sys.executable, "-m", "toepen.server",
               "--port", str(port), "--db", f"sqlite:///{tmp}/bench.sqlite3",
               "--bot-delay", "0", "--log-level", "warning", "--tables-per-client",
               str(tables + 10), "--max-tables", str(tables + 10), "--rate", "1000",
               "--sockets-per-address", "1000000"]
        log = Path(tmp) / "server.log"
        with log.open("wb") as sink:
            proc = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            sb.wait_healthy(proc, url, log, timeout=600)  # slow under valgrind
            result = asyncio.run(_play(url, proc.pid, tables, lives))
        finally:
            proc.terminate()
            proc.wait(120)
        return result.actions, result.errors, _totals(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", action="append", type=Path,
                    help="a checkout of toepen (repeatable; default: this one)")
    ap.add_argument("--tables", type=int, default=5)
    ap.add_argument("--lives", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=1, help="runs of every tree, in turn")
    args = ap.parse_args()
    trees = [t.resolve() for t in (args.tree or [Path(__file__).resolve().parents[1]])]
    for tree in trees:
        if not (tree / "src" / "toepen" / "server").is_dir():
            raise SystemExit(f"--tree {tree}: not a toepen checkout (no src/toepen/server)")
    table = Table(title="server instructions per action (callgrind)")
    for name in ("round", "tree", "actions", "errors", "instructions/action"):
        table.add_column(name, justify="right" if name != "tree" else "left")
    for r in range(1, args.rounds + 1):
        for tree in trees:
            actions, errors, total = measure(tree, args.tables, args.lives)
            table.add_row(str(r), str(tree), str(actions), str(errors),
                          f"{total / max(actions, 1) / 1e3:,.1f} k")
    Console().print(table)


if __name__ == "__main__":
    main()
