"""One seeded session, three doors: the engine, the PettingZoo env and the OpenSpiel game.

The same decks and the same decisions must give the same lives (and the same returns).
"""

from __future__ import annotations

import random
from typing import Any

import pyspiel
import pytest

from toepen.cards import card_str
from toepen.engine import KNOCK, PASS, Action, Game
from toepen.match import play_game
from toepen.rl.openspiel import SHORT_NAME, ToepenState
from toepen.rl.pettingzoo import env
from toepen.rules import Rules
from toepen.view import View

SESSIONS = [
    ("rulebook", 4, {"lives": 3}, 1),
    ("rulebook", 3, {"lives": 3, "tells": "tens_and_jacks"}, 2),
    ("classic", 4, {"lives": 6, "rubbers": 1}, 3),
    ("teams", 4, {"lives": 6}, 6),
    ("kroegtoepen", 5, {"lives": 2}, 5),
]


def _engine_session(preset: str, n: int, options: dict[str, Any], seed: int) -> Game:
    game = Game(Rules.preset(preset, **options), n, seed=seed, dealer=0)
    pick = random.Random(seed)
    while game.turn >= 0:
        game.apply(game.turn, pick.choice(game.legal_actions()))
    assert game.is_over
    return game


def _side_losses(game: Game) -> list[int]:
    return [
        sum(game.lives_lost[t] for t in range(game.n) if game.team_of[t] == game.team_of[s])
        for s in range(game.n)
    ]


@pytest.mark.parametrize(("preset", "n", "options", "seed"), SESSIONS)
def test_same_session_same_lives(
    preset: str, n: int, options: dict[str, Any], seed: int
) -> None:
    truth = _engine_session(preset, n, options, seed)
    decks = truth.dealt_decks()
    actions = list(truth.actions)
    lives = truth.lives_by_seat()
    losses = _side_losses(truth)
    assert len(decks) > 1 and len(actions) > 20  # a real session, several deals

    # PettingZoo: the decks go in through reset(options=...), the decisions through step().
    e = env(preset, n, **options)
    e.reset(seed=0, options={"decks": decks})
    todo = iter(actions)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        _obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        seat, act = next(todo)
        assert e.unwrapped.agent_name_mapping[agent] == seat
        e.step(int(act))
    assert next(todo, None) is None
    pz_game = e.unwrapped.game
    assert pz_game.lives_by_seat() == lives and pz_game.dealt_decks() == truth.dealt_decks()
    assert [totals[a] for a in e.possible_agents] == [-float(x) for x in losses]

    # OpenSpiel: chance deals each deck card by card, players apply the same decisions.
    params = {"preset": preset, "players": n, "options": ";".join(
        f"{k}:{v}" for k, v in options.items()
    )}
    state: ToepenState = pyspiel.load_game(SHORT_NAME, params).new_initial_state()
    deck_i, pos = 0, 0
    dealt: list[int] = []  # cards chance dealt, per deck
    todo = iter(actions)
    while not state.is_terminal():
        if state.is_chance_node():
            card = decks[deck_i][pos]
            assert state.action_to_string(card) == f"deal {card_str(card)}"
            state.apply_action(card)
            pos += 1
            if not state.is_chance_node():
                dealt.append(pos)
                deck_i, pos = deck_i + 1, 0
        else:
            seat, act = next(todo)
            assert state.current_player() == seat
            state.apply_action(int(act))
    assert next(todo, None) is None and deck_i == len(decks)
    assert state.lives() == lives
    assert state.returns() == [-float(x) for x in losses]
    # The chance-dealt top of every deck is the engine's; with exchange, the whole deck.
    exchange = Rules.preset(preset, **options).exchange
    for mine, theirs, k in zip(state.record()["decks"], decks, dealt, strict=True):
        assert mine[:k] == [card_str(c) for c in theirs[:k]]
        if exchange and k == 31:  # the hands and the whole stock (the last card implied)
            assert mine == [card_str(c) for c in theirs]


class _Logged:
    """A seeded random player that logs every decision it is asked for: its seat, what it
    was offered and what it chose."""

    name = "logged"

    def __init__(self, seat: int, log: list[tuple[int, tuple[int, ...], int]], seed: int):
        self.seat, self.log, self.rng = seat, log, random.Random(seed)

    def act(self, view: View) -> Action:
        act = self.rng.choice(view.legal)
        self.log.append((self.seat, tuple(sorted(int(a) for a in view.legal)), int(act)))
        return act


@pytest.mark.parametrize(("n", "seed"), [(3, 3), (5, 1)])
def test_knock_windows_are_the_match_drivers(n: int, seed: int) -> None:
    """Under knock_anytime both wrappers ask the seats match.play_game asks (its
    knock_window before each card), in the same order, offering the same actions; the
    same decisions give the same session."""
    options: dict[str, Any] = {"lives": 5, "knock_anytime": True}
    rules = Rules.preset("rulebook", **options)
    truth = Game(rules, n, seed=seed, dealer=0)
    log: list[tuple[int, tuple[int, ...], int]] = []
    play_game(truth, [_Logged(s, log, seed * 10 + s) for s in range(n)])
    assert truth.is_over
    windows = [act for _, offered, act in log if offered == (int(KNOCK), int(PASS))]
    assert int(KNOCK) in windows and int(PASS) in windows  # knocks out of turn happened
    assert len(truth.dealt_decks()) > 1  # a real session, several deals
    decks = truth.dealt_decks()

    e = env("rulebook", n, **options)
    e.reset(seed=0, options={"decks": decks})
    todo = iter(log)
    for agent in e.agent_iter():
        obs, _reward, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        seat, offered, act = next(todo)
        assert e.unwrapped.agent_name_mapping[agent] == seat
        assert tuple(obs["action_mask"].nonzero()[0].tolist()) == offered
        e.step(act)
    assert next(todo, None) is None
    assert e.unwrapped.game.lives_by_seat() == truth.lives_by_seat()
    assert list(e.unwrapped.game.actions) == list(truth.actions)

    state: ToepenState = pyspiel.load_game(
        SHORT_NAME, {"players": n, "options": "lives:5;knock_anytime:true"}
    ).new_initial_state()
    deck_i, pos = 0, 0
    todo = iter(log)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(decks[deck_i][pos])
            pos += 1
            if not state.is_chance_node():
                deck_i, pos = deck_i + 1, 0
            continue
        seat, offered, act = next(todo)
        assert state.current_player() == seat and tuple(state.legal_actions()) == offered
        state.apply_action(act)
    assert next(todo, None) is None
    assert state.lives() == truth.lives_by_seat()
