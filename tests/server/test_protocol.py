"""The protocol module is the one home of the protocol's words: the schema agrees with it."""

from __future__ import annotations

from toepen.server import protocol

from .schema import SCHEMA


def test_the_schema_names_the_protocols_codes_and_types() -> None:
    defs = SCHEMA["$defs"]
    ws_codes = defs["error"]["properties"]["code"]["enum"]
    http_only = {"not_found"}
    assert set(ws_codes) == set(protocol.ERROR_CODES) - http_only
    client_types = [defs[ref["$ref"].removeprefix("#/$defs/")]["properties"]["type"]["const"]
                    for ref in defs["client_message"]["oneOf"]]
    assert client_types == list(protocol.CLIENT_TYPES)
    assert defs["host"]["properties"]["command"]["enum"] == list(protocol.HOST_COMMANDS)
    assert defs["v"]["const"] == protocol.PROTOCOL
