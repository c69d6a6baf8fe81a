"""What an arena plays: the setup, the lineups, the seeds, the tasks and the games.

A match is one lineup (a bot name per seat) played over deal indices and session
indices, each index once in every rotation of the lineup through the seats. The
work is cut into :class:`Task` chunks that a worker process plays with
:func:`run_task`; :func:`run_tasks` runs them on one core or many, with the same
results either way (every game and every bot is seeded from the match seed, the
index and the seat, never from the order of play; a seat's bot gets the same seed in
every rotation, see :func:`bot_seed`).

>>> rotate(["a", "b", "b"], 1)
['b', 'b', 'a']
>>> lineups(["x", "base"], 3, "versus", "base")
[('x', 'base', 'base')]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from ...bots.base import (
    CMD_PREFIX,
    EXTERNAL_FALLBACK,
    Bot,
    bot_factory,
    check_bot_name,
    close_bot,
    make_bot,
)
from ...bots.external import TREE_PREFIX, ExternalBot, tree_command
from ...engine import Game
from ...match import Incident, Report, hand_over, play_game
from ...rules import Rules
from ...seeds import derive_seed

FORMATS = ("mixed", "versus")
"""``mixed``: the listed bots together; ``versus``: each candidate against the baseline."""

MAX_SESSION_HANDS = 400
"""A session still running after this many hands is scored by its lives (unfinished)."""

SEED_BITS = 48
"""Arena seeds stay below 2**53, so a program in any language reads them exactly."""

# -- the setup --------------------------------------------------------------------------


def check_arena_bot(name: str) -> None:
    """Raise ValueError naming the problem if the arena cannot seat ``name``: a bot or a
    level of the registry, ``cmd:COMMAND``, or ``tree:DIR:NAME`` (bot ``NAME`` of the
    checkout in ``DIR``, served by its own ``toepen bot``)."""
    if name.startswith(TREE_PREFIX):
        tree_command(name)
    else:
        check_bot_name(name)


def arena_bot(name: str, seed: int | None, time_budget: float | None,
              timeout: float | None) -> Bot:
    """The bot of ``name`` for one seat (a program for ``cmd:`` and ``tree:`` names, with
    the registry's fallback for external bots)."""
    if name.startswith(TREE_PREFIX):
        bot = ExternalBot(tree_command(name), seed=seed, time_budget=time_budget,
                          timeout=timeout, fallback=bot_factory(EXTERNAL_FALLBACK),
                          fallback_name=EXTERNAL_FALLBACK)
        bot.name = name
        return bot
    return make_bot(name, seed=seed, time_budget=time_budget, timeout=timeout)


class SetupError(ValueError):
    """An arena that cannot be played; ``param`` names the argument at fault.

    ``needs`` names the argument the setup lacks, when that is the fault (a front end
    can then name its own option for it).
    """

    def __init__(self, param: str, message: str, *, needs: str | None = None) -> None:
        super().__init__(message)
        self.param = param
        self.needs = needs


def check_setup(
    bots: Sequence[str],
    rules: Rules,
    players: int,
    *,
    baseline: str | None = None,
    format: str = "mixed",
    deals: int = 1,
    sessions: int = 0,
    until_significant: bool = False,
) -> None:
    """Refuse a setup that cannot be played, before anything is played.

    >>> check_setup(["random"], Rules.preset("rulebook"), 4, format="versus")
    Traceback (most recent call last):
    ...
    toepen.tools.arena.schedule.SetupError: format versus needs a baseline
    """
    if not bots:
        raise SetupError("bots", "bots: name at least one bot")
    for name in bots:
        try:
            check_arena_bot(name)
        except ValueError as e:
            raise SetupError("bots", str(e)) from None
    if baseline is not None:
        try:
            check_arena_bot(baseline)
        except ValueError as e:
            raise SetupError("baseline", str(e)) from None
    try:
        rules.check_table(players)
    except ValueError as e:
        raise SetupError("players", str(e)) from None
    if format not in FORMATS:
        raise SetupError("format", f"format: must be mixed or versus, not {format!r}")
    if format == "versus" and baseline is None:
        raise SetupError("format", "format versus needs a baseline", needs="baseline")
    if deals < 1:
        raise SetupError("deals", f"deals: must be at least 1, not {deals}")
    if sessions < 0:
        raise SetupError("sessions", f"sessions: must be 0 or more, not {sessions}")
    if until_significant and baseline is None:
        raise SetupError("until_significant",
                         "until_significant needs a baseline to compare with", needs="baseline")


def lineups(
    bots: Sequence[str], players: int, format: str, baseline: str | None
) -> list[tuple[str, ...]]:
    """The lineups of the matches: a bot name per seat.

    ``versus`` gives each candidate one seat against copies of the baseline; ``mixed``
    cycles the bots to fill the table, and with more bots than seats each window of
    the list is its own lineup.

    >>> lineups(["a", "b", "c"], 2, "mixed", None)
    [('a', 'b'), ('b', 'c'), ('c', 'a')]
    """
    if format == "versus":
        assert baseline is not None
        candidates = [b for b in bots if b != baseline] or [baseline]
        return [(cand, *([baseline] * (players - 1))) for cand in candidates]
    k = len(bots)
    if k <= players:
        return [tuple(bots[i % k] for i in range(players))]
    return [tuple(bots[(w + i) % k] for i in range(players)) for w in range(k)]


def rotate(lineup: Sequence[str], rotation: int) -> list[str]:
    """The bot name at each seat for one rotation: seat ``s`` gets ``lineup[(s + r) % n]``.

    >>> rotate(["a", "b", "b"], 1)
    ['b', 'b', 'a']
    """
    n = len(lineup)
    return [lineup[(s + rotation) % n] for s in range(n)]


# -- seeds ------------------------------------------------------------------------------


def deal_seed(seed: int, index: int) -> int:
    """The game seed of deal ``index`` of a match seeded ``seed`` (stable across runs)."""
    return derive_seed("arena", seed, "deal", index, bits=SEED_BITS)


def session_seed(seed: int, index: int) -> int:
    """The game seed of session ``index``."""
    return derive_seed("arena", seed, "session", index, bits=SEED_BITS)


def bot_seed(seed: int, kind: str, index: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the games of one deal (or session) index: the
    same in every rotation, whichever bot sits there (common random numbers).

    The duplicate format deals the same cards to a seat in every rotation; with this it
    also gives the seat the same random stream, so the only thing that differs between
    the rotations of a deal is which bot sits where. Two bots that decide alike then
    play the same game in every rotation and tie on every deal: a self-match is exact
    (a difference of 0 with an interval of width 0, or a sign that the two differ), and
    a bot's sampling noise, which is not skill, no longer enters the paired difference.
    A stream per rotation and seat (before) let two copies of ``expert`` differ by
    -0.126 [-0.227, -0.039] lives per hand over 160 deals: seat luck of 160 x 16 games.

    >>> bot_seed(1, "deal", 0, 0) != bot_seed(1, "session", 0, 0)
    True
    >>> bot_seed(1, "deal", 0, 0) != bot_seed(1, "deal", 0, 1)
    True
    """
    return derive_seed("arena", seed, "bot", kind, index, seat, bits=SEED_BITS)


# -- playing ----------------------------------------------------------------------------


def play_hand(
    rules: Rules,
    seats: Sequence[Bot],
    seed: int,
    bot_seeds: Sequence[int] | None = None,
    report: Report | None = None,
) -> list[int]:
    """Deal a fresh session from ``seed`` (dealer 0), play one hand: lives lost by seat."""
    game = Game(rules, len(seats), seed=seed, dealer=0)
    play_game(game, seats, stop=hand_over(game), seeds=bot_seeds, report=report)
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
    report: Report | None = None,
) -> SessionOutcome:
    """Play a whole session from ``seed`` (dealer 0); the finishing order.

    The places are the engine's finishing order (``game.places()``): the order out,
    or under rubbers the fewest rounds of drinks, then the most rubbers won (rules.md
    D16); partners in teams share their place; a session past ``max_hands`` is ranked
    as it stands (lives left; under rubbers the lives of the rubber being played after
    drinks and rubbers won), the lower seat breaking a tie.
    """
    game = Game(rules, len(seats), seed=seed, dealer=0)
    limit = max_hands
    play_game(game, seats, stop=lambda g: g.hand_no > limit, seeds=bot_seeds, report=report)
    n = game.n
    places = [0.0] * n
    for p in game.places():
        for s in p.seats:
            places[s] = float(p.place)
    winners = tuple(s for s in range(n) if places[s] == 1.0)
    return SessionOutcome(winners, tuple(places), game.hand_no, game.is_over)


# -- tasks ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """Games for a worker: every rotation of ``lineup`` for each of ``indices``."""

    match: int
    kind: str  # "deal" or "session"
    lineup: tuple[str, ...]
    indices: tuple[int, ...]
    rules: Any
    """The rules as JSON (a worker rebuilds them)."""
    seed: int
    time_budget: float | None
    timeout: float | None


@dataclass
class TaskResult:
    """What a task played: per index, one entry per rotation (lives lost or an outcome)."""

    match: int
    kind: str
    lineup: tuple[str, ...]
    data: dict[int, Any]
    incidents: list[str]


def plan_tasks(
    kind: str,
    indices: Sequence[int],
    matches: Sequence[tuple[str, ...]],
    *,
    spread: bool,
    jobs: int,
    rules: Any,
    seed: int,
    time_budget: float | None,
    timeout: float | None,
) -> list[Task]:
    """Cut the games of ``indices`` into tasks for every lineup in ``matches``.

    With ``spread`` (more bots than seats) each index goes to one lineup only
    (``index % len(matches)``); otherwise every lineup plays every index.
    """
    tasks: list[Task] = []
    n_matches = len(matches)
    for m, lineup in enumerate(matches):
        mine = [i for i in indices if i % n_matches == m] if spread else list(indices)
        chunk = max(1, min(25, len(mine) // (jobs * 4) or 1))
        for start in range(0, len(mine), chunk):
            tasks.append(Task(m, kind, lineup, tuple(mine[start:start + chunk]), rules, seed,
                              time_budget, timeout))
    return tasks


def run_task(task: Task) -> TaskResult:
    """Worker: play the games of one task (all rotations of each index)."""
    rules = Rules.from_json(task.rules)
    n = len(task.lineup)
    cache: dict[tuple[str, int], Bot] = {}
    incidents: list[str] = []

    def report(incident: Incident) -> None:  # an answer the fallback replaced (match.ask)
        incidents.append(f"{incident.bot} seat {incident.seat}: {incident.kind}: "
                         f"{incident.detail}; {incident.fallback} played {incident.action}")

    def seat_bots(names: list[str], index: int) -> tuple[list[Bot], list[int]]:
        bots: list[Bot] = []
        seeds = [bot_seed(task.seed, task.kind, index, s) for s in range(n)]
        for s, name in enumerate(names):
            if name.startswith((CMD_PREFIX, TREE_PREFIX)):
                bot = cache.get((name, s))
                if bot is None:  # one process per seat, reused across games
                    bot = cache[(name, s)] = arena_bot(name, seeds[s], task.time_budget,
                                                       task.timeout)
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
                bots, seeds = seat_bots(names, index)
                if task.kind == "deal":
                    per_rotation.append(play_hand(rules, bots, deal_seed(task.seed, index), seeds,
                                                  report))
                else:
                    per_rotation.append(play_session(rules, bots, session_seed(task.seed, index),
                                                     seeds, report=report))
            data[index] = per_rotation
    finally:
        for (name, seat), bot in cache.items():
            for inc in getattr(bot, "incidents", []):
                incidents.append(f"{name} seat {seat}: {inc}")
            close_bot(bot)
    return TaskResult(task.match, task.kind, task.lineup, data, incidents)


def run_tasks(tasks: Iterable[Task], jobs: int, collect: Callable[[TaskResult], None]) -> None:
    """Play ``tasks`` on ``jobs`` processes, handing each result to ``collect`` as it ends.

    An error or Ctrl-C drops the tasks not yet started.
    """
    todo = list(tasks)
    if jobs == 1 or len(todo) <= 1:
        for t in todo:
            collect(run_task(t))
        return
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(todo)))
    try:
        futures = [pool.submit(run_task, t) for t in todo]
        for fut in as_completed(futures):
            collect(fut.result())
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
