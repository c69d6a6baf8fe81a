"""``edge: plays_dead`` (voor dood spelen, rules.md H2): every payment is capped at the
lives left, so nobody ever goes below 0, in rubber sessions too: a player at 0 who folds
or loses an exchange challenge before the rubber ends pays nothing (issue 22, 5a)."""

from __future__ import annotations

import random

import pytest

from toepen.engine import Game
from toepen.engine.events import EventKind as E
from toepen.rules import Rules

CASES = [
    ("classic", 3, {"lives": 1, "rubbers": 3}),
    ("classic", 4, {"lives": 2, "rubbers": 3}),
    ("classic", 5, {"lives": 1, "rubbers": None, "knock_limit": "none"}),
    ("teams", 4, {"lives": 2, "session": "rubber", "rubbers": 3}),
    ("kroegtoepen", 4, {"lives": 2, "session": "rubber", "rubbers": 3}),
    ("kroeg-huisregels", 4, {"lives": 2}),
    ("rulebook", 3, {"lives": 2}),
]


@pytest.mark.parametrize(("preset", "n", "options"), CASES)
def test_no_payment_takes_a_pool_below_zero(preset: str, n: int,
                                            options: dict[str, object]) -> None:
    rules = Rules.preset(preset, edge="plays_dead", **options)  # type: ignore[arg-type]
    at_zero = {"fold": 0, "exchange": 0}  # seats at 0 that folded or lost a challenge
    for seed in range(40):
        rng = random.Random(seed)
        game = Game(rules, n, seed=seed, dealer=0)
        while game.turn >= 0 and game.hand_no <= 30:
            seat = game.turn
            pools = list(game.pools)
            act = rng.choice(game.legal(seat))
            events = game.apply(seat, act)
            for e in events:
                side = game.team_of[e.seat] if 0 <= e.seat < n else -1
                if e.kind is E.FOLD:
                    assert e.value <= max(pools[side], 0), (seed, e, pools)
                    if pools[side] == 0:
                        at_zero["fold"] += 1
                if e.kind is E.CHALLENGE and pools[side] == 0:
                    at_zero["exchange"] += 1
                if e.kind is E.LIVES:
                    assert 0 < e.value <= pools[side], (seed, e, pools)
                    pools[side] -= e.value
                if e.kind is E.RUBBER:
                    pools = [rules.lives] * len(pools)
                assert min(game.pools) >= 0, (seed, e, list(game.pools))
    if rules.session == "rubber":  # the test saw the cases the rule is about
        assert at_zero["fold"] > 0, at_zero
        if rules.exchange:
            assert at_zero["exchange"] > 0, at_zero
