"""toepen: the reference implementation of Toepen, the Dutch pub card game of tricks and bluff.

The front door: the names most programs need, importable from ``toepen`` itself.

>>> from toepen import Game, observe, make_bot, play_game, hand_over, to_record, replay
>>> game = Game.new("rulebook", 4, seed=7)
>>> bots = [make_bot("heuristic", seed=s) for s in range(4)]
>>> play_game(game, bots, stop=hand_over(game))
>>> view = observe(game, seat=0)
>>> view.hand_no, str(view.phase) in {"claim", "play", "answer"}
(2, True)
>>> replay(to_record(game)).actions == game.actions
True
"""

from .bots import Bot, make_bot, register_bot
from .cards import card_str, parse_card
from .engine import (
    Action,
    DeckError,
    Event,
    EventKind,
    Game,
    IllegalAction,
    Phase,
    Refusal,
    redact,
)
from .match import decide, hand_over, play_game
from .narration import Message, describe
from .record import RecordError, replay, to_record
from .rules import Rules, RulesError
from .seeds import derive_seed
from .view import View, observe

__all__ = [
    "Action", "Bot", "DeckError", "Event", "EventKind", "Game", "IllegalAction", "Message",
    "Phase", "RecordError", "Refusal", "Rules", "RulesError", "View", "card_str", "decide",
    "derive_seed", "describe", "hand_over", "make_bot", "observe", "parse_card", "play_game",
    "redact", "register_bot", "replay", "to_record",
]
__version__ = "0.1.0"
