"""``python -m toepen.tools.calibrate``: its sampling and its ``--check`` verdict."""

from __future__ import annotations

import pytest

from toepen.tools.calibrate import KINDS, MIN_ROWS, Row, main, measure, summarize


def test_check_fails_a_sample_too_small_to_judge(capsys: pytest.CaptureFixture[str]) -> None:
    """Two hands cannot give every kind ``MIN_ROWS`` rows: the check fails for want of
    data rather than passing what it could not see."""
    code = main(["--players", "2", "--preset", "rulebook", "--hands", "2", "--share", "0.3",
                 "--samples", "4", "--continue-samples", "4", "--jobs", "1", "--check"])
    out = capsys.readouterr().out
    assert code == 1
    assert "off or short: rulebook 2 " in out


def test_cap_spreads_the_sample_over_kinds_and_hands() -> None:
    """With ``cap`` 1 no hand gives more than one row of a kind, and each row names its
    hand, so that the standard error can be clustered by it."""
    rows = measure(2, "rulebook", hands=4, share=1.0, seed=3, samples=4, continue_samples=4,
                   cap=1)
    assert rows
    seen = {(r.hand, r.kind) for r in rows}
    assert len(seen) == len(rows)
    assert {r.hand for r in rows} <= set(range(4))


def test_standard_error_is_clustered_by_hand() -> None:
    """Two rows of one hand moving together count as one observation, not two."""
    rows = [Row("lead", 0.0, 1.0, 0), Row("lead", 0.0, 1.0, 0),
            Row("lead", 0.0, -1.0, 1), Row("lead", 0.0, -1.0, 1)]
    s = summarize(rows)[KINDS.index("lead")]
    naive = (sum((r.outcome - s.diff) ** 2 for r in rows) / 3 / 4) ** 0.5
    assert s.n == 4 and s.diff == 0.0
    assert s.se == pytest.approx(1.0)  # two clusters of +2 and -2, over n = 4
    assert s.se > naive
    assert MIN_ROWS >= 5


def test_follow_goes_on_from_a_played_out_knock() -> None:
    """With ``follow`` 1 the self-play goes on from the knock it played out, so the
    answers to it are met and valued; each row names its action and stake."""
    rows = measure(4, "rulebook", hands=3, share=1.0, seed=5, samples=4, continue_samples=4,
                   cap=1, follow=1.0)
    answers = [r for r in rows if r.kind == "answer"]
    assert answers
    assert all(r.what.split("@")[0] in ("stay", "fold", "knock") for r in answers)
    assert all(int(r.what.split("@")[1]) >= 2 for r in answers)
