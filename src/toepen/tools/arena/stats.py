"""What an arena measured: lives lost per hand with bootstrap intervals, sessions, ratings.

Intervals are percentile bootstraps over deals (a deal's value is the mean over the
positions the bot held in it); the difference to the baseline is paired by deal.
Whole sessions give *sessions won* and OpenSkill (Plackett-Luce) ratings from the
finishing order.

>>> iv = bootstrap_mean([1.0, 2.0, 3.0, 4.0], seed=1)
>>> iv.mean, iv.low >= 1.0, iv.high <= 4.0
(2.5, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ...rules import Rules
from .schedule import SessionOutcome, rotate


@dataclass(frozen=True)
class Interval:
    """A mean with a two-sided percentile-bootstrap confidence interval."""

    mean: float
    low: float
    high: float
    n: int

    def excludes_zero(self) -> bool:
        return self.low > 0.0 or self.high < 0.0

    def __str__(self) -> str:
        return f"{self.mean:+.3f} [{self.low:+.3f}, {self.high:+.3f}]"

    def to_json(self) -> dict[str, Any]:
        """The interval as JSON (no NaN: an empty interval has nulls)."""
        return {k: (None if isinstance(v, float) and v != v else v)
                for k, v in asdict(self).items()}


def bootstrap_mean(
    values: Sequence[float] | np.ndarray,
    *,
    level: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> Interval:
    """Mean of ``values`` with a percentile-bootstrap interval (resampling the values).

    Pass per-deal differences for a paired interval.

    >>> iv = bootstrap_mean([1.0, 2.0, 3.0, 4.0], seed=1)
    >>> iv.mean, iv.low >= 1.0, iv.high <= 4.0
    (2.5, True, True)
    """
    data = np.asarray(values, dtype=float)
    n = len(data)
    if n == 0:
        return Interval(float("nan"), float("nan"), float("nan"), 0)
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be between 0 and 1, not {level}")
    mean = float(data.mean())
    if n == 1:
        return Interval(mean, mean, mean, 1)
    rng = np.random.default_rng(seed)
    means = np.empty(resamples)
    block = max(1, min(resamples, 4_000_000 // n))
    for start in range(0, resamples, block):
        stop = min(resamples, start + block)
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = data[idx].mean(axis=1)
    alpha = (1.0 - level) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return Interval(mean, float(low), float(high), n)


@dataclass
class MatchData:
    """What one lineup played: per deal index the lives lost by seat in each rotation,
    per session index the outcome of each rotation."""

    lineup: tuple[str, ...]
    deals: dict[int, list[list[int]]] = field(default_factory=dict)
    sessions: dict[int, list[SessionOutcome]] = field(default_factory=dict)

    def per_deal(self, bot: str) -> dict[int, float]:
        """Deal index -> the bot's mean lives lost over the positions it held."""
        out: dict[int, float] = {}
        n = len(self.lineup)
        for index, rotations in self.deals.items():
            total = 0.0
            count = 0
            for r, lost in enumerate(rotations):
                names = rotate(self.lineup, r)
                for s in range(n):
                    if names[s] == bot:
                        total += lost[s]
                        count += 1
            if count:
                out[index] = total / count
        return out

    def sessions_won(self, bot: str) -> tuple[int, float]:
        """(sessions the bot sat in, sessions it won): a session won by several copies
        of one bot counts once, shared between the winning bots."""
        played = 0
        won = 0.0
        for outcomes in self.sessions.values():
            for r, out in enumerate(outcomes):
                names = rotate(self.lineup, r)
                seats = [s for s, b in enumerate(names) if b == bot]
                if not seats:
                    continue
                played += 1
                if any(s in out.winners for s in seats):
                    won += 1.0 / max(1, len({names[w] for w in out.winners}))
        return played, won


