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

The table ships as ``toepen/bots/data/expert_reads.json`` and is rebuilt by
``toepen train reads``.

>>> r = measure(hands=2, seed=1, presets=("rulebook",), jobs=1)
>>> r.hands, all(len(v) == 2 for v in r.counts.values())
(2, True)
>>> 0.0 < r.ratio("L", "knock", 1, "knock") <= RATIO_MAX
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.actions import FOLD, KNOCK, STAY, Action
from ..engine.state import Game
from ..rules import Rules
from ..view import View, observe
from .base import hand_over, make_bot
from .pimc import next_to_play, side_of
from .solver import Solver
from .train import load_data_json

__all__ = ["FORMAT", "Reads", "load_reads", "measure", "read_key", "RATIO_MIN", "RATIO_MAX"]

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
MAX_NODES = 50_000
"""Node budget of one truth solve while measuring (a solve over it is not counted)."""


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
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} document")
        counts = data.get("counts")
        if not isinstance(counts, dict):
            raise ValueError("reads: 'counts' must be an object")
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
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def load_reads(path: Path | None = None) -> Reads:
    """The shipped table (``toepen/bots/data/expert_reads.json``) or one from ``path``."""
    return Reads.from_json(load_data_json("expert_reads.json", path))


# -- measuring ---------------------------------------------------------------------------------


def _decision(view: View, act: Action) -> tuple[str, str] | None:
    """(kind, action name) of a decision about the stake, None for any other."""
    if view.phase == "answer":
        name = "knock" if act is KNOCK else "stay" if act is STAY else "fold" if act is FOLD \
            else None
        return None if name is None else ("answer", name)
    if view.phase == "play" and KNOCK in view.legal:
        return "knock", "knock" if act is KNOCK else "play"
    return None


def _measure_hand(args: tuple[str, int, int, str, int]) -> dict[str, list[int]]:
    preset, players, seed, bot, index = args
    rules = Rules.preset(preset)
    mode = "W" if rules.last_trick == "wins" else "L"
    game = Game(rules, players, seed=seed, dealer=index % players)
    bots = [make_bot(bot, seed=seed * 31 + s) for s in range(players)]
    stop = hand_over(game)
    counts: dict[str, list[int]] = {}
    while game.turn >= 0 and not stop(game):
        seat = game.turn
        view = observe(game, seat)
        act = bots[seat].act(view)
        what = _decision(view, act)
        if what is not None:
            hands = [h if view.active[t] else 0 for t, h in enumerate(game.hands)]
            leader, trick = next_to_play(view)
            led = view.led_suit if (view.trick or view.led_suit >= 0) else -1
            solver = Solver(players, side_of(view, seat), mode == "W", MAX_NODES)
            reached = solver.try_solve(hands, leader, trick, led)
            if reached is not None:
                counts.setdefault(read_key(mode, what[0], view.stake, what[1]), [0, 0])[
                    int(reached)] += 1
        game.apply(seat, act)
    return counts


def measure(
    hands: int = 400,
    seed: int = 0,
    presets: Sequence[str] = ("rulebook", "classic"),
    players: int = 4,
    bot: str = "pimc",
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Reads:
    """Play ``hands`` self-play hands of ``bot`` per preset and count its stake decisions.

    Deterministic for given arguments (whatever ``jobs``): each hand has its own seed.
    """
    tasks = [(p, players, (seed * 1_000_003 + i * 7_919 + k * 104_729) & 0x7FFF_FFFF, bot, i)
             for k, p in enumerate(presets) for i in range(hands)]
    total = Reads(hands=0, seed=seed, bot=bot)
    workers = max(1, jobs if jobs is not None else (os.cpu_count() or 1))

    def add(counts: dict[str, list[int]]) -> None:
        total.add(Reads(counts, hands=1))
        if progress is not None:
            progress(1)

    if workers == 1:
        for t in tasks:
            add(_measure_hand(t))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for counts in pool.map(_measure_hand, tasks, chunksize=4):
                add(counts)
    return total
