"""Duplicate tournaments between bots: ``toepen arena`` and :func:`run_match`.

**What is played.** A *deal* is a seed. For each deal, a fresh session (every seat
at full lives, dealer seat 0) is dealt from that seed and **one hand** is played,
once for every rotation of the lineup through the seats, so every bot meets the
same cards from every position and the luck of the deal cancels. The measure is
**lives lost per hand** by each bot: what a bot is for, hand after hand, and the
quantity with the least noise (a whole session is dozens of hands but yields one
winner). Redeals after an armoede claim draw the next decks from the same seed, so
they too are the same in every rotation.

Intervals are percentile bootstraps over deals (a deal's value is the mean over the
positions the bot held in it); the difference to the baseline is paired by deal.
Whole sessions are played as well (each session seed in every rotation) for
*sessions won* and for OpenSkill (Plackett-Luce) ratings from the finishing order.

Two formats: ``mixed`` seats the listed bots together (cycled to fill the table;
with more bots than seats each deal takes the next window of the list), ``versus``
seats one candidate against copies of the baseline, each candidate in its own match:
the headline format for strength.

>>> from toepen.rules import Rules
>>> r = run_match("random", "random", Rules.preset("rulebook"), players=3, deals=4, seed=1,
...               sessions=0, jobs=1)
>>> [row.name for row in r.rows], r.deals
(['random'], 4)
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...bots.base import Bot, close_bot, hand_over, make_bot, play_game
from ...engine.state import Game
from ...rules import Rules

MAX_SESSION_HANDS = 400
"""A session still running after this many hands is scored by its lives (unfinished)."""

# -- seeds ------------------------------------------------------------------------------


def deal_seed(seed: int, index: int) -> int:
    """The game seed of deal ``index`` of a match seeded ``seed`` (stable across runs)."""
    return (seed * 1_000_003 + index * 7_919 + 17) & 0x7FFF_FFFF_FFFF


def session_seed(seed: int, index: int) -> int:
    """The game seed of session ``index``."""
    return (seed * 999_983 + index * 104_729 + 0x5E55) & 0x7FFF_FFFF_FFFF


def bot_seed(seed: int, kind: str, index: int, rotation: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in a given game: one stream per game and seat."""
    k = 1 if kind == "session" else 0
    return (((seed * 131 + k) * 1_000_003 + index) * 67 + rotation) * 13 + seat


def rotate(lineup: Sequence[str], rotation: int) -> list[str]:
    """The bot name at each seat for one rotation: seat ``s`` gets ``lineup[(s + r) % n]``.

    >>> rotate(["a", "b", "b"], 1)
    ['b', 'b', 'a']
    """
    n = len(lineup)
    return [lineup[(s + rotation) % n] for s in range(n)]


# -- statistics -------------------------------------------------------------------------


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


# -- playing ----------------------------------------------------------------------------


def play_hand(
    rules: Rules,
    seats: Sequence[Bot],
    seed: int,
    bot_seeds: Sequence[int] | None = None,
) -> list[int]:
    """Deal a fresh session from ``seed`` (dealer 0), play one hand: lives lost by seat."""
    game = Game(rules, len(seats), seed=seed, dealer=0)
    play_game(game, seats, stop=hand_over(game), seeds=bot_seeds)
    return list(game.lives_lost)


@dataclass(frozen=True)
class SessionOutcome:
    """How a whole session ended: the winning seats and every seat's place (1 = best)."""

    winners: tuple[int, ...]
    places: tuple[float, ...]
    hands: int
    finished: bool


