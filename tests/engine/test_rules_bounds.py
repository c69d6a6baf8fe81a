"""Every numeric option of ``Rules`` has a documented upper bound (issue 23, point 8):
``{"lives": 10**18}`` made a table whose game never ends. One home, ``Rules`` itself, so
the server, the command line and records all refuse the same values, naming the option."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toepen.engine import Game
from toepen.record import RecordError, replay, to_record
from toepen.rules import BOUNDS, Rules, RulesError

DOCS = Path(__file__).parents[2] / "docs" / "rules.md"
NULLABLE = {"max_stake", "rubbers"}
NEEDS = {"four_of_a_kind_penalty": {"four_of_a_kind": True}}
"""What an option needs around it to be valid at all (nothing else is refused)."""


def test_every_numeric_option_has_bounds() -> None:
    numeric = {f.name for f in dataclasses.fields(Rules)
               if f.name in Rules.option_names() and str(f.type) in ("int", "int | None")}
    assert numeric == set(BOUNDS)
    assert {f.name for f in dataclasses.fields(Rules) if str(f.type) == "int | None"} == NULLABLE


def test_the_bounds_are_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for name, (low, high) in BOUNDS.items():
        assert re.search(rf"\| `{name}` \| {low}\b[^|]*\| {high} \|", text), name


def test_the_issues_case_is_refused_naming_the_option() -> None:
    with pytest.raises(RulesError, match=r"^option lives: must be an integer from 1 to 99, "
                                         r"not 1000000000000000000$"):
        Rules.from_json({"preset": "rulebook", "lives": 10**18})


@given(name=st.sampled_from(sorted(BOUNDS)),
       value=st.one_of(st.integers(), st.integers(min_value=-10**40, max_value=10**40),
                       st.sampled_from([0, 1, 98, 99, 100, 10**18, -1])))
def test_a_numeric_option_is_accepted_exactly_within_its_bounds(name: str, value: int) -> None:
    low, high = BOUNDS[name]
    options = {**NEEDS.get(name, {}), name: value}
    if low <= value <= high:
        assert getattr(Rules.preset("rulebook", **options), name) == value
        return
    with pytest.raises(RulesError) as caught:
        Rules.preset("rulebook", **options)
    message = str(caught.value)
    assert message.startswith(f"option {name}: must be ")
    assert f"from {low} to {high}" in message
    assert len(message) < 160  # a huge number is described, not written out


@given(name=st.sampled_from(sorted(BOUNDS)),
       value=st.one_of(st.floats(), st.text(max_size=5), st.booleans(),
                       st.lists(st.integers(), max_size=2)))
def test_anything_but_an_integer_is_refused(name: str, value: object) -> None:
    with pytest.raises(RulesError, match=f"^option {name}: must be "):
        Rules.preset("rulebook", **{**NEEDS.get(name, {}), name: value})


@pytest.mark.parametrize("name", sorted(NULLABLE))
def test_null_still_means_no_cap(name: str) -> None:
    assert getattr(Rules.preset("rulebook", **{name: None}), name) is None


def test_a_record_with_a_boundless_option_is_refused_naming_it() -> None:
    doc = to_record(Game(Rules.preset("rulebook"), ("a", "b", "c"), seed=3), use_seed=True)
    doc["rules"] = {"preset": "rulebook", "lives": 10**18}
    with pytest.raises(RecordError, match="option lives: must be an integer from 1 to 99"):
        replay(doc)


def test_huge_text_is_not_echoed() -> None:
    with pytest.raises(RulesError) as caught:
        Rules.preset("rulebook", tells="x" * 100_000)
    assert len(str(caught.value)) < 200
