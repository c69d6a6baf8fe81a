"""Hidden-information audit and view checks for recorded server messages.

After a game, its record (decks and actions) tells what every seat could know at every
state number. :func:`audit` checks every message a client received: each card it names
must be one its receiver had seen by then (its own hands, cards played, hands revealed
by a challenge), and each view must be exactly ``observe(game, seat)`` at that state.
"""

from __future__ import annotations

import re
from typing import Any

from toepen.cards import card_str, cards_of
from toepen.engine import Game
from toepen.record import replay
from toepen.view import observe

CARD = re.compile(r"(?<![A-Za-z0-9])([TAKQJ987][cdhs])(?![A-Za-z0-9])")


def timeline(record: dict[str, Any]) -> list[Game]:
    """The game after 0, 1, 2, ... actions."""
    game = replay({**record, "actions": []})
    games = [game.clone()]
    for move in record["actions"]:
        seat_text, _, act = move.partition(" ")
        game.apply(int(seat_text), act)
        games.append(game.clone())
    return games


def visible_cards(games: list[Game], n: int, seat: int | None) -> set[str]:
    """Cards ``seat`` (None: a spectator) may have seen by state ``n``."""
    seen: set[int] = {int(a) for _, a in games[n].actions if a.is_play}
    for g in games[: n + 1]:
        seen.update(c for _, c, _ in g.plays)
        for _, mask, _ in g.revealed:
            seen.update(cards_of(mask))
        if seat is not None:
            seen.update(cards_of(g.hands[seat]))
    return {card_str(c) for c in seen}


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def audit(messages: list[dict[str, Any]], seat: int | None, games: list[Game]) -> int:
    """Check every message one receiver got; returns how many state messages it checked."""
    state = 0
    checked = 0
    for msg in messages:
        if msg["type"] == "state":
            state = msg["state"]
            expected = observe(games[state], seat).to_json()
            assert msg["view"] == expected, f"state {state}: the view is not observe(game, {seat})"
            checked += 1
        allowed = visible_cards(games, state, seat)
        named = {m for s in strings(msg) for m in CARD.findall(s)}
        leaked = named - allowed
        assert not leaked, f"seat {seat} was shown {sorted(leaked)} at state {state}: {msg}"
    return checked
