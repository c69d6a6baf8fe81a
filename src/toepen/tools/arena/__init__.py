"""Duplicate tournaments between bots: ``toepen arena`` and :func:`run_match`.

Three modules do the work: :mod:`.schedule` (the setup, lineups, seeds and games,
on one core or many), :mod:`.stats` (intervals, sessions won, ratings: the
:class:`ArenaResult`) and :mod:`.report` (JSON, CSV, the terminal table, the plot).
:class:`Arena` and :func:`run_arena` put them together.

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

import os
from collections.abc import Callable, Sequence

from ...rules import Rules
from .report import (
    PlotUnavailable,
    check_plot,
    incident_lines,
    plot,
    table,
    to_csv,
    write_csv,
    write_json,
)
from .schedule import (
    FORMATS,
    MAX_SESSION_HANDS,
    SessionOutcome,
    SetupError,
    TaskResult,
    bot_seed,
    check_setup,
    deal_seed,
    lineups,
    plan_tasks,
    play_hand,
    play_session,
    rotate,
    run_tasks,
    session_seed,
)
from .stats import ArenaResult, BotRow, Interval, MatchData, bootstrap_mean, bot_rows

__all__ = [
    "FORMATS", "MAX_SESSION_HANDS", "Arena", "ArenaResult", "BotRow", "Interval", "ProgressFn",
    "PlotUnavailable", "SessionOutcome", "SetupError", "bootstrap_mean", "bot_seed",
    "check_plot", "check_setup", "deal_seed", "incident_lines", "play_hand", "play_session",
    "plot", "rotate", "run_arena", "run_match", "session_seed", "table", "to_csv", "write_csv",
    "write_json",
]

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
        check_setup(bots, rules, players, baseline=baseline, format=format)
        self.bots = list(dict.fromkeys(bots))
        if baseline is not None and baseline not in self.bots:
            self.bots.append(baseline)
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
        self.matches = [MatchData(lineup)
                        for lineup in lineups(self.bots, players, format, baseline)]
        self.deals_played = 0
        self.session_seeds = 0

    def play(self, deals: int, sessions: int = 0, progress: ProgressFn | None = None) -> None:
        """Play ``deals`` more deals (indices after those played) and ``sessions`` more."""
        lineup = [m.lineup for m in self.matches]
        # With more bots than seats, deals are spread over the windows (each deal once).
        spread = self.format != "versus" and len(lineup) > 1
        tasks = [
            task
            for kind, start, count in (("deal", self.deals_played, deals),
                                       ("session", self.session_seeds, sessions))
            for task in plan_tasks(kind, range(start, start + count), lineup, spread=spread,
                                   jobs=self.jobs, rules=self.rules.to_json(), seed=self.seed,
                                   time_budget=self.time_budget, timeout=self.timeout)
        ]
        # Progress counts a deal (or session seed) once per lineup that plays it, all
        # rotations included, cumulative over calls so that batches continue one bar.
        per = len(lineup) if self.format == "versus" else 1
        size = {k: sum(len(t.indices) for t in tasks if t.kind == k) for k in ("deal", "session")}
        done = {"deal": self.deals_played * per, "session": self.session_seeds * per}
        total = {k: done[k] + size[k] for k in size}

        def collect(res: TaskResult) -> None:
            match = self.matches[res.match]
            target = match.deals if res.kind == "deal" else match.sessions
            target.update(res.data)
            self.incidents.extend(res.incidents)
            done[res.kind] += len(res.data)
            if progress is not None:
                progress(res.kind, done[res.kind], total[res.kind])

        run_tasks(tasks, self.jobs, collect)
        self.deals_played += deals
        self.session_seeds += sessions

    def result(self) -> ArenaResult:
        """The table so far."""
        rows = bot_rows(self.bots, self.matches, baseline=self.baseline,
                        incidents=self.incidents, level=self.level, seed=self.seed)
        return ArenaResult(self.rules, self.players, self.seed, self.format, self.baseline,
                           self.deals_played, self.session_seeds, rows, list(self.incidents),
                           self.level)


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
    ten batches) have been played. A setup that cannot be played raises
    :class:`SetupError` (a ``ValueError``) before any game.
    """
    check_setup(bots, rules, players, baseline=baseline, format=format, deals=deals,
                sessions=sessions, until_significant=until_significant)
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