def play_session(
    rules: Rules,
    seats: Sequence[Bot],
    seed: int,
    bot_seeds: Sequence[int] | None = None,
    max_hands: int = MAX_SESSION_HANDS,
) -> SessionOutcome:
    """Play a whole session from ``seed`` (dealer 0); the finishing order.

    Elimination sessions rank by the order of elimination (the winner first);
    rubber sessions by fewest rounds of drinks, then most rubbers won. Partners in
    teams share their place. A session past ``max_hands`` is ranked by lives.
    """
    game = Game(rules, len(seats), seed=seed, dealer=0)
    limit = max_hands
    play_game(game, seats, stop=lambda g: g.hand_no > limit, seeds=bot_seeds)
    n = game.n
    team = game.team_of
    if game.is_over and rules.session == "elimination":
        assert game.winner is not None
        order = [game.winner]
        for s in reversed(game.eliminated):
            if s not in order:
                order.append(s)
        key = {s: i for i, s in enumerate(order)}
        # Partners share the better place of their pair.
        score = [float(min(key.get(t, n) for t in range(n) if team[t] == team[s]))
                 for s in range(n)]
    elif game.is_over:
        score = [float(game.drinks[s] * 1000 - game.rubbers_won[s]) for s in range(n)]
    else:
        lives = game.lives_by_seat()
        score = [float(-lives[s]) for s in range(n)]
    places = _places(score)
    best = min(places)
    winners = tuple(s for s in range(n) if places[s] == best)
    return SessionOutcome(winners, tuple(places), game.hand_no, game.is_over)


def _places(score: Sequence[float]) -> list[float]:
    """1-based places from scores (lower is better); ties share the best place."""
    return [1.0 + sum(1 for t in score if t < x) for x in score]


# -- the match machinery ----------------------------------------------------------------


@dataclass(frozen=True)
class _Task:
    match: int
    kind: str  # "deal" or "session"
    lineup: tuple[str, ...]
    indices: tuple[int, ...]
    rules: Any
    seed: int
    time_budget: float | None
    timeout: float | None


@dataclass
class _TaskResult:
    match: int
    kind: str
    lineup: tuple[str, ...]
    data: dict[int, Any]
    incidents: list[str]


def _run_task(task: _Task) -> _TaskResult:
    """Worker: play the games of one task (all rotations of each index)."""
    rules = Rules.from_json(task.rules)
    n = len(task.lineup)
    cache: dict[tuple[str, int], Bot] = {}
    incidents: list[str] = []

    def seat_bots(names: list[str], index: int, rotation: int) -> tuple[list[Bot], list[int]]:
        bots: list[Bot] = []
        seeds = [bot_seed(task.seed, task.kind, index, rotation, s) for s in range(n)]
        for s, name in enumerate(names):
            if name.startswith("cmd:"):
                bot = cache.get((name, s))
                if bot is None:  # one process per seat, reused across games
                    bot = cache[(name, s)] = make_bot(
                        name, seed=seeds[s], time_budget=task.time_budget, timeout=task.timeout)
                bots.append(bot)
            else:
                bots.append(make_bot(name, seed=seeds[s], time_budget=task.time_budget))
        return bots, seeds

    data: dict[int, Any] = {}
    try:
        for index in task.indices:
            per_rotation: list[Any] = []
            for r in range(n):
                names = rotate(task.lineup, r)
                bots, seeds = seat_bots(names, index, r)
                if task.kind == "deal":
                    per_rotation.append(play_hand(rules, bots, deal_seed(task.seed, index), seeds))
                else:
                    per_rotation.append(
                        play_session(rules, bots, session_seed(task.seed, index), seeds))
            data[index] = per_rotation
    finally:
        for (name, seat), bot in cache.items():
            for inc in getattr(bot, "incidents", []):
                incidents.append(f"{name} seat {seat}: {inc}")
            close_bot(bot)
    return _TaskResult(task.match, task.kind, task.lineup, data, incidents)


@dataclass
class _Match:
    """One lineup played over deals and sessions."""

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


def _interval_json(iv: Interval) -> dict[str, Any]:
    """An interval as JSON (no NaN: an empty interval has nulls)."""
    return {k: (None if isinstance(v, float) and v != v else v) for k, v in asdict(iv).items()}


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
            "lives_per_hand": _interval_json(self.lives_per_hand),
            "diff_to_baseline": _interval_json(self.diff) if self.diff is not None else None,
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

    def to_csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow([
            "bot", "hands", "lives_per_hand", "lph_low", "lph_high", "diff", "diff_low",
            "diff_high", "sessions", "sessions_won", "mu", "sigma", "ordinal", "incidents",
        ])
        for r in self.rows:
            d = r.diff
            w.writerow([
                r.name, r.hands, f"{r.lives_per_hand.mean:.6f}", f"{r.lives_per_hand.low:.6f}",
                f"{r.lives_per_hand.high:.6f}",
                *(["", "", ""] if d is None else
                  [f"{d.mean:.6f}", f"{d.low:.6f}", f"{d.high:.6f}"]),
                r.sessions, r.sessions_won, f"{r.mu:.4f}", f"{r.sigma:.4f}", f"{r.ordinal:.4f}",
                r.incidents,
            ])
        return out.getvalue()


