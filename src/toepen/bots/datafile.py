"""The bots' shipped data files (``toepen/bots/data/*.json``): load, check, save.

Both of ``expert``'s tables (the policy and the reading table) are JSON documents of the
same shape: a ``format`` tag, a few numbers, and one object of entries keyed by
``|``-separated parts. :func:`entries` checks that shape once for both; each table
checks its own keys and values.

>>> entries({"format": "x/1", "tables": {"a|b": 1}}, "x/1", "tables", "policy")
{'a|b': 1}
>>> entries({"format": "y/1"}, "x/1", "tables", "policy")
Traceback (most recent call last):
...
ValueError: not a x/1 document
>>> entries({"format": "x/1", "tables": []}, "x/1", "tables", "policy")
Traceback (most recent call last):
...
ValueError: policy: 'tables' must be an object
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["entries", "load_data_json", "save_json"]

PACKAGE = __name__.rpartition(".")[0]
"""The package whose ``data/`` folder holds the shipped files (``toepen.bots``)."""


def load_data_json(name: str, path: Path | None = None) -> Any:
    """The JSON of the shipped ``toepen/bots/data/NAME``, or of ``path`` if given."""
    if path is None:
        text = resources.files(PACKAGE).joinpath(f"data/{name}").read_text(
            encoding="utf-8"
        )
    else:
        text = Path(path).read_text(encoding="utf-8")
    return json.loads(text)


def entries(data: Any, fmt: str, key: str, what: str) -> dict[str, Any]:
    """The object ``data[key]`` of a ``fmt`` document (ValueError naming what is wrong)."""
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise ValueError(f"not a {fmt} document")
    found = data.get(key)
    if not isinstance(found, dict):
        raise ValueError(f"{what}: {key!r} must be an object")
    return found


def save_json(document: dict[str, Any], path: Path) -> None:
    """Write a data document as indented JSON."""
    path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
