"""``toepen rules``: the presets and the options, in the reader's language.

Everything printed comes from :class:`toepen.rules.Rules` (the presets, their table sizes
and options) and from the message catalogs (the names, descriptions and rule lines the
game screen shows under ``r``), so that nothing here can drift from the engine.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import textwrap
from typing import Annotated, Any

import typer

from ..i18n import I18nError, Translator, check_lang, detect_lang
from ..rules import CHOICES, Rules
from ..tui.narrate import rules_summary

PRESETS_HELP = ", ".join(Rules.preset_names())


class Refused(typer.BadParameter):
    """A command-line error in the user's language, said once (no English prefix)."""

    def format_message(self) -> str:
        return self.message


def _value(value: Any) -> str:
    """An option value as ``--option name=value`` takes it (``wins``, ``true``, ``null``,
    ``[3, 4]``)."""
    if isinstance(value, str):
        return value
    return json.dumps(list(value) if isinstance(value, tuple) else value)


def _choices(field: dataclasses.Field[Any]) -> tuple[str, ...]:
    if field.type == "bool":
        return ("true", "false")
    return CHOICES.get(field.name, ())


def sizes_text(sizes: tuple[int, ...]) -> str:
    """Table sizes, as the messages show them (``2, 3, 4``)."""
    return ", ".join(map(str, sizes))


def presets_text(t: Translator) -> list[str]:
    """Every preset (name, label, description, table sizes and lives) and every option."""
    lines = [t("rules_cmd.presets"), ""]
    column = max(map(len, Rules.preset_names())) + 2  # the longest name, and a gap
    for name in Rules.preset_names():
        rules = Rules.preset(name)
        lines.append(f"  {name:<{column}}{t(f'preset.{name}')}: {t(f'preset.{name}.about')}")
        lines.append(" " * (column + 2) + t(
            "rules_cmd.facts", sizes=sizes_text(rules.allowed_table_sizes()), lives=rules.lives))
    default = Rules.preset()
    lines += ["", t("rules_cmd.options", preset=default.name), ""]
    for field in dataclasses.fields(Rules):
        if field.name not in Rules.option_names():
            continue
        line = f"  {field.name:<30}{t(f'option.{field.name}')}  ·  "
        line += t("rules_cmd.default", value=_value(getattr(default, field.name)))
        choices = _choices(field)
        if choices:
            line += "  ·  " + t("rules_cmd.choices", choices=", ".join(choices))
        lines.append(line)
    lines += ["", t("rules_cmd.more")]
    return lines


def wrap(lines: list[str], width: int) -> list[str]:
    """Lines no wider than ``width``: a long one goes on under its own text (under the
    text after a bullet or after the name column of a list), words kept whole."""
    out: list[str] = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        body = line.lstrip()
        lead = line[:len(line) - len(body)]
        hang = lead + ("  " if body.startswith("• ") else "")
        if lead == "  " and "  " in body:  # "  name      text": under the text
            name, _, rest = body.partition("  ")
            hang = " " * (len(line) - len(rest.lstrip()))
        out.extend(textwrap.wrap(line, width=width, initial_indent="", subsequent_indent=hang,
                                 break_long_words=False, break_on_hyphens=False,
                                 drop_whitespace=True) or [""])
    return out


def preset_text(t: Translator, name: str) -> list[str]:
    """One preset in full: what it is, who plays it, every rule and every option's value."""
    rules = Rules.preset(name)
    sizes = rules.allowed_table_sizes()
    lines = [f"{name}: {t(f'preset.{name}')}", t(f"preset.{name}.about"),
             t("rules_cmd.facts", sizes=sizes_text(sizes), lives=rules.lives), ""]
    lines += [f"  • {line}" for line in rules_summary(t, rules, sizes[0])[1:]]
    lines += ["", t("rules_cmd.values"), ""]
    for option in Rules.option_names():
        lines.append(f"  {option}={_value(getattr(rules, option))}")
    return lines


def rules_cmd(
    preset: Annotated[
        str | None,
        typer.Option("--preset", "-p", help=f"Show one preset in full: {PRESETS_HELP}."),
    ] = None,
    lang: Annotated[
        str | None, typer.Option("--lang", help="Language: en, nl, de, it, nb (default: locale).")
    ] = None,
) -> None:
    """The rule presets and options of toepen play, in your language."""
    try:
        language = check_lang(lang) if lang is not None else detect_lang()
    except I18nError as e:
        raise Refused(f"--lang: {e}") from None
    t = Translator(language)
    if preset is not None and preset not in Rules.preset_names():
        raise Refused(t("cli.unknown_preset", preset=preset, presets=PRESETS_HELP))
    lines = presets_text(t) if preset is None else preset_text(t, preset)
    width = max(40, shutil.get_terminal_size((100, 24)).columns - 1)
    print("\n".join(wrap(lines, width)))


def register(app: typer.Typer) -> None:
    app.command("rules")(rules_cmd)
