"""What the commands share: ``--option name=value`` parsing, rules from the command line
and the progress bar (on stderr, so that ``--json -`` output stays clean).

>>> parse_options(["lives=3", "pelt=true", "tells=tens"], lives=None)
{'lives': 3, 'pelt': True, 'tells': 'tens'}
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..rules import Rules, RulesError

err = Console(stderr=True)


def parse_options(
    options: list[str] | None,
    lives: int | None = None,
    *,
    bad: Callable[[str], str] | None = None,
) -> dict[str, Any]:
    """``name=value`` pairs, values as JSON where they parse (``3``, ``true``, ``null``),
    and ``--lives`` when given. ``bad(item)`` words the error for a pair without a name or
    an ``=`` (default: English)."""
    out: dict[str, Any] = {}
    for item in options or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise typer.BadParameter(
                bad(item) if bad is not None else f"option {item!r}: expected name=value")
        try:
            out[name.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[name.strip()] = value
    if lives is not None:
        out["lives"] = lives
    return out


def make_rules(preset: str, options: list[str] | None, lives: int | None = None) -> Rules:
    """Rules from the command line, or a clean error naming the option."""
    opts = parse_options(options, lives)
    try:
        return Rules.preset(preset, **opts)
    except RulesError as e:
        raise typer.BadParameter(str(e)) from None


def progress_bar() -> Progress:
    """A bar per task with done/total and the time elapsed, on stderr."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=False,
    )
