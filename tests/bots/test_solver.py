"""The fast solver agrees with the plain reference search; merging and budgets behave."""

from __future__ import annotations

import random

import pytest

from toepen.bots.solver import (
    SearchBudgetExceeded,
    Solver,
    reference_solve,
    representatives,
)
from toepen.cards import cards_str, mask_of, parse_card


def _hand(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def _random_position(rng: random.Random) -> tuple[list[int], int, int, list[tuple[int, int]], int]:
    """Hands of n seats with k cards, part of a trick played, maybe a seat folded."""
    n = rng.choice([2, 3, 4, 5, 6])
    k = rng.choice([1, 2, 3])
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [mask_of(deck[j * k:(j + 1) * k]) for j in range(n)]
    leader = rng.randrange(n)
    trick: list[tuple[int, int]] = []
    led = -1
    for j in range(rng.randrange(n)):
        seat = (leader + j) % n
        h = hands[seat]
        if led >= 0 and h & (0xFF << (8 * led)):
            h &= 0xFF << (8 * led)
        card = rng.choice([c for c in range(32) if h >> c & 1])
        hands[seat] &= ~(1 << card)
        trick.append((seat, card))
        if led < 0:
            led = card >> 3
    if n > 2 and rng.random() < 0.4:
        gone = rng.randrange(n)
        hands[gone] = 0
        trick = [(s, c) for s, c in trick if s != gone]
    return hands, n, leader, trick, led


@pytest.mark.parametrize("seed", range(6))
def test_solver_agrees_with_reference_on_random_small_positions(seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for _ in range(150):
        hands, n, leader, trick, led = _random_position(rng)
        if not any(hands):
            continue
        root = rng.randrange(n)
        side = 1 << root
        if n in (4, 6) and rng.random() < 0.3:
            side |= 1 << ((root + n // 2) % n)  # a pair, as in teams
        want = rng.random() < 0.5
        fast = Solver(n, side, want).solve(hands, leader, trick, led)
        slow = reference_solve(hands, n, leader, trick, side, want, led)
        assert fast == slow, (hands, n, leader, trick, led, side, want)
        checked += 1
    assert checked > 100


def test_solver_agrees_with_reference_on_full_four_player_deals() -> None:
    rng = random.Random(7)
    for _ in range(4):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [mask_of(deck[j * 3:(j + 1) * 3]) for j in range(4)]
        for want in (False, True):
            assert Solver(4, 1, want).solve(hands, 2) == reference_solve(hands, 4, 2, (), 1, want)


def test_shared_table_gives_the_same_answers_as_fresh_solvers() -> None:
    rng = random.Random(3)
    shared = Solver(4, 0b0010, False)
    for _ in range(40):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [mask_of(deck[j * 3:(j + 1) * 3]) for j in range(4)]
        assert shared.solve(hands, 0) == Solver(4, 0b0010, False).solve(hands, 0)
    assert shared.memo


def test_known_positions() -> None:
    hands = [_hand("Th 9h"), _hand("8h Qh"), _hand("7h Kh"), _hand("Ah Jh")]
    # Seat 0 holds the two best hearts: it takes every trick.
    assert Solver(4, 0b0001, False).solve(hands, 0) is False
    assert Solver(4, 0b0001, True).solve(hands, 0) is True
    # With the jack instead of the nine, it cashes the ten and leads the jack.
    hands[0] = _hand("Th Jh")
    assert Solver(4, 0b0001, False).solve(hands, 0) is True
    # A void player discards: the led suit still wins.
    assert Solver(2, 0b01, True).solve([_hand("Js"), _hand("Tc")], 0) is True


def test_folded_leader_keeps_the_suit_led() -> None:
    # Seat 0 led hearts and folded; seat 1 discards a club, seat 2 follows with Jh.
    hands = [0, _hand("Tc"), _hand("Jh")]
    assert Solver(3, 0b010, True).solve(hands, 0, [], led=2) is False
    assert reference_solve(hands, 3, 0, [], 0b010, True, led=2) is False
    # If nobody follows, the first card played takes the trick.
    hands = [0, _hand("Jc"), _hand("Ts")]
    assert Solver(3, 0b010, True).solve(hands, 0, [], led=2) is True


def test_representatives_merge_adjacent_cards_only() -> None:
    hand = _hand("Th 9h Ah Jh 8s")
    assert cards_str(representatives(hand, _hand("Kh"))) == "Th Jh 8s"
    assert cards_str(representatives(hand, _hand("8h Kh 7s"))) == "Th Ah Jh 8s"
    assert representatives(0, 0) == 0


def test_move_values_match_solving_each_move() -> None:
    hands = [_hand("Th Jh Qs"), _hand("8h Qh Ts"), _hand("7h Kh 9s"), _hand("Ah 9h Js")]
    s = Solver(4, 0b0001, False)
    moves = [parse_card(c) for c in ("Th", "Jh", "Qs")]
    values = s.move_values(hands, 0, [], 0, moves)
    for card, v in zip(moves, values, strict=True):
        hs = list(hands)
        hs[0] &= ~(1 << card)
        assert v == reference_solve(hs, 4, 0, [(0, card)], 0b0001, False)


def test_node_budget_gives_up_cleanly() -> None:
    rng = random.Random(11)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [mask_of(deck[j * 4:(j + 1) * 4]) for j in range(8)]
    s = Solver(8, 1, False, max_nodes=50)
    assert s.try_solve(hands, 0) is None
    with pytest.raises(SearchBudgetExceeded):
        s.solve(hands, 0)
    # Nothing half-searched was remembered: an unlimited solve still agrees.
    s.max_nodes = None
    assert s.solve(hands[:4] + [0] * 4, 0) == Solver(8, 1, False).solve(hands[:4] + [0] * 4, 0)


def test_repeated_solves_are_answered_from_the_results_and_budget_failures_are_not_kept() -> None:
    """A solve done once is answered at once (no node searched) with the same value; a
    solve that ran over its budget is not kept, so a later try can still complete it."""
    import random

    from toepen.bots.solver import Solver

    rng = random.Random(3)
    for _ in range(30):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[4 * j:4 * j + 4]) for j in range(4)]
        s = Solver(4, 1, False)
        first = s.solve(hands, 0)
        nodes = s.nodes
        assert s.solve(hands, 0) is first and s.nodes == nodes
        tight = Solver(4, 1, False, max_nodes=3)
        if tight.try_solve(hands, 0) is None:
            assert not tight.results
            tight.max_nodes = None
            assert tight.try_solve(hands, 0) is first


def test_the_search_visits_the_nodes_it_visited_before_it_was_written_out() -> None:
    """The node budget decides which deals fall back to ``strength``, so a faster search
    must count the same nodes: these totals are those of the plain recursive version
    (main at 6d30f30) on 100 fresh deals, from the trick start and from mid-trick."""
    import random

    from toepen.bots.solver import Solver

    totals = []
    for want in (False, True):
        rng = random.Random(0)
        total = 0
        for _ in range(100):
            deck = list(range(32))
            rng.shuffle(deck)
            hands = [sum(1 << c for c in deck[4 * j:4 * j + 4]) for j in range(4)]
            s = Solver(4, 1, want)
            s.solve(hands, 0)
            c = hands[0].bit_length() - 1
            led = list(hands)
            led[0] &= ~(1 << c)
            s.solve(led, 0, [(0, c)])
            total += s.nodes
        totals.append(total)
    assert totals == [39383, 16124]