ProgressFn = Callable[[str, int, int], None]
"""``progress(kind, done, total)``: called as games finish; ``kind`` is ``deal`` or
``session``; the counts are cumulative over batches."""


class Arena:
    """A duplicate tournament: lineups, deals and sessions, played on all cores."""

    def __init__(
        self,
        bots: Sequence[str],
        rules: Rules,
        players: int,
        *,
        seed: int = 0,
        baseline: str | None = None,
        format: str = "mixed",
        jobs: int | None = None,
        time_budget: float | None = None,
        timeout: float | None = None,
        level: float = 0.95,
    ) -> None:
        if not bots:
            raise ValueError("bots: name at least one bot")
        rules.check_table(players)
        if format not in ("mixed", "versus"):
            raise ValueError(f"format: must be mixed or versus, not {format!r}")
        self.bots = list(dict.fromkeys(bots))
        if baseline is not None and baseline not in self.bots:
            self.bots.append(baseline)
        if format == "versus":
            if baseline is None:
                raise ValueError("format versus needs a baseline")
            if len(self.bots) < 2 and self.bots != [baseline]:
                raise ValueError("format versus needs a candidate besides the baseline")
        self.rules = rules
        self.players = players
        self.seed = seed
        self.baseline = baseline
        self.format = format
        self.jobs = max(1, jobs if jobs is not None else (os.cpu_count() or 1))
        self.time_budget = time_budget
        self.timeout = timeout
        self.level = level
        self.incidents: list[str] = []
        self.matches: list[_Match] = []
        if format == "versus":
            assert baseline is not None
            candidates = [b for b in self.bots if b != baseline] or [baseline]
            for cand in candidates:
                self.matches.append(_Match((cand, *([baseline] * (players - 1)))))
        else:
            k = len(self.bots)
            if k <= players:
                self.matches.append(_Match(tuple(self.bots[i % k] for i in range(players))))
            else:  # more bots than seats: each window of the list is its own match
                for w in range(k):
                    self.matches.append(
                        _Match(tuple(self.bots[(w + i) % k] for i in range(players))))
        self.deals_played = 0
        self.session_seeds = 0

    # -- running ------------------------------------------------------------------------

    def play(self, deals: int, sessions: int = 0, progress: ProgressFn | None = None) -> None:
        """Play ``deals`` more deals (indices after those played) and ``sessions`` more."""
        tasks: list[_Task] = []
        rules_json = self.rules.to_json()
        n_matches = len(self.matches)
        deal_idx = list(range(self.deals_played, self.deals_played + deals))
        sess_idx = list(range(self.session_seeds, self.session_seeds + sessions))
        # With more bots than seats, deals are spread over the windows (each deal once).
        for kind, indices in (("deal", deal_idx), ("session", sess_idx)):
            for m, match in enumerate(self.matches):
                mine = indices if self.format == "versus" or n_matches == 1 else [
                    i for i in indices if i % n_matches == m]
                chunk = max(1, min(25, len(mine) // (self.jobs * 4) or 1))
                for start in range(0, len(mine), chunk):
                    tasks.append(_Task(m, kind, match.lineup, tuple(mine[start:start + chunk]),
                                       rules_json, self.seed, self.time_budget, self.timeout))
        # Progress counts a deal (or session seed) once per lineup that plays it, all
        # rotations included, cumulative over calls so that batches continue one bar.
        per = n_matches if self.format == "versus" else 1
        size = {k: sum(len(t.indices) for t in tasks if t.kind == k) for k in ("deal", "session")}
        done = {"deal": self.deals_played * per, "session": self.session_seeds * per}
        total = {k: done[k] + size[k] for k in size}

        def collect(res: _TaskResult) -> None:
            match = self.matches[res.match]
            target = match.deals if res.kind == "deal" else match.sessions
            target.update(res.data)
            self.incidents.extend(res.incidents)
            done[res.kind] += len(res.data)
            if progress is not None:
                progress(res.kind, done[res.kind], total[res.kind])

        if self.jobs == 1 or len(tasks) <= 1:
            for t in tasks:
                collect(_run_task(t))
        else:
            pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(tasks)))
            try:
                futures = [pool.submit(_run_task, t) for t in tasks]
                for fut in as_completed(futures):
                    collect(fut.result())
            except BaseException:  # an error or Ctrl-C: drop the games not yet started
                pool.shutdown(wait=False, cancel_futures=True)
                raise
            pool.shutdown()
        self.deals_played += deals
        self.session_seeds += sessions

    # -- results ------------------------------------------------------------------------

    def result(self) -> ArenaResult:
        """The table so far."""
        rows: list[BotRow] = []
        ratings = self._ratings()
        names = [b for b in self.bots if any(b in m.lineup for m in self.matches)]
        for name in names:
            values: dict[tuple[int, int], float] = {}
            diffs: list[float] = []
            hands = 0
            for m, match in enumerate(self.matches):
                if name not in match.lineup:
                    continue
                mine = match.per_deal(name)
                hands += len(mine) * len(match.lineup) * match.lineup.count(name)
                for i, v in mine.items():
                    values[(m, i)] = v
                if self.baseline is not None and name != self.baseline:
                    base = match.per_deal(self.baseline)
                    diffs.extend(v - base[i] for i, v in sorted(mine.items()) if i in base)
            ordered = [values[k] for k in sorted(values)]
            lph = bootstrap_mean(ordered, level=self.level, seed=self.seed)
            diff = (
                bootstrap_mean(diffs, level=self.level, seed=self.seed + 1)
                if self.baseline is not None and name != self.baseline and diffs else None
            )
            played = 0
            won = 0.0
            for match in self.matches:
                for outcomes in match.sessions.values():
                    for r, out in enumerate(outcomes):
                        seats = [s for s, b in enumerate(rotate(match.lineup, r)) if b == name]
                        if not seats:
                            continue
                        played += 1
                        # A session won by several copies of one bot counts once.
                        if any(s in out.winners for s in seats):
                            won += 1.0 / max(1, len({rotate(match.lineup, r)[w]
                                                     for w in out.winners}))
            mu, sigma, ordinal = ratings.get(name, (25.0, 25.0 / 3, 0.0))
            n_inc = sum(1 for x in self.incidents if x.startswith(name + " seat"))
            rows.append(BotRow(name, hands, lph, diff, played, won, mu, sigma, ordinal, n_inc))
        return ArenaResult(self.rules, self.players, self.seed, self.format, self.baseline,
                           self.deals_played, self.session_seeds, rows, list(self.incidents),
                           self.level)

    def _ratings(self) -> dict[str, tuple[float, float, float]]:
        """OpenSkill Plackett-Luce ratings from every session's finishing order."""
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        ratings = {b: model.rating(name=b) for b in self.bots}
        any_session = False
        for match in self.matches:
            for index in sorted(match.sessions):
                for r, out in enumerate(match.sessions[index]):
                    names = rotate(match.lineup, r)
                    # Copies of one bot: the bot's place is the mean of its seats' places.
                    place: dict[str, list[float]] = {}
                    for s, b in enumerate(names):
                        place.setdefault(b, []).append(out.places[s])
                    if len(place) < 2:
                        continue
                    bots = list(place)
                    ranks = [sum(place[b]) / len(place[b]) for b in bots]
                    new = model.rate([[ratings[b]] for b in bots], ranks=ranks)
                    for b, team in zip(bots, new, strict=True):
                        ratings[b] = team[0]
                    any_session = True
        if not any_session:
            return {}
        return {b: (float(x.mu), float(x.sigma), float(x.ordinal())) for b, x in ratings.items()}


