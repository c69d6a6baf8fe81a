"""Perft: the number of legal action sequences from known deals, pinned (python-chess style).

The numbers were computed once by the brute force of ``perft_tool`` and cross-checked by
hand on the small cases (see the docstrings). A change in any of them means the legal
actions changed somewhere.
"""

from __future__ import annotations

import pytest

from toepen.engine import Game
from toepen.rules import Rules

from .helpers import deck_for
from .perft_tool import first_trick_over, perft, perft_until

ORDERED = [
    "Th", "9h", "8h", "7h", "Ah", "Kh", "Qh", "Jh", "Tc", "9c", "8c", "7c", "Ac", "Kc", "Qc", "Jc",
    "Td", "9d", "8d", "7d", "Ad", "Kd", "Qd", "Jd", "Ts", "9s", "8s", "7s", "As", "Ks", "Qs", "Js",
]
TINY = deck_for(2, 0, {1: "Th 9h Ac Kc", 0: "8h Qc Js 7d"})


@pytest.mark.parametrize(("lives", "count"), [(1, 17), (2, 38), (3, 72)])
def test_heads_up_first_trick(lives: int, count: int) -> None:
    """Seat 1 leads Th 9h Ac Kc; seat 0 holds one heart (8h) and one club (Qc).

    Every lead forces seat 0's card. With 1 life (rulebook: knock while lives >= stake):
    seat 1 knocks (then seat 0 folds: 1, or stays and seat 1 leads one of 4: 4) = 5; or
    seat 1 leads one of 4 and seat 0 plays (1) or knocks, and seat 1 folds (1) or stays
    (1) = 3 each, 12; 5 + 12 = 17. With 2 lives one counter-knock more is open
    (18 + 20 = 38).
    """
    g = Game(Rules.preset("rulebook", armoede=False, lives=lives), 2, decks=[TINY], dealer=0)
    assert perft_until(g, first_trick_over(1)) == count


def test_no_knock_first_trick_is_the_product_of_the_follow_choices() -> None:
    """Ordered deck, 4 players: every hand holds two hearts and two clubs, so 4 leads
    times 2 x 2 x 2 followers = 32; heads-up TINY: 4 leads, each follow forced = 4."""
    g4 = Game(Rules.preset("no-knock", armoede=False), 4, decks=[ORDERED], dealer=0)
    assert perft_until(g4, first_trick_over(1)) == 32
    g2 = Game(Rules.preset("no-knock", armoede=False), 2, decks=[TINY], dealer=0)
    assert perft_until(g2, first_trick_over(1)) == 4


def test_gezinstoepen_first_trick() -> None:
    g = Game(Rules.preset("gezinstoepen", armoede=False), 3, decks=[ORDERED], dealer=0)
    assert perft_until(g, first_trick_over(1)) == 183


@pytest.mark.parametrize(
    ("preset", "n", "counts"),
    [
        ("rulebook", 4, [2, 4, 8, 16, 35, 87, 239]),
        ("classic", 4, [2, 4, 8, 16, 35, 87, 255]),
        ("teams", 4, [2, 4, 8, 16, 35, 87, 242]),
        ("gezinstoepen", 3, [2, 4, 8, 19, 53, 155, 461]),
        ("rulebook", 3, [2, 4, 8, 19, 54, 167, 540]),
    ],
)
def test_perft_by_depth(preset: str, n: int, counts: list[int]) -> None:
    """Depths 1-3 are 2, 4, 8 everywhere: claim/pass (or exchange/pass) and then
    challenge/pass or the next offer, two choices at each of the first three decisions.
    Later decks (redeals) come from seed 7."""
    g = Game(Rules.preset(preset), n, decks=[ORDERED], seed=7, dealer=0)
    assert [perft(g, d) for d in range(1, len(counts) + 1)] == counts
