"""The ``toepen`` command: thin wrappers that parse, call the library and print.

Each area registers its commands from its own module (``register(app)``).
"""

from __future__ import annotations

import typer

from . import bots_cmds, engine_cmds, play_cmd, serve_cmd, train_cmds

app = typer.Typer(
    name="toepen",
    help="Toepen, the Dutch pub card game of tricks and bluff.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

engine_cmds.register(app)
bots_cmds.register(app)
serve_cmd.register(app)
play_cmd.register(app)
train_cmds.register(app)


def main() -> None:
    """Entry point of the ``toepen`` console script."""
    app()
