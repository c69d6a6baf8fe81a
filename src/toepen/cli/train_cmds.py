"""``toepen train expert`` and ``toepen train reads``: rebuild expert's data files by self-play."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import progress_bar

DATA = Path(__file__).resolve().parent.parent / "bots" / "data"
DEFAULT_OUT = DATA / "expert_policy.json"
DEFAULT_READS = DATA / "expert_reads.json"
DEFAULT_ESCALATION = DATA / "expert_escalation.json"

train_app = typer.Typer(
    help="Train bots offline (self-play).", no_args_is_help=True, add_completion=False
)


@train_app.command("expert")
def train_expert_cmd(
    iterations: Annotated[
        int, typer.Option("--iterations", "-i", help="Self-play hands in all.", min=1)
    ] = 20000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the self-play.")] = 0,
    out: Annotated[
        Path,
        typer.Option("--out", "-o", help="Where to write the policy (default: the shipped file)."),
    ] = DEFAULT_OUT,
) -> None:
    """Self-play regret matching of expert's policy; writes a toepen-expert-policy/1 file."""
    from ..tools.train import train

    _check_out(out)
    with progress_bar() as bar:
        task = bar.add_task("self-play hands", total=iterations)
        policy = train(iterations, seed, progress=lambda k: bar.advance(task, k))
    policy.save(out)
    typer.echo(f"wrote {out}: {len(policy.tables)} decisions, {iterations} hands, seed {seed}")


def _check_out(out: Path) -> None:
    if out.exists() and out.is_dir():
        raise typer.BadParameter(f"{out} is a directory", param_hint="--out")
    if not out.parent.is_dir():
        raise typer.BadParameter(f"no directory {out.parent}", param_hint="--out")


def _presets(given: list[str] | None) -> list[str]:
    """The ``--preset`` values (default rulebook and classic: one per settlement mode),
    each checked."""
    from ..rules import Rules, RulesError

    presets = given or ["rulebook", "classic"]
    for p in presets:
        try:
            Rules.preset(p)
        except RulesError as e:
            raise typer.BadParameter(str(e), param_hint="--preset") from None
    return presets


@train_app.command("reads")
def train_reads_cmd(
    hands: Annotated[
        int, typer.Option("--hands", help="Self-play hands per preset.", min=1)
    ] = 500,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the self-play.")] = 0,
    bot: Annotated[str, typer.Option("--bot", help="The bot whose betting is read.")] = "pimc",
    preset: Annotated[
        list[str] | None,
        typer.Option("--preset", "-p", help="Preset to play (repeat; default rulebook and "
                     "classic: one per settlement mode)."),
    ] = None,
    players: Annotated[int, typer.Option("--players", "-n", help="Table size.", min=3,
                                         max=8)] = 4,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes "
                                             "(default: all cores).", min=1)] = None,
    out: Annotated[
        Path,
        typer.Option("--out", "-o", help="Where to write the table (default: the shipped file)."),
    ] = DEFAULT_READS,
) -> None:
    """Measure expert's reading table: how a search bot bets by its solved position."""
    from ..bots.base import check_bot_name
    from ..tools.reads import measure

    presets = _presets(preset)
    try:
        check_bot_name(bot)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--bot") from None
    if bot.startswith("cmd:"):
        raise typer.BadParameter("an external bot cannot be read", param_hint="--bot")
    _check_out(out)
    with progress_bar() as bar:
        task = bar.add_task(f"{bot} self-play hands", total=hands * len(presets))
        reads = measure(hands, seed, presets, players, bot, jobs,
                        progress=lambda k: bar.advance(task, k))
    reads.save(out)
    typer.echo(f"wrote {out}: {len(reads.counts)} counts from {reads.hands} hands, seed {seed}")


def register(app: typer.Typer) -> None:
    """Add ``toepen train`` to the main command."""
    app.add_typer(train_app, name="train")


@train_app.command("escalation")
def train_escalation_cmd(
    hands: Annotated[
        int, typer.Option("--hands", help="Self-play hands per preset and table size.", min=1)
    ] = 800,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the self-play.")] = 0,
    preset: Annotated[
        list[str] | None,
        typer.Option("--preset", "-p", help="Presets to play (repeatable; default rulebook "
                     "and classic: one per settlement mode)."),
    ] = None,
    players: Annotated[
        list[int] | None,
        typer.Option("--players", "-n", help="Table sizes (repeatable; default 4).",
                     min=2, max=8),
    ] = None,
    explore: Annotated[
        float, typer.Option("--explore", help="Share of betting decisions taken at random "
                            "and counted (0: count the bot's own choices).", min=0.0, max=1.0)
    ] = 0.2,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", help="Worker processes "
                                             "(default: all cores).", min=1)] = None,
    out: Annotated[
        Path,
        typer.Option("--out", "-o", help="Where to write the table (default: the shipped file)."),
    ] = DEFAULT_ESCALATION,
    add_to: Annotated[
        Path | None,
        typer.Option("--add-to", help="A table the players use while measuring; the output "
                     "is that table plus the measured contexts it does not hold."),
    ] = None,
    kind: Annotated[
        list[str] | None,
        typer.Option("--kind", "-k", help="With --add-to: the kinds of decision to add "
                     "(repeatable: knock, answer, play, claim, exchange; default all)."),
    ] = None,
    damping: Annotated[
        float | None,
        typer.Option("--damping", help="With --add-to: one damped step towards the table's "
                     "fixed point: measure the whole extra beyond the one-shot value with "
                     "the players using the table, and move every context measured 10 "
                     "times or more this share of the way to it (e.g. 0.5).",
                     min=0.0, max=1.0),
    ] = None,
) -> None:
    """Measure expert's escalation table: what its decisions cost beyond their one-shot value."""
    from ..bots.escalation import ACTIONS, Escalation, load_escalation
    from ..tools.escalation import damped, measure

    presets = _presets(preset)
    sizes = players or [4]
    _check_out(out)
    for k in kind or ():
        if k not in ACTIONS:
            raise typer.BadParameter(f"{k!r}: one of {', '.join(ACTIONS)}", param_hint="--kind")
    base: Escalation | None = None
    if damping is not None and (add_to is None or damping == 0):
        raise typer.BadParameter("needs --add-to and a share above 0", param_hint="--damping")
    if add_to is not None:
        try:
            base = load_escalation(add_to)
        except (OSError, ValueError) as e:
            raise typer.BadParameter(str(e), param_hint="--add-to") from None
    with progress_bar() as bar:
        task = bar.add_task("expert self-play hands", total=hands * len(presets) * len(sizes))
        table = measure(hands, seed, presets, sizes, jobs,
                        progress=lambda k: bar.advance(task, k), explore=explore, table=base,
                        one_shot=damping is not None)
    if base is not None and damping is not None:
        table = damped(base, table, damping, kind)
    elif base is not None:
        keep = set(kind or ACTIONS)
        new = {key: c for key, c in table.counts.items()
               if key not in base.counts and key.split("|")[2] in keep}
        table = Escalation({**base.counts, **new}, base.hands, base.seed, base.explore)
    table.save(out)
    typer.echo(f"wrote {out}: {len(table.counts)} counts from {table.hands} hands, seed {seed}")
