"""``beginner`` and ``casual``: ``heuristic`` with a share of its decisions made at random.

A level below ``heuristic`` for people learning the game: the bot plays as
:class:`~toepen.bots.heuristic.HeuristicBot` does, except that in a fixed share of its
decisions (:attr:`NoisyHeuristicBot.noise`) it takes a legal action drawn uniformly
instead, as a player does who has not yet learnt when to knock, stay or keep a card.
The draw is a function of the seed, the seat and the state number only (as every
built-in bot's), so the same seed gives the same game. A knock window (``knock_anytime``,
out of turn) is passed as ``heuristic`` passes it: a random knock there would be a
knock before nearly every card.

>>> from toepen.engine import Game
>>> from toepen.view import observe
>>> g = Game.new("rulebook", 4, seed=5)
>>> bot = BeginnerBot(seed=1)
>>> bot.act(observe(g, g.turn)) in g.legal_actions()
True
"""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.phase import Phase
from ..seeds import derive_seed
from ..view import View
from .heuristic import HeuristicBot

__all__ = ["BeginnerBot", "CasualBot", "NoisyHeuristicBot"]


class NoisyHeuristicBot(HeuristicBot):
    """``heuristic``, with a share :attr:`noise` of its decisions drawn uniformly."""

    name = "noisy"
    noise = 0.0
    """The share of decisions (with a choice) taken uniformly at random."""

    def act(self, view: View) -> Action:
        legal = view.legal
        if len(legal) > 1 and not (view.phase == Phase.PLAY and view.to_act
                                   and view.to_act[0] != view.seat):
            rng = random.Random(derive_seed(self.name, self._seed, view.seat or 0,
                                            view.action_count))
            if rng.random() < self.noise:
                return legal[rng.randrange(len(legal))]
        return super().act(view)


class BeginnerBot(NoisyHeuristicBot):
    """The ``beginner`` level: seven decisions in ten at random."""

    name = "beginner"
    noise = 0.7


class CasualBot(NoisyHeuristicBot):
    """The ``casual`` level: three decisions in ten at random."""

    name = "casual"
    noise = 0.3
