"""Toepen as a PettingZoo AEC environment.

Agents are ``player_0`` .. ``player_{n-1}`` (seat order, clockwise). Each observation is a
dict: ``observation`` (a float32 vector, :class:`~toepen.rl.encoding.ObservationEncoder`)
and ``action_mask`` (int8 over the 39 action ids of :class:`~toepen.engine.Action`: 32
card plays, then knock, stay, fold, claim, exchange, challenge, pass). Observations are
built from ``observe(game, seat)`` only.

Under ``knock_anytime`` one agent still acts at a time: before each card every seat that
may knock out of turn (``Game.knockers()``, in seat order) is selected in turn with the
mask knock or pass, then the player to play (:mod:`toepen.rl.windows`). The first knock
interrupts; a pass is the environment's (the engine records no pass).

Rewards are the lives a seat (a pair, in teams) lost in a hand, as negatives, given to
every agent when the hand ends. One episode is one session (``episode="session"``) or
one hand (``episode="hand"``). Seats eliminated from an elimination session terminate
when their last hand ends. Chance comes only from the engine's seeded decks, seeded by
``reset(seed=...)`` (or given explicitly: ``reset(options={"decks": [...]})``).

>>> e = env(preset="rulebook", players=3, lives=2, episode="hand")
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), obs["action_mask"].nonzero()[0].tolist()
(['action_mask', 'observation'], [35, 38])
"""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..cards import card_str
from ..engine.actions import ACTIONS, NUM_ACTIONS
from ..engine.state import Game, Phase
from ..rules import Rules
from ..view import View, observe
from .encoding import ObservationEncoder, action_mask
from .windows import KnockWindows

__all__ = ["env", "raw_env", "ToepenEnv", "EPISODES"]

EPISODES = ("session", "hand")
"""What one episode is: a whole session, or the first hand of one."""

Observation = dict[str, npt.NDArray[Any]]


