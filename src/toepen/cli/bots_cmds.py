"""Bot commands: ``toepen arena`` (duplicate tournaments between bots)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import TaskID
from rich.table import Table

from ..rules import RulesError
from .engine_cmds import make_rules, progress_bar


def _bot_list(bots: str | None, bot: list[str] | None) -> list[str]:
    names = [b.strip() for b in (bots or "").split(",") if b.strip()] + list(bot or [])
    if not names:
        raise typer.BadParameter("name the bots with --bots a,b,c (or --bot NAME, repeatable)")
    from ..bots.base import check_bot_name

    for name in names:
        try:
            check_bot_name(name)
        except ValueError as e:
            raise typer.BadParameter(str(e), param_hint="--bots") from None
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
        float | None, typer.Option("--time-budget", help="Seconds per decision for bots "
                                   "that search.", min=0.0),
    ] = None,
    timeout: Annotated[
        float | None, typer.Option("--timeout", help="Per-decision limit for cmd: bots "
                                   "(default 5 s, or time budget + 2 s).", min=0.001),
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
    from ..tools.arena import plot, run_arena, write_json

    names = _bot_list(bots, bot)
    rules = make_rules(preset, option, lives)
    try:
        rules.check_table(players)
    except RulesError as e:
        raise typer.BadParameter(str(e), param_hint="--players") from None
    if fmt not in ("mixed", "versus"):
        raise typer.BadParameter(f"must be mixed or versus, not {fmt!r}", param_hint="--format")
    if baseline is not None:
        from ..bots.base import check_bot_name

        try:
            check_bot_name(baseline)
        except ValueError as e:
            raise typer.BadParameter(str(e), param_hint="--baseline") from None
    if fmt == "versus" and baseline is None:
        raise typer.BadParameter("--format versus needs --baseline", param_hint="--format")
    if until_significant and baseline is None:
        raise typer.BadParameter("--until-significant needs --baseline",
                                 param_hint="--until-significant")
    if plot_out is not None and plot_out.suffix.lower() != ".png":
        raise typer.BadParameter(f"{plot_out}: the plot is a .png file", param_hint="--plot")
    n_sessions = sessions if sessions is not None else max(1, deals // 20)

    with progress_bar() as bar:
        tasks: dict[str, TaskID] = {
            "deal": bar.add_task("deals", total=deals),
            "session": bar.add_task("sessions", total=n_sessions),
        }

        def progress(kind: str, done: int, total: int) -> None:
            bar.update(tasks[kind], completed=done, total=max(total, 1))

        try:
            result = run_arena(
                names, rules, players, deals, seed=seed, baseline=baseline, format=fmt,
                sessions=n_sessions, jobs=jobs, time_budget=time_budget, timeout=timeout,
                until_significant=until_significant, max_deals=max_deals, progress=progress,
            )
        except ValueError as e:
            raise typer.BadParameter(str(e)) from None

    if json_out is not None:
        text = write_json(result, None if str(json_out) == "-" else json_out)
        if str(json_out) == "-":
            print(text)
    if csv_out is not None:
        if str(csv_out) == "-":
            sys.stdout.write(result.to_csv())
        else:
            csv_out.write_text(result.to_csv(), encoding="utf-8")
    if plot_out is not None:
        plot(result, plot_out)
    if str(json_out) == "-" or str(csv_out) == "-":
        return
    # Piped or captured output gets the full table, not one squeezed to 80 columns.
    console = Console(width=None if sys.stdout.isatty() else 140)
    table = Table(
        title=f"toepen arena: {rules.summary()}; {players} players, {result.deals} deals, "
              f"{fmt}",
        caption="lives lost per hand (lower is better), 95% bootstrap intervals over deals; "
                "differences paired by deal (* excludes zero)",
    )
    table.add_column("bot")
    table.add_column("hands", justify="right")
    table.add_column("lives/hand [95%]", justify="right")
    table.add_column(f"vs {baseline}" if baseline else "vs baseline", justify="right")
    table.add_column("sessions won", justify="right")
    table.add_column("OpenSkill mu±sigma", justify="right")
    table.add_column("incidents", justify="right")
    for row in result.rows:
        lph = row.lives_per_hand
        diff = row.diff
        diff_text = "" if diff is None else (
            f"{diff.mean:+.3f} [{diff.low:+.3f}, {diff.high:+.3f}]"
            + (" *" if diff.excludes_zero() else ""))
        won = f"{row.sessions_won:g}/{row.sessions}" if row.sessions else "-"
        skill = f"{row.mu:.1f}±{row.sigma:.1f}" if row.sessions else "-"
        table.add_row(row.name, str(row.hands), f"{lph.mean:.3f} [{lph.low:.3f}, {lph.high:.3f}]",
                      diff_text, won, skill, str(row.incidents))
    console.print(table)
    if result.incidents:
        console.print(f"{len(result.incidents)} incident(s) with external bots:")
        for text in result.incidents[:10]:
            console.print(f"  {text}")
    for path in (json_out, csv_out, plot_out):
        if path is not None:
            console.print(f"written: {path}")


def register(app: typer.Typer) -> None:
    app.command("arena")(arena_cmd)
