"""Bot commands: ``toepen arena`` (duplicate tournaments between bots) and ``toepen bot``
(a built-in bot served over the JSON-lines protocol)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from .common import check_table_size, check_writable, make_rules, progress_bar
from .extras import require

FLAGS = {
    "bots": "--bots", "baseline": "--baseline", "players": "--players", "format": "--format",
    "deals": "--deals", "sessions": "--sessions", "until_significant": "--until-significant",
}
"""The option of each argument of :func:`toepen.tools.arena.check_setup`."""


def _bot_list(bots: str | None, bot: list[str] | None) -> list[str]:
    """The names from ``--bots a,b,c`` and every ``--bot NAME``, in that order."""
    names = [b.strip() for b in (bots or "").split(",") if b.strip()] + list(bot or [])
    if not names:
        raise typer.BadParameter("name the bots with --bots a,b,c (or --bot NAME, repeatable)")
    return names


def arena_cmd(
    bots: Annotated[
        str | None,
        typer.Option("--bots", "-b", help="Comma-separated bot names (cmd:COMMAND for a program)."),
    ] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option("--bot", help="One more bot (repeatable; for commands with commas)."),
    ] = None,
    preset: Annotated[str, typer.Option("--preset", "-p", help="Rule preset.")] = "rulebook",
    players: Annotated[int, typer.Option("--players", "-n", help="Table size (2 to 8).")] = 4,
    deals: Annotated[
        int, typer.Option("--deals", "-d", help="Deals (seeds) to play.", min=1)
    ] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the match.")] = 0,
    baseline: Annotated[
        str | None,
        typer.Option("--baseline", help="Bot the others are compared with (paired by deal)."),
    ] = None,
    fmt: Annotated[
        str,
        typer.Option("--format", help="mixed: the bots together; versus: each candidate "
                     "against copies of the baseline."),
    ] = "mixed",
    sessions: Annotated[
        int | None,
        typer.Option("--sessions", help="Whole-session seeds (each in every rotation); "
                     "default deals/20.", min=0),
    ] = None,
    lives: Annotated[int | None, typer.Option("--lives", help="Lives per player.", min=1)] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Rule option name=value (repeatable)."),
    ] = None,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Worker processes (default: all cores).",
                                 min=1),
    ] = None,
    until_significant: Annotated[
        bool, typer.Option("--until-significant",
                           help="Add batches of deals until every difference excludes zero."),
    ] = False,
    max_deals: Annotated[
        int | None, typer.Option("--max-deals", help="Cap for --until-significant "
                                 "(default 10 x deals).", min=1),
    ] = None,
    time_budget: Annotated[
        float | None, typer.Option("--time-budget", metavar="SECONDS",
                                   help="Seconds per decision for bots that search.",
                                   min=0.0),
    ] = None,
    timeout: Annotated[
        float | None, typer.Option("--timeout", metavar="SECONDS",
                                   help="Per-decision limit for cmd: bots (default 5 s, "
                                   "or time budget + 2 s).", min=0.001),
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write the results as JSON ('-': stdout).")
    ] = None,
    csv_out: Annotated[
        Path | None, typer.Option("--csv", help="Write the results as CSV ('-': stdout).")
    ] = None,
    plot_out: Annotated[
        Path | None, typer.Option("--plot", help="Draw the intervals into a PNG file.")
    ] = None,
) -> None:
    """Duplicate tournament: the same deals with the lineup rotated through every seat.

    Measures lives lost per hand (one hand per deal from a fresh session) with 95%
    bootstrap intervals, the paired difference to the baseline, sessions won and
    OpenSkill ratings from whole sessions.
    """
    require("arena", "toepen arena")
    from ..tools import arena

    names = _bot_list(bots, bot)
    rules = make_rules(preset, option, lives)
    n_sessions = sessions if sessions is not None else max(1, deals // 20)
    check_table_size(rules, players)
    for path, flag in ((json_out, "--json"), (csv_out, "--csv"), (plot_out, "--plot")):
        check_writable(path, flag)  # before the match, not after it
    try:
        arena.check_setup(names, rules, players, baseline=baseline, format=fmt, deals=deals,
                          sessions=n_sessions, until_significant=until_significant)
    except arena.SetupError as e:
        raise typer.BadParameter(f"needs {FLAGS[e.needs]}" if e.needs else str(e),
                                 param_hint=FLAGS.get(e.param)) from None
    if plot_out is not None:
        try:
            arena.check_plot(plot_out)
        except (ValueError, arena.PlotUnavailable) as e:
            raise typer.BadParameter(str(e), param_hint="--plot") from None

    with progress_bar() as bar:
        tasks = {"deal": bar.add_task("deals", total=deals),
                 "session": bar.add_task("sessions", total=n_sessions)}
        try:
            result = arena.run_arena(
                names, rules, players, deals, seed=seed, baseline=baseline, format=fmt,
                sessions=n_sessions, jobs=jobs, time_budget=time_budget, timeout=timeout,
                until_significant=until_significant, max_deals=max_deals,
                progress=lambda kind, done, total: bar.update(
                    tasks[kind], completed=done, total=max(total, 1)),
            )
        except ValueError as e:
            raise typer.BadParameter(str(e)) from None

    to_stdout = [path for path in (json_out, csv_out) if str(path) == "-"]
    try:
        if json_out is not None:
            text = arena.write_json(result, None if json_out in to_stdout else json_out)
            if json_out in to_stdout:
                print(text)
        if csv_out is not None:
            text = arena.write_csv(result, None if csv_out in to_stdout else csv_out)
            if csv_out in to_stdout:
                sys.stdout.write(text)
        if plot_out is not None:
            arena.plot(result, plot_out)
    except OSError as e:  # it went away during the match: say so, print the table anyway
        print(f"cannot write {e.filename}: {e.strerror}", file=sys.stderr)
        json_out = csv_out = plot_out = None
        to_stdout = []
    if to_stdout:
        return
    # Piped or captured output gets the full table, not one squeezed to 80 columns.
    console = Console(width=None if sys.stdout.isatty() else 140)
    console.print(arena.table(result))
    for line in arena.incident_lines(result):
        console.print(line)
    for path in (json_out, csv_out, plot_out):
        if path is not None:
            console.print(f"written: {path}")


def bot_cmd(
    name: Annotated[str, typer.Argument(help="The bot or level to serve (expert, good...).")],
) -> None:
    """Serve a built-in bot over the external-bot protocol: JSON lines on stdin/stdout
    (docs/bots.md), until stdin closes.

    Any program that speaks the protocol can then play it: toepen play --bots
    'cmd:toepen bot expert' seats it as an external bot.
    """
    from ..bots.base import CMD_PREFIX, make_bot
    from ..bots.external import TREE_PREFIX
    from ..bots.serve import ProtocolError, serve

    if name.startswith((CMD_PREFIX, TREE_PREFIX)):
        raise typer.BadParameter("serves a built-in bot or level, not a program",
                                 param_hint="NAME")
    try:
        make_bot(name, seed=0)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="NAME") from None
    try:
        serve(lambda seed, budget: make_bot(name, seed=seed, time_budget=budget),
              sys.stdin, sys.stdout)
    except ProtocolError as e:
        print(f"toepen bot {name}: {e}", file=sys.stderr, flush=True)
        raise typer.Exit(2) from None
    except (BrokenPipeError, KeyboardInterrupt):
        raise typer.Exit(1) from None


def register(app: typer.Typer) -> None:
    app.command("arena")(arena_cmd)
    app.command("bot")(bot_cmd)