def env(
    preset: str = "rulebook",
    players: int = 4,
    *,
    episode: str = "session",
    dealer: int = 0,
    max_moves: int | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> Any:
    """The environment, wrapped in PettingZoo's order-enforcing wrapper.

    ``options`` are rule options (``lives=3``, ``last_trick="wins"``...) on top of the
    preset. ``max_moves`` truncates an episode after that many decisions (default: no
    limit).
    """
    return wrappers.OrderEnforcingWrapper(
        ToepenEnv(
            preset,
            players,
            episode=episode,
            dealer=dealer,
            max_moves=max_moves,
            render_mode=render_mode,
            **options,
        )
    )


class ToepenEnv(AECEnv):  # type: ignore[misc]
    """The raw AEC environment (see the module documentation)."""

    metadata: dict[str, Any] = {
        "name": "toepen_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "rulebook",
        players: int = 4,
        *,
        episode: str = "session",
        dealer: int = 0,
        max_moves: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.rules = Rules.preset(preset, **options)
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError(f"players: must be an integer, not {players!r}")
        self.rules.check_table(players)
        if episode not in EPISODES:
            raise ValueError(f"episode: must be one of {', '.join(EPISODES)}, not {episode!r}")
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise ValueError(f"dealer: must be a seat from 0 to {players - 1}, not {dealer!r}")
        if max_moves is not None and (not isinstance(max_moves, int) or max_moves < 1):
            raise ValueError(f"max_moves: must be None or an integer >= 1, not {max_moves!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode: must be None, 'ansi' or 'human', not {render_mode!r}"
            )
        self.n = players
        self.episode = episode
        self.dealer = dealer
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.encoder = ObservationEncoder(players)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = self.encoder.bounds()
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(low=low, high=high, dtype=np.float32),
                    "action_mask": gymnasium.spaces.Box(
                        low=0, high=1, shape=(NUM_ACTIONS,), dtype=np.int8
                    ),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents
        }
        self._np_random: np.random.Generator | None = None
        self.game: Game | None = None
        self.windows: KnockWindows | None = None
        self.agents: list[str] = []

    # -- spaces ------------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- episode -----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode: a new session dealt from the engine's seeded decks.

        ``seed`` seeds the episode (and the ones after it, when they reset without a
        seed). ``options``: ``decks`` (a list of decks, each the 32 cards from the top,
        used before the seeded ones) and ``dealer`` (the first dealer).
        """
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        engine_seed = int(self._np_random.integers(0, 2**63 - 1))
        decks = None
        dealer = self.dealer
        for key, value in (options or {}).items():
            if key == "decks":
                decks = value
            elif key == "dealer":
                if not isinstance(value, int) or not 0 <= value < self.n:
                    raise ValueError(
                        f"options.dealer: must be a seat from 0 to {self.n - 1}, not {value!r}"
                    )
                dealer = value
            else:
                warnings.warn(f"reset: unknown option {key!r} ignored", stacklevel=2)
        self.game = Game(self.rules, self.n, seed=engine_seed, decks=decks, dealer=dealer)
        self.windows = KnockWindows(self.game)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._hand_no = self.game.hand_no
        self._lost_before = self._team_losses()
        self._moves = 0
        self.agent_selection = self.possible_agents[self._turn()]

    def _turn(self) -> int:
        """The one seat asked now: under ``knock_anytime`` a seat offered a knock out of
        turn before the card (:class:`~toepen.rl.windows.KnockWindows`), else the turn."""
        seat = self._require_windows().seat
        if seat < 0:
            game = self._require_game()
            raise RuntimeError(
                f"the engine awaits no decision (phase {game.phase.name.lower()})"
            )
        return seat

    def _require_windows(self) -> KnockWindows:
        if self.windows is None:
            raise RuntimeError("call reset() before using the environment")
        return self.windows

    def _require_game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def _team_losses(self) -> list[int]:
        """Lives lost so far by each seat's side (a pair shares its losses)."""
        game = self._require_game()
        by_team: dict[int, int] = {}
        for seat, lost in enumerate(game.lives_lost):
            t = game.team_of[seat]
            by_team[t] = by_team.get(t, 0) + lost
        return [by_team[game.team_of[s]] for s in range(self.n)]

    # -- observing ---------------------------------------------------------------------

    def view(self, agent: str) -> View:
        """What ``agent`` may know now: ``observe(game, seat)``, its ``legal`` the actions
        it may take now (none unless it is ``agent_selection``; knock or pass in a knock
        window). Bots act on this."""
        return self._require_windows().view(self.agent_name_mapping[agent])

    def observe(self, agent: str) -> Observation:
        v = self.view(agent)
        return {"observation": self.encoder.encode(v), "action_mask": action_mask(v)}

    # -- acting ------------------------------------------------------------------------

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._require_game()
        seat = self.agent_name_mapping[agent]
        if action is None or isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"action: {agent} must act with an action id 0..38, not {action!r}")
        if not 0 <= int(action) < NUM_ACTIONS:
            raise ValueError(f"action: {int(action)} is not an action id (0..38)")
        try:
            self._require_windows().apply(seat, ACTIONS[int(action)])
        except ValueError as e:  # the engine's IllegalAction, or not knock/pass in a window
            raise ValueError(f"action {int(action)} ({ACTIONS[int(action)]}): {e}") from None
        self._moves += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()

        over = game.phase is Phase.OVER
        hand_over = over or game.hand_no != self._hand_no
        if hand_over:
            lost = self._team_losses()
            for a in self.agents:
                s = self.agent_name_mapping[a]
                self.rewards[a] = -float(lost[s] - self._lost_before[s])
            self._lost_before = lost
            self._hand_no = game.hand_no
            end = over or self.episode == "hand"
            for a in self.agents:
                s = self.agent_name_mapping[a]
                if end or not game.in_session >> s & 1:
                    self.terminations[a] = True
        if self.max_moves is not None and self._moves >= self.max_moves:
            for a in self.agents:
                if not self.terminations[a]:
                    self.truncations[a] = True

        live = [
            a for a in self.agents if not (self.terminations[a] or self.truncations[a])
        ]
        if live:
            self.agent_selection = self.possible_agents[self._turn()]
        else:
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    # -- display -----------------------------------------------------------------------

    def render(self) -> str | None:
        """The public position (no hidden card): printed (``human``) or returned (``ansi``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        v = observe(self._require_game(), None)
        trick = " ".join(f"{s}:{card_str(c)}" for s, c in v.trick) or "-"
        text = (
            f"hand {v.hand_no} | phase {v.phase} | stake {v.stake} | to act {list(v.to_act)} | "
            f"lives {list(v.lives)} | trick {trick}"
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


raw_env = ToepenEnv
"""PettingZoo's name for the unwrapped environment class."""
