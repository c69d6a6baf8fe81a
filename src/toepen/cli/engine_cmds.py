"""Engine commands: ``simulate``, ``replay``, ``bench``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
)
from rich.table import Table

from ..cards import card_str
from ..engine import Game
from ..record import RecordError, load, replay, summary
from .common import check_table_size, make_rules, progress_bar
from .extras import require

console = Console()


def simulate_cmd(
    games: Annotated[int, typer.Option("--games", "-g", help="Sessions to play.", min=1)] = 100,
    preset: Annotated[str, typer.Option("--preset", "-p", help="Rule preset.")] = "rulebook",
    players: Annotated[int, typer.Option("--players", "-n", help="Table size (2 to 8).")] = 4,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first session.")] = 0,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Rule option name=value (repeatable)."),
    ] = None,
    record_dir: Annotated[
        Path | None, typer.Option("--record-dir", help="Write each session as a record here.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Play complete sessions between random legal players and summarise what happened."""
    from ..tools.simulate import simulate

    rules = make_rules(preset, option)
    check_table_size(rules, players)
    with progress_bar() as bar:
        task = bar.add_task(f"{preset}, {players} players", total=games)
        stats = simulate(
            rules, players, games, seed, record_dir, lambda k: bar.advance(task, k)
        )
    if as_json:
        print(json.dumps(stats.to_json()))
        return
    console.print(stats.table())
    if record_dir is not None:
        console.print(f"records written to {record_dir}")


def replay_cmd(
    record: Annotated[Path, typer.Argument(help="A toepen-record/1 JSON file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the position as JSON.")] = False,
) -> None:
    """Replay a game record and print the resulting position (exit 2 if it is refused)."""
    try:
        game = replay(load(record))
    except RecordError as e:
        print(str(e), file=sys.stderr)
        raise typer.Exit(2) from None
    info = summary(game)
    if as_json:
        print(json.dumps(info))
        return
    title = f"{record.name}: hand {info['hand']}, stake {info['stake']}"
    if "rubber" in info:
        title += f", rubber {info['rubber']}"
    console.print(_position_table(game, info, title))
    for line in _position_lines(game, info):
        console.print(line)


def _position_table(game: Game, info: dict[str, Any], title: str) -> Table:
    """A row per seat: lives, cards and what the seat is (dealer, folded, to act, ...)."""
    table = Table(title=title)
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column("lives", justify="right")
    table.add_column("cards")
    rubbers = game.rules.session == "rubber"
    if rubbers:
        table.add_column("rubbers won", justify="right")
        table.add_column("rounds owed", justify="right")
    if game.rules.beer_tally:
        table.add_column("beers", justify="right")
    table.add_column("")
    for seat, name in enumerate(game.players):
        mark = []
        if seat == game.dealer:
            mark.append("dealer")
        if seat in game.eliminated:
            mark.append("eliminated")
        elif not game.active >> seat & 1 and game.in_session >> seat & 1:
            mark.append("folded")
        if seat in game.to_act:
            mark.append("to act")
        if game.winner == seat:
            mark.append("winner")
        cards = " ".join(card_str(c) for c in range(32) if game.hand_mask(seat) >> c & 1)
        row = [str(seat), name, str(info["lives"][seat]), cards]
        if rubbers:
            row += [str(info["rubbers_won"][seat]), str(info["drinks"][seat])]
        if game.rules.beer_tally:
            row.append(str(info["beers"][seat]))
        table.add_row(*row, ", ".join(mark))
    return table


def _position_lines(game: Game, info: dict[str, Any]) -> list[str]:
    """The trick on the table and who acts next (or why the record stops, or who won)."""
    lines = []
    if game.trick:
        lines.append("trick: " + " ".join(f"{s}:{card_str(c)}" for s, c in game.trick))
    if info["to_act"]:
        lines.append(f"seat {info['to_act'][0]} to act: " + ", ".join(info["legal"]))
    elif "stopped" in info:
        lines.append(f"stopped: {info['stopped']}")
    elif game.winner is not None:
        lines.append(f"session won by seat {game.winner} ({game.players[game.winner]})")
    return lines


