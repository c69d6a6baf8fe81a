"""``toepen tally``: keep the score sheet of a game played with real cards."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..i18n import I18nError, Translator, check_lang, detect_lang
from ..narration import standings
from ..record import RecordError, load, save
from ..rules import Rules, RulesError
from ..tally import DISPLAYS, IllegalEntry, Sheet, refusal_message
from ..tui.session import reserve_file
from .common import parse_options
from .extras import require
from .rules_cmd import PRESETS_HELP, Refused


def default_sheet_path(folder: Path | None = None) -> Path:
    """A fresh file in the data folder for a new sheet (reserved on disk, like games)."""
    if folder is None:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("toepen")) / "sheets"
    return reserve_file(folder, f"tally-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}")


def tally_cmd(
    players: Annotated[str | None, typer.Option(
        "--players", help="The players' names in seat order, clockwise, comma-separated "
        "(2 to 8; needed for a new sheet).")] = None,
    preset: Annotated[str, typer.Option(
        "--preset", "-p", help=f"Rule preset: {PRESETS_HELP} (see toepen rules).")] = "rulebook",
    lives: Annotated[int | None, typer.Option("--lives", "-l", help="Lives per player.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="Rule option name=value (repeatable).")] = None,
    dealer: Annotated[int, typer.Option(
        "--dealer", help="Seat (0 = the first player) who deals the first hand.")] = 0,
    display: Annotated[str | None, typer.Option(
        "--display", help=f"Lives lost as {' or '.join(DISPLAYS)} (default: strokes, or "
        "points with -o count=points_up).")] = None,
    lang: Annotated[str | None, typer.Option(
        "--lang", help="Language: en, nl, de, it, nb (default: locale).")] = None,
    open_: Annotated[Path | None, typer.Option(
        "--open", help="Continue a sheet saved by toepen tally (or downloaded from the "
        "browser).")] = None,
    save_to: Annotated[Path | None, typer.Option(
        "--save", help="Where the sheet is saved after every entry (default: the opened "
        "file, or a new file in your data folder).")] = None,
    entry: Annotated[list[str] | None, typer.Option(
        "--entry", "-e", help="Enter this fact without the screen, e.g. '2 knock' "
        "(repeatable, in order); then the sheet is printed.")] = None,
    print_: Annotated[bool, typer.Option(
        "--print", help="Print the sheet and its standings instead of opening the screen.")
    ] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="With --print or --entry: the sheet's state as JSON.")] = False,
) -> None:
    """Keep the score sheet of a game with real cards: enter who knocked, stayed, folded,
    claimed and took the last trick; toepen applies the rules and keeps the score."""
    try:
        language = check_lang(lang) if lang is not None else detect_lang()
    except I18nError as e:
        raise typer.BadParameter(str(e), param_hint="--lang") from None
    t = Translator(language)
    if open_ is not None:
        try:
            sheet = Sheet.from_record(load(open_))
        except RecordError as e:
            raise Refused(t("tally.cli.open", path=str(open_), reason=str(e))) from None
        path: Path | None = save_to or open_
    else:
        names = [p.strip() for p in (players or "").split(",") if p.strip()]
        if len(names) < 2:
            raise Refused(t("tally.cli.players"))
        if any(len(n) > 24 or not n.isprintable() for n in names) or len(
                {n.casefold() for n in names}) != len(names):
            raise Refused(t("tally.cli.names"))
        opts = parse_options(option, lives, bad=lambda item: t("error.option", item=item))
        if preset not in Rules.preset_names():
            raise Refused(t("cli.unknown_preset", preset=preset, presets=PRESETS_HELP))
        try:
            rules = Rules.preset(preset, **opts)
            sheet = Sheet.new(rules, names, dealer=dealer, display=display)
        except RulesError as e:
            raise Refused(t("error.rules", reason=str(e))) from None
        except ValueError as e:
            raise Refused(t("tally.cli.bad", reason=str(e))) from None
        path = save_to
    if entry:
        require("tui", "toepen tally", t)
        from ..tui.tally import InputError, parse_line
    for i, text in enumerate(entry or [], start=1):
        try:  # as the screen takes them: a name, a prefix or a seat; a verb or its key
            sheet.add(parse_line(sheet, text))
        except InputError as e:
            reason = t(e.key, **e.values)
            raise Refused(t("tally.cli.entry", n=i, entry=text, reason=reason)) from None
        except IllegalEntry as e:
            reason = refusal_message(e.refusal, sheet).render(t, sheet.players)
            raise Refused(t("tally.cli.entry", n=i, entry=text, reason=reason)) from None
    if entry or print_:
        if entry and path is not None:
            save(sheet.to_record(), path)
        _print(t, sheet, as_json)
        return
    require("tui", "toepen tally", t)
    from ..tui.tally import TallyApp

    if path is None:
        path = default_sheet_path()
    save(sheet.to_record(), path)
    TallyApp(sheet, path, t).run()
    print(t("tally.cli.saved", path=str(path)))
    if not sheet.is_over:
        print(t("end.resume", command=f"toepen tally --open {path}"))


def _print(t: Translator, sheet: Sheet, as_json: bool) -> None:
    require("tui", "toepen tally", t)
    from ..tui.tally import sheet_legend, sheet_table, status_line

    if as_json:
        print(json.dumps(sheet.to_json(), ensure_ascii=False))
        return
    console = Console()
    console.print(sheet_table(t, sheet))
    console.print(sheet_legend(t, sheet))
    console.print(status_line(t, sheet))
    for line in standings(sheet.places(), sheet.rules, over=sheet.is_over):
        console.print(line.render(t, sheet.players))


def register(app: typer.Typer) -> None:
    app.command("tally")(tally_cmd)
