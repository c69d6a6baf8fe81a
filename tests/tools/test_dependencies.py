"""pyproject.toml declares what the code imports, and no more (issue 11, item 9).

The core dependencies are what the engine imports; each extra is imported only where
``WHERE`` allows (``server`` by the server and its benchmarks, ``tui`` by the terminal,
``rl`` by ``toepen.rl``, ``plot`` (matplotlib) only by the arena's and the review's plots...);
the dev group
brings every test dependency, the extras included, without repeating them.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "toepen"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
RUNTIME_ONLY = {"psycopg"}
"""Core dependencies used without an import (SQLAlchemy loads psycopg for postgresql://)."""
WHERE = {
    "server": ("server/",),
    "tui": ("tui/",),
    "postgres": ("server/db/store.py",),  # the lease holder's one-statement write (lazily)
    "redis": ("server/cluster/core.py", "server/site/accounts/__init__.py"),
    "rl": ("rl/", "tools/bench.py"),  # the bench times the rl environments when installed
    "plot": ("tools/arena/report.py", "tools/review_plot.py"),
    "arena": ("tools/arena/",),
    "fast": ("rl/kernel.py",),  # the batched environment's compiled path, when installed
}
"""Where in src/toepen each extra may be imported (a distribution in two extras, numpy or
openskill, may be imported where either allows)."""
LOCAL = ({p.stem for p in (ROOT / "tests").glob("*.py")}
         | {p.parent.name for p in (ROOT / "tests").glob("*/__init__.py")}
         | {p.stem for p in (ROOT / "benchmarks").glob("*.py")})
"""The tests' own helper modules and packages at the top of tests/ (imported by plain name:
``from server.test_replay_budget import ...``), and the benchmarks' modules (``services``,
``server_bench``: on pytest's path, and beside each other)."""


def _name(requirement: str) -> str:
    """The normalised distribution name of ``uvicorn[standard]>=0.29``."""
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def _imports(paths: list[Path]) -> dict[str, set[str]]:
    """Distribution name -> the files (relative to the root) that import it."""
    dists = packages_distributions()
    found: dict[str, set[str]] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if (top in sys.stdlib_module_names or top in ("toepen", "tests", "__future__")
                        or top in LOCAL):
                    continue
                for dist in dists.get(top, [top]):
                    found.setdefault(_name(dist), set()).add(str(path.relative_to(ROOT)))
    return found


CORE = {_name(r) for r in PROJECT["project"]["dependencies"]}
EXTRAS = {k: {_name(r) for r in v} for k, v in PROJECT["project"]["optional-dependencies"].items()}


def test_the_library_imports_only_what_it_declares() -> None:
    used = _imports(sorted(SRC.rglob("*.py")))
    for dist, files in sorted(used.items()):
        if dist in CORE:
            continue
        extras = [k for k, v in EXTRAS.items() if dist in v]
        assert extras, f"{dist} is imported by {sorted(files)} but not declared"
        allowed = tuple(f"src/toepen/{w}" for k in extras for w in WHERE[k])
        assert all(f.startswith(allowed) for f in files), (dist, sorted(files))
    assert CORE - set(used) <= RUNTIME_ONLY, f"declared, imported nowhere: {CORE - set(used)}"


def test_the_dev_group_installs_every_test_dependency_without_repeating_an_extra() -> None:
    dev = PROJECT["dependency-groups"]["dev"]
    own = [r for r in dev if _name(r) == "toepen"]
    assert own, "the dev group installs the project's extras as toepen[...]"
    with_extras = set(re.findall(r"\[(.*)\]", own[0])[0].replace(" ", "").split(","))
    assert with_extras == set(EXTRAS)
    group = {_name(r) for r in dev} - {"toepen"}
    for extra in EXTRAS.values():
        assert not group & extra - CORE, f"the dev group repeats {group & extra - CORE}"
    installed = CORE | group | set().union(*EXTRAS.values())
    tests = [p for d in ("tests", "benchmarks") for p in sorted((ROOT / d).rglob("*.py"))]
    for dist, files in sorted(_imports(tests).items()):
        assert dist in installed, f"{dist} is imported by {sorted(files)[:3]} but not installed"
