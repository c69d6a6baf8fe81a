"""An arena's result for people and programs: JSON, CSV, a terminal table and a plot.

The plot needs matplotlib, the optional ``plot`` extra (``pip install 'toepen[plot]'``);
:func:`check_plot` says so before a long run rather than after it.

>>> _label("cmd:python examples/bots/random_bot.py")
'cmd:…/bots/random_bot.py'
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
from pathlib import Path

from rich.table import Table

from .stats import ArenaResult

PLOT_EXTRA = (
    "the plot needs matplotlib, the optional 'plot' extra: install it with "
    "pip install 'toepen[plot]' (in a checkout: uv sync --extra plot)"
)


class PlotUnavailable(RuntimeError):
    """A plot was asked for where matplotlib is not installed."""


def write_json(result: ArenaResult, path: Path | None) -> str:
    """The result as JSON text, also written to ``path`` if given."""
    text = json.dumps(result.to_json(), indent=2)
    if path is not None:
        path.write_text(text + "\n", encoding="utf-8")
    return text


def to_csv(result: ArenaResult) -> str:
    """One CSV line per bot (intervals as mean, low, high)."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow([
        "bot", "hands", "lives_per_hand", "lph_low", "lph_high", "diff", "diff_low",
        "diff_high", "sessions", "sessions_won", "mu", "sigma", "ordinal", "incidents",
    ])
    for r in result.rows:
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


def write_csv(result: ArenaResult, path: Path | None) -> str:
    """The result as CSV text, also written to ``path`` if given."""
    text = to_csv(result)
    if path is not None:
        path.write_text(text, encoding="utf-8")
    return text


def table(result: ArenaResult) -> Table:
    """The terminal table: a row per bot, differences marked ``*`` when they exclude zero."""
    level = f"{round(result.level * 100):d}%"
    out = Table(
        title=f"toepen arena: {result.rules.summary()}; {result.players} players, "
              f"{result.deals} deals, {result.format}",
        caption=f"lives lost per hand (lower is better), {level} bootstrap intervals over "
                "deals; differences paired by deal (* excludes zero)",
    )
    out.add_column("bot")
    out.add_column("hands", justify="right")
    out.add_column(f"lives/hand [{level}]", justify="right")
    out.add_column(f"vs {result.baseline}" if result.baseline else "vs baseline",
                   justify="right")
    out.add_column("sessions won", justify="right")
    out.add_column("OpenSkill mu±sigma", justify="right")
    out.add_column("incidents", justify="right")
    for row in result.rows:
        lph = row.lives_per_hand
        diff = row.diff
        diff_text = "" if diff is None else (
            f"{diff.mean:+.3f} [{diff.low:+.3f}, {diff.high:+.3f}]"
            + (" *" if diff.excludes_zero() else ""))
        won = f"{row.sessions_won:g}/{row.sessions}" if row.sessions else "-"
        skill = f"{row.mu:.1f}±{row.sigma:.1f}" if row.sessions else "-"
        out.add_row(row.name, str(row.hands), f"{lph.mean:.3f} [{lph.low:.3f}, {lph.high:.3f}]",
                    diff_text, won, skill, str(row.incidents))
    return out


def incident_lines(result: ArenaResult, limit: int = 10) -> list[str]:
    """A heading and the first ``limit`` bot incidents (an external bot's failures, and
    answers the fallback bot replaced: :func:`toepen.match.ask`; none: no lines)."""
    if not result.incidents:
        return []
    return [f"{len(result.incidents)} bot incident(s):",
            *(f"  {text}" for text in result.incidents[:limit])]


def _label(name: str, width: int = 24) -> str:
    """A bot name short enough for an axis (long commands keep their end).

    >>> _label("cmd:python examples/bots/random_bot.py")
    'cmd:…/bots/random_bot.py'
    """
    if len(name) <= width:
        return name
    head = name[:4] if name.startswith("cmd:") else ""
    return head + "…" + name[-(width - len(head) - 1):]


def check_plot(path: Path) -> None:
    """Refuse a plot that cannot be drawn: not a ``.png`` (ValueError), or no matplotlib
    (:class:`PlotUnavailable`, naming the extra to install)."""
    if path.suffix.lower() != ".png":
        raise ValueError(f"{path}: the plot is a .png file")
    if importlib.util.find_spec("matplotlib") is None:
        raise PlotUnavailable(PLOT_EXTRA)


def plot(result: ArenaResult, path: Path) -> None:
    """A PNG of the intervals: lives lost per hand, and the difference to the baseline.

    Raises :class:`PlotUnavailable` when matplotlib (the ``plot`` extra) is missing.
    """
    try:
        import matplotlib
    except ImportError:
        raise PlotUnavailable(PLOT_EXTRA) from None

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
