"""toepen: the reference implementation of Toepen, the Dutch pub card game of tricks and bluff."""

from .cards import card_str, parse_card
from .engine import Action, Event, EventKind, Game, IllegalAction, Phase
from .rules import Rules, RulesError

__all__ = [
    "Action", "Event", "EventKind", "Game", "IllegalAction", "Phase", "Rules", "RulesError",
    "card_str", "parse_card",
]
__version__ = "0.1.0"
