"""PettingZoo and OpenSpiel under the house rules: their own checks still pass (turn order,
spaces, serialisation) with the new phases, and no observation shows an unseen card.

Under ``knock_anytime`` both expose the knock windows of :mod:`toepen.rl.windows`: before
each card every seat that may knock out of turn is asked alone (knock or pass), then the
player to play."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

from toepen.cards import cards_of, parse_card
from toepen.engine import FOLD, KNOCK, PASS, STAY, Phase, deck_for
from toepen.record import to_record
from toepen.rl.openspiel import SHORT_NAME, make_bots
from toepen.rl.pettingzoo import env
from toepen.rl.policies import BotPolicy, play_episode

HOUSE = [
    ("kroeg-huisregels", 4, {"lives": 3, "laundry_caught": "plays_open"}),
    ("rulebook", 3, {"lives": 3, "armoede": False, "blind_knock": True, "edge": "plays_dead",
                     "double_knock": True}),
    ("classic", 5, {"lives": 2, "exchange": False, "vuile_was": True, "laundry_check": "each",
                    "jack_last_trick": "winner_gains", "four_of_a_kind": True}),
    ("rulebook", 4, {"lives": 3, "knock_anytime": True}),
    ("kroeg-huisregels", 3, {"lives": 3, "knock_anytime": True, "double_knock": True,
                             "edge": "no_fold"}),
    ("classic", 8, {"lives": 2, "knock_anytime": True, "episode": "hand"}),
    ("rulebook", 4, {"lives": 2, "rebuy": "any", "pot": 1}),
]


@pytest.mark.parametrize(("preset", "players", "options"), HOUSE)
def test_pettingzoo_api_test_under_house_rules(
    preset: str, players: int, options: dict[str, object]
) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="reset: unknown option")
        api_test(env(preset, players, **options), num_cycles=200)


@pytest.mark.parametrize("options", [
    "blind_knock:true;armoede:false;double_knock:true;edge:no_fold",
    "witte_was:true;vuile_was:true;laundry_check:each;four_of_a_kind:true;"
    "three_of_a_kind_draw:true",
    "knock_anytime:true",
    "knock_anytime:true;armoede:false;double_knock:true;edge:plays_dead;max_stake:5",
    "rebuy:any;pot:0.5",
])
def test_openspiel_random_sim_test_under_house_rules(options: str) -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 4, "lives": 2, "options": options})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_blind_round_observation_holds_no_card() -> None:
    e = env("rulebook", 4, armoede=False, blind_knock=True)
    e.reset(seed=3)
    agent = e.agent_selection
    obs = e.observe(agent)
    inner = e.unwrapped
    assert inner.game is not None and inner.game.phase == "blind"
    hand = np.asarray(obs["observation"])[inner.encoder.slices["hand"]]
    assert not hand.any() and inner.game.hand_mask(int(agent.split("_")[-1]))




# -- knock_anytime: the knock windows -------------------------------------------------------

ANYTIME_DECK = {1: "Jc Jd Jh Js", 2: "Tc Td Th Ts", 3: "Ac Ad Ah As", 0: "7c 7d 7h 7s"}
"""Four hands of one rank each, dealt by seat 0: seat 1 leads."""

KNOCK_PASS = [int(KNOCK), int(PASS)]


def _anytime_env() -> Any:
    e = env("rulebook", 4, lives=3, armoede=False, knock_anytime=True)
    e.reset(seed=1, options={"decks": [deck_for(4, 0, ANYTIME_DECK)]})
    return e


def _check_observations(e: Any) -> None:
    """Only the selected agent has a legal action; each observation is its seat's view: its
    own cards and no one else's."""
    inner = e.unwrapped
    game = inner.game
    for agent in e.agents:
        seat = inner.agent_name_mapping[agent]
        obs = e.observe(agent)
        x = np.asarray(obs["observation"])
        assert np.array_equal(x, inner.encoder.encode(inner.view(agent)))
        hand = {int(c) for c in np.flatnonzero(x[inner.encoder.slices["hand"]])}
        assert hand == set(cards_of(game.hand_mask(seat)))
        played = {c for _, c, _ in game.plays}
        shown = np.flatnonzero(x[inner.encoder.slices["played"]]) % 32
        assert set(shown.tolist()) <= played  # no card in any other block but played ones
        mask = obs["action_mask"].nonzero()[0].tolist()
        if agent != e.agent_selection:
            assert mask == []


def _step(e: Any, agent: str, action: int) -> None:
    assert e.agent_selection == agent
    _check_observations(e)
    e.step(action)


