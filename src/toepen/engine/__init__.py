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
from .deck import DeckError, check_deck, deck_for, seeded_deck, shuffled_deck
from .events import Event, EventKind, redact
from .phase import Phase
from .refusal import REFUSAL_CODES, IllegalAction, Refusal
from .state import Game

__all__ = [
    "ACTIONS", "CHALLENGE", "CLAIM", "EXCHANGE", "FOLD", "KNOCK", "NUM_ACTIONS", "PASS",
    "STAY", "VERBS", "Action", "ActionError", "action", "format_move", "parse_move",
    "Event", "EventKind", "redact", "DeckError", "Game", "IllegalAction", "Phase",
    "REFUSAL_CODES", "Refusal", "check_deck", "deck_for", "seeded_deck", "shuffled_deck",
]
