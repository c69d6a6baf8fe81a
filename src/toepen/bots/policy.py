"""``expert``'s knock, answer and claim policy: the table and its abstraction.

The policy is a table over an abstraction of the decision:

* the settlement mode (``L``: last trick loses, ``W``: wins),
* the kind of decision (``knock`` before playing a card, ``answer`` to a knock,
  ``claim`` armoede),
* the tricks already played (0..3) and the stake (1, 2, 3+),
* the hand's strength bucket (:func:`bucket` of :func:`toepen.bots.knowledge.strength`,
  a public-information score of the cards held, so the same key can be computed
  for an opponent's *sampled* hand when inferring from its actions).

It ships as ``toepen/bots/data/expert_policy.json``; :mod:`toepen.tools.train` trains
it by self-play (``toepen train expert``).

>>> p = load_policy()
>>> 0.0 <= p.prob("L|answer|0|2|0", "fold") <= 1.0
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cards import HIGH_CARDS_MASK
from .datafile import entries, load_data_json, save_json
from .knowledge import strength

__all__ = [
    "FORMAT",
    "CUTS",
    "Policy",
    "bucket",
    "decision_key",
    "key_of",
    "load_policy",
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


def decision_key(mode: str, kind: str, tricks: int, stake: int, hand: int, gone: int,
                 st: float | None = None) -> str:
    """The abstract information set of a decision (see the module documentation).

    ``st``: ``strength(hand, gone, mode == "W")`` when the caller has it already.

    >>> decision_key("L", "answer", 0, 2, 0b1111, 0)
    'L|answer|0|2|0'
    """
    if st is None:
        st = strength(hand, gone, mode == "W")
    return key_of(mode, kind, tricks, stake, 0 if hand & HIGH_CARDS_MASK else 1, bucket(st))


def key_of(mode: str, kind: str, tricks: int, stake: int, genuine: int, b: int) -> str:
    """:func:`decision_key` from its parts: ``genuine`` (1: no 7, 8, 9 or ten; only a
    claim's key holds it) and the strength bucket ``b``.

    >>> key_of("L", "claim", 0, 1, 1, 2), key_of("W", "knock", 5, 1, 0, 4)
    ('L|claim|1|2', 'W|knock|3|1|4')
    """
    if kind == "claim":
        return f"{mode}|claim|{genuine}|{b}"
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
        tables = entries(data, FORMAT, "tables", "policy")
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
        save_json(self.to_json(), path)


def load_policy(path: Path | None = None) -> Policy:
    """The shipped policy (``toepen/bots/data/expert_policy.json``) or one from ``path``."""
    return Policy.from_json(load_data_json("expert_policy.json", path))
