"""Is the one valuation right? Values against the lives the actions really cost.

The review, the hint and ``expert`` value a decision by
:meth:`~toepen.bots.expert.ExpertBot.evaluation` (the review's
:func:`~toepen.review.evaluate`): the seat's expected lives after each legal action.
Here that value is checked against what the action is worth when the hand is played
out. ``expert`` plays hands against itself; at decisions picked along the way
(``share`` of them) the view is valued with the review's default samples, and some of
its legal actions (the evaluation's best and one other drawn at random) are each
played out from the true position, ``expert`` continuing for every seat, to the end
of the hand (an armoede redeal included). The deal is the true one: positions come from
play, so the hidden cards follow the distribution the view's inference should find.

Per kind of decision (``lead``, ``follow``: a card with the trick empty or not;
``knock``: the knock before a card; ``answer``: stay, fold or counter-knock;
``declaration``: armoede, exchange, challenges, the house rules' declarations and the
blind round) the mean of ``outcome - value`` should be 0 within its sampling error (a
standard error: the spread of the differences over the root of their number).

Run::

    uv run python -m toepen.tools.calibrate --players 2 4 6 --hands 60 [--cap 1] [--check]

(``--kinds K..`` and ``--min-stake S``: only decisions of those kinds at that stake or
higher, for a context seldom met; ``--cap``: at most that many actions of a kind played
out a hand; ``--check``: exit 1
unless every kind agrees within the Bonferroni bound of a 5% family-wise error over the
checks, with :data:`MIN_ROWS` rows or more; the standard errors are clustered by hand.)

(``--help`` for the rest). Its figures are in docs/review.md.

>>> rows = measure(2, "rulebook", hands=1, share=0.3, seed=1, samples=4, continue_samples=4)
>>> all(r.kind in KINDS for r in rows)
True
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from statistics import NormalDist

from ..bots.expert import ExpertBot
from ..engine.actions import KNOCK, Action
from ..engine.phase import Phase
from ..engine.state import Game
from ..match import hand_over, play_game
from ..review import DEFAULT_SAMPLES, evaluate
from ..seeds import derive_seed
from ..view import View, observe
from .reads import map_hands

__all__ = ["KINDS", "Row", "Summary", "kind_of", "measure", "summarize"]

KINDS = ("lead", "follow", "knock", "answer", "declaration")


@dataclass(frozen=True, slots=True)
class Row:
    """One action played out: its kind, the evaluator's value, the lives it took and the
    self-play hand it came from (rows of one hand share a deal: not independent)."""

    kind: str
    value: float
    outcome: float
    hand: int = 0
    what: str = ""
    """The action and its context, for a finer split (``--by``): ``claim``,
    ``stay@2`` (an answer at stake 2), ``knock@1``, ``card@1``, ``card+k@2`` (a card
    where a knock was allowed too)."""


@dataclass(frozen=True, slots=True)
class Summary:
    """The rows of one kind: how many, the mean value and outcome, the mean difference
    (outcome - value) and its standard error."""

    kind: str
    n: int
    value: float
    outcome: float
    diff: float
    se: float

    @property
    def agrees(self) -> bool:
        """The difference is within 3 standard errors of 0 (or no row measured)."""
        return self.n == 0 or abs(self.diff) <= 3 * self.se + 1e-9


MIN_ROWS = 6
"""Rows a kind needs for ``--check`` to judge it (fewer: the check fails, for want of
data, not passes)."""


def family_z(checks: int, alpha: float = 0.05) -> float:
    """The two-sided normal quantile that keeps the chance of any of ``checks`` true
    agreements failing at ``alpha`` or less (Bonferroni).

    >>> round(family_z(15), 2), round(family_z(20), 2)
    (2.94, 3.02)
    """
    return NormalDist().inv_cdf(1 - alpha / (2 * checks))


def kind_of(view: View, act: Action) -> str:
    """The kind of decision ``act`` is at ``view`` (see the module)."""
    if view.phase == Phase.PLAY:
        if act is KNOCK:
            return "knock"
        return "follow" if view.trick else "lead"
    if view.phase == Phase.ANSWER:
        return "answer"
    return "declaration"


def _picked(view: View, values: dict[Action, float], best: Action, rng: random.Random
            ) -> list[Action]:
    """The evaluation's best and one other legal action (at a card decision with a
    knock, the knock or the best card and one other card)."""
    others = [a for a in view.legal if a is not best]
    out = [best]
    if others:
        out.append(rng.choice(others))
    if KNOCK in values and view.phase == Phase.PLAY and KNOCK not in out:
        out.append(KNOCK)
    return out


def _what(view: View, act: Action) -> str:
    """The finer context of ``act`` at ``view`` (:attr:`Row.what`).

    >>> from toepen.engine import Game
    >>> g = Game.new("rulebook", 2, seed=1)
    >>> _what(observe(g, g.turn), g.legal_actions()[0])
    'claim'
    """
    name = ("card+k" if KNOCK in view.legal else "card") if act.is_play else str(act)
    return f"{name}@{view.stake}" if view.phase in (Phase.PLAY, Phase.ANSWER) else name


def _kinds(view: View) -> set[str]:
    """The kinds of ``view``'s legal actions."""
    return {kind_of(view, a) for a in view.legal}


