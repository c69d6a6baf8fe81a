"""A knocking war under ``knock_limit: none`` (kroegtoepen): thousands of observed
knocks must not break the bots' inference. The likelihood of a candidate deal is a
product of a factor per decision read; multiplied out it underflowed to zero for every
candidate and ``random.choices`` refused ("Total of weights must be greater than zero")."""

from __future__ import annotations

import random

from toepen.bots.expert import ExpertBot
from toepen.bots.knowledge import Knowledge
from toepen.bots.pimc import PimcBot
from toepen.engine import Game
from toepen.engine.actions import KNOCK, PASS
from toepen.view import observe

KNOCKS = 2000


def _knocking_war() -> Game:
    game = Game.new("kroegtoepen", 2, seed=3)
    while KNOCK not in game.legal_actions():  # the armoede claims of the deal
        game.apply(game.to_act[0] if game.to_act else game.turn, PASS)
    for _ in range(KNOCKS):
        game.apply(game.to_act[0] if game.to_act else game.turn, KNOCK)
    assert game.stake == KNOCKS + 1
    return game


def test_bots_answer_a_knock_after_thousands_of_knocks() -> None:
    game = _knocking_war()
    seat = game.to_act[0]
    view = observe(game, seat)
    for bot in (ExpertBot(seed=1, samples=4), PimcBot(seed=1, samples=4)):
        assert bot.act(view) in game.legal_actions(), bot.name


def test_the_sampled_deals_still_follow_the_evidence() -> None:
    game = _knocking_war()
    view = observe(game, game.to_act[0])
    know = Knowledge.from_view(view)
    bot = ExpertBot(seed=2, samples=4)
    worlds = bot.worlds(view, know, random.Random(2), 8)
    assert len(worlds) == 8
    for w in worlds:  # each a deal that agrees with the view
        assert w.hands[view.seat] == view.hand_mask


def test_relative_weights_keep_the_ratios_of_vanishing_likelihoods() -> None:
    # 0.05 ** 2000 and 0.1 ** 2000 are both 0.0 as floats; their logs are not.
    from math import log

    from toepen.bots.pimc import relative_weights
    w = relative_weights([2000 * log(0.05), 2000 * log(0.1), 2000 * log(0.1) + log(0.5)])
    assert w[1] == 1.0 and abs(w[2] - 0.5) < 1e-9 and 0.0 <= w[0] < 1e-300
    assert relative_weights([float("-inf")] * 3) == [1.0, 1.0, 1.0]
