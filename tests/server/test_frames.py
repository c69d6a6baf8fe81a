"""The frames the table master sends after an action are those of the plain path.

``master.state_frames`` encodes the public view once, each seat's own fields apart, and
each event once per way it is said (``protocol.events_fragment``); these tests hold
every frame, parsed, equal to ``protocol.state(observe(game, seat), ...)`` for every
receiver (each seat and a spectator) at every state of games of every preset.
"""

from __future__ import annotations

import json
import random

import orjson
import pytest

from toepen.engine import Game
from toepen.rules import Rules
from toepen.server import protocol
from toepen.server.tables.master import closing, history, state_frames, view_bytes
from toepen.view import observe


def table_size(preset: str) -> int:
    size = 4
    while True:
        try:
            Rules.preset(preset).check_table(size)
            return size
        except Exception:  # noqa: BLE001 - a preset for other sizes
            size += 1
            assert size <= 8


@pytest.mark.parametrize("preset", Rules.preset_names())
def test_state_frames_are_the_plain_frames(preset: str) -> None:
    size = table_size(preset)
    receivers: set[int | None] = {None, *range(size)}
    for seed in (5, 6):
        rng = random.Random(seed)
        game = Game(Rules.preset(preset), size, seed=seed)
        past = list(game.opening_events(omniscient=True))
        steps = 0
        while not game.is_over and steps < 400:
            after = game.clone()
            seat = after.turn
            act = rng.choice(after.legal_actions())
            events = after.apply(seat, act)
            past.extend(events)
            game = after
            steps += 1
            ends = closing(game, events, past)
            last = (seat, str(act), "player")
            frames = state_frames(game, receivers, events, last, ends)
            assert set(frames) == receivers
            for who in receivers:
                plain = protocol.state(observe(game, who), events, last, closing=ends)
                assert json.loads(frames[who]) == json.loads(plain), (preset, who, steps)


def test_view_bytes_are_the_views_observe_gives() -> None:
    game = Game(Rules.preset("rulebook"), 4, seed=9)
    rng = random.Random(9)
    while not game.is_over:
        views = view_bytes(game, {None, 0, 1, 2, 3})
        for who, raw in views.items():
            assert json.loads(raw) == observe(game, who).to_json()
        game.apply(game.turn, rng.choice(game.legal_actions()))
    assert history(game)  # the game was played to its end


def test_a_spectator_frame_holds_no_hidden_card() -> None:
    game = Game(Rules.preset("rulebook"), 4, seed=11)
    events = list(game.opening_events(omniscient=True))
    frames = state_frames(game, {None, 0}, events, None, None)
    spectator = json.loads(frames[None])
    assert spectator["view"]["hand"] == []
    assert all(not e["cards"] for e in spectator["events"] if e["private"])
    seat0 = json.loads(frames[0])
    assert len(seat0["view"]["hand"]) == len(observe(game, 0).hand) > 0


def test_events_are_encoded_once_for_all_only_when_all_are_told_them_alike() -> None:
    game = Game(Rules.preset("rulebook"), 4, seed=12)
    deal = list(game.opening_events(omniscient=True))  # each seat's own cards: not alike
    assert protocol.shared_events(deal, 4) is None
    rng = random.Random(12)
    shared = 0
    while not game.is_over:
        seat = game.turn
        events = game.apply(seat, rng.choice(game.legal_actions()))
        part = protocol.shared_events(events, 4)
        if part is None:
            continue
        shared += 1
        for who in (None, 0, 1, 2, 3):  # the one encoding is each receiver's own
            assert orjson.dumps(protocol.events_fragment(events, who)) == orjson.dumps(part)
    assert shared > 10
