"""The cheaper broadcast sends exactly what ``observe`` says, to each receiver.

The table master builds one public view per action and gives each seat its own seat,
legal actions and hand (``master.view_bytes``); events are encoded once per way they
are said. These tests hold the result equal to the plain path (``observe(game, seat)``
for each receiver, ``protocol.state``) at every state of many games of every preset.
"""

from __future__ import annotations

import json
import random

import pytest

from toepen.engine import Game
from toepen.rules import Rules
from toepen.server import protocol
from toepen.server.tables.master import closing, view_bytes
from toepen.view import observe


def games(preset: str, seed: int, size: int) -> list[tuple[Game, list]]:
    """Every state of one random game, with the events of the action that led there."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    game = Game(rules, size, seed=seed)
    out = [(game.clone(), list(game.opening_events(omniscient=True)))]
    while not game.is_over and len(out) < 400:
        events = game.apply(game.turn, rng.choice(game.legal_actions()))
        out.append((game.clone(), events))
    return out


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_seat_views_are_the_views_observe_gives(preset: str) -> None:
    size = 4
    while True:
        try:
            Rules.preset(preset).check_table(size)
            break
        except Exception:  # noqa: BLE001 - a preset for other sizes
            size += 1
            assert size <= 8
    receivers: list[int | None] = [None, *range(size)]
    for seed in (1, 2):
        for game, events in games(preset, seed, size):
            encoded = view_bytes(game, set(receivers))
            views = {seat: json.loads(raw) for seat, raw in encoded.items()}
            ends = closing(game, events)
            for seat in receivers:
                plain = observe(game, seat)
                assert views[seat] == plain.to_json(), (preset, seat, len(game.actions))
                fast = protocol.state_frame(encoded[seat], seat, events, (0, "x", "player"),
                                            len(game.actions), closing=ends,
                                            prompt=protocol.prompt_json(plain))
                slow = protocol.state(plain, events, (0, "x", "player"), closing=ends)
                assert json.loads(fast) == json.loads(slow)


def test_frames_are_compact_utf8_json() -> None:
    text = protocol.dumps({"name": "Zoë 🍺", "n": [1, 2]})
    assert text == '{"name":"Zoë 🍺","n":[1,2]}'


@pytest.mark.parametrize("preset", ["rulebook", "classic"])
def test_the_kept_history_is_the_replayed_one(preset: str) -> None:
    """The events a table keeps, extended action by action, are ``history(game)``: the
    game replayed on its decks (which the summaries and late joiners were built from)."""
    from toepen.server.tables.master import history

    for seed in (3, 4):
        states = games(preset, seed, 4)
        kept = list(states[0][1])
        for game, events in states[1:]:
            kept.extend(events)
            if len(game.actions) % 7 == 0 or game.is_over:
                assert kept == history(game), (preset, seed, len(game.actions))
