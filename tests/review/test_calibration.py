"""The one valuation is calibrated (issue 36): the value the review, the hint and expert
give an action is what the action is worth when the hand is played out.

``toepen.tools.calibrate`` plays ``expert`` against itself; at decisions picked along
the way the seat's view is valued as the review values it, and the actions valued are
played out from the true position with ``expert`` continuing for every seat. Per table
size and kind of decision the mean of ``outcome - value`` must be 0 within the
Bonferroni bound of a 5% family-wise error over all the checks, in standard errors
clustered by hand, with at least ``MIN_ROWS`` rows. Bigger runs of the same check, and
what it found before the evaluator was fixed, are in docs/review.md.
"""

from __future__ import annotations

from toepen.tools.calibrate import KINDS, MIN_ROWS, family_z, measure, summarize

SEED = 36
SIZES = (
    # preset, players, hands, share of the decisions valued, follow
    ("rulebook", 2, 480, 0.4, 0.0),
    ("rulebook", 4, 60, 0.5, 0.5),
    ("rulebook", 6, 12, 0.5, 0.5),
)
"""The suite's sample (``--cap 1 --continue-samples 8``, docs/review.md; 480 hands at 2
players: with 160, a card following is met 5 times since expert-v3's 2-player table
has the position contexts, under ``MIN_ROWS``). ``follow``:
the chance that the self-play goes on from a knock played out; at 4 and 6 players
expert seldom knocks first, and its answers are met only so."""


def test_values_agree_with_the_played_out_outcome() -> None:
    """Every kind at 2, 4 and 6 players. Before the fix (expert-v3's table and the
    armoede round valued without its knock war) 4 players failed (a knock before a
    card valued 1.05 lives too kindly, the armoede round 0.81), and 6 players, where
    no context was measured and every bet was valued one-shot."""
    z = family_z(len(SIZES) * len(KINDS))
    off: list[str] = []
    for preset, players, hands, share, follow in SIZES:
        rows = measure(players, preset, hands=hands, share=share, seed=SEED,
                       continue_samples=8, cap=1, jobs=2, follow=follow)
        for s in summarize(rows):
            if s.n < MIN_ROWS or abs(s.diff) > z * s.se:
                off.append(f"{preset} {players} {s.kind}: n {s.n}, outcome - value "
                           f"{s.diff:+.2f} ({s.diff / s.se if s.se else 0:+.1f} SE)")
    assert not off, off


def test_a_card_following_a_stayed_knock_is_valued_as_played_out() -> None:
    """2 players ``rulebook``, a card following at stake 2 (after a knock was stayed):
    its value must agree with its played-out outcome within 3 standard errors. Valued
    with the ``knock`` context of its stake (one-shot: none measured), it was too
    pessimistic: +0.26 lives (5.2 SE, this sample; +0.22 and 3.1 SE with seed 2), the
    follower's option to knock again left out (docs/review.md)."""
    rows = measure(2, "rulebook", hands=2000, share=1.0, seed=3, continue_samples=8,
                   jobs=2, kinds=("follow",), min_stake=2)
    s = summarize([r for r in rows if r.what.endswith("@2")])[KINDS.index("follow")]
    assert s.n >= 100, s
    assert abs(s.diff) <= 3 * s.se, s
