"""The ``toepen`` command: thin wrappers that parse, call the library and print.

Each area registers its commands from its own module (``register(app)``).
"""

from __future__ import annotations

import inspect
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import typer
from rich.markup import escape
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

TYPE_WORDS = {"str": "TEXT", "list[str]": "TEXT", "int": "N", "int range": "N",
              "list[int]": "N", "float": "NUMBER", "float range": "NUMBER", "path": "FILE",
              "list[path]": "FILE"}
"""What ``--help`` shows for an option's value instead of typer's Python type
(``<list[str]>``, ``<float range>``); an option's own ``metavar`` comes first."""


def _plain_type(self: TyperOption, ctx: Any) -> str | None:
    """An option's value in ``--help`` in words (``TEXT``, ``N``, ``SECONDS``), and none
    for a flag (typer's rich help wrote ``<bool>`` after every flag, ``--help`` included,
    though a flag takes no value)."""
    if self.is_flag or self.count:
        return None
    if self.metavar is not None:
        return self.metavar
    shown = _display_type_rich(self, ctx)
    if shown is None:
        return None
    bare = shown.strip("<>").removesuffix("...")
    return TYPE_WORDS.get(bare, shown)


def _range_words(self: TyperOption) -> str | None:
    """An option's bounds in ``--help`` in words (``at least 0``, ``1 to 64``), not
    ``x>=0.0``."""
    low, high = self.min, self.max
    if low is not None and high is not None:
        return f"{low:g} to {high:g}"
    if low is not None:
        return f"at least {low:g}"
    if high is not None:
        return f"at most {high:g}"
    return None


TYPER_TESTED = ((0, 12), (0, 29))
"""The typer versions (major, minor) whose help hooks below were tested."""


def _typer_tested() -> bool:
    try:
        major, minor = (int(p) for p in version("typer").split(".")[:2])
    except (PackageNotFoundError, ValueError):
        return False
    return TYPER_TESTED[0] <= (major, minor) <= TYPER_TESTED[1]


# typer's rich help reads these two. The range's is private to typer: reached into only in
# the tested versions (checked here, at start-up) and where it exists; anywhere else typer's
# own words are shown (``[x>=0.0]``), the fallback (tests/test_layering.py names this one
# exception to its rule on other libraries' internals).
if hasattr(TyperOption, "display_type_rich"):
    TyperOption.display_type_rich = _plain_type  # type: ignore[method-assign]
if _typer_tested() and hasattr(TyperOption, "_get_number_range_help_str"):
    setattr(TyperOption, "_get_number_range_help_str", _range_words)  # noqa: B010

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


def prose(text: str | None) -> str | None:
    """A command's help as ``--help`` should show it: each paragraph one flowing text (the
    line breaks of a docstring are not the reader's: typer's rich help keeps them, which
    broke sentences in the middle), a line that starts a list item kept on its own, and
    square brackets shown as written (``[server]``, which Rich took for markup)."""
    if not text:
        return text
    paragraphs = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        lines: list[str] = []
        for line in paragraph.splitlines():
            if lines and not line.lstrip().startswith(("- ", "* ")):
                lines[-1] += " " + line.strip()
            else:
                lines.append(line.strip())
        paragraphs.append("\n".join(escape(line) for line in lines))
    return "\n\n".join(paragraphs)


def _flow_help(typer_app: typer.Typer) -> None:
    """Every command's and group's help of ``typer_app`` through :func:`prose`."""
    for command in typer_app.registered_commands:
        command.help = prose(command.help or inspect.getdoc(command.callback))
    for group in typer_app.registered_groups:
        sub = group.typer_instance
        if sub is not None:
            group.help = prose(group.help or sub.info.help)
            if isinstance(sub.info.help, str):
                sub.info.help = prose(sub.info.help)
            _flow_help(sub)


_flow_help(app)


def main() -> None:
    """Entry point of the ``toepen`` console script."""
    app()
