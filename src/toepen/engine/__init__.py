"""The Toepen state machine: phases, actions, legal actions, apply -> events."""

from .actions import (
    ACTIONS,
    CHALLENGE,
    CLAIM,
    EXCHANGE,
    FOLD,
    KNOCK,
    NUM_ACTIONS,
    PASS,
    STAY,
    VERBS,
    Action,
    ActionError,
    action,
    format_move,
    parse_move,
)
from .events import Event, EventKind, redact
from .state import DeckError, Game, IllegalAction, Phase, check_deck

__all__ = [
    "ACTIONS", "CHALLENGE", "CLAIM", "EXCHANGE", "FOLD", "KNOCK", "NUM_ACTIONS", "PASS",
    "STAY", "VERBS", "Action", "ActionError", "action", "format_move", "parse_move",
    "Event", "EventKind", "redact", "DeckError", "Game", "IllegalAction", "Phase",
    "check_deck",
]
