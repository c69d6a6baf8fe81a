"""Find every message id the play code uses: first arguments of ``t(...)``, ``self.t(...)``
and ``N_(...)`` calls that are string constants."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "toepen"
FILES = sorted((SRC / "tui").glob("*.py")) + [SRC / "cli" / "play_cmd.py"]
CALLERS = {"t", "N_"}


def used_ids() -> dict[str, str]:
    """Message id -> 'file:line' of its first use."""
    found: dict[str, str] = {}
    for path in FILES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else "")
            arg = node.args[0]
            if name in CALLERS and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.setdefault(arg.value, f"{path.name}:{node.lineno}")
    return found