def run_arena(
    bots: Sequence[str],
    rules: Rules,
    players: int,
    deals: int,
    *,
    seed: int = 0,
    baseline: str | None = None,
    format: str = "mixed",
    sessions: int = 0,
    jobs: int | None = None,
    time_budget: float | None = None,
    timeout: float | None = None,
    until_significant: bool = False,
    max_deals: int | None = None,
    progress: ProgressFn | None = None,
    level: float = 0.95,
) -> ArenaResult:
    """Play a duplicate tournament and return its table.

    ``until_significant`` keeps adding batches of ``deals`` deals until every
    candidate's difference to the baseline excludes zero, or ``max_deals`` (default
    ten batches) have been played.
    """
    if deals < 1:
        raise ValueError(f"deals: must be at least 1, not {deals}")
    if sessions < 0:
        raise ValueError(f"sessions: must be 0 or more, not {sessions}")
    if until_significant and baseline is None:
        raise ValueError("until_significant needs a baseline to compare with")
    arena = Arena(bots, rules, players, seed=seed, baseline=baseline, format=format,
                  jobs=jobs, time_budget=time_budget, timeout=timeout, level=level)
    arena.play(deals, sessions, progress)
    if until_significant:
        limit = max_deals if max_deals is not None else 10 * deals
        while not arena.result().significant() and arena.deals_played < limit:
            arena.play(min(deals, limit - arena.deals_played), 0, progress)
    return arena.result()


