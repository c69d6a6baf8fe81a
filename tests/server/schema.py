"""docs/protocol.schema.json, checked with ``jsonschema`` (draft 2020-12).

Every frame a test of tests/server receives over a table's WebSocket is checked here
(:func:`check_server_message`, by ``conftest.every_frame_checked``): a test fails on any
frame the schema does not allow. The schema itself is checked against the draft's
metaschema when this module is imported.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"
SCHEMA: dict[str, Any] = json.loads(SCHEMA_PATH.read_text())
Draft202012Validator.check_schema(SCHEMA)


def validator(name: str) -> Draft202012Validator:
    """A validator of one definition of the schema (``#/$defs/NAME``)."""
    return Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{name}"})


VALIDATORS: dict[str, Draft202012Validator] = {
    "server_message": validator("server_message"),
    "client_message": validator("client_message"),
}


def errors(value: Any, name: str | None = None) -> list[str]:
    """Every way ``value`` breaks the schema (the whole protocol's by default, else the
    definition ``name``), each as ``where: what``."""
    check = (Draft202012Validator(SCHEMA) if name is None
             else VALIDATORS.get(name) or validator(name))
    return [f"{'/'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
            for e in check.iter_errors(value)]


def _check(value: Any, name: str) -> None:
    found = list(VALIDATORS[name].iter_errors(value))
    if found:
        worst = best_match(found)
        where = "/".join(map(str, worst.absolute_path)) or "$"
        kind = value.get("type") if isinstance(value, dict) else None
        raise AssertionError(f"{kind}: {where}: {worst.message[:500]}")


def check_server_message(msg: Any) -> None:
    _check(msg, "server_message")


def check_client_message(msg: Any) -> None:
    _check(msg, "client_message")