def _hand(args: tuple[int, str, int, float, int, int, int, int, int, float,
                     tuple[str, ...], int]) -> list[Row]:
    (players, preset, seed, share, samples, cont, playouts, index, cap, follow, kinds,
     min_stake) = args
    game = Game.new(preset, players, seed=seed)
    rng = random.Random(derive_seed("calibrate pick", seed, bits=32))

    def bots(tag: str) -> list[ExpertBot]:
        return [ExpertBot(seed=derive_seed("calibrate", seed, tag, s, bits=32),
                          samples=cont or None) for s in range(players)]

    players_now = bots("play")
    stop = hand_over(game)
    rows: list[Row] = []
    taken: dict[str, int] = {}
    while game.turn >= 0 and not stop(game):
        seat = game.turn
        view = observe(game, seat)
        forced: Action | None = None
        wanted = _kinds(view) & set(kinds) if kinds else _kinds(view)
        if len(view.legal) > 1 and wanted and view.stake >= min_stake and (
                rng.random() < share) and (
                not cap or any(taken.get(k, 0) < cap for k in _kinds(view))):
            ev = evaluate(view, samples=samples,
                          seed=derive_seed("calibrate eval", seed, view.action_count, bits=32))
            picked = _picked(view, ev.values, ev.best, rng)
            if follow and KNOCK in picked and rng.random() < follow:
                forced = KNOCK  # the hand goes on from the knock: its answers are met
            for act in picked:
                kind = kind_of(view, act)
                if kind not in wanted or cap and taken.get(kind, 0) >= cap:
                    continue
                taken[kind] = taken.get(kind, 0) + 1
                for k in range(playouts):
                    g = game.clone()
                    before = g.lives_lost[seat]
                    g.apply(seat, act)
                    play_game(g, bots(f"{view.action_count} {act} {k}"), stop=hand_over(game))
                    rows.append(Row(kind, ev.values[act],
                                    -float(g.lives_lost[seat] - before), index,
                                    _what(view, act)))
        game.apply(seat, forced if forced is not None else players_now[seat].act(view))
    return rows


def measure(players: int, preset: str, *, hands: int, share: float = 0.3, seed: int = 0,
            samples: int = DEFAULT_SAMPLES, continue_samples: int | None = None,
            playouts: int = 1, jobs: int | None = 1, cap: int = 0, follow: float = 0.0,
            kinds: Sequence[str] = (), min_stake: int = 1) -> list[Row]:
    """Rows of ``hands`` self-play hands at ``players`` (see the module): decisions
    valued with probability ``share`` by ``samples`` deals, their actions played out
    ``playouts`` times each by ``expert`` (``continue_samples``: its samples; None, its
    own); ``cap`` > 0: at most that many actions of a kind played out a hand (a small
    sample then spreads over the kinds and the hands); ``follow`` > 0: with that chance
    the self-play goes on from a knock played out instead of expert's own choice (where
    expert seldom knocks, its answers are met only so; the answers are then valued by
    players who read the knock as expert's); ``kinds`` (default all): only decisions
    with an action of these kinds are valued, and only those actions played out;
    ``min_stake``: only decisions at this stake or higher (a context seldom met, such
    as a card after a stayed knock, measured on its own). Deterministic for given
    arguments (whatever ``jobs``)."""
    bad = [k for k in kinds if k not in KINDS]
    if bad:
        raise ValueError(f"kinds: {', '.join(bad)} not one of {', '.join(KINDS)}")
    tasks = [(players, preset, derive_seed("calibrate hand", preset, players, seed, i,
                                           bits=32) & 0x7FFF_FFFF, share, samples,
              continue_samples or 0, playouts, i, cap, follow, tuple(kinds), min_stake)
             for i in range(hands)]
    out: list[Row] = []
    for rows in map_hands(_hand, tasks, jobs):
        out.extend(rows)
    return out


