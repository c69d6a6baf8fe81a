"""What the commands share: ``--option name=value`` parsing, rules from the command line
and the progress bar (on stderr, so that ``--json -`` output stays clean).

>>> parse_options(["lives=3", "pelt=true", "tells=tens"], lives=None)
{'lives': 3, 'pelt': True, 'tells': 'tens'}
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
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


def check_table_size(rules: Rules, players: int, flag: str = "--players") -> None:
    """Refuse a table size the rules do not allow, in the words of the flag that set it
    (``--players: rulebook is played by 2 to 8 players, not 9``), before anything runs."""
    sizes = rules.allowed_table_sizes()
    if players not in sizes:
        listed = (f"{sizes[0]} to {sizes[-1]}" if list(sizes) == list(range(sizes[0],
                  sizes[-1] + 1)) and len(sizes) > 2 else " or ".join(map(str, sizes)))
        raise typer.BadParameter(f"{rules.name} is played by {listed} players, not {players}",
                                 param_hint=flag)
    try:
        rules.check_table(players)
    except (RulesError, ValueError) as e:  # pragma: no cover - the sizes said it all
        raise typer.BadParameter(str(e), param_hint=flag) from None


def check_writable(path: Path | None, flag: str) -> None:
    """Refuse an output file that cannot be written (``-`` is standard output), before a
    long run: a folder, a missing folder, or one without write permission."""
    if path is None or str(path) == "-":
        return
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        reason = "it is a folder"
    elif not folder.is_dir():
        reason = f"there is no folder {folder}"
    elif path.exists() and not os.access(path, os.W_OK):
        reason = "permission denied"
    elif not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
        reason = f"permission denied in {folder}"
    else:
        return
    raise typer.BadParameter(f"cannot write {path}: {reason}", param_hint=flag)


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
