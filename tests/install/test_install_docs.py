"""The install docs are true to ``pyproject.toml`` (issue 38, point 21): every docs page it
points to exists, ``docs/install.md`` names each extra with every library it lists, the
core's direct dependencies are all named, and the README sends readers there rather than
saying the core installs its four libraries and nothing else."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _name(requirement: str) -> str:
    """``uvicorn[standard]>=0.54,<0.55`` -> ``uvicorn``."""
    return re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_every_doc_pyproject_points_to_exists() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    pointed = set(re.findall(r"docs/[\w./-]+\.md", text))
    assert "docs/install.md" in pointed
    assert not [p for p in sorted(pointed) if not (ROOT / p).is_file()]


def test_install_md_names_every_extra_and_what_it_lists() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    doc = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `\[(\w+)\]`.*$", doc, re.M)}
    assert set(rows) == set(project["optional-dependencies"]), sorted(rows)
    for extra, requirements in project["optional-dependencies"].items():
        for requirement in requirements:
            assert _name(requirement) in rows[extra].lower(), (extra, requirement)
    core = next(line for line in doc.splitlines() if line.startswith("| core |"))
    for requirement in project["dependencies"]:
        assert _name(requirement) in core, requirement


def test_the_readme_does_not_say_the_core_brings_nothing_else() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/install.md" in readme
    assert not re.search(r"platformdirs and babel,\s+nothing else", readme)


def test_the_command_line_knows_each_extra_as_pyproject_lists_it() -> None:
    """``toepen.cli.extras.EXTRAS`` (what a command checks and names when missing) is the
    extras of ``pyproject.toml``, library for library."""
    from toepen.cli.extras import EXTRAS

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    listed = {extra: sorted({_name(r) for r in requirements})
              for extra, requirements in project["optional-dependencies"].items()}
    assert {extra: sorted({_name(n) for n in names}) for extra, names in EXTRAS.items()} == listed
