"""Engine commands: ``simulate``, ``replay``, ``bench``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..cards import card_str
from ..engine import Game
from ..record import RecordError, load, replay, summary
from .common import check_table_size, make_rules, progress_bar

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
    against: Annotated[str | None, typer.Option(
        "--against", metavar="DIR", help="Run the engine benchmarks on this tree and on "
        "another toepen source tree (e.g. an older commit checked out with git worktree), "
        "interleaved in one run, and report the ratios.")] = None,
) -> None:
    """Measure the engine against a bare reference loop run alongside it."""
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


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_cmd)
    app.command("replay")(replay_cmd)
    app.command("bench")(bench_cmd)
