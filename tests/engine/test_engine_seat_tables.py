"""The seat tables the hot path looks up instead of looping: every table size, every
mask, every seat, against the plain loops they replace."""

from __future__ import annotations

import pytest

from toepen.engine.core import after_table, order_table


@pytest.mark.parametrize("n", range(2, 9))
def test_seat_tables_match_the_loops(n: int) -> None:
    after, orders = after_table(n), order_table(n)
    for mask in range(1 << n):
        for seat in range(n):
            ring = [(seat + i) % n for i in range(n)]
            assert orders[mask << 3 | seat] == tuple(s for s in ring if mask >> s & 1)
            later = [s for s in ring[1:] + ring[:1] if mask >> s & 1]
            assert after[mask << 3 | seat] == (later[0] if later else -1)
