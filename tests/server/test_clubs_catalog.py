"""Every refusal of the clubs' API is a catalog message in the five languages, with the
parameters the server fills (its English detail is for programs and logs)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from toepen.i18n import LANGUAGES, placeholders, plural_base

SRC = Path(__file__).resolve().parents[2] / "src" / "toepen" / "server"
STATIC = SRC / "static" / "i18n"


def refusals() -> dict[str, set[str]]:
    """``why`` -> the parameter names of each ``ClubRefused(why, ..., name=...)``."""
    found: dict[str, set[str]] = {}
    for path in sorted((SRC / "site" / "clubs").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "ClubRefused"):
                arg = node.args[0]
                assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), path
                params = {k.arg for k in node.keywords if k.arg and k.arg != "status"}
                assert found.setdefault(arg.value, params) == params, arg.value
    return found


def test_every_refusal_is_said_in_every_language() -> None:
    used = refusals()
    assert {"round_open", "order", "plays_now", "name_taken", "rules", "auth"} <= set(used)
    extra = json.loads((STATIC / "web-extra-clubs.json").read_text(encoding="utf-8"))
    for lang in LANGUAGES:
        messages = json.loads((STATIC / f"{lang}.json").read_text(encoding="utf-8"))["messages"]
        for why, params in used.items():
            text = messages.get(f"web.club.error.{why}")
            assert text, f"{lang}: web.club.error.{why} is missing"
            assert placeholders(text) == params, (lang, why, text)
    # and no error message is left that nothing says
    said = {f"web.club.error.{w}" for w in used}
    for area in sorted(STATIC.glob("web-extra-*.json")):  # an area's own file may hold some
        if area.name != "web-extra-clubs.json":
            extra.update(json.loads(area.read_text(encoding="utf-8")))
    assert {plural_base(k) or k for k in extra if k.startswith("web.club.error.")} == said