def run_match(
    candidate: str,
    baseline: str,
    rules: Rules,
    players: int = 4,
    deals: int = 200,
    *,
    seed: int = 0,
    sessions: int = 0,
    jobs: int | None = None,
    time_budget: float | None = None,
    timeout: float | None = None,
    until_significant: bool = False,
    max_deals: int | None = None,
    progress: ProgressFn | None = None,
) -> ArenaResult:
    """``candidate`` in one seat against copies of ``baseline``, rotated through every seat.

    The strength measure: ``result.row(candidate).diff`` is the candidate's lives lost
    per hand minus the baseline's, paired by deal, with its 95% interval (negative:
    the candidate loses fewer lives).
    """
    return run_arena([candidate, baseline], rules, players, deals, seed=seed,
                     baseline=baseline, format="versus", sessions=sessions, jobs=jobs,
                     time_budget=time_budget, timeout=timeout,
                     until_significant=until_significant, max_deals=max_deals,
                     progress=progress)


# -- output -----------------------------------------------------------------------------


def write_json(result: ArenaResult, path: Path | None) -> str:
    """The result as JSON text, also written to ``path`` if given."""
    text = json.dumps(result.to_json(), indent=2)
    if path is not None:
        path.write_text(text + "\n", encoding="utf-8")
    return text


def _label(name: str, width: int = 24) -> str:
    """A bot name short enough for an axis (long commands keep their end).

    >>> _label("cmd:python examples/bots/random_bot.py")
    'cmd:…/bots/random_bot.py'
    """
    if len(name) <= width:
        return name
    head = name[:4] if name.startswith("cmd:") else ""
    return head + "…" + name[-(width - len(head) - 1):]


def plot(result: ArenaResult, path: Path) -> None:
    """A PNG of the intervals: lives lost per hand, and the difference to the baseline."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result.rows
    with_diff = [r for r in rows if r.diff is not None]
    panels = 2 if with_diff else 1
    fig, axes = plt.subplots(1, panels, figsize=(5.5 * panels, 0.6 * len(rows) + 1.8),
                             squeeze=False)
    ax = axes[0][0]
    ys = list(range(len(rows)))
    means = [r.lives_per_hand.mean for r in rows]
    err = [[r.lives_per_hand.mean - r.lives_per_hand.low for r in rows],
           [r.lives_per_hand.high - r.lives_per_hand.mean for r in rows]]
    ax.errorbar(means, ys, xerr=err, fmt="o", capsize=4)
    ax.set_yticks(ys, [_label(r.name) for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel("lives lost per hand (lower is better)")
    ax.set_title(f"{result.rules.name}, {result.players} players, {result.deals} deals")
    if with_diff:
        ax2 = axes[0][1]
        ys2 = list(range(len(with_diff)))
        d = [r.diff for r in with_diff]
        ax2.errorbar([x.mean for x in d if x], ys2,
                     xerr=[[x.mean - x.low for x in d if x], [x.high - x.mean for x in d if x]],
                     fmt="o", capsize=4, color="tab:red")
        ax2.axvline(0.0, color="grey", lw=1)
        ax2.set_yticks(ys2, [_label(r.name) for r in with_diff])
        ax2.invert_yaxis()
        ax2.set_xlabel(f"difference to {_label(result.baseline or '')}, paired by deal")
        ax2.set_title(f"{int(result.level * 100)}% bootstrap intervals")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
