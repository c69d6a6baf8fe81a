"""The draw: legal, balanced table sizes for every 5 to 40 players, opponents spread
round after round (measured against the most each could meet), deterministic by seed."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from toepen.tourney import (
    MAX_TABLE,
    MIN_TABLE,
    DrawError,
    draw,
    met,
    spread,
    table_sizes,
)

ROUNDS = 4


def evening(n: int, rounds: int = ROUNDS, allowed: tuple[int, ...] = tuple(range(3, 9))
            ) -> list[list[list[str]]]:
    players = [f"p{i:02d}" for i in range(n)]
    done: list[list[list[str]]] = []
    for r in range(rounds):
        done.append(draw(players, met(done), table_sizes(n, allowed), seed=r))
    return done


@pytest.mark.parametrize("n", range(5, 41))
def test_every_round_seats_everyone_once_at_legal_balanced_tables(n: int) -> None:
    sizes = table_sizes(n)
    assert sum(sizes) == n and max(sizes) - min(sizes) <= 1
    assert all(MIN_TABLE <= s <= MAX_TABLE for s in sizes)
    assert abs(n / len(sizes) - 4) <= 1  # near a table of four
    rounds = evening(n)
    for tables in rounds:
        assert sorted(len(t) for t in tables) == sorted(sizes)
        seated = [p for t in tables for p in t]
        assert len(seated) == n and len(set(seated)) == n
    distinct, best = spread(rounds)
    # the measured figure (docs/clubs.md has the table): at least 85% of the upper bound
    # for every size (the bound is not always reachable: 12 at three tables of four)
    assert distinct >= 0.85 * best, (n, distinct, best)
    assert max(met(rounds).values()) <= ROUNDS


def test_the_spread_over_all_sizes() -> None:
    ratios = []
    for n in range(5, 41):
        distinct, best = spread(evening(n))
        ratios.append(distinct / best)
    assert sum(ratios) / len(ratios) >= 0.97


def test_sixteen_players_meet_no_one_twice_in_their_first_rounds() -> None:
    rounds = evening(16, rounds=3)
    assert max(met(rounds).values()) == 1  # 4 x 4 for 3 rounds: a repeat is never needed
    assert spread(rounds) == (9.0, 9.0)


def test_a_small_evening_meets_everyone() -> None:
    rounds = evening(7, rounds=4)  # a table of four and one of three
    distinct, best = spread(rounds)
    assert distinct == best == 6


def test_the_draw_is_the_seeds_and_leaves_the_global_random_alone() -> None:
    players = [f"p{i}" for i in range(13)]
    sizes = table_sizes(13)
    random.seed(5)
    first = draw(players, {}, sizes, seed=9)
    after = random.random()
    random.seed(5)
    assert draw(players, {}, sizes, seed=9) == first and random.random() == after
    assert draw(players, {}, sizes, seed=10) != first
    # seats are drawn afresh: over seeds, a player sits at every position
    positions = Counter(next(t.index("p0") for t in draw(players, {}, sizes, seed=s)
                             if "p0" in t) for s in range(40))
    assert len(positions) >= 4


def test_table_sizes_follow_the_rules_and_say_when_they_cannot() -> None:
    assert table_sizes(9, allowed=(3, 4)) == (3, 3, 3)
    assert table_sizes(7, allowed=(3, 4)) == (4, 3)
    assert table_sizes(12, target=6) == (6, 6)
    with pytest.raises(DrawError, match="too few"):
        table_sizes(2)
    with pytest.raises(DrawError, match="balanced"):
        table_sizes(5, allowed=(3, 4))
    with pytest.raises(DrawError, match="no table size"):
        table_sizes(10, allowed=(2, 9))
    with pytest.raises(DrawError, match="seat 6, not 7"):
        draw([f"p{i}" for i in range(7)], {}, (3, 3), seed=1)
    with pytest.raises(DrawError, match="twice"):
        draw(["a", "a", "b"], {}, (3,), seed=1)
