"""Our bots as PettingZoo policies, and a loop that plays an episode with them.

A policy is called as ``policy(env, agent)`` and returns an action id. A bot policy asks
the environment for ``env.unwrapped.view(agent)`` (``observe(game, seat)``: the seat's
own cards and everything public) and asks the bot (``make_bot(name)``) as every venue
does (:func:`toepen.match.ask`: an answer that cannot be played is the fallback bot's,
logged and kept in :attr:`BotPolicy.incidents`).

>>> from toepen.rl.pettingzoo import env
>>> e = env(preset="rulebook", players=3, lives=2)
>>> returns = play_episode(e, {a: BotPolicy("random", seed=i)
...                            for i, a in enumerate(e.possible_agents)}, seed=5)
>>> sorted(returns) == sorted(e.possible_agents), all(r <= 0 for r in returns.values())
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..bots import make_bot
from ..match import Incident, ask

__all__ = ["BotPolicy", "Policy", "play_episode"]

Policy = Callable[[Any, str], int]
"""``policy(env, agent) -> action id``."""


class BotPolicy:
    """A toepen bot (random, heuristic, pimc, expert...) playing one PettingZoo agent."""

    def __init__(
        self, name: str, *, seed: int | None = None, time_budget: float | None = None
    ) -> None:
        self.bot = make_bot(name, seed=seed, time_budget=time_budget)
        self.name = name
        self.seed = seed
        self.incidents: list[Incident] = []
        """Answers of the bot that the fallback replaced, in order."""

    def __call__(self, env: Any, agent: str) -> int:
        view = env.unwrapped.view(agent)
        if not view.legal:
            raise ValueError(f"{agent} has no decision to make now")
        return int(ask(self.bot, view, self.seed, self.incidents.append, self.name))


def play_episode(
    env: Any,
    policies: Mapping[str, Policy],
    *,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, float]:
    """Reset ``env`` and play one episode; return each agent's total reward."""
    missing = set(env.possible_agents) - set(policies)
    if missing:
        raise ValueError(f"policies: none for {', '.join(sorted(missing))}")
    env.reset(seed=seed, options=options)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        _obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += float(reward)
        env.step(None if terminated or truncated else policies[agent](env, agent))
    return totals
