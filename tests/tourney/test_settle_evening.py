"""Settling up an evening of pot toepen (``toepen.settle``): the transfers settle every
balance, sum to zero, number at most players - 1, and are as few as a brute force over
every way of grouping the players finds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toepen.settle import EXACT_LIMIT, Transfer, evening, transfers


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _partitions(rest):
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1:]]
        yield [[first], *part]


def _fewest(amounts: list[int]) -> int:
    """Brute force: every set partition of the players with a balance; the most blocks
    that each sum to zero; the fewest transfers is players - blocks."""
    idx = [i for i, a in enumerate(amounts) if a]
    best = max(sum(1 for block in p if sum(amounts[i] for i in block) == 0)
               for p in _partitions(idx)) if idx else 0
    return len(idx) - best


def _settles(balances: dict[str, int], done: list[Transfer]) -> None:
    left = dict(balances)
    for t in done:
        assert t.cents > 0 and t.payer != t.payee
        left[t.payer] += t.cents
        left[t.payee] -= t.cents
    assert not any(left.values())


def _balances(draw: list[int]) -> dict[str, int]:
    amounts = [*draw, -sum(draw)]
    return {f"p{i}": a for i, a in enumerate(amounts)}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-6, 6), min_size=1, max_size=6))
def test_the_transfers_are_the_fewest_a_brute_force_finds(draw: list[int]) -> None:
    balances = _balances(draw)
    done = transfers(balances)
    _settles(balances, done)
    assert sum(t.cents for t in done) == sum(a for a in balances.values() if a > 0)
    assert len(done) <= max(len(balances) - 1, 0)
    assert len(done) == _fewest(list(balances.values()))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(-5000, 5000), min_size=EXACT_LIMIT, max_size=20))
def test_many_players_still_settle_in_at_most_players_minus_one(draw: list[int]) -> None:
    balances = _balances(draw)
    done = transfers(balances)
    _settles(balances, done)
    assert len(done) <= len(balances) - 1


def test_pairs_that_cancel_are_settled_apart() -> None:
    """Two pairs that cancel need 2 transfers, not the 3 a chain through everyone makes."""
    done = transfers({"Ann": 50, "Bas": 70, "Cor": -50, "Dirk": -70})
    assert [str(t) for t in done] == ["Cor pays Ann 50", "Dirk pays Bas 70"]


def test_ties_are_broken_by_seat_order() -> None:
    done = transfers({"Ann": -100, "Bas": -100, "Cor": 100, "Dirk": 100})
    assert [str(t) for t in done] == ["Ann pays Cor 100", "Bas pays Dirk 100"]


def test_an_evening_adds_the_sessions_and_refuses_a_pot_that_does_not_add_up() -> None:
    total = evening([{"Ann": 150, "Bas": -50, "Cor": -50, "Dirk": -50},
                     {"Ann": -50, "Bas": -50, "Cor": 150, "Dirk": -50}])
    assert total == {"Ann": 100, "Bas": -100, "Cor": 100, "Dirk": -100}
    assert sum(total.values()) == 0
    with pytest.raises(ValueError, match="session 1: the balances sum to 10, not 0"):
        evening([{"Ann": 10}])
    with pytest.raises(ValueError, match="sum to 5, not 0"):
        transfers({"Ann": 5})
    assert transfers({"Ann": 0, "Bas": 0}) == []
