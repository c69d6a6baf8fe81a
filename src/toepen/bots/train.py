"""Self-play training of ``expert``'s knock, answer and claim policy.

The policy is a table over an abstraction of the decision:

* the settlement mode (``L``: last trick loses, ``W``: wins),
* the kind of decision (``knock`` before playing a card, ``answer`` to a knock,
  ``claim`` armoede),
* the tricks already played (0..3) and the stake (1, 2, 3+),
* the hand's strength bucket (:func:`bucket` of :func:`toepen.bots.pimc.strength`,
  a public-information score of the cards held, so the same key can be computed
  for an opponent's *sampled* hand when inferring from its actions).

Training is regret matching (CFR+ style, outcome values from rollouts) in self-play
with the real engine: a 4-player hand is dealt, everyone plays by the current
policy (cards by a quick rule), and at every policy decision each legal action is
tried on a clone of the game and rolled out to the end of the hand; the regret of
the acting seat's abstract decision grows by how much better each action did (in
its own lives lost) than the policy's mix. The average strategy over all
iterations is the equilibrium estimate that is shipped (``data/expert_policy.json``)
and rebuilt by ``toepen train expert``.

>>> p = train(iterations=3, seed=1)
>>> p.iterations, 0.0 <= p.prob("L|answer|0|2|0", "fold") <= 1.0
(3, True)
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..cards import HIGH_CARDS_MASK
from ..engine.actions import CHALLENGE, CLAIM, EXCHANGE, FOLD, KNOCK, PASS, STAY, Action
from ..engine.state import Game, Phase
from ..rules import Rules
from .pimc import strength

__all__ = [
    "FORMAT",
    "Policy",
    "bucket",
    "decision_key",
    "load_policy",
    "train",
    "KIND_ACTIONS",
]

FORMAT = "toepen-expert-policy/1"
CUTS = (0.2, 0.35, 0.5, 0.65, 0.8)
"""Strength bucket boundaries (6 buckets)."""
KIND_ACTIONS: dict[str, tuple[str, ...]] = {
    "knock": ("knock", "play"),
    "answer": ("stay", "fold", "knock"),
    "claim": ("claim", "pass"),
}
"""The abstract actions of each kind of decision, in table order."""
_ACTION_OF = {"knock": KNOCK, "stay": STAY, "fold": FOLD, "claim": CLAIM, "pass": PASS}


def bucket(value: float) -> int:
    """Strength bucket 0 (weakest) .. 5 (strongest).

    >>> bucket(0.1), bucket(0.5), bucket(0.99)
    (0, 3, 5)
    """
    b = 0
    for cut in CUTS:
        if value >= cut:
            b += 1
    return b


def decision_key(mode: str, kind: str, tricks: int, stake: int, hand: int, gone: int) -> str:
    """The abstract information set of a decision (see the module documentation).

    >>> decision_key("L", "answer", 0, 2, 0b1111, 0)
    'L|answer|0|2|0'
    """
    if kind == "claim":
        genuine = 0 if hand & HIGH_CARDS_MASK else 1
        return f"{mode}|claim|{genuine}|{bucket(strength(hand, gone, mode == 'W'))}"
    b = bucket(strength(hand, gone, mode == "W"))
    return f"{mode}|{kind}|{min(tricks, 3)}|{min(stake, 3)}|{b}"


@dataclass
class Policy:
    """Action probabilities by abstract decision; unknown keys are uniform."""

    tables: dict[str, dict[str, float]] = field(default_factory=dict)
    iterations: int = 0
    seed: int = 0

    def prob(self, key: str, action: str) -> float:
        """P(action | key), uniform over the kind's actions for a key never trained."""
        table = self.tables.get(key)
        if table is None:
            kind = key.split("|")[1]
            return 1.0 / len(KIND_ACTIONS[kind])
        return table.get(action, 0.0)

    def probs(self, key: str, actions: Sequence[str]) -> list[float]:
        """Probabilities of ``actions`` (the legal ones), renormalised."""
        ps = [self.prob(key, a) for a in actions]
        total = sum(ps)
        if total <= 0:
            return [1.0 / len(actions)] * len(actions)
        return [p / total for p in ps]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "iterations": self.iterations,
            "seed": self.seed,
            "cuts": list(CUTS),
            "tables": {k: {a: round(p, 4) for a, p in v.items()}
                       for k, v in sorted(self.tables.items())},
        }

    @classmethod
    def from_json(cls, data: Any) -> Policy:
        """A policy from its JSON form (ValueError naming what is wrong)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document")
        tables = data.get("tables")
        if not isinstance(tables, dict):
            raise ValueError("policy: 'tables' must be an object")
        out: dict[str, dict[str, float]] = {}
        for key, table in tables.items():
            parts = key.split("|")
            if len(parts) < 3 or parts[1] not in KIND_ACTIONS or not isinstance(table, dict):
                raise ValueError(f"policy: bad entry {key!r}")
            for a, p in table.items():
                if a not in KIND_ACTIONS[parts[1]] or not isinstance(p, (int, float)) or p < 0:
                    raise ValueError(f"policy: bad probability {a!r} in {key!r}")
            out[key] = {a: float(p) for a, p in table.items()}
        return cls(out, int(data.get("iterations", 0)), int(data.get("seed", 0)))

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def load_data_json(name: str, path: Path | None = None) -> Any:
    """The JSON of the shipped ``toepen/bots/data/NAME``, or of ``path`` if given."""
    if path is None:
        text = resources.files("toepen.bots").joinpath(f"data/{name}").read_text(
            encoding="utf-8"
        )
    else:
        text = Path(path).read_text(encoding="utf-8")
    return json.loads(text)


def load_policy(path: Path | None = None) -> Policy:
    """The shipped policy (``toepen/bots/data/expert_policy.json``) or one from ``path``."""
    return Policy.from_json(load_data_json("expert_policy.json", path))


# -- self-play --------------------------------------------------------------------------------


def _mode(rules: Rules) -> str:
    return "W" if rules.last_trick == "wins" else "L"


def _gone(game: Game) -> int:
    gone = 0
    for _, c, _ in game.plays:
        gone |= 1 << c
    return gone


def _quick_card(game: Game, seat: int, legal: Sequence[Action]) -> Action:
    """A fast card-play rule for training rollouts (duck under ``loses``, hoard under ``wins``)."""
    cards = [a for a in legal if a < 32]
    trick = game.trick
    wins = game.rules.last_trick == "wins"
    last = game.hands[seat].bit_count() == 1
    if last or len(cards) == 1:
        return cards[0]
    if wins:
        # Keep the high cards for the last trick: play the lowest card (highest id rank).
        return max(cards, key=lambda c: (c & 7, c))
    if not trick:
        return max(cards, key=lambda c: (c & 7, c))  # lead low
    led = game.led
    following = [c for c in cards if c >> 3 == led]
    if following:
        best = min(c for _, c in trick if c >> 3 == led) if any(
            c >> 3 == led for _, c in trick) else 99
        ducks = [c for c in following if c > best]
        if ducks:
            return min(ducks)  # the highest card that still loses the trick
        return min(following)  # must win: win with the highest
    return min(cards, key=lambda c: (c & 7, c))  # discard the highest card


@dataclass
class _Regrets:
    regret: dict[str, list[float]] = field(default_factory=dict)
    total: dict[str, list[float]] = field(default_factory=dict)

    def strategy(self, key: str, n: int) -> list[float]:
        r = self.regret.get(key)
        if r is None:
            return [1.0 / n] * n
        pos = [max(0.0, x) for x in r]
        s = sum(pos)
        return [x / s for x in pos] if s > 0 else [1.0 / n] * n


def _abstract(game: Game, seat: int, legal: Sequence[Action]) -> tuple[str, str, list[str]] | None:
    """(key, kind, legal abstract actions) of a policy decision, None for other decisions."""
    phase = game.phase
    mode = _mode(game.rules)
    hand = game.hands[seat]
    if phase is Phase.PLAY and KNOCK in legal:
        kind, acts = "knock", ["knock", "play"]
    elif phase is Phase.ANSWER:
        kind = "answer"
        acts = [a for a in ("stay", "fold", "knock") if _ACTION_OF[a] in legal]
    elif phase is Phase.CLAIM:
        kind, acts = "claim", ["claim", "pass"]
    else:
        return None
    tricks = sum(1 for s, _, _ in game.plays if s == seat)
    key = decision_key(mode, kind, tricks, game.stake, hand, _gone(game))
    return key, kind, acts


def _concrete(game: Game, seat: int, legal: Sequence[Action], act: str) -> Action:
    if act == "play":
        return _quick_card(game, seat, legal)
    return _ACTION_OF[act]


def _policy_action(
    game: Game, seat: int, reg: _Regrets, rng: random.Random
) -> Action:
    legal = game.legal_actions()
    ab = _abstract(game, seat, legal)
    if ab is not None:
        key, _, acts = ab
        strat = reg.strategy(key, len(KIND_ACTIONS[key.split("|")[1]]))
        kind_acts = KIND_ACTIONS[key.split("|")[1]]
        ps = [strat[kind_acts.index(a)] for a in acts]
        total = sum(ps)
        x = rng.random() * total
        for a, p in zip(acts, ps, strict=True):
            x -= p
            if x <= 0:
                return _concrete(game, seat, legal, a)
        return _concrete(game, seat, legal, acts[-1])
    phase = game.phase
    if phase is Phase.PLAY:
        return _quick_card(game, seat, legal)
    if phase is Phase.CLAIM_CHALLENGE or phase is Phase.EXCHANGE_CHALLENGE:
        return CHALLENGE if rng.random() < 0.1 else PASS
    if phase is Phase.EXCHANGE:
        weak = strength(game.hands[seat], 0, True) < 0.35
        return EXCHANGE if weak else PASS
    return legal[0]


def _rollout(game: Game, reg: _Regrets, rng: random.Random, hand_no: int) -> None:
    while game.hand_no == hand_no and not game.is_over and game.turn >= 0:
        seat = game.turn
        game.apply(seat, _policy_action(game, seat, reg, rng))


def train(
    iterations: int = 6000,
    seed: int = 0,
    *,
    presets: Sequence[str] = ("rulebook", "classic"),
    players: Sequence[int] = (3, 4, 5, 6),
    progress: Callable[[int], None] | None = None,
) -> Policy:
    """Self-play regret matching over the abstraction; ``iterations`` hands in all.

    Each iteration deals a hand of a preset and table size (cycled), plays it by the
    current strategy and updates every policy decision met on the way from rollouts
    of each of its actions. ``progress`` is called with 1 after each hand.
    """
    if iterations < 1:
        raise ValueError(f"iterations: must be >= 1, not {iterations}")
    rng = random.Random(seed)
    reg = _Regrets()
    rule_sets = [Rules.preset(p) for p in presets]
    for it in range(iterations):
        rules = rule_sets[it % len(rule_sets)]
        n = players[(it // len(rule_sets)) % len(players)]
        lives = rng.choice((2, 3, 5, 10))
        game = Game.new(rules.replace(lives=lives), n, seed=rng.getrandbits(48),
                        dealer=rng.randrange(n))
        hand_no = game.hand_no
        while game.hand_no == hand_no and not game.is_over and game.turn >= 0:
            seat = game.turn
            legal = game.legal_actions()
            ab = _abstract(game, seat, legal)
            if ab is not None and len(ab[2]) > 1:
                key, kind, acts = ab
                kind_acts = KIND_ACTIONS[kind]
                strat = reg.strategy(key, len(kind_acts))
                values: dict[str, float] = {}
                for a in acts:
                    g = game.clone()
                    before = g.lives_lost[seat]
                    g.apply(seat, _concrete(g, seat, legal, a))
                    _rollout(g, reg, rng, hand_no)
                    values[a] = -(g.lives_lost[seat] - before)
                ps = [strat[kind_acts.index(a)] for a in acts]
                norm = sum(ps) or 1.0
                mix = sum(p / norm * values[a] for p, a in zip(ps, acts, strict=True))
                r = reg.regret.setdefault(key, [0.0] * len(kind_acts))
                t = reg.total.setdefault(key, [0.0] * len(kind_acts))
                for a in acts:
                    i = kind_acts.index(a)
                    r[i] = max(0.0, r[i] + values[a] - mix)  # regret matching+
                for i, p in enumerate(strat):
                    t[i] += p * (it + 1)  # linear averaging
            game.apply(seat, _policy_action(game, seat, reg, rng))
        if progress is not None:
            progress(1)
    tables: dict[str, dict[str, float]] = {}
    for key, t in reg.total.items():
        s = sum(t)
        kind_acts = KIND_ACTIONS[key.split("|")[1]]
        if s > 0:
            tables[key] = {a: t[i] / s for i, a in enumerate(kind_acts)}
    return Policy(tables, iterations, seed)


