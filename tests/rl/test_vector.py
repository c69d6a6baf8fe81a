"""The batched environment's Gymnasium VectorEnv and PettingZoo ParallelEnv wrappers."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.utils.passive_env_checker import (
    check_obs,
    check_space,
    env_reset_passive_checker,
)
from pettingzoo.test import parallel_api_test

from toepen.rl.encoding import ObservationEncoder
from toepen.rl.vector import ToepenParallelEnv, ToepenVectorEnv


@pytest.mark.parametrize(("preset", "players"), [("rulebook", 4), ("classic", 3), ("rulebook", 8)])
def test_pettingzoo_parallel_api_test(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_api_test(ToepenParallelEnv(preset, players, num_games=6, lives=2),
                          num_cycles=300)


def test_parallel_env_asks_the_seat_to_act_and_refuses_what_is_missing() -> None:
    env = ToepenParallelEnv("rulebook", 3, num_games=5)
    obs, _ = env.reset(seed=2)
    turn = env.batch.turn.copy()
    for s, agent in enumerate(env.possible_agents):
        acting = turn == s
        assert (obs[agent]["action_mask"][acting].sum(axis=1) > 0).all()
        assert (obs[agent]["action_mask"][~acting] == 0).all()
    with pytest.raises(ValueError, match="actions: none for"):
        env.step({"player_0": np.zeros(5, dtype=np.int64)} if (turn != 0).any()
                 else {"player_1": np.zeros(5, dtype=np.int64)})
    acts = {a: o["action_mask"].argmax(axis=1) for a, o in obs.items()}
    _, rewards, term, trunc, infos = env.step(acts)
    assert set(rewards) == set(env.possible_agents) and not any(term.values())
    assert infos["player_0"]["done"].shape == (5,)


def _check(venv: ToepenVectorEnv) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Gymnasium's checkers warn on what is wrong
        check_space(venv.single_observation_space, "observation", lambda _: None)
        check_space(venv.single_action_space, "action", lambda _: None)
        env_reset_passive_checker(venv, seed=0)


def test_vector_env_passes_gymnasium_checks_and_is_deterministic() -> None:
    venv = ToepenVectorEnv("rulebook", 4, num_envs=16, lives=3)
    _check(venv)
    obs_a, _ = venv.reset(seed=5)
    obs_b, _ = venv.reset(seed=5)
    assert data_equivalence(obs_a, obs_b, exact=True)
    assert obs_a["observation"] is not obs_b["observation"]  # never a reused buffer
    runs = []
    for _ in range(2):
        obs, _ = venv.reset(seed=9)
        trace = []
        for _ in range(60):
            obs, reward, term, trunc, info = venv.step(obs["action_mask"].argmax(axis=1))
            check_obs(obs, venv.observation_space, "step")
            assert obs in venv.observation_space
            trace.append((obs, reward, term))
        runs.append(trace)
    assert data_equivalence(runs[0], runs[1], exact=True)


def test_vector_env_asks_only_the_learner() -> None:
    enc = ObservationEncoder(4)
    venv = ToepenVectorEnv("rulebook", 4, num_envs=32, seat=2, lives=2)
    obs, _ = venv.reset(seed=1)
    rewards = 0.0
    ends = 0
    for _ in range(150):
        assert (venv.batch.turn == 2).all()
        to_act = obs["observation"][:, enc.slices["to_act"]]
        assert (to_act[:, 0] == 1).all()  # relative seat 0: the learner itself
        obs, reward, term, trunc, _ = venv.step(obs["action_mask"].argmax(axis=1))
        rewards += float(reward.sum())
        ends += int(term.sum())
        assert not trunc.any() and (reward <= 0).all()
    assert ends > 10 and rewards < 0


@pytest.mark.parametrize("episode", ["session", "hand"])
def test_vector_env_rewards_add_up_to_the_learners_lost_lives(episode: str) -> None:
    """Per game, the learner's rewards are minus every life it lost, hand by hand (what
    its unfinished hand has cost so far is still to come)."""
    seat = 1
    # the NumPy path, whose session restarts the test can count (the compiled path restarts
    # them inside its loop; tests/rl/test_batch.py shows the two paths the same)
    venv = ToepenVectorEnv("rulebook", 3, num_envs=32, seat=seat, episode=episode, lives=2,
                           backend="numpy")
    batch = venv.batch
    obs, _ = venv.reset(seed=8)
    lost = np.zeros(32, dtype=np.int64)  # lives lost in the episodes already over
    start_session = batch._new_session

    def counting(g: np.ndarray) -> None:
        lost[g] += batch.lives_lost[g, seat]
        start_session(g)

    batch._new_session = counting  # type: ignore[method-assign]
    total = np.zeros(32)
    ends = 0
    for _ in range(200):
        obs, reward, term, _, _ = venv.step(obs["action_mask"].argmax(axis=1))
        total += reward
        ends += int(term.sum())
    pending = batch.lives_lost[:, seat] - batch.lost_before[:, seat]
    np.testing.assert_array_equal(total, -(lost + batch.lives_lost[:, seat] - pending))
    assert ends > 30 and total.sum() < 0


def test_wrappers_refuse_bad_arguments() -> None:
    with pytest.raises(ValueError, match="seat: must be a seat from 0 to 3"):
        ToepenVectorEnv("rulebook", 4, seat=4)
    venv = ToepenVectorEnv("rulebook", 4, num_envs=2)
    venv.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions\[0\]: action 0 is not legal"):
        venv.step(np.zeros(2, dtype=np.int64))
