"""Issue 37's smaller doors (docs/security.md, "Issue 37 point by point"): every integer
from outside bounded at parse time (the OpenAPI and the protocol's schema walked), a
message id past 64 bits, an invitation id past 64 bits; each over a real server whose log
is read for tracebacks."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from .conftest import Player, Server, create
from .schema import SCHEMA

PASSWORD = "correct horse battery"
MAX_INT = 2**53 - 1  # JavaScript's Number.MAX_SAFE_INTEGER: protocol.MAX_INT


def assert_no_traceback(server: Server) -> None:
    text = server.logpath.read_text(errors="replace")
    assert "Traceback" not in text and "ERROR" not in text, text[-3000:]


def unbounded(schema: dict[str, Any], where: str, defs: dict[str, Any],
              seen: frozenset[str] = frozenset()) -> list[str]:
    """Every integer of a JSON schema (OpenAPI's or the protocol's) without both a
    minimum and a maximum: where it is."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return []
        return unbounded(defs[name], where, defs, seen | {name})
    out: list[str] = []
    types = schema.get("type")
    integer = types == "integer" or (isinstance(types, list) and "integer" in types)
    bounded = ({"minimum", "exclusiveMinimum"} & set(schema)
               and {"maximum", "exclusiveMaximum"} & set(schema))
    if integer and not bounded:
        out.append(where)
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, []):
            out += unbounded(sub, where, defs, seen)
    for name, sub in schema.get("properties", {}).items():
        out += unbounded(sub, f"{where}.{name}", defs, seen)
    if isinstance(schema.get("items"), dict):
        out += unbounded(schema["items"], f"{where}[]", defs, seen)
    if isinstance(schema.get("additionalProperties"), dict):
        out += unbounded(schema["additionalProperties"], f"{where}{{}}", defs, seen)
    return out


def test_every_integer_of_the_openapi_is_bounded() -> None:
    """Every integer parameter (query, path, header) and every integer property of a
    request body has a minimum and a maximum: checked by the models before any handler."""
    from toepen.server.app import create_app

    spec = create_app().openapi()
    defs = spec.get("components", {}).get("schemas", {})
    found: list[str] = []
    params = 0
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            for param in op.get("parameters", []):
                params += 1
                found += unbounded(param.get("schema", {}),
                                   f"{method.upper()} {path} {param['in']}:{param['name']}", defs)
            for content in op.get("requestBody", {}).get("content", {}).values():
                found += unbounded(content.get("schema", {}), f"{method.upper()} {path} body",
                                   defs)
    assert params > 10  # the walk reached the parameters
    assert unbounded({"type": "integer", "minimum": 0}, "probe", defs) == ["probe"]
    assert found == [], found


def test_every_integer_of_a_client_message_is_bounded() -> None:
    """The protocol's schema bounds every integer of every client message, and the
    bounds are the ones ``protocol.parse`` holds them to (INT_FIELDS)."""
    from toepen.server import protocol

    defs = SCHEMA["$defs"]
    kinds = [ref["$ref"].rsplit("/", 1)[-1] for ref in defs["client_message"]["oneOf"]]
    found: list[str] = []
    bounds: dict[str, tuple[int, int]] = {}
    for kind in kinds:
        found += unbounded(defs[kind], kind, defs)
        for name, prop in defs[kind]["properties"].items():
            prop = defs["id"] if prop.get("$ref") == "#/$defs/id" else prop
            if "integer" in json.dumps(prop.get("type")):
                bounds[name] = (prop["minimum"], prop["maximum"])
    assert len(kinds) == 9 and found == [], found
    assert bounds == protocol.INT_FIELDS and protocol.MAX_INT == MAX_INT


def test_a_huge_message_id_is_a_clear_error_and_the_socket_lives_on(server: Server) -> None:
    t = create(server, name="Ann", size=2, bots={"1": "random"})
    ann = Player(server, t["table"]["id"], t["token"])
    for text in ('{"v":1,"type":"ping","id":18446744073709551616}',
                 '{"v":1,"type":"ping","id":-18446744073709551616}',
                 '{"v":1,"type":"ping","id":' + "9" * 4000 + "}",
                 '{"v":1,"type":"act","action":"knock","state":18446744073709551616}',
                 '{"v":1,"type":"host","command":"add_bot","seat":18446744073709551616}',
                 '{"v":1,"type":"rematch","options":{"lives":18446744073709551616}}'):
        ann.send(text)
        msg = ann.wait(lambda m: m["type"] == "error")
        assert msg["code"] == "bad_message" and msg["say"]["id"] == "error.integer", msg
        assert "an integer from" in msg["message"] and "id" not in msg
        assert msg["say"]["params"]["high"] == MAX_INT
    ann.send({"v": 1, "type": "ping", "id": MAX_INT})
    assert ann.wait(lambda m: m["type"] == "pong")["id"] == MAX_INT
    ann.send({"v": 1, "type": "ping", "id": -MAX_INT})
    assert ann.wait(lambda m: m["type"] == "pong")["id"] == -MAX_INT
    assert ann.reconnects == 0
    ann.close()
    time.sleep(0.1)
    assert_no_traceback(server)


def test_a_huge_invitation_id_is_a_clear_4xx(server: Server) -> None:
    http = httpx.Client(base_url=server.url, timeout=10)
    csrf = http.get("/api/account").json()["csrf"]
    r = http.post("/api/account/register", json={"name": "Inge", "password": PASSWORD},
                  headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    csrf = r.json()["csrf"]
    for inv in ("99999999999999999999", "2147483648", "-1", "0"):
        for answer in ("accept", "decline"):
            r = http.post(f"/api/invitations/{inv}/{answer}", headers={"X-CSRF-Token": csrf})
            assert r.status_code == 422, (inv, r.text)
            assert r.json()["detail"].startswith("path.inv:"), r.text
    r = http.post("/api/invitations/2147483647/accept", headers={"X-CSRF-Token": csrf})
    assert r.status_code == 404 and r.json()["say"]["id"] == "here.error.invitation"
    time.sleep(0.1)
    assert_no_traceback(server)
