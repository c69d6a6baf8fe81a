"""Plural forms: every text a player sees with a count that can be 1 reads right for 1 and
for 2, in all five languages, in the terminal's translator and in the browser's built
catalogs (the convention: :mod:`toepen.i18n`, a variant ``<id>.one`` beside ``<id>``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from plural_cases import PO, WEB, Params

from toepen.i18n import (
    COUNT_PARAMS,
    LANGUAGES,
    Translator,
    catalog,
    choose,
    placeholders,
    plural_base,
    plural_categories,
)

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "toepen" / "server" / "static" / "i18n"

CASES = [(key, lang, params, texts[lang]) for table in (PO, WEB)
         for key, (params, texts) in table.items() for lang in LANGUAGES]


def web_catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / f"{lang}.json").read_text(encoding="utf-8"))[
        "messages"]
    return data


@pytest.mark.parametrize(("key", "lang", "params", "texts"), [c for c in CASES if c[0] in PO],
                         ids=[f"{c[0]}-{c[1]}" for c in CASES if c[0] in PO])
def test_the_translator_says_one_and_two(key: str, lang: str, params: Params,
                                         texts: tuple[str, str]) -> None:
    t = Translator(lang, strict=True)
    assert (t(key, **params(1)), t(key, **params(2))) == texts


@pytest.mark.parametrize(("key", "lang", "params", "texts"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_the_browser_catalogs_say_one_and_two(key: str, lang: str, params: Params,
                                              texts: tuple[str, str]) -> None:
    """The built ``static/i18n/{lang}.json`` by the same convention (the page's ``t`` is
    checked in Chromium: ``tests/web/test_plurals_web.py``)."""
    messages = web_catalog(lang)
    said = []
    for n in (1, 2):
        values = params(n)
        text = choose(messages, lang, key, values)
        assert text is not None, f"{lang} lacks {key}"
        said.append(text.format(**values))
    assert tuple(said) == texts


def test_a_variant_is_never_another_languages() -> None:
    """German needs no singular of ``Leben``: it has no variant, and neither the terminal
    nor the built catalog takes the English one."""
    assert "standings.fig.in.one" in catalog("en")
    assert "standings.fig.in.one" not in catalog("de")
    assert "web.lives.one" not in web_catalog("de")
    assert Translator("de")("standings.fig.in", lives=1) == "noch dabei, 1 Leben übrig"
    # a count given as text never picks a variant
    assert Translator("en")("rules.lives", n="1") == "Everyone starts with 1 lives."


def _variants(messages: dict[str, str]) -> dict[str, str]:
    return {k: b for k in messages if (b := plural_base(k)) is not None}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_variant_belongs_to_a_counted_message(lang: str) -> None:
    """A variant ``<id>.<category>`` has its ``<id>`` in the same catalog, a category of the
    language, the placeholders of its ``<id>`` or fewer, and its ``<id>`` has a count."""
    for messages in (catalog(lang), web_catalog(lang)):
        variants = _variants(messages)
        assert variants
        for key, base in variants.items():
            assert base in messages, f"{lang}: {key} has no {base}"
            assert key.rsplit(".", 1)[1] in plural_categories(lang), f"{lang}: {key}"
            assert placeholders(messages[key]) <= placeholders(messages[base]), (
                f"{lang}: {key} {messages[key]!r}")
            given = [p for p in COUNT_PARAMS if p in placeholders(messages[base])]
            assert given, f"{lang}: {base} has no count ({', '.join(COUNT_PARAMS)})"


def test_every_message_with_a_counted_noun_is_in_the_tables() -> None:
    """Each English text that puts a number before a plural noun has its singular and is
    in the tables above, or is known not to take a count of 1 (table sizes, limits...)."""
    never_one = {
        # table sizes (2 to 8), the server's limits, hand and sample sizes, minimum lengths,
        # the penalty point limit (said "1/1 penalty points" only with lives 1 counted up)
        "account.error.name_length", "account.error.password_length", "error.chat.length",
        "error.chat.rate", "error.name.length", "error.players", "hint.reason.sampled",
        "log.exchange", "log.laundry", "log.you.exchange", "log.you.laundry", "rules.title",
        "web.acct.board_shown", "web.acct.size_n", "web.players_n", "web.playnow.go",
        "web.club.error.bad_name", "web.club.error.bad_title", "web.club.error.too_many",
        "web.club.error.too_many_rounds", "web.tally.error.limit", "playnow.error.size",
        "web.points_of", "standings.fig.in_points", "standings.fig.winner_points",
        "standings.fig.rubber_now_points",
        "review.reason.stay",  # the stake of a knock answered: 2 or more
        "here.error.guests",  # presence.VISIBLE_PER_ADDRESS: 5
        # lives as a number with two decimals (hint.lives: "1.00"), never a bare 1
        "hint.reason.better", "hint.reason.even", "hint.reason.others", "review.reason.best",
        "review.reason.tie", "review.reason.play", "review.reason.knock",
        "review.reason.no_knock", "review.reason.fold", "review.reason.other",
    }
    nouns = ("lives", "cards", "guests", "seconds", "moves", "rubbers", "decisions",
             "mistakes", "players", "rounds", "strokes", "points", "names", "messages",
             "characters", "rounds", "sheets")
    english = {**web_catalog("en"), **catalog("en")}
    found = set()
    for key, text in english.items():
        if plural_base(key):
            continue
        words = text.replace("}", "} ").split()
        for i, word in enumerate(words[:-1]):
            if (word.startswith("{") and word.endswith("}")
                    and words[i + 1].strip(".,:;()") in nouns):
                found.add(key)
    assert found, "the search finds nothing"
    counted = found - never_one
    assert not sorted(k for k in counted if f"{k}.one" not in english), "no singular"
    missing = sorted(counted - set(PO) - set(WEB))
    assert not missing, f"not tested: {missing}"