def test_pettingzoo_offers_the_knock_out_of_turn_in_seat_order_before_each_card() -> None:
    e = _anytime_env()
    inner = e.unwrapped
    game = inner.game
    # Before the first card: seats 2, 3 and 0 may knock (not the leader, seat 1), in order.
    for agent in ("player_2", "player_3", "player_0"):
        assert e.agent_selection == agent
        assert e.observe(agent)["action_mask"].nonzero()[0].tolist() == KNOCK_PASS
        _step(e, agent, int(PASS))
    assert e.agent_selection == "player_1" and game.turn == 1
    _step(e, "player_1", int(parse_card("Jc")))
    # Seat 2 is to play; 3, 0 and 1 may knock: 3 passes, 0 knocks out of turn.
    assert game.turn == 2 and inner.windows.pending == [3, 0, 1]
    _step(e, "player_3", int(PASS))
    _step(e, "player_0", int(KNOCK))
    assert game.phase is Phase.ANSWER and game.stake == 2 and game.last_knocker == 0
    assert e.agent_selection == "player_1"  # the answers start left of the knocker
    for agent in ("player_1", "player_2", "player_3"):
        _step(e, agent, int(STAY))
    # The play resumes with seat 2, after a window for 3 and 1 (0 knocked last).
    assert game.turn == 2 and inner.windows.pending == [3, 1]
    _step(e, "player_3", int(PASS))
    _step(e, "player_1", int(PASS))
    assert e.agent_selection == "player_2"
    doc = to_record(game)
    assert doc["actions"][:2] == ["1 play Jc", "0 knock"]


def test_pettingzoo_refuses_a_card_in_a_knock_window_and_changes_nothing() -> None:
    e = _anytime_env()
    inner = e.unwrapped
    before = (e.agent_selection, list(inner.windows.pending), list(inner.game.actions))
    with pytest.raises(ValueError, match="knock or pass"):
        e.step(int(parse_card("Tc")))  # player_2 holds Tc, but it is offered a knock only
    assert (e.agent_selection, inner.windows.pending, list(inner.game.actions)) == before


def _anytime_state() -> Any:
    game = pyspiel.load_game(SHORT_NAME, {"players": 4, "lives": 3,
                                          "options": "armoede:false;knock_anytime:true"})
    state = game.new_initial_state()
    for card in deck_for(4, 0, ANYTIME_DECK)[:16]:
        state.apply_action(int(parse_card(card)))
    return game, state


def test_openspiel_offers_the_knock_out_of_turn_and_keeps_it_through_serialisation() -> None:
    game, state = _anytime_state()
    for player in (2, 3, 0):
        assert state.current_player() == player and state.legal_actions() == KNOCK_PASS
        state.apply_action(int(PASS))
    assert state.current_player() == 1
    state.apply_action(int(parse_card("Jc")))
    state.apply_action(int(PASS))  # seat 3
    assert state.current_player() == 0 and state.legal_actions() == KNOCK_PASS
    # Mid-window: the serialised state comes back with the same seat asked.
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.current_player() == 0 and again.history() == state.history()
    for p in range(4):
        assert again.information_state_string(p) == state.information_state_string(p)
    state.apply_action(int(KNOCK))  # seat 0 knocks while seat 2 is to play
    assert state.current_player() == 1  # the answers start left of the knocker
    assert {int(STAY), int(FOLD)} <= set(state.legal_actions())
    assert state.record()["actions"][:2] == ["1 play Jc", "0 knock"]
    # The passes are in the perfect-recall information state, and no hidden card is.
    info = state.information_state_string(3)
    assert info.count("pass") >= 4
    for seat, hand in ANYTIME_DECK.items():
        if seat != 3:
            for card in hand.split():
                assert card == "Jc" or card not in info


def test_the_hand_bound_counts_the_knock_windows() -> None:
    # The automatic cut-off of a hand episode cuts no hand short, even the longest kind:
    # every window passed, every card played (no knock, no fold).
    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "episode": "hand", "lives": 2,
                                          "options": "armoede:false;knock_anytime:true"})
    rng = random.Random(4)
    passes = 0
    for _ in range(10):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            legal = state.legal_actions()
            passes += int(PASS) in legal
            state.apply_action(int(PASS) if int(PASS) in legal else min(legal))
        assert state._s.game.hand_no > 1 or state._s.game.phase is Phase.OVER
    assert passes >= 10 * 12


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_our_bots_play_the_knock_windows_through_both_wrappers(name: str) -> None:
    e = env("rulebook", 4, lives=2, knock_anytime=True)
    policies = {a: BotPolicy(name, seed=i) for i, a in enumerate(e.possible_agents)}
    returns = play_episode(e, policies, seed=2)
    assert e.unwrapped.game.phase is Phase.OVER
    assert sum(returns.values()) == -sum(e.unwrapped.game.lives_lost)
    game = pyspiel.load_game(SHORT_NAME, {"players": 4, "lives": 2,
                                          "options": "knock_anytime:true"})
    bots = make_bots([name] * 4, seed=3)
    result = pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)
    assert all(r <= 0 for r in result)
