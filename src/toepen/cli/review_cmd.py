"""``toepen review FILE``: every decision of one seat of a record, valued from its view."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from babel.numbers import format_decimal
from rich.console import Console
from rich.table import Table

from ..i18n import I18nError, Translator, check_lang, detect_lang
from ..narration import action_message
from ..record import RecordError, load
from ..review import DEFAULT_SAMPLES, Decision, Review, ReviewError, review
from .common import progress_bar

console = Console()


def _num(x: float, lang: str) -> str:
    return format_decimal(round(x, 2) + 0.0, format="0.00", locale=lang)


def review_cmd(
    record: Annotated[Path, typer.Argument(help="A toepen-record/1 JSON file.")],
    seat: Annotated[int, typer.Option("--seat", "-s", help="The seat reviewed.", min=0)] = 0,
    samples: Annotated[int, typer.Option(
        "--samples", help="Sampled deals per decision.", min=1, max=1000)] = DEFAULT_SAMPLES,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the sampling.")] = 0,
    all_cards: Annotated[bool, typer.Option(
        "--all-cards", help="Value each decision with every hand open (hindsight, marked "
        "as such), instead of from what the seat knew.")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the review as JSON (docs/review.md).")] = False,
    plot_path: Annotated[Path | None, typer.Option(
        "--plot", metavar="PATH", help="Draw the seat's expected and actual lives (.png or "
        ".svg; the plot extra).")] = None,
    top: Annotated[int, typer.Option("--top", help="Mistakes listed (0: every decision).",
                                     min=0)] = 10,
    lang: Annotated[str | None, typer.Option(
        "--lang", help="Language: en, nl, de, it, nb (default: locale).")] = None,
) -> None:
    """Review one seat of a game record: the expected lives of every legal action at each
    of its decisions, the biggest mistakes first (exit 2 if the record is refused)."""
    try:
        language = check_lang(lang) if lang is not None else detect_lang()
    except I18nError as e:
        raise typer.BadParameter(str(e), param_hint="--lang") from None
    t = Translator(language)
    if plot_path is not None:
        from ..tools.review_plot import PlotUnavailable, check_plot

        try:
            check_plot(plot_path)
        except (ValueError, PlotUnavailable) as e:
            raise typer.BadParameter(str(e), param_hint="--plot") from None
    try:
        doc = load(record)
        with progress_bar() as bar:
            task = bar.add_task(t("review.title", name=f"#{seat}"), total=None)

            def progress(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = review(doc, seat, samples=samples, seed=seed, all_cards=all_cards,
                            progress=None if as_json else progress)
    except (RecordError, ReviewError) as e:
        print(str(e), file=sys.stderr)
        raise typer.Exit(2) from None
    if plot_path is not None:
        from ..tools.review_plot import plot

        plot(result, plot_path, t)
    if as_json:
        print(json.dumps(result.to_json()))
        return
    _print(result, t, language, top)


def _print(result: Review, t: Translator, lang: str, top: int) -> None:
    names = result.players
    name = names[result.seat]
    console.print(f"[bold]{t('review.title', name=name)}[/bold]")
    mode = "review.mode.all_cards" if result.all_cards else "review.mode.seat"
    console.print(t(mode, name=name))
    mistakes = result.mistakes()
    console.print(t("review.summary", decisions=t("review.decisions", n=len(result.decisions)),
                    n=len(mistakes), cost=_num(result.total_cost, lang)))
    rows = mistakes[:top] if top else list(result.decisions)
    if not mistakes and top:
        console.print(t("review.none"))
        return
    table = Table(title=t("review.mistakes") if top else t("review.all"))
    table.add_column(t("review.col.index"), justify="right")
    table.add_column(t("review.col.hand"), justify="right")
    table.add_column(t("review.col.choice"))
    table.add_column(t("review.col.best"))
    table.add_column(t("review.col.cost"), justify="right")
    table.add_column(t("review.col.values"))
    table.add_column(t("review.col.reason"))
    for d in rows:
        table.add_row(str(d.index), str(d.hand), _act(d, "choice", t, names),
                      _act(d, "best", t, names), _num(d.cost, lang), _values(d, t, names, lang),
                      d.reason.render(t, names))
    console.print(table)


def _act(d: Decision, which: str, t: Translator, names: tuple[str, ...]) -> str:
    return action_message(d.choice if which == "choice" else d.best).render(t, names)


def _values(d: Decision, t: Translator, names: tuple[str, ...], lang: str) -> str:
    ranked = sorted(d.values.items(), key=lambda kv: -kv[1])
    return ", ".join(f"{action_message(a).render(t, names)} {_num(v, lang)}" for a, v in ranked)


def register(app: typer.Typer) -> None:
    app.command("review")(review_cmd)
