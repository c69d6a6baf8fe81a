"""``toepen train expert``: rebuild expert's knock/answer/claim policy by self-play."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .engine_cmds import progress_bar

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "bots" / "data" / "expert_policy.json"

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
    from ..bots.train import train

    if out.exists() and out.is_dir():
        raise typer.BadParameter(f"{out} is a directory", param_hint="--out")
    if not out.parent.is_dir():
        raise typer.BadParameter(f"no directory {out.parent}", param_hint="--out")
    with progress_bar() as bar:
        task = bar.add_task("self-play hands", total=iterations)
        policy = train(iterations, seed, progress=lambda k: bar.advance(task, k))
    policy.save(out)
    typer.echo(f"wrote {out}: {len(policy.tables)} decisions, {iterations} hands, seed {seed}")


def register(app: typer.Typer) -> None:
    """Add ``toepen train`` to the main command."""
    app.add_typer(train_app, name="train")
