"""Bots: each sees only a :class:`~toepen.view.View` and returns one legal action.

>>> from toepen.engine import Game
>>> from toepen.view import observe
>>> g = Game.new("rulebook", 4, seed=2)
>>> bot = make_bot("random", seed=7)
>>> bot.act(observe(g, g.turn)) in g.legal_actions()
True
"""

from .base import BOTS, Bot, make_bot, register_bot

__all__ = ["BOTS", "Bot", "make_bot", "register_bot"]
