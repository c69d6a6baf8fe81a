"""``toepen play``: a full-screen game against bots in the terminal."""

from __future__ import annotations

import getpass
import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..bots.base import BUILTIN, CMD_PREFIX, DEFAULT, level_names
from ..i18n import I18nError, Translator, check_lang, detect_lang, normalise_lang
from ..rules import Rules, RulesError
from .common import parse_options
from .extras import require
from .rules_cmd import PRESETS_HELP, Refused

BOTS_HELP = ", ".join([*level_names(), *(spec.name for spec in BUILTIN
                                          if spec.name not in level_names()),
                       CMD_PREFIX + "COMMAND"])
"""The levels (weakest first), then the other bots' names and the external form."""


def _default_name(t: Translator) -> str:
    try:
        user = getpass.getuser().strip()
    except (OSError, KeyError):
        user = ""
    if not user or user == "root" or not user.isprintable():
        return t("name.default")
    return user[:1].upper() + user[1:16]


def _rules_from_file(path: Path, t: Translator) -> Rules:
    """The rules a ``--rules`` file holds: a rules object, a preset name, or a record's
    ``rules``; a clear error naming the file otherwise."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise Refused(t("error.rules_file", path=str(path), reason=e.strerror or str(e))) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise Refused(t("error.rules_file", path=str(path), reason=str(e))) from None
    if isinstance(data, dict) and "format" in data and "rules" in data:
        data = data["rules"]  # a record: play by its rules
    return Rules.from_json(data)


def play_cmd(
    preset: Annotated[str, typer.Option(
        "--preset", "-p", help=f"Rule preset: {PRESETS_HELP} (see toepen rules).")] = "rulebook",
    players: Annotated[int, typer.Option(
        "--players", "-n", help="Table size, you included (sizes by preset: toepen rules).")] = 4,
    lives: Annotated[int | None, typer.Option("--lives", "-l", help="Lives per player.")] = None,
    bots: Annotated[
        str,
        typer.Option("--bots", "-b", help="Bot for every seat, or one per seat, "
                     f"comma-separated, by level or by name: {BOTS_HELP}. With --resume: "
                     "the programs (cmd:COMMAND) of the save that may run; a save alone "
                     "never starts one."),
    ] = DEFAULT,
    lang: Annotated[
        str | None, typer.Option("--lang", help="Language: en, nl, de, it, nb (default: locale).")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deal (random).")] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Rule option name=value (repeatable)."),
    ] = None,
    rules_file: Annotated[
        Path | None,
        typer.Option("--rules", help="A table's own rules: a JSON file holding a rules "
                     "object ({\"preset\": ..., options}) or a record; replaces --preset, "
                     "-o options apply on top."),
    ] = None,
    fast: Annotated[bool, typer.Option("--fast", help="Bots move without pause.")] = False,
    delay: Annotated[
        float, typer.Option("--delay", metavar="SECONDS", help="Seconds between bot moves.",
                            min=0.0)
    ] = 0.8,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Continue a game saved by toepen play.")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Your name at the table.")] = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Record file (default: your data folder).")
    ] = None,
    bot_timeout: Annotated[
        float | None,
        typer.Option("--bot-timeout", metavar="SECONDS", min=0.001,
                     help="Seconds an external bot (cmd:) may take per decision "
                     "(default 5, as toepen serve).")] = None,
) -> None:
    """Play Toepen in the terminal against bots; the game is saved as you play."""
    try:
        language = check_lang(lang) if lang is not None else detect_lang()
    except I18nError as e:
        raise typer.BadParameter(str(e), param_hint="--lang") from None
    t = Translator(language)
    require("tui", "toepen play", t)
    from ..tui.session import PlayError, PlaySession, default_path
    try:
        if resume is not None:
            # A save never starts a program: only the external bots named again here.
            allow = [b.strip() for b in bots.split(",") if b.strip().startswith(CMD_PREFIX)]
            session = PlaySession.resume(resume, allow=allow, timeout=bot_timeout)
            saved_lang = normalise_lang(str(session.meta.get("lang", "")))
            if lang is None and saved_lang is not None:
                language = saved_lang
                t = Translator(language)
            if save is not None:
                session.path = save
        else:
            opts = parse_options(option, lives, bad=lambda item: t("error.option", item=item))
            if rules_file is not None:
                rules = _rules_from_file(rules_file, t).replace(**opts)
            elif preset not in Rules.preset_names():  # said in the language, not the engine's
                raise Refused(t("cli.unknown_preset", preset=preset, presets=PRESETS_HELP))
            else:
                rules = Rules.preset(preset, **opts)
            lineup = [b.strip() for b in bots.split(",") if b.strip()]
            if not lineup:
                raise Refused(t("cli.no_bots", bots=BOTS_HELP))
            human = name if name is not None else _default_name(t)
            if not human.strip() or not human.isprintable() or len(human) > 24:
                raise Refused(t("cli.bad_name"))
            session = PlaySession.new(
                rules, players=players, bots=lineup, name=human, seed=seed,
                path=None, lang=language, timeout=bot_timeout,
            )
            session.path = save if save is not None else default_path(session.seed)
            session.save()  # the reserved name holds the record from the start
    except PlayError as e:
        raise Refused(t(e.key, **e.values)) from None
    except RulesError as e:
        raise Refused(t("error.rules", reason=str(e))) from None
    from ..tui.app import PlayApp

    history = session.history() if resume is not None else None
    app = PlayApp(session, lang=language, delay=0.0 if fast else delay, history=history)
    try:
        app.run()
    except KeyboardInterrupt:
        pass
    finally:
        path = app.session.save()  # the game played last (a rematch's, if one was started)
        app.session.close()
    for finished in app.finished:  # the games a rematch followed, saved when they ended
        if finished.path is not None:
            print(t("end.saved", path=str(finished.path)))
    if path is not None:
        print(t("end.saved", path=str(path)))
        if app.session.game.winner is None:
            print(t("end.resume", command=f"toepen play --resume {path}"))
    if app.return_code not in (None, 0):
        sys.exit(app.return_code)


def register(app: typer.Typer) -> None:
    app.command("play")(play_cmd)
