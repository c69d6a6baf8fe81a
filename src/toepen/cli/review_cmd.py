"""``toepen review FILE``: every decision of one seat of a record, valued from its view."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from babel.numbers import format_decimal
from rich.cells import cell_len
from rich.console import Console
from rich.padding import Padding
from rich.text import Text

from ..engine.actions import Action
from ..i18n import I18nError, Translator, check_lang, detect_lang
from ..narration import action_message
from ..record import RecordError, load
from ..review import DEFAULT_SAMPLES, Review, ReviewError, points, review
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
        pts, _, game = points(doc, seat)  # a bad record or seat is refused before any bar
        name = game.players[seat]
        if as_json:
            result = review(doc, seat, samples=samples, seed=seed, all_cards=all_cards)
        else:
            with progress_bar() as bar:
                task = bar.add_task(t("review.title", name=name), total=len(pts))

                def progress(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                result = review(doc, seat, samples=samples, seed=seed, all_cards=all_cards,
                                progress=progress)
    except (RecordError, ReviewError) as e:
        print(str(e), file=sys.stderr)
        raise typer.Exit(2) from None
    if plot_path is not None:
        from ..tools.review_plot import plot

        plot(result, plot_path, t)
    if as_json:
        print(json.dumps(result.to_json()))
        return
    show(result, t, language, top, console)


INDENT = 3
"""The indent of a decision's lines under its heading."""


def summary(result: Review, t: Translator, lang: str) -> str:
    """How many decisions, how many mistakes, and the lives they cost in all."""
    decisions = t("review.decisions", n=len(result.decisions))
    mistakes = result.mistakes()
    if not mistakes:
        return t("review.clean", decisions=decisions)
    return t("review.summary", decisions=decisions, n=len(mistakes),
             cost=_num(sum(d.cost for d in mistakes), lang))


def show(result: Review, t: Translator, lang: str, top: int, out: Console) -> None:
    """The review as players read it in a terminal: the summary, then each decision named
    as they think of it ("Hand 3, trick 2") on a line of its own, what was played and the
    best, the reason and every action's value under it, each line within ``out``'s width
    (wrapped between words, never inside one)."""
    names = result.players
    name = names[result.seat]
    out.print(Text(t("review.title", name=name), style="bold"))
    mode = "review.mode.all_cards" if result.all_cards else "review.mode.seat"
    out.print(Text(t(mode, name=name)))
    out.print(Text(summary(result, t, lang)))
    mistakes = result.mistakes()
    if not mistakes and top:
        return
    rows = mistakes[:top] if top else list(result.decisions)
    wrong = {d.index for d in mistakes}
    out.print()
    out.print(Text(t("review.mistakes") if top else t("review.all"), style="bold underline"))
    width = max(20, out.width - INDENT)
    for d in rows:
        bad = d.index in wrong
        head = Text(d.at.render(t, names), style="bold")
        if bad:
            head.append(f"   {t('review.col.cost')}: {_num(d.cost, lang)}", style="red")
        out.print(head)
        moves = [f"{t('review.col.choice')}: {_act(d.choice, t, names)}"]
        if d.best != d.choice:
            moves.append(f"{t('review.col.best')}: {_act(d.best, t, names)}")
        _flow(out, moves, width, sep="   ")
        if bad:
            _flow(out, d.reason.render(t, names).split(), width, sep=" ")
        ranked = sorted(d.values.items(), key=lambda kv: -kv[1])
        _flow(out, [f"{t('review.col.values')}:",
                    *(f"{_act(a, t, names)} {_num(v, lang)}" for a, v in ranked)],
              width, sep="  ", style="dim")


def _flow(out: Console, pieces: list[str], width: int, sep: str, style: str = "") -> None:
    """``pieces`` (words, or "action value" pairs) on indented lines of at most ``width``
    cells, never split inside one (a piece wider than a line has a line of its own)."""
    line = ""
    for piece in pieces:
        joined = f"{line}{sep}{piece}" if line else piece
        if line and cell_len(joined) > width:
            out.print(Padding(Text(line, style=style), (0, 0, 0, INDENT), expand=False),
                      soft_wrap=True)
            line = piece
        else:
            line = joined
    if line:
        out.print(Padding(Text(line, style=style), (0, 0, 0, INDENT), expand=False),
                  soft_wrap=True)


def _act(a: Action, t: Translator, names: tuple[str, ...]) -> str:
    return action_message(a).render(t, names)


def register(app: typer.Typer) -> None:
    app.command("review")(review_cmd)
