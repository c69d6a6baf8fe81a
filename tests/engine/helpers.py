"""Shared helpers of the engine acceptance tests: hand-built decks, moves, snapshots.

``deck_for`` lives in :mod:`toepen.engine.deck`; it is re-exported here.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from toepen.cards import card_str, parse_card
from toepen.engine import Event, EventKind, Game, deck_for, parse_move
from toepen.engine.core import GameCore
from toepen.rules import Rules

__all__ = [
    "deck_for", "rules", "game", "play", "kinds", "of_kind", "legal", "hand_str", "snapshot",
    "finish_hand", "ids",
]


def rules(preset: str = "rulebook", **options: Any) -> Rules:
    return Rules.preset(preset, **options)


def game(
    rules_: Rules,
    n: int,
    *decks: list[str],
    dealer: int = 0,
) -> Game:
    """A game dealt from explicit decks (and waiting for a deck once they run out)."""
    return Game(rules_, n, decks=list(decks), dealer=dealer)


def play(game_: Game, *moves: str) -> list[Event]:
    """Apply record-notation moves ("1 knock", "2 play Th"); all their events."""
    out: list[Event] = []
    for move in moves:
        seat, act = parse_move(move)
        out.extend(game_.apply(seat, act))
    return out


def kinds(events: Iterable[Event]) -> list[str]:
    return [str(e.kind) for e in events]


def of_kind(events: Iterable[Event], kind: EventKind) -> list[Event]:
    return [e for e in events if e.kind is kind]


def legal(game_: Game) -> list[str]:
    return [str(a) for a in game_.legal_actions()]


def hand_str(game_: Game, seat: int) -> str:
    return " ".join(card_str(c) for c in range(32) if game_.hand_mask(seat) >> c & 1)


def snapshot(game_: Game) -> dict[str, Any]:
    """Every slot of a game (deep-copied), the generator by its state; caches left out."""
    out: dict[str, Any] = {}
    for name in GameCore.__slots__:
        if name in ("_legal", "_ev"):
            continue
        value = getattr(game_, name)
        if name == "_rng":
            value = None if value is None else value.getstate()
        elif name != "rules":
            value = copy.deepcopy(value)
        out[name] = value
    return out


def finish_hand(game_: Game) -> list[Event]:
    """Play the current hand out with the first legal card (passing and staying)."""
    from toepen.engine import KNOCK, PASS, STAY

    out: list[Event] = []
    hand = game_.hand_no
    while game_.turn >= 0 and game_.hand_no == hand:
        acts = game_.legal_actions()
        act = next((a for a in acts if a is PASS or a is STAY or a < 32), None)
        assert act is not None and act is not KNOCK
        out.extend(game_.apply(game_.turn, act))
    return out


def ids(text: str) -> tuple[int, ...]:
    """Card ids of a space-separated notation, in the order given."""
    return tuple(parse_card(c) for c in text.split())
