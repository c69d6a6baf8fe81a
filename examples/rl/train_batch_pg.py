"""A small policy-gradient agent trained in the batched environment, in plain NumPy.

A linear softmax policy over the 39 action ids (illegal ones masked out) learns seat 0 of
a 4-player rulebook table by REINFORCE with a running-mean baseline, an episode being
one hand (its reward: minus the lives the seat lost in it). It trains in
:class:`toepen.rl.vector.ToepenVectorEnv` against random opponents (the batch plays
them at array speed), and is measured every few seconds on the same hands:

- against ``random`` in the batch (thousands of hands),
- against ``heuristic`` through the PettingZoo AEC environment (the engine and the bot
  as every venue runs them; the same seeded hands each time),

beside what a ``random`` and a ``heuristic`` seat 0 lose in the same places.

    uv run python examples/rl/train_batch_pg.py              # about a minute
    uv run python examples/rl/train_batch_pg.py --plot docs/research-pg.png

Needs the ``rl`` extra (and ``plot`` for ``--plot``).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from toepen.rl.pettingzoo import env as aec_env
from toepen.rl.policies import BotPolicy
from toepen.rl.vector import ToepenVectorEnv, random_opponent

F32 = npt.NDArray[np.float32]


class LinearPolicy:
    """Softmax over ``obs @ W + b`` restricted to the legal actions; Adam updates."""

    def __init__(self, size: int, actions: int = 39, lr: float = 3e-3, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.W = (rng.standard_normal((size, actions)) * 0.01).astype(np.float32)
        self.b = np.zeros(actions, dtype=np.float32)
        self.lr = lr
        self.m = [np.zeros_like(self.W), np.zeros_like(self.b)]
        self.v = [np.zeros_like(self.W), np.zeros_like(self.b)]
        self.t = 0
        self.rng = rng

    def probs(self, obs: F32, mask: npt.NDArray[np.int8]) -> F32:
        logits = obs @ self.W + self.b
        logits = np.where(mask == 1, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits) * mask
        out: F32 = (p / p.sum(axis=1, keepdims=True)).astype(np.float32)
        return out

    def act(self, obs: F32, mask: npt.NDArray[np.int8], greedy: bool = False) -> Any:
        p = self.probs(obs, mask)
        if greedy:
            return p.argmax(axis=1)
        return (p.cumsum(axis=1) > self.rng.random((len(p), 1))).argmax(axis=1)

    def update(self, obs: F32, mask: npt.NDArray[np.int8], acts: Any, adv: F32) -> None:
        """One REINFORCE step: raise log pi(a|s) in proportion to the advantage."""
        p = self.probs(obs, mask)
        g = -p
        g[np.arange(len(acts)), acts] += 1.0
        g *= adv[:, None] / len(acts)
        grads = [obs.T @ g, g.sum(axis=0)]
        self.t += 1
        for i, (param, grad) in enumerate(zip((self.W, self.b), grads, strict=True)):
            self.m[i] = 0.9 * self.m[i] + 0.1 * grad
            self.v[i] = 0.999 * self.v[i] + 0.001 * grad * grad
            mhat = self.m[i] / (1 - 0.9 ** self.t)
            vhat = self.v[i] / (1 - 0.999 ** self.t)
            param += self.lr * mhat / (np.sqrt(vhat) + 1e-8)  # gradient ascent


def loss_vs_random(policy: LinearPolicy | None, hands: int = 4096, seed: int = 99) -> float:
    """Mean lives seat 0 loses per hand against random seats (batched; ``None``: random)."""
    venv = ToepenVectorEnv("rulebook", 4, num_envs=hands, episode="hand",
                           opponent=random_opponent(np.random.default_rng(seed)))
    obs, _ = venv.reset(seed=seed)
    total = np.zeros(hands)
    over = np.zeros(hands, dtype=bool)
    rng = np.random.default_rng(seed + 1)
    while not over.all():
        mask = obs["action_mask"]
        acts = (mask * rng.random(mask.shape)).argmax(axis=1) if policy is None else \
            policy.act(obs["observation"], mask, greedy=True)
        obs, reward, term, _, _ = venv.step(acts)
        total += np.where(over, 0.0, reward)
        over |= term
    return float(-total.mean())


def loss_vs_heuristic(policy: LinearPolicy | str, hands: int = 120, seed: int = 7) -> float:
    """Mean lives seat 0 loses per hand against three ``heuristic`` seats, through the AEC
    environment (hands seeded alike for every measure). ``policy`` may be a bot's name."""
    lost = 0.0
    for h in range(hands):
        e = aec_env("rulebook", 4, episode="hand")
        e.reset(seed=seed + h)
        bots = {a: BotPolicy("heuristic", seed=seed + h * 8 + i)
                for i, a in enumerate(e.possible_agents)}
        mine = BotPolicy(policy, seed=seed + h) if isinstance(policy, str) else None
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            if agent == "player_0":
                lost -= float(reward)
            if term or trunc:
                e.step(None)
                continue
            if agent != "player_0":
                e.step(bots[agent](e, agent))
            elif mine is not None:
                e.step(mine(e, agent))
            else:
                assert isinstance(policy, LinearPolicy)
                o = obs["observation"][None, :]
                m = obs["action_mask"][None, :]
                e.step(int(policy.act(o, m, greedy=True)[0]))
    return lost / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0,
                        help="training time (CPU seconds of this process)")
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--rollout", type=int, default=8, help="steps per update")
    parser.add_argument("--checkpoints", type=int, default=3)
    parser.add_argument("--opponent", choices=("random", "self"), default="random",
                        help="who seats 1-3 are while training: the policy itself "
                        "(self-play) or random")
    parser.add_argument("--random-hands", type=int, default=4096,
                        help="hands of each measure against random")
    parser.add_argument("--heuristic-hands", type=int, default=120,
                        help="hands of each measure against heuristic")
    parser.add_argument("--plot", help="write the learning curve to this image")
    args = parser.parse_args()

    size = ToepenVectorEnv.observation_size(4)
    policy = LinearPolicy(size)
    opponent = random_opponent(np.random.default_rng(1)) if args.opponent == "random" \
        else policy.act
    venv = ToepenVectorEnv("rulebook", 4, num_envs=args.envs, episode="hand",
                           opponent=opponent)
    obs, _ = venv.reset(seed=0)
    baseline = -0.5
    steps = 0
    curve: list[tuple[int, float, float]] = []

    rh, hh = args.random_hands, args.heuristic_hands
    if min(args.seconds, args.envs, args.rollout, args.checkpoints, rh, hh) <= 0:
        parser.error("--seconds, --envs, --rollout, --checkpoints and the hands must be > 0")

    def measure() -> None:
        r, h = loss_vs_random(policy, rh), loss_vs_heuristic(policy, hh)
        curve.append((steps, r, h))
        print(f"{steps:>10,} decisions  lives lost per hand: vs random {r:.3f}, "
              f"vs heuristic {h:.3f}", flush=True)

    base = {
        "random seat vs random": loss_vs_random(None, rh),
        "random seat vs heuristic": loss_vs_heuristic("random", hh),
        "heuristic seat vs heuristic": loss_vs_heuristic("heuristic", hh),
    }
    for k, v in base.items():
        print(f"baseline: {k}: {v:.3f} lives lost per hand")
    measure()
    trained = 0.0  # CPU seconds of training (the measures are not counted)
    next_check = args.seconds / args.checkpoints
    while True:
        if trained >= next_check:
            measure()
            next_check += args.seconds / args.checkpoints
            if trained >= args.seconds:
                break
        start = time.process_time()
        T, N = args.rollout, args.envs
        buf_obs = np.zeros((T, N, size), dtype=np.float32)
        buf_mask = np.zeros((T, N, 39), dtype=np.int8)
        buf_act = np.zeros((T, N), dtype=np.int64)
        buf_rew = np.zeros((T, N), dtype=np.float32)
        buf_done = np.zeros((T, N), dtype=bool)
        for t in range(T):
            acts = policy.act(obs["observation"], obs["action_mask"])
            buf_obs[t], buf_mask[t], buf_act[t] = obs["observation"], obs["action_mask"], acts
            obs, reward, term, _, _ = venv.step(acts)
            buf_rew[t], buf_done[t] = reward, term
        steps += T * N
        # returns to the end of each hand; steps whose hand has not ended are left out
        ret = np.zeros(N, dtype=np.float32)
        ended = np.zeros(N, dtype=bool)
        rets = np.zeros((T, N), dtype=np.float32)
        valid = np.zeros((T, N), dtype=bool)
        for t in range(T - 1, -1, -1):
            ret = np.where(buf_done[t], buf_rew[t], buf_rew[t] + ret)
            ended = buf_done[t] | ended
            rets[t], valid[t] = ret, ended
        if valid.any():
            r = rets[valid]
            baseline = 0.99 * baseline + 0.01 * float(r.mean())
            policy.update(buf_obs[valid], buf_mask[valid], buf_act[valid],
                          (r - baseline).astype(np.float32))
        trained += time.process_time() - start
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        xs = [c[0] for c in curve]
        fig, ax = plt.subplots(figsize=(7, 4), dpi=90)
        ax.plot(xs, [c[1] for c in curve], "o-", label="agent vs random")
        ax.plot(xs, [c[2] for c in curve], "s-", label="agent vs heuristic")
        styles = (":", "--", "-.")
        for (name, value), style in zip(base.items(), styles, strict=True):
            ax.axhline(value, linestyle=style, color="grey", label=name)
        ax.set_xlabel(f"training decisions of seat 0 (batched env, opponents: {args.opponent})")
        ax.set_ylabel("lives lost per hand (lower is better)")
        ax.set_title("Linear policy gradient, rulebook, 4 players")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(args.plot)
        print(f"plot written to {args.plot}")


if __name__ == "__main__":
    main()