def bench_cmd(
    seconds: Annotated[
        float, typer.Option("--seconds", help="Time per measurement.", min=0.05)
    ] = 0.5,
    rounds: Annotated[
        int, typer.Option("--rounds", help="Interleaved rounds; the best counts.", min=1)
    ] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    server: Annotated[bool, typer.Option(
        "--server", help="Load-test a real server over WebSockets instead.")] = False,
    tables: Annotated[list[int] | None, typer.Option(
        "--tables", help="With --server: concurrent tables (repeatable).", min=1)] = None,
    baseline: Annotated[bool, typer.Option(
        "--baseline", help="With --server: also run the server's broadcast of before "
        "(one observe and stdlib JSON per receiver), interleaved, for the CPU ratio.")] = False,
    paced: Annotated[bool, typer.Option(
        "--paced", help="With --server: each table acts at a human pace; find how many "
        "tables the server holds with p99 action-to-broadcast under 100 ms, at that "
        "pace.")] = False,
    processes: Annotated[list[int] | None, typer.Option(
        "--processes", min=1, max=16, help="With --paced: server processes behind one "
        "Redis and PostgreSQL started for the run (repeatable: 1, 2, 3).")] = None,
    pace: Annotated[float, typer.Option("--pace", min=0.05, max=60.0,
                                        help="With --paced: seconds between a table's "
                                        "actions.")] = 1.0,
    window: Annotated[float, typer.Option("--window", min=1.0, max=600.0,
                                          help="With --paced: seconds measured per "
                                          "step.")] = 6.0,
    route: Annotated[list[str] | None, typer.Option(
        "--route", metavar="spread|table", help="With --processes above 1: where each "
        "table's seats connect: 'spread' over every process (the default; most actions "
        "relayed) or 'table', all on one (as a proxy routing by table does); repeatable.")
    ] = None,
    cluster: Annotated[bool, typer.Option(
        "--cluster", help="With --paced: run even one process on PostgreSQL and Redis "
        "(the cluster's stack) instead of SQLite.")] = False,
    cpu_share: Annotated[float | None, typer.Option(
        "--cpu-share", min=0.01, max=64.0, help="With --paced: limit each server process "
        "to this share of one core (a Linux cgroup quota; needs root): a process with "
        "cores of its own, scaled down to this machine.")] = None,
    against: Annotated[str | None, typer.Option(
        "--against", metavar="DIR", help="Run the engine benchmarks on this tree and on "
        "another toepen source tree (e.g. an older commit checked out with git worktree), "
        "interleaved in one run, and report the ratios.")] = None,
) -> None:
    """Measure the engine against a bare reference loop run alongside it."""
    if server:
        require("server", "toepen bench --server")
    if server and paced:
        from ..tools.paced_bench import ROUTES

        for r in route or []:
            if r not in ROUTES:
                print(f"--route: {r!r} is not one of {', '.join(ROUTES)}", file=sys.stderr)
                raise typer.Exit(2)
        if cpu_share is not None:
            from ..tools.cpu_share import available

            why = available()
            if why is not None:
                print(f"--cpu-share: {why}", file=sys.stderr)
                raise typer.Exit(2)
        _bench_paced(processes or [1], tables, pace, window, as_json, route or ["spread"],
                     cluster, cpu_share)
        return
    if server:
        _bench_server(tables or [10], as_json, baseline)
        return
    from ..tools import bench

    if against is not None:
        _bench_against(against, seconds, rounds, as_json)
        return
    from .extras import missing

    rl = not [d for d in missing("rl") if d != "open_spiel"]  # the environments' measures
    with progress_bar() as bar:
        task = bar.add_task("benchmarks", total=bench.steps(rounds, rl=rl))
        ref, results = bench.run_benchmarks(seconds, rounds, rl=rl,
                                            progress=lambda k: bar.advance(task, k))
    if as_json:
        print(json.dumps(bench.to_json(ref, results)))
        return
    console.print(bench.table(ref, results))


def _bench_against(against: str, seconds: float, rounds: int, as_json: bool) -> None:
    """``toepen bench --against DIR``: this tree and DIR in one interleaved run."""
    from ..tools import bench

    try:
        bench.source_folder(against)
        with progress_bar() as bar:
            task = bar.add_task("benchmarks", total=bench.steps(rounds))
            ref, results = bench.run_against(against, seconds, rounds,
                                             progress=lambda k: bar.advance(task, k))
    except bench.AgainstError as e:
        print(f"--against: {e}", file=sys.stderr)
        raise typer.Exit(2) from None
    if as_json:
        print(json.dumps(bench.against_json(against, ref, results)))
        return
    console.print(bench.against_table(against, ref, results))


def _bench_paced(processes: list[int], tables: list[int] | None, pace: float, window: float,
                 as_json: bool, routes: list[str] | None = None, cluster: bool = False,
                 cpu_share: float | None = None) -> None:
    """``toepen bench --server --paced``: the paced search per process count."""
    from ..tools import paced_bench

    results = []
    steps = tuple(sorted(tables)) if tables else paced_bench.STEPS
    with Progress(TextColumn("{task.description}"), transient=True) as bar:
        task = bar.add_task("starting")
        for n in processes:
            for route in dict.fromkeys(routes or ["spread"]) if n > 1 else ["spread"]:
                results.append(paced_bench.run_paced(
                    n, steps=steps, pace=pace, window=window, route=route, cluster=cluster,
                    cpu_share=cpu_share, progress=lambda text: bar.update(task, description=text)))
    if as_json:
        print(json.dumps([r.to_json() for r in results]))
        return
    Console().print(paced_bench.table(results))


def _bench_server(tables: list[int], as_json: bool, baseline: bool = False) -> None:
    """``toepen bench --server``: one run per table count (``baseline``: the server of
    before first, then the default), a bar each, then the table."""
    from ..tools import server_bench

    results = []
    runs = [(n, b) for n in tables for b in ((True, False) if baseline else (False,))]
    for n, base in runs:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      transient=True) as bar:
            what = "baseline, " if base else ""
            made = bar.add_task(f"{n} tables ({what}creating)", total=n)
            done = bar.add_task(f"{n} tables ({what}playing)", total=n)

            def progress(what: str, k: int, made: TaskID = made, done: TaskID = done,
                         bar: Progress = bar) -> None:
                bar.advance(made if what == "created" else done, k)

            results.append(server_bench.run_server_bench(n, lives=5, progress=progress,
                                                         baseline=base))
    if as_json:
        print(json.dumps([r.to_json() for r in results]))
        return
    Console().print(server_bench.table(results))


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_cmd)
    app.command("replay")(replay_cmd)
    app.command("bench")(bench_cmd)
