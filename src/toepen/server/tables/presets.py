"""``GET /api/presets``: what a table can be, from the rules themselves.

Every preset with its catalog ids, table sizes, lives and full rules; every option with
its type, choices, default and catalog id. Clients build their forms from this and hold
no rule fact of their own.

>>> doc = presets_json()
>>> rulebook = doc["presets"][0]
>>> rulebook["name"], rulebook["label"], rulebook["about"], rulebook["sizes"][:3]
('rulebook', 'preset.rulebook', 'preset.rulebook.about', [2, 3, 4])
>>> [p["sizes"] for p in doc["presets"] if p["name"] == "teams"]
[[4, 6]]
>>> lives = next(o for o in doc["options"] if o["name"] == "lives")
>>> lives["type"], lives["default"], lives["about"], lives["min"], lives["max"]
('int', 10, 'option.lives', 1, 99)
>>> next(o for o in doc["options"] if o["name"] == "last_trick")["choices"]
['loses', 'wins']
>>> next(o for o in doc["options"] if o["name"] == "max_stake")["suggested"]
4
>>> pot = next(o for o in doc["options"] if o["name"] == "pot")
>>> pot["type"], pot["default"], pot["min"], pot["max"], pot["step"]
('number', 0, 0, 1000, 0.01)
>>> next(o for o in doc["options"] if o["name"] == "rebuy")["choices"]
['off', 'once', 'any']
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...rules import (
    ALL_TABLE_SIZES,
    BOUNDS,
    CHOICES,
    POT_MAX,
    POT_UNIT_MAX,
    SUGGESTED_MAX_STAKE,
    Rules,
)
from ...tourney import SCHEMES

TYPES = {"int": "int", "bool": "bool", "str": "choice", "int | None": "int_or_null",
         "tuple[int, ...]": "sizes", "float": "number"}
"""An option's type in the protocol, by its annotation in :class:`Rules`."""
SUGGESTED: dict[str, Any] = {"max_stake": SUGGESTED_MAX_STAKE}
"""Values the lobby suggests beside an option's default (the pub's stake cap of 4)."""


def _json(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def full_rules(rules: Rules) -> dict[str, Any]:
    """Every option of ``rules`` (not only those that differ from its preset); the
    ``rules`` of a record or a ``CreateTable`` accept it as it is."""
    return {"preset": rules.name,
            **{name: _json(getattr(rules, name)) for name in Rules.option_names()}}


def preset_json(name: str) -> dict[str, Any]:
    rules = Rules.preset(name)
    return {"name": name, "label": f"preset.{name}", "about": f"preset.{name}.about",
            "sizes": list(rules.allowed_table_sizes()), "lives": rules.lives,
            "rules": full_rules(rules)}


def _choices(field: dataclasses.Field[Any]) -> list[Any] | None:
    if field.type == "bool":
        return [True, False]
    if field.type == "tuple[int, ...]":
        return list(ALL_TABLE_SIZES)
    if field.type == "str":
        found = CHOICES.get(field.name)
        return list(found) if found else None
    return None


def option_json(field: dataclasses.Field[Any], default: Rules) -> dict[str, Any]:
    out = {"name": field.name, "type": TYPES.get(str(field.type), str(field.type)),
           "choices": _choices(field), "default": _json(getattr(default, field.name)),
           "about": f"option.{field.name}"}
    if field.name in SUGGESTED:
        out["suggested"] = SUGGESTED[field.name]
    if field.name in BOUNDS:
        out["min"], out["max"] = BOUNDS[field.name]
    if field.name == "pot":  # a number with at most two decimals (cents)
        out["min"], out["max"], out["step"] = 0, POT_MAX, 0.01
    if field.name == "pot_unit":  # free text, shown as given
        out["type"], out["max_length"] = "text", POT_UNIT_MAX
    return out


def presets_json() -> dict[str, Any]:
    """The rules part of ``GET /api/presets`` (the server adds its bots)."""
    default = Rules.preset()
    fields = [f for f in dataclasses.fields(Rules) if f.name in Rules.option_names()]
    return {"presets": [preset_json(name) for name in Rules.preset_names()],
            "options": [option_json(f, default) for f in fields],
            "sizes": list(ALL_TABLE_SIZES), "schemes": schemes_json()}


def schemes_json() -> list[dict[str, Any]]:
    """``schemes`` of ``GET /api/presets``: the scoring schemes a club or tournament
    chooses from (:data:`toepen.tourney.SCHEMES`), each with its points per place and
    its catalog id (``label``)."""
    return [{**scheme.to_json(), "label": f"web.club.scheme.{name}"}
            for name, scheme in SCHEMES.items()]
