"""The plot of a review (``toepen review --plot PATH``): the seat's lives over the session.

Three lines against the seat's decisions in order (the x-axis: decision 1, 2, ...; the
hands marked by a line between them and their numbers under the axis, as the browser's
plot): the seat's lives (a step after each hand), and at each of its decisions the lives
it could expect at the end of that hand after its choice and after the best action.
Needs matplotlib, the optional ``plot`` extra; :func:`check_plot` says so before the
review is worked out.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from ..i18n import Translator
from ..review import Review

PLOT_EXTRA = (
    "the plot needs matplotlib, the optional 'plot' extra: install it with "
    "pip install 'toepen[plot]' (in a checkout: uv sync --extra plot)"
)


class PlotUnavailable(RuntimeError):
    """A plot was asked for where matplotlib is not installed."""


@dataclass(frozen=True, slots=True)
class Axis:
    """Where a review's lines lie on the decisions' axis (decision k at x = k)."""

    lives: list[tuple[float, int]]
    """(x, lives): the start at 0.5, each hand's end half a decision after its last one."""
    bounds: list[float]
    """x of the line between two hands (half-way between their decisions)."""
    hands: list[tuple[float, int]]
    """(x, hand): the middle of each hand's decisions, and its number."""


def axis(review: Review) -> Axis:
    """The decisions' axis of ``review`` (the same as the browser's, static/js/table/review.js)."""
    indices = [d.index for d in review.decisions]

    def x_of(action: int) -> float:
        return sum(1 for i in indices if i <= action) + 0.5

    lives = [(0.5 if i == 0 else x_of(i), v) for i, v in review.lives]
    bounds: list[float] = []
    spans: dict[int, list[int]] = {}
    for k, d in enumerate(review.decisions, start=1):
        if k > 1 and d.hand != review.decisions[k - 2].hand:
            bounds.append(k - 0.5)
        spans.setdefault(d.hand, []).append(k)
    hands = [((ks[0] + ks[-1]) / 2, h) for h, ks in spans.items()]
    return Axis(lives=lives, bounds=bounds, hands=hands)


def check_plot(path: Path) -> None:
    """Refuse a plot that cannot be drawn: not ``.png`` or ``.svg`` (ValueError), or no
    matplotlib (:class:`PlotUnavailable`)."""
    if path.suffix.lower() not in (".png", ".svg"):
        raise ValueError(f"{path}: the plot is a .png or .svg file")
    if importlib.util.find_spec("matplotlib") is None:
        raise PlotUnavailable(PLOT_EXTRA)


def plot(review: Review, path: Path, t: Translator) -> None:
    """Draw ``review``'s lives and expected lives into ``path`` (PNG or SVG)."""
    try:
        import matplotlib
    except ImportError:
        raise PlotUnavailable(PLOT_EXTRA) from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4))
    where = axis(review)
    ax.step([x for x, _ in where.lives], [v for _, v in where.lives], where="post",
            color="black", lw=2, label=t("review.plot.actual"))
    exp = review.expected()
    xs = list(range(1, len(exp) + 1))
    ax.plot(xs, [c for _, c, _ in exp], "o-", ms=3, lw=1,
            color="tab:red", label=t("review.plot.expected"))
    ax.plot(xs, [b for _, _, b in exp], "--", lw=1,
            color="tab:green", label=t("review.plot.best"))
    for x in where.bounds:
        ax.axvline(x, color="0.8", lw=0.8, zorder=0)
    # the hands' numbers under the axis, as many as fit (about one per 1/25 of the width)
    step = max(1, -(-len(where.hands) // 25))
    shown = where.hands[::step]
    ax.set_xticks([x for x, _ in shown], [str(h) for _, h in shown])
    ax.tick_params(axis="x", length=0)
    ax.set_xlim(0, max(1, len(exp)) + 1)
    ax.set_xlabel(t("review.plot.x"))
    ax.set_ylabel(t("review.plot.y"))
    name = review.players[review.seat]
    title = t("review.title", name=name)
    if review.all_cards:
        title += " - " + t("review.button.all_cards")
    ax.set_title(title)
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