def summarize(rows: Sequence[Row]) -> list[Summary]:
    """One :class:`Summary` per kind of :data:`KINDS`. The standard error is the
    cluster-robust one, by self-play hand (rows of one hand share its deal and are not
    independent; hands are): ``sqrt(H / (H - 1) * sum over hands of (sum of the hand's
    deviations from the mean)^2) / n`` with ``H`` hands; with one row a hand it is the
    usual ``sd / sqrt(n)``.

    >>> s = summarize([Row("lead", -1.0, 0.0, 0), Row("lead", -1.0, -1.0, 1)])[0]
    >>> s.n, s.diff, round(s.se, 3)
    (2, 0.5, 0.5)
    """
    return [_summary(kind, [r for r in rows if r.kind == kind]) for kind in KINDS]


def summarize_by(rows: Sequence[Row]) -> list[Summary]:
    """One :class:`Summary` per kind and finer context (:attr:`Row.what`), named
    ``kind what``, in order of kind and then of the number of rows (most first).

    >>> [s.kind for s in summarize_by([Row("answer", -1.0, 0.0, 0, "stay@2"),
    ...                                Row("lead", -1.0, -1.0, 1, "card@1")])]
    ['lead card@1', 'answer stay@2']
    """
    out = []
    for kind in KINDS:
        mine: dict[str, list[Row]] = {}
        for r in rows:
            if r.kind == kind:
                mine.setdefault(r.what, []).append(r)
        for what, group in sorted(mine.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            out.append(_summary(f"{kind} {what}", group))
    return out


def _summary(name: str, mine: Sequence[Row]) -> Summary:
    """The :class:`Summary` of ``mine`` (see :func:`summarize`)."""
    n = len(mine)
    if not n:
        return Summary(name, 0, 0.0, 0.0, 0.0, 0.0)
    mean = sum(r.outcome - r.value for r in mine) / n
    by_hand: dict[int, float] = {}
    for r in mine:
        by_hand[r.hand] = by_hand.get(r.hand, 0.0) + r.outcome - r.value - mean
    h = len(by_hand)
    se = sqrt(h / (h - 1) * sum(x * x for x in by_hand.values())) / n if h > 1 else 0.0
    return Summary(name, n, sum(r.value for r in mine) / n,
                   sum(r.outcome for r in mine) / n, mean, se)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--preset", nargs="+", default=["rulebook", "classic"])
    parser.add_argument("--hands", type=int, default=60, help="self-play hands per size")
    parser.add_argument("--share", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--continue-samples", type=int, default=None)
    parser.add_argument("--playouts", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--cap", type=int, default=0,
                        help="actions of a kind played out a hand at most (0: no cap)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 unless every kind of every size agrees: its mean "
                        "within the Bonferroni bound of a 5%% family-wise error over all "
                        f"the checks, with {MIN_ROWS} rows or more")
    parser.add_argument("--follow", type=float, default=0.0,
                        help="the chance that the self-play goes on from a knock played "
                        "out (so that answers are met where expert seldom knocks)")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=[],
                        help="only decisions of these kinds (default: every kind)")
    parser.add_argument("--min-stake", type=int, default=1,
                        help="only decisions at this stake or higher")
    parser.add_argument("--by", action="store_true",
                        help="also split each kind by action and stake (not checked)")
    a = parser.parse_args(argv)
    z = family_z(len(a.preset) * len(a.players) * len(a.kinds or KINDS)) if a.check else 3.0
    failed = []
    print("| preset | players | kind | n | value | outcome | outcome - value (95% interval) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for preset in a.preset:
        for n in a.players:
            rows = measure(n, preset, hands=a.hands, share=a.share, seed=a.seed,
                           samples=a.samples, continue_samples=a.continue_samples,
                           playouts=a.playouts, jobs=a.jobs, cap=a.cap, follow=a.follow,
                           kinds=a.kinds, min_stake=a.min_stake)
            for s in summarize(rows):
                if a.kinds and s.kind not in a.kinds:
                    continue
                off = abs(s.diff) > z * s.se + 1e-9
                if a.check and (off or s.n < MIN_ROWS):
                    failed.append(f"{preset} {n} {s.kind}")
                if not s.n:
                    continue
                flag = " **off**" if off else ""
                print(f"| {preset} | {n} | {s.kind} | {s.n} | {s.value:.2f} | {s.outcome:.2f}"
                      f" | {s.diff:+.2f} ({s.diff - 1.96 * s.se:+.2f} to "
                      f"{s.diff + 1.96 * s.se:+.2f}){flag} |", flush=True)
            if a.by:
                for s in summarize_by(rows):
                    print(f"| {preset} | {n} | {s.kind} | {s.n} | {s.value:.2f} | "
                          f"{s.outcome:.2f} | {s.diff:+.2f} ({s.diff - 1.96 * s.se:+.2f} to "
                          f"{s.diff + 1.96 * s.se:+.2f}) |", flush=True)
    if a.check:
        print(f"check (|mean| <= {z:.2f} standard errors, {MIN_ROWS}+ rows): "
              + ("all agree" if not failed else "off or short: " + ", ".join(failed)))
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
