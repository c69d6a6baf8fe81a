"""The OpenSpiel game python_toepen: OpenSpiel's own checks, bots, resampling, hidden cards."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots

from toepen.bots.base import bot_names
from toepen.cards import cards_of
from toepen.record import replay
from toepen.rl.encoding import ObservationEncoder
from toepen.rl.openspiel import SHORT_NAME, ToepenBot, ToepenState, make_bots

CONFIGS = [
    {"players": 2, "lives": 1, "episode": "hand"},
    {"players": 4, "lives": 2},
    {"preset": "classic", "players": 4, "lives": 2, "options": "rubbers:1"},
    {"preset": "classic", "players": 3, "lives": 2, "episode": "hand"},
    {"preset": "gezinstoepen", "players": 3, "lives": 2},
    {"preset": "kroegtoepen", "players": 8, "lives": 2, "episode": "hand"},
    {"preset": "teams", "players": 4, "lives": 2},
    {"preset": "no-knock", "players": 4, "lives": 2, "zero_sum": True},
    {"players": 3, "lives": 2, "options": "tells:tens_and_jacks;pelt:true"},
]


def _id(cfg: dict[str, object]) -> str:
    return ",".join(f"{k}={v}" for k, v in cfg.items())


@pytest.mark.parametrize("cfg", CONFIGS, ids=_id)
def test_random_sim_test_with_serialisation(cfg: dict[str, object]) -> None:
    game = pyspiel.load_game(SHORT_NAME, cfg)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_game_string_round_trip_and_parameters() -> None:
    game = pyspiel.load_game("python_toepen(players=3,lives=2,episode=hand)")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 39 and game.max_chance_outcomes() == 32
    assert pyspiel.load_game(str(game)).new_initial_state().is_chance_node()
    zs = pyspiel.load_game(SHORT_NAME, {"players": 2, "zero_sum": True, "episode": "hand"})
    assert zs.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"players": 9}, "table_sizes|players"),
        ({"preset": "teams", "players": 3}, "teams"),
        ({"episode": "rubber"}, "episode"),
        ({"options": "lives"}, "not key:value"),
        ({"options": "colour:red"}, "option colour"),
        ({"preset": "classic", "options": "rubbers:null"}, "rubbers"),
        ({"dealer": 4}, "dealer"),
        ({"max_moves": -1}, "max_moves"),
    ],
)
def test_bad_parameters_are_refused_by_name(params: dict[str, object], message: str) -> None:
    with pytest.raises(Exception, match=message):
        pyspiel.load_game(SHORT_NAME, params)


def _play_to_decision(game: pyspiel.Game, deck: list[int]) -> ToepenState:
    state = game.new_initial_state()
    for card in deck:
        if not state.is_chance_node():
            break
        state.apply_action(card)
    assert not state.is_chance_node()
    return state


def test_chance_deals_the_hands_from_the_top() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 4, "dealer": 0})
    state = _play_to_decision(game, list(range(32)))
    assert len(state.history()) == 16  # no exchange: only the hands are dealt by chance
    # Seat 1 (left of the dealer) gets cards 0, 4, 8 and 12.
    assert state.view(1).hand == (0, 4, 8, 12)
    assert state.record()["decks"][0][:16] == [
        "Tc", "9c", "8c", "7c", "Ac", "Kc", "Qc", "Jc",
        "Td", "9d", "8d", "7d", "Ad", "Kd", "Qd", "Jd",
    ]
    classic = pyspiel.load_game(SHORT_NAME, {"preset": "classic", "players": 4})
    assert len(_play_to_decision(classic, list(range(32))).history()) == 31  # stock too


def test_information_hides_other_hands() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    deck_a = list(range(32))
    # Swap a card of seat 2 (position 1) with one of seat 3 (position 2): seat 1 cannot tell.
    deck_b = list(deck_a)
    deck_b[1], deck_b[2] = deck_b[2], deck_b[1]
    a, b = _play_to_decision(game, deck_a), _play_to_decision(game, deck_b)
    for seat in (0, 1):
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.observation_string(seat) == b.observation_string(seat)
        assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
        assert a.observation_tensor(seat) == b.observation_tensor(seat)
    for seat in (2, 3):
        assert a.information_state_string(seat) != b.information_state_string(seat)
        assert a.observation_tensor(seat) != b.observation_tensor(seat)
    text = a.information_state_string(1)
    assert "hand seat=1 value=4 cards=Tc Ac Td Ad (private)" in text
    assert "hand seat=2 value=4 (private)" in text  # seat 2 got four cards, unnamed
    enc = ObservationEncoder(4)
    tensor = np.array(a.observation_tensor(1))
    assert np.flatnonzero(tensor[enc.slices["hand"]]).tolist() == [0, 4, 8, 12]


def test_public_observer_shows_no_hand() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    state = _play_to_decision(game, list(range(32)))
    obs_type = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = game.make_py_observer(obs_type)
    observer.set_from(state, 1)
    enc = ObservationEncoder(4)
    assert not observer.tensor[enc.slices["hand"]].any()
    assert '"hand":[]' in observer.string_from(state, 1)
    assert "Tc" not in observer.string_from(state, 1)
    private_only = game.make_py_observer(
        pyspiel.IIGObservationType(public_info=False, perfect_recall=False)
    )
    private_only.set_from(state, 1)
    assert np.flatnonzero(private_only.tensor).tolist() == [0, 4, 8, 12]  # the hand only
    assert private_only.string_from(state, 1) == "p1 hand Tc Ac Td Ad"
    with pytest.raises(ValueError, match="all players"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            )
        )


def _random_walk(
    game: pyspiel.Game, rng: np.random.Generator, stop: float
) -> list[ToepenState]:
    """States met on one random episode (each kept with probability ``stop``)."""
    state = game.new_initial_state()
    kept = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, _ = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes)))
            continue
        if rng.random() < stop:
            kept.append(state.clone())
        state.apply_action(int(rng.choice(state.legal_actions())))
    return kept


@pytest.mark.parametrize(
    "cfg",
    [
        {"players": 4, "lives": 3},
        {"preset": "classic", "players": 4, "lives": 3, "options": "rubbers:1"},
        {"players": 3, "lives": 2, "options": "tells:tens_and_jacks"},
        {"players": 4, "lives": 3, "options": "knock_anytime:true"},
    ],
    ids=_id,
)
def test_resample_from_infostate(cfg: dict[str, object]) -> None:
    game = pyspiel.load_game(SHORT_NAME, cfg)
    rng = np.random.default_rng(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = moved = 0
    for _ in range(3):
        for state in _random_walk(game, rng, stop=0.25):
            player = state.current_player()
            other = state.resample_from_infostate(player, sampler)
            assert isinstance(other, ToepenState)
            assert other.information_state_string(player) == state.information_state_string(
                player
            )
            assert other.legal_actions() == state.legal_actions()
            assert other.view(player).hand == state.view(player).hand
            # Tensors show nothing the seat could not know: the same in the redrawn world.
            assert other.observation_tensor(player) == state.observation_tensor(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(
                player
            )
            assert other.observation_string(player) == state.observation_string(player)
            checked += 1
            theirs = [s for s in range(game.num_players()) if s != player]
            moved += any(
                other.view(s).hand != state.view(s).hand for s in theirs
            )
    assert checked >= 10
    assert moved >= checked // 2  # hidden cards are really drawn anew


def test_serialisation_round_trip_mid_deal_and_mid_hand() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"preset": "classic", "players": 3, "lives": 2})
    rng = np.random.default_rng(1)
    state = game.new_initial_state()
    for step in range(60):
        if state.is_terminal():
            break
        if step in (5, 40):
            text = pyspiel.serialize_game_and_state(game, state)
            game2, state2 = pyspiel.deserialize_game_and_state(text)
            assert str(state2) == str(state) and state2.history() == state.history()
            for p in range(3):
                assert state2.information_state_string(p) == state.information_state_string(p)
        if state.is_chance_node():
            outcomes, _ = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


BOTS = [name for name in ("random", "heuristic") if name in bot_names()]


@pytest.mark.parametrize("name", BOTS)
def test_evaluate_bots_with_our_bots(name: str) -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 4, "lives": 3})
    bots = make_bots([name, "random", name, "random"], seed=7)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert len(returns) == 4 and all(r <= 0 for r in returns) and min(returns) <= -3
    # OpenSpiel's C++ evaluate_bots drives the same Python bots.
    returns_cpp = pyspiel.evaluate_bots(game.new_initial_state(), make_bots([name] * 4, seed=1), 5)
    assert len(returns_cpp) == 4 and min(returns_cpp) <= -3


def test_bot_refuses_another_seat_and_another_game() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 4})
    state = _play_to_decision(game, list(range(32)))
    with pytest.raises(ValueError, match="player 0 asked to act for 1"):
        ToepenBot("random", 0).step(state)
    with pytest.raises(TypeError, match="python_toepen"):
        ToepenBot("random", 0).step(pyspiel.load_game("kuhn_poker").new_initial_state())
    assert ToepenBot("random", 1, seed=2).step(state) in state.legal_actions()


def test_rewards_arrive_with_the_decision_that_caused_them() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 2, "lives": 2, "episode": "hand"})
    # Seat 1 claims armoede, seat 0 challenges; seat 1's hand (Tc ...) is not poor: seat 1 pays.
    state = _play_to_decision(game, list(range(32)))
    assert cards_of(sum(1 << c for c in state.view(1).hand))[0] == 0
    state.apply_action(35)  # seat 1 claims
    assert state.rewards() == [0.0, 0.0]
    state.apply_action(37)  # seat 0 challenges
    assert state.rewards() == [0.0, -1.0] and state.returns() == [0.0, -1.0]
    assert state.lives() == [2, 1]


def test_rl_environment_rewards_add_up_to_the_lives_lost() -> None:
    """OpenSpiel's RL environment (what NFSP and DQN train on) runs on the game."""
    from open_spiel.python import rl_environment

    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "lives": 2})
    env = rl_environment.Environment(game, seed=3)
    assert env.observation_spec()["info_state"] == (game.information_state_tensor_size(),)
    assert env.action_spec()["num_actions"] == 39
    rng = np.random.default_rng(4)
    for _ in range(3):
        ts = env.reset()
        totals = np.zeros(3)
        while not ts.last():
            player = ts.observations["current_player"]
            legal = ts.observations["legal_actions"][player]
            ts = env.step([int(rng.choice(legal))])
            totals += ts.rewards
        state = env.get_state
        assert list(totals) == state.returns()
        lost = state.record()  # every deck and decision: replay it to count the lives lost
        assert state.returns() == [-float(x) for x in replay(lost).lives_lost]
        assert min(totals) <= -2  # someone was eliminated: the session ended
