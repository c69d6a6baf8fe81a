"""Shared helpers of the engine acceptance tests: hand-built decks, moves, snapshots."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from toepen.cards import card_str, parse_card
from toepen.engine import Event, EventKind, Game, parse_move
from toepen.rules import Rules


def deck_for(
    n: int,
    dealer: int,
    hands: Mapping[int, str],
    stock: str = "",
    in_session: Iterable[int] | None = None,
) -> list[str]:
    """A deck that deals ``hands`` (seat -> "Th 9h 8h 7h") the way rules.md deals.

    Cards go from the top, one at a time, clockwise from the dealer's left, skipping
    seats not ``in_session``; seat ``s`` receives its k-th listed card in round k.
    Seats without a listed hand get the lowest unused card ids; then come the ``stock``
    cards in the order given, then every other card in id order.
    """
    seats = set(range(n) if in_session is None else in_session)
    order = [s for s in ((dealer + 1 + i) % n for i in range(n)) if s in seats]
    assert set(hands) <= set(order), "a hand for a seat that is not dealt in"
    wanted = {s: [parse_card(c) for c in text.split()] for s, text in hands.items()}
    stock_ids = [parse_card(c) for c in stock.split()]
    used = [c for cards in wanted.values() for c in cards] + stock_ids
    assert len(used) == len(set(used)), "a card is listed twice"
    spare = [c for c in range(32) if c not in used]
    full: dict[int, list[int]] = {}
    for s in order:
        cards = list(wanted.get(s, []))
        assert len(cards) in (0, 4), f"seat {s}: give four cards or none"
        if not cards:
            cards, spare = spare[:4], spare[4:]
        full[s] = cards
    deck = [full[s][k] for k in range(4) for s in order]
    deck += stock_ids + spare
    assert sorted(deck) == list(range(32))
    return [card_str(c) for c in deck]


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
    return " ".join(card_str(c) for c in range(32) if game_.hands[seat] >> c & 1)


def snapshot(game_: Game) -> dict[str, Any]:
    """Every slot of a game (deep-copied), the generator by its state; caches left out."""
    out: dict[str, Any] = {}
    for name in Game.__slots__:
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
