"""The batched environment behind Gymnasium's and PettingZoo's interfaces.

- :class:`ToepenVectorEnv`: a Gymnasium ``VectorEnv`` of ``num_envs`` games seen by one
  learning seat (``seat``). The other seats are played by ``opponent``, a function of
  the batch's observations and masks (default: a uniformly random legal action), between
  the learner's decisions, so every observation the learner gets is one where it is to
  act. Its reward is the lives it lost in each hand that ended since its last decision
  (as a negative number); an episode ends (``terminated``) when the session ends, when
  the learner goes out of it (its unfinished hand's losses are its last reward), or
  with ``episode="hand"`` when the hand ends. Autoreset is ``SAME_STEP``: the
  observation returned with ``terminated`` is the first of the game's next episode.
- :class:`ToepenParallelEnv`: a PettingZoo ``ParallelEnv`` whose agents are the seats
  and whose every value is batched over the games: each agent observes ``(num_games,
  size)`` observations and ``(num_games, 39)`` masks, acts with ``num_games`` action
  ids (read only in the games where it is to act), and receives ``num_games`` rewards.
  Finished games start over on their own, so agents never terminate; ``infos[agent]``
  has the ``done``, ``hand_over`` and ``winner`` arrays of the step.

Observations, masks and action ids are the AEC environment's
(:mod:`toepen.rl.pettingzoo`).

>>> venv = ToepenVectorEnv("rulebook", 4, num_envs=8, lives=3)
>>> obs, info = venv.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape
((8, 418), (8, 39))
>>> mask = obs["action_mask"]
>>> obs, reward, terminated, truncated, info = venv.step(mask.argmax(axis=1))
>>> reward.shape, terminated.dtype.name
((8,), 'bool')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from ..engine.actions import NUM_ACTIONS
from ..rules import Rules
from .batch import ToepenBatch
from .encoding import ObservationEncoder

__all__ = ["Opponent", "ToepenParallelEnv", "ToepenVectorEnv", "random_opponent"]

Opponent = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], npt.ArrayLike]
"""``opponent(observations, masks) -> action ids``: one row per game waiting for an
opponent (the seat to act's observation and mask), one action id per row."""


def random_opponent(rng: np.random.Generator) -> Opponent:
    """A uniformly random legal action per game, drawn from ``rng``."""

    def act(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> npt.ArrayLike:
        out: npt.NDArray[np.intp] = (mask * rng.random(mask.shape)).argmax(axis=1)
        return out

    return act


def _single_spaces(n: int) -> gymnasium.spaces.Dict:
    low, high = ToepenBatch.observation_bounds(n)
    return gymnasium.spaces.Dict({
        "observation": gymnasium.spaces.Box(low=low, high=high, dtype=np.float32),
        "action_mask": gymnasium.spaces.Box(low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8),
    })


class ToepenVectorEnv(VectorEnv):
    """``num_envs`` games of Toepen for one learning seat (see the module documentation)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        rules: Rules | str = "rulebook",
        players: int = 4,
        *,
        num_envs: int = 64,
        seat: int = 0,
        opponent: Opponent | None = None,
        episode: str = "session",
        **options: Any,
    ) -> None:
        self.batch = ToepenBatch(rules, players, num_games=num_envs, episode=episode,
                                 **options)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat: must be a seat from 0 to {players - 1}, not {seat!r}")
        self.num_envs = num_envs
        self.seat = seat
        self._rng = np.random.default_rng()
        self.opponent = opponent if opponent is not None else random_opponent(self._rng)
        self.single_observation_space = _single_spaces(players)
        self.single_action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    @staticmethod
    def observation_size(players: int) -> int:
        """The length of an observation vector at a table of ``players``."""
        return ObservationEncoder(players).size

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """Start every game over (``seed``: an integer seeds them all)."""
        if isinstance(seed, list):
            raise ValueError("seed: one integer seeds every game (each its own way), not a list")
        if seed is not None:  # the same generator object: the default opponent draws from it
            self._rng.bit_generator.state = np.random.default_rng(seed).bit_generator.state
        self.batch.reset(int(self._rng.integers(0, 2**62)))
        zeros = np.zeros(self.num_envs, dtype=np.float32)
        self._advance(zeros, np.zeros(self.num_envs, dtype=bool))
        return self._observe(), {}

    def _observe(self) -> dict[str, npt.NDArray[Any]]:
        obs, mask = self.batch.observe()
        return {"observation": obs, "action_mask": mask}

    def _advance(self, reward: npt.NDArray[np.float32], done: npt.NDArray[np.bool_]) -> None:
        """The opponents play until the learner is to act in every game."""
        b, seat = self.batch, self.seat
        while True:
            out = (b.in_session >> seat & 1) == 0
            if out.any():  # the learner went out: its episode ends with the hand's losses
                reward -= np.where(out, b.lives_lost[:, seat] - b.lost_before[:, seat], 0)
                done |= out
                b.restart(out)
            waiting = b.turn != seat
            if not waiting.any():
                return
            g = np.flatnonzero(waiting).astype(np.int64)
            obs, mask = b.encode(g, b.turn[g])  # only the games waiting for an opponent
            acts = np.zeros(self.num_envs, dtype=np.int64)
            acts[g] = np.asarray(self.opponent(obs, mask), dtype=np.int64)
            res = b.step(acts, only=waiting)
            reward += res.rewards[:, seat]
            done |= res.done

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[dict[str, npt.NDArray[Any]], npt.NDArray[np.float32], npt.NDArray[np.bool_],
               npt.NDArray[np.bool_], dict[str, Any]]:
        """The learner's action in every game, then the opponents' until it is to act."""
        res = self.batch.step(np.asarray(actions))
        reward = res.rewards[:, self.seat].copy()
        done = res.done.copy()
        self._advance(reward, done)
        return (self._observe(), reward, done, np.zeros(self.num_envs, dtype=bool), {})


class _BatchedActions(gymnasium.spaces.MultiDiscrete):
    """One action id per game; ``sample(mask=...)`` also takes the ``(games, 39)`` mask
    array the observations carry (PettingZoo's API test samples with it)."""

    def sample(self, mask: Any = None, probability: Any = None) -> npt.NDArray[np.int64]:
        if isinstance(mask, np.ndarray):
            mask = tuple(np.asarray(row, dtype=np.int8) for row in mask)
        out: npt.NDArray[np.int64] = super().sample(mask=mask, probability=probability)
        return out


class ToepenParallelEnv(ParallelEnv):  # type: ignore[misc]
    """``num_games`` games, every agent's values batched (see the module documentation)."""

    metadata: dict[str, Any] = {"name": "toepen_batch_v0", "render_modes": [],
                                "is_parallelizable": True}

    def __init__(
        self,
        rules: Rules | str = "rulebook",
        players: int = 4,
        *,
        num_games: int = 64,
        episode: str = "session",
        **options: Any,
    ) -> None:
        self.batch = ToepenBatch(rules, players, num_games=num_games, episode=episode,
                                 **options)
        self.num_games = num_games
        self.n = players
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = list(self.possible_agents)
        single = _single_spaces(players)
        self._obs_space = batch_space(single, num_games)
        self._act_space = _BatchedActions(np.full(num_games, NUM_ACTIONS))
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._act_space

    def _all(self) -> dict[str, dict[str, npt.NDArray[Any]]]:
        N, n = self.num_games, self.n
        g = np.repeat(np.arange(N, dtype=np.int64), n)
        me = np.tile(np.arange(n, dtype=np.int64), N)
        obs, mask = self.batch.encode(g, me)
        obs = obs.reshape(N, n, -1)
        mask = mask.reshape(N, n, -1)
        return {a: {"observation": obs[:, s], "action_mask": mask[:, s]}
                for s, a in enumerate(self.possible_agents)}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.batch.reset(int(self._rng.integers(0, 2**62)))
        self.agents = list(self.possible_agents)
        return self._all(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, npt.ArrayLike]) -> tuple[
        dict[str, Any], dict[str, Any], dict[str, bool], dict[str, bool], dict[str, Any]
    ]:
        """``actions[agent]``: an action id per game, read where ``agent`` is to act."""
        N = self.num_games
        table = np.zeros((self.n, N), dtype=np.int64)
        for agent, acts in actions.items():
            if agent not in self.possible_agents:
                raise ValueError(f"actions: no agent {agent!r}")
            a = np.asarray(acts)
            if a.shape != (N,) or not np.issubdtype(a.dtype, np.integer):
                raise ValueError(f"actions[{agent!r}]: must be {N} integer action ids")
            table[self.possible_agents.index(agent)] = a
        turn = self.batch.turn
        missing = sorted({self.possible_agents[int(s)] for s in set(turn.tolist())}
                         - set(actions))
        if missing:
            raise ValueError(f"actions: none for {', '.join(missing)}, who must act")
        res = self.batch.step(table[turn, np.arange(N)])
        rewards = {a: res.rewards[:, s] for s, a in enumerate(self.possible_agents)}
        info = {"done": res.done, "hand_over": res.hand_over, "winner": res.winner}
        false = {a: False for a in self.agents}
        return self._all(), rewards, false, dict(false), {a: info for a in self.agents}
