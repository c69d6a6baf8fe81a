"""Find every message id the clients' Python code uses: first arguments of ``t(...)``,
``self.t(...)`` and ``N_(...)`` calls that are string constants in the terminal client,
every catalog id written in :mod:`toepen.narration` (its tables and ``Message(...)``
calls), and the ids built from the names of phases, verbs, suits, refusal codes, presets
and options (``f"refusal.{code}"``, the server's ``preset.<name>``...)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "toepen"
FILES = sorted((SRC / "tui").glob("*.py")) + [SRC / "cli" / f for f in (
    "play_cmd.py", "rules_cmd.py", "extras.py", "review_cmd.py")] + [
    SRC / "tools" / "review_plot.py"]
NARRATION = SRC / "narration.py"
SERVER = [*sorted((SRC / "server").rglob("*.py")), SRC / "bots" / "reasons.py",
          SRC / "bots" / "pimc.py"]
"""The server's own messages (``error.*``, ``hint.*``, ``react.*``) and the hints' reasons
(``bots/reasons.py``, a bot's own explanation in ``bots/pimc.py``): string constants."""
SERVER_PREFIXES = ("error.", "hint.", "react.")
AREAS = {"account.": sorted((SRC / "server" / "site" / "accounts").glob("*.py")),
         "review.": [SRC / "review.py", SRC / "server" / "http" / "review_jobs.py"]}
"""Server areas whose catalog ids are string constants in their code, by id prefix."""
REFUSERS = {SRC / "server" / "site" / "playnow.py": "playnow",
            SRC / "server" / "site" / "presence.py": "here"}
"""Server modules whose refusals are ``refused("code", ...)``, each with its id's area."""
CALLERS = {"t", "N_"}
ID = re.compile(r"^[a-z_]+(\.[a-z_-]+)+$")


def used_ids() -> dict[str, str]:
    """Message id -> 'file:line' of its first use (or where a family of ids is built)."""
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
    for node in ast.walk(ast.parse(NARRATION.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and ID.match(node.value) and not node.value.startswith("toepen.")):
            found.setdefault(node.value, f"narration.py:{node.lineno}")
    for prefix, paths in AREAS.items():
        for path in paths:
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                        and node.value.startswith(prefix) and ID.match(node.value)):
                    found.setdefault(node.value, f"{path.name}:{node.lineno}")
    for path in SERVER:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and ID.match(node.value) and node.value.startswith(SERVER_PREFIXES)):
                found.setdefault(node.value, f"{path.name}:{node.lineno}")
            # limited(..., area="hint") says <area>.error.rate_limited (playnow.limited)
            if isinstance(node, ast.Call):
                for kw in node.keywords:
                    if (kw.arg == "area" and isinstance(kw.value, ast.Constant)
                            and isinstance(kw.value.value, str)):
                        found.setdefault(f"{kw.value.value}.error.rate_limited",
                                         f"{path.name}:{node.lineno}")
    for path in REFUSERS:  # refused("code", ...) says <area>.error.<code>
        area = REFUSERS[path]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "refused" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                found.setdefault(f"{area}.error.{node.args[0].value}",
                                 f"{path.name}:{node.lineno}")
            if (isinstance(node, ast.JoinedStr) and node.values
                    and isinstance(node.values[-1], ast.Constant)
                    and str(node.values[-1].value).startswith(".error.")):
                for each in REFUSERS.values():  # f"{area}.error.rate_limited", either area
                    found.setdefault(f"{each}{node.values[-1].value}",
                                     f"{path.name}:{node.lineno}")
    # the browser's ids kept in the .po catalogs (the others are in static/i18n/web-extra*)
    po_ids = catalog_ids()
    families: dict[str, str] = {}
    for js in sorted((SRC / "server" / "static" / "js").rglob("*.js")):
        text = js.read_text(encoding="utf-8")
        for m in re.finditer(r"""["'`]((?:review|web)\.[a-z_.0-9]*[a-z_0-9])["'`]""", text):
            if m.group(1) in po_ids:
                found.setdefault(m.group(1), js.name)
        for m in re.finditer(r"""`((?:review|web)\.[a-z_.0-9]+)\$\{""", text):
            families.setdefault(m.group(1), js.name)  # t(`web.here.sent_${status}`)
    for key in po_ids:
        for prefix, where in families.items():
            if key.startswith(prefix):
                found.setdefault(key, where)
    found.update({k: "built from names" for k in built_ids() if k not in found})
    return found


def catalog_ids() -> set[str]:
    """Every id of the English catalogs (the families above are matched against them)."""
    from babel.messages.pofile import read_po

    ids: set[str] = set()
    for po in sorted((SRC / "locales" / "en" / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as fh:
            ids |= {str(m.id) for m in read_po(fh) if m.id}
    return ids


def built_ids() -> set[str]:
    """The ids the code builds from the names of things rather than writes out."""
    from toepen.engine import REFUSAL_CODES, VERBS, Phase
    from toepen.rules import Rules

    ids = {f"phase.{p}" for p in Phase} | {f"act.{v}" for v in VERBS}
    ids |= {f"suit.{s}" for s in "cdhs"} | {f"refusal.{c}" for c in REFUSAL_CODES}
    from toepen.server.protocol import ERROR_CODES  # the server says error.<code>

    ids |= {f"error.{c}" for c in ERROR_CODES}
    from toepen.cards import RANKS  # tally.entry_message: rank.letter.<r> of an entry

    ids |= {f"rank.letter.{r.lower()}" for r in RANKS}
    for name in Rules.preset_names():
        ids |= {f"preset.{name}", f"preset.{name}.about"}
    from toepen.bots.base import LEVELS  # the lobby says level.<name> and its .about

    for lv in LEVELS:
        ids |= {f"level.{lv.name}", f"level.{lv.name}.about"}

    from toepen.rules import CHOICES, HOUSE_RULES  # a house rule's choice in words

    ids |= {f"option.{name}.{c}" for name in HOUSE_RULES for c in CHOICES.get(name, ())}
    return ids | {f"option.{name}" for name in Rules.option_names()}
