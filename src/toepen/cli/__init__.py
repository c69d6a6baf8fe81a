"""The ``toepen`` command: thin wrappers that parse, call the library and print.

Each area registers its commands from its own module (``register(app)``).
"""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperOption

from . import (
    bots_cmds,
    engine_cmds,
    play_cmd,
    review_cmd,
    rules_cmd,
    serve_cmd,
    tally_cmd,
    train_cmds,
)

_display_type_rich = TyperOption.display_type_rich


def _no_flag_type(self: TyperOption, ctx: Any) -> str | None:
    """An option's type in ``--help``, but none for a flag (typer's rich help wrote
    ``<bool>`` after every flag, ``--help`` included, though a flag takes no value)."""
    if self.is_flag or self.count:
        return None
    return _display_type_rich(self, ctx)


TyperOption.display_type_rich = _no_flag_type  # type: ignore[method-assign]

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
rules_cmd.register(app)
tally_cmd.register(app)
train_cmds.register(app)
review_cmd.register(app)


def main() -> None:
    """Entry point of the ``toepen`` console script."""
    app()
