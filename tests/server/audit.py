"""Hidden-information audit and view checks for recorded server messages.

After a game, its record (decks and actions) tells what every seat could know at every
state number. :func:`audit` checks every message a client received: each card it names
must be one its receiver had seen by then (its own hands, cards played, hands revealed
by a challenge), and each view must be exactly ``observe(game, seat)`` at that state.
"""

from __future__ import annotations

import re
from typing import Any

from toepen.cards import card_str, cards_of, parse_card
from toepen.engine import Event, EventKind, Game
from toepen.narration import describe
from toepen.record import replay
from toepen.view import observe

CARD = re.compile(r"(?<![A-Za-z0-9])([TAKQJ987][cdhs])(?![A-Za-z0-9])")


class Timeline:
    """The game after 0, 1, 2, ... actions, and what each seat could know by then.

    What may be known comes from the engine alone: a seat's own hands, every card played,
    and the cards of every event the engine marks public (hands shown by a challenge);
    a private event's cards only to its own seat.
    """

    def __init__(self, record: dict[str, Any]) -> None:
        game = replay({**record, "actions": []})
        self.games = [game.clone()]
        n = game.n
        public: set[int] = set()
        own: list[set[int]] = [set() for _ in range(n)]

        def learn(events: Any) -> None:
            for e in events:
                if e.private:
                    own[e.seat].update(e.cards)
                else:
                    public.update(e.cards)
            for s in range(n):
                own[s].update(cards_of(game.hand_mask(s)))
            public.update(c for _, c, _ in game.plays)

        learn(game.opening_events(omniscient=True))
        self.public = [set(public)]
        self.own = [[set(x) for x in own]]
        for move in record["actions"]:
            seat_text, _, act = move.partition(" ")
            learn(game.apply(int(seat_text), act))
            self.games.append(game.clone())
            self.public.append(set(public))
            self.own.append([set(x) for x in own])

    def __getitem__(self, n: int) -> Game:
        """The game after ``n`` actions."""
        return self.games[n]

    def __len__(self) -> int:
        return len(self.games)

    def visible(self, n: int, seat: int | None) -> set[str]:
        """Cards ``seat`` (None: a spectator) may have seen by state ``n``."""
        cards = self.public[n] | (self.own[n][seat] if seat is not None else set())
        return {card_str(c) for c in cards}


def timeline(record: dict[str, Any]) -> Timeline:
    """See :class:`Timeline`."""
    return Timeline(record)


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def event_of(data: dict[str, Any]) -> Event:
    """The engine's event of a protocol event (without its narration)."""
    return Event(EventKind(data["kind"]), data["seat"], data["value"],
                 tuple(parse_card(c) for c in data["cards"]), data["detail"], data["private"])


def check_narration(events: list[dict[str, Any]], seat: int | None) -> None:
    """Every event carries ``describe(event, seat)`` for its receiver (null when None)."""
    for data in events:
        said = describe(event_of(data), seat)
        assert data["say"] == (None if said is None else said.to_json()), data


def audit(messages: list[dict[str, Any]], seat: int | None, games: Timeline) -> int:
    """Check every message one receiver got; returns how many state messages it checked."""
    state = 0
    checked = 0
    for msg in messages:
        if msg["type"] == "state":
            state = msg["state"]
            expected = observe(games.games[state], seat).to_json()
            assert msg["view"] == expected, f"state {state}: the view is not observe(game, {seat})"
            check_narration(msg["events"], seat)
            check_narration(msg.get("history", []), seat)  # the log so far, after welcome
            checked += 1
        allowed = games.visible(state, seat)
        named = {m for s in strings(msg) for m in CARD.findall(s)}
        leaked = named - allowed
        assert not leaked, f"seat {seat} was shown {sorted(leaked)} at state {state}: {msg}"
    return checked
