"""A small validator for the JSON Schema subset docs/protocol.schema.json uses.

(type, const, enum, required, properties, additionalProperties (false or a schema),
items, prefixItems, minItems, maxItems, oneOf, $ref, pattern, minimum, maximum, minLength,
maxLength.) Unknown keywords fail loudly, so the schema cannot silently use something this
does not check.

Every frame a test of tests/server receives over a table's WebSocket is checked here
(:func:`check_server_message`, by ``conftest.every_frame_checked``): a test fails on any
frame the schema does not allow.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"
SCHEMA: dict[str, Any] = json.loads(SCHEMA_PATH.read_text())
KNOWN = {"$schema", "$id", "title", "description", "$defs", "type", "const", "enum",
         "required", "properties", "additionalProperties", "items", "oneOf", "$ref",
         "pattern", "minimum", "maximum", "minLength", "maxLength", "prefixItems",
         "minItems", "maxItems"}
TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(value: Any, t: str) -> bool:
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[t])


def errors(value: Any, schema: dict[str, Any] | None = None, path: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema`` (the whole protocol schema by default)."""
    s = SCHEMA if schema is None else schema
    unknown = set(s) - KNOWN
    assert not unknown, f"schema keyword(s) not checked: {unknown}"
    if "$ref" in s:
        name = s["$ref"].removeprefix("#/$defs/")
        return errors(value, SCHEMA["$defs"][name], path)
    out: list[str] = []
    if "type" in s:
        types = s["type"] if isinstance(s["type"], list) else [s["type"]]
        if not any(_is(value, t) for t in types):
            return [f"{path}: {value!r} is not {s['type']}"]
    if "const" in s and value != s["const"]:
        out.append(f"{path}: {value!r} is not {s['const']!r}")
    if "enum" in s and value not in s["enum"]:
        out.append(f"{path}: {value!r} not in {s['enum']}")
    if "oneOf" in s:
        ok = [sub for sub in s["oneOf"] if not errors(value, sub, path)]
        if len(ok) != 1:
            out.append(f"{path}: matches {len(ok)} of oneOf, not exactly 1")
    if isinstance(value, str):
        if "pattern" in s and not re.search(s["pattern"], value):
            out.append(f"{path}: {value!r} does not match {s['pattern']}")
        if len(value) < s.get("minLength", 0) or len(value) > s.get("maxLength", 1 << 30):
            out.append(f"{path}: length {len(value)} out of bounds")
    if _is(value, "number") and "minimum" in s and value < s["minimum"]:
        out.append(f"{path}: {value} < {s['minimum']}")
    if _is(value, "number") and "maximum" in s and value > s["maximum"]:
        out.append(f"{path}: {value} > {s['maximum']}")
    if isinstance(value, dict):
        for key in s.get("required", []):
            if key not in value:
                out.append(f"{path}: missing {key!r}")
        props = s.get("properties", {})
        extra = s.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                out.extend(errors(item, props[key], f"{path}.{key}"))
            elif extra is False:
                out.append(f"{path}: unexpected {key!r}")
            elif isinstance(extra, dict):
                out.extend(errors(item, extra, f"{path}.{key}"))
    if isinstance(value, list):
        if len(value) < s.get("minItems", 0) or len(value) > s.get("maxItems", 1 << 30):
            out.append(f"{path}: {len(value)} items, out of bounds")
        first = s.get("prefixItems", [])
        for i, (item, sub) in enumerate(zip(value, first, strict=False)):
            out.extend(errors(item, sub, f"{path}[{i}]"))
        if "items" in s:
            for i, item in enumerate(value[len(first):], len(first)):
                out.extend(errors(item, s["items"], f"{path}[{i}]"))
    return out


def check_server_message(msg: Any) -> None:
    problems = errors(msg, {"$ref": "#/$defs/server_message"})
    assert not problems, f"{msg.get('type')}: {problems[:5]}"


def check_client_message(msg: Any) -> None:
    problems = errors(msg, {"$ref": "#/$defs/client_message"})
    assert not problems, f"{msg.get('type')}: {problems[:5]}"