@dataclass
class BotRow:
    """One bot's line of the arena table."""

    name: str
    hands: int
    lives_per_hand: Interval
    diff: Interval | None
    """Paired difference of lives lost per hand to the baseline (negative: better)."""
    sessions: int
    sessions_won: float
    mu: float
    sigma: float
    ordinal: float
    incidents: int

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "bot": self.name,
            "hands": self.hands,
            "lives_per_hand": self.lives_per_hand.to_json(),
            "diff_to_baseline": self.diff.to_json() if self.diff is not None else None,
            "sessions": self.sessions,
            "sessions_won": self.sessions_won,
            "win_rate": self.sessions_won / self.sessions if self.sessions else None,
            "openskill": {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}
            if self.sessions else None,
            "incidents": self.incidents,
        }
        return d


@dataclass
class ArenaResult:
    """Everything an arena run measured."""

    rules: Rules
    players: int
    seed: int
    format: str
    baseline: str | None
    deals: int
    session_seeds: int
    rows: list[BotRow]
    incidents: list[str]
    level: float = 0.95

    def row(self, name: str) -> BotRow:
        for r in self.rows:
            if r.name == name:
                return r
        raise KeyError(name)

    def significant(self) -> bool:
        """True when every candidate's difference to the baseline excludes zero."""
        diffs = [r.diff for r in self.rows if r.diff is not None]
        return bool(diffs) and all(d.excludes_zero() for d in diffs)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "players": self.players,
            "seed": self.seed,
            "format": self.format,
            "baseline": self.baseline,
            "deals": self.deals,
            "session_seeds": self.session_seeds,
            "level": self.level,
            "measure": "lives lost per hand (lower is better)",
            "bots": [r.to_json() for r in self.rows],
            "incidents": self.incidents,
        }


def ratings(
    bots: Sequence[str], matches: Sequence[MatchData]
) -> dict[str, tuple[float, float, float]]:
    """OpenSkill Plackett-Luce (mu, sigma, ordinal) from every session's finishing order.

    Empty when no session had two different bots at the table.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rated = {b: model.rating(name=b) for b in bots}
    any_session = False
    for match in matches:
        for index in sorted(match.sessions):
            for r, out in enumerate(match.sessions[index]):
                names = rotate(match.lineup, r)
                # Copies of one bot: the bot's place is the mean of its seats' places.
                place: dict[str, list[float]] = {}
                for s, b in enumerate(names):
                    place.setdefault(b, []).append(out.places[s])
                if len(place) < 2:
                    continue
                present = list(place)
                ranks = [sum(place[b]) / len(place[b]) for b in present]
                new = model.rate([[rated[b]] for b in present], ranks=ranks)
                for b, team in zip(present, new, strict=True):
                    rated[b] = team[0]
                any_session = True
    if not any_session:
        return {}
    return {b: (float(x.mu), float(x.sigma), float(x.ordinal())) for b, x in rated.items()}


def bot_rows(
    bots: Sequence[str],
    matches: Sequence[MatchData],
    *,
    baseline: str | None,
    incidents: Sequence[str],
    level: float,
    seed: int,
) -> list[BotRow]:
    """A row per bot that sat in some lineup, in the order of ``bots``."""
    rows: list[BotRow] = []
    rated = ratings(bots, matches)
    names = [b for b in bots if any(b in m.lineup for m in matches)]
    for name in names:
        values: dict[tuple[int, int], float] = {}
        diffs: list[float] = []
        hands = 0
        played = 0
        won = 0.0
        for m, match in enumerate(matches):
            if name not in match.lineup:
                continue
            mine = match.per_deal(name)
            hands += len(mine) * len(match.lineup) * match.lineup.count(name)
            for i, v in mine.items():
                values[(m, i)] = v
            if baseline is not None and name != baseline:
                base = match.per_deal(baseline)
                diffs.extend(v - base[i] for i, v in sorted(mine.items()) if i in base)
            p, w = match.sessions_won(name)
            played += p
            won += w
        ordered = [values[k] for k in sorted(values)]
        lph = bootstrap_mean(ordered, level=level, seed=seed)
        diff = (
            bootstrap_mean(diffs, level=level, seed=seed + 1)
            if baseline is not None and name != baseline and diffs else None
        )
        mu, sigma, ordinal = rated.get(name, (25.0, 25.0 / 3, 0.0))
        n_inc = sum(1 for x in incidents if x.startswith(name + " seat"))
        rows.append(BotRow(name, hands, lph, diff, played, won, mu, sigma, ordinal, n_inc))
    return rows
