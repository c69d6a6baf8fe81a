"""How search players bet given their true position: ``expert``'s reading table.

A player who knocks, counter-knocks, stays or folds tells something about its cards.
``pimc``'s threshold model reads that through a cheap hand score; the reading table
reads it through the exact solve instead. It is measured offline in self-play of a
search bot (``pimc`` by default): at every decision about the stake, the card-play
solve of the *true* position from the deciding player's side says whether that
player reaches its goal whatever the others do (under ``last_trick: loses``: it
does not take the last trick; under ``wins``: it does). Counting the actions by
that outcome gives, per context (settlement mode, kind of decision, stake):

    ratio = P(action | goal not reached) / P(action | goal reached)

with add-one smoothing, clipped to ``[RATIO_MIN, RATIO_MAX]``. ``expert`` weights a
sampled deal by the ratio of each observed decision whose player, solved from its own
side in that deal, misses its goal. In the shipped table (``rulebook``) a first knock
came with a safe position in 491 of 492 cases and a counter-knock at stake 2 in 162
of 165, so by the table alone a deal in which the knocker is not safe is worth about
a twentieth of one in which it is (``expert`` also allows for bluffs).

The table ships as ``toepen/bots/data/expert_reads.json``; :mod:`toepen.tools.reads`
measures it (``toepen train reads``).

>>> r = load_reads()
>>> 0.0 < r.ratio("L", "knock", 1, "knock") <= RATIO_MAX
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .datafile import entries, load_data_json, save_json

__all__ = ["FORMAT", "KINDS", "Reads", "load_reads", "read_key", "RATIO_MIN", "RATIO_MAX"]

FORMAT = "toepen-expert-reads/1"
KINDS: dict[str, tuple[str, ...]] = {
    "knock": ("knock", "play"),
    "answer": ("stay", "fold", "knock"),
}
"""Kinds of decision read and their actions (``knock``: knock or play on, before a card)."""
MAX_STAKE_KEY = 4
"""Stakes of 4 and more share one context."""
RATIO_MIN = 0.05
RATIO_MAX = 5.0


def read_key(mode: str, kind: str, stake: int, action: str) -> str:
    """The table key of one decision: ``MODE|KIND|STAKE|ACTION``.

    ``stake`` is the stake the player faced (before its own knock).

    >>> read_key("L", "answer", 7, "knock")
    'L|answer|4|knock'
    """
    return f"{mode}|{kind}|{min(max(stake, 1), MAX_STAKE_KEY)}|{action}"


@dataclass
class Reads:
    """Counts of actions by context and solved outcome, and the ratios read from them."""

    counts: dict[str, list[int]] = field(default_factory=dict)
    """``read_key`` -> ``[times with the goal missed, times with the goal reached]``."""
    hands: int = 0
    seed: int = 0
    bot: str = "pimc"
    _ratios: dict[str, float] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._ratios = self._compute()

    def _compute(self) -> dict[str, float]:
        contexts: dict[str, list[str]] = {}
        for key in self.counts:
            contexts.setdefault(key.rsplit("|", 1)[0], []).append(key)
        out: dict[str, float] = {}
        for keys in contexts.values():
            n_miss = sum(self.counts[k][0] for k in keys)
            n_hit = sum(self.counts[k][1] for k in keys)
            m = len(keys)
            for k in keys:
                miss, hit = self.counts[k]
                ratio = ((miss + 1) / (n_miss + m)) / ((hit + 1) / (n_hit + m))
                out[k] = min(RATIO_MAX, max(RATIO_MIN, ratio))
        return out

    def ratio(self, mode: str, kind: str, stake: int, action: str) -> float:
        """P(action | goal missed) / P(action | goal reached); 1.0 for a context never seen."""
        return self._ratios.get(read_key(mode, kind, stake, action), 1.0)

    def add(self, other: Reads) -> None:
        """Add ``other``'s counts to these."""
        for k, (a, b) in other.counts.items():
            mine = self.counts.setdefault(k, [0, 0])
            mine[0] += a
            mine[1] += b
        self.hands += other.hands
        self._ratios = self._compute()

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "bot": self.bot,
            "hands": self.hands,
            "seed": self.seed,
            "counts": {k: list(v) for k, v in sorted(self.counts.items())},
            "ratios": {k: round(v, 4) for k, v in sorted(self._ratios.items())},
        }

    @classmethod
    def from_json(cls, data: Any) -> Reads:
        """A table from its JSON form (ValueError naming what is wrong)."""
        counts = entries(data, FORMAT, "counts", "reads")
        out: dict[str, list[int]] = {}
        for key, pair in counts.items():
            parts = str(key).split("|")
            if (len(parts) != 4 or parts[0] not in ("L", "W") or parts[1] not in KINDS
                    or parts[3] not in KINDS[parts[1]] or not parts[2].isdigit()):
                raise ValueError(f"reads: bad key {key!r}")
            if (not isinstance(pair, list) or len(pair) != 2
                    or not all(isinstance(x, int) and x >= 0 for x in pair)):
                raise ValueError(f"reads: {key!r} needs two counts >= 0")
            out[key] = [pair[0], pair[1]]
        return cls(out, int(data.get("hands", 0)), int(data.get("seed", 0)),
                   str(data.get("bot", "pimc")))

    def save(self, path: Path) -> None:
        save_json(self.to_json(), path)


def load_reads(path: Path | None = None) -> Reads:
    """The shipped table (``toepen/bots/data/expert_reads.json``) or one from ``path``."""
    return Reads.from_json(load_data_json("expert_reads.json", path))
