"""The plot of a review (``toepen review --plot PATH``): the seat's lives over the session.

Three lines against the record's action number: the seat's lives (a step after each
hand), and at each of its decisions the lives it could expect at the end of that hand
after its choice and after the best action. Needs matplotlib, the optional ``plot``
extra; :func:`check_plot` says so before the review is worked out.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ..i18n import Translator
from ..review import Review

PLOT_EXTRA = (
    "the plot needs matplotlib, the optional 'plot' extra: install it with "
    "pip install 'toepen[plot]' (in a checkout: uv sync --extra plot)"
)


class PlotUnavailable(RuntimeError):
    """A plot was asked for where matplotlib is not installed."""


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
    xs = [i for i, _ in review.lives]
    ys = [v for _, v in review.lives]
    ax.step(xs, ys, where="post", color="black", lw=2, label=t("review.plot.actual"))
    exp = review.expected()
    ax.plot([i for i, _, _ in exp], [c for _, c, _ in exp], "o-", ms=3, lw=1,
            color="tab:red", label=t("review.plot.expected"))
    ax.plot([i for i, _, _ in exp], [b for _, _, b in exp], "--", lw=1,
            color="tab:green", label=t("review.plot.best"))
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
