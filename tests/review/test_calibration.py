"""The values are right (issue 36): what the evaluation says an action is worth is what
it takes when the hand is played out from the true position, expert continuing for every
seat, within the sampling error, per kind of decision, at 2, 4 and 6 players. The larger
run's figures are in docs/review.md (``python -m toepen.tools.calibrate``)."""

from __future__ import annotations

import pytest

from toepen.review import DEFAULT_SAMPLES
from toepen.tools.calibrate import KINDS, measure, summarize

SIZES = {2: 24, 4: 6, 6: 3}
"""Self-play hands per table size (a quarter of their decisions valued and played out)."""


@pytest.mark.parametrize("players", sorted(SIZES))
def test_values_are_what_the_actions_take(players: int) -> None:
    rows = measure(players, "rulebook", hands=SIZES[players], share=0.25, seed=36,
                   samples=DEFAULT_SAMPLES, continue_samples=8)
    got = {s.kind: s for s in summarize(rows)}
    assert set(got) == set(KINDS)
    assert len(rows) >= 25, len(rows)
    for s in got.values():
        # within 3 standard errors of 0 (and never a whole life off on average)
        assert s.agrees and abs(s.diff) < 1.0, (players, s)
