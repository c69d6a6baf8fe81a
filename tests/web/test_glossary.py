"""One word per idea and language (src/toepen/locales/glossary.json, docs/glossary.md):
every message of every catalog, the terminal's (.po) and the browser's (static/i18n),
says the glossary's word and none of its forbidden synonyms."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from toepen.i18n import LANGUAGES, catalog

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY: dict[str, Any] = json.loads(
    (ROOT / "src" / "toepen" / "locales" / "glossary.json").read_text())["terms"]
STATIC = ROOT / "src" / "toepen" / "server" / "static" / "i18n"
IDEAS = ("hand", "session", "rubber", "score sheet", "knock", "fold", "stay", "lives")


def words(phrase: str) -> re.Pattern[str]:
    """``phrase`` as whole words, any case (placeholders as they are)."""
    return re.compile(r"(?<!\w)" + re.escape(phrase) + r"(?!\w)", re.IGNORECASE)


def spoken(text: str, phrase: str) -> str:
    """What a message says of ``phrase``: its placeholders' names (``{rubbers}``) are not
    words a player reads, unless the phrase names one (``Runde {hand}``)."""
    return text if "{" in phrase else re.sub(r"\{[^{}]*\}", " ", text)


def messages(lang: str) -> dict[str, str]:
    """Every message a player of ``lang`` may read: the terminal's and the browser's."""
    web: dict[str, str] = json.loads((STATIC / f"{lang}.json").read_text())["messages"]
    return {**{f"po:{k}": v for k, v in catalog(lang).items()},
            **{f"web:{k}": v for k, v in web.items()}}


def test_the_glossary_has_every_idea_in_every_language() -> None:
    assert set(GLOSSARY) == set(IDEAS)
    for idea, by_lang in GLOSSARY.items():
        assert set(by_lang) == set(LANGUAGES), idea
        for lang, entry in by_lang.items():
            assert entry["term"].strip(), (idea, lang)
            assert not any(words(f).fullmatch(entry["term"]) for f in entry["forbidden"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_says_the_glossary_word_not_a_synonym(lang: str) -> None:
    texts = messages(lang)
    wrong = []
    for idea, by_lang in GLOSSARY.items():
        entry = by_lang[lang]
        assert any(words(entry["term"]).search(t) for t in texts.values()), \
            f"{lang}: the word for {idea!r}, {entry['term']!r}, is in no message"
        for phrase in entry["forbidden"]:
            pattern = words(phrase)
            wrong += [f"{key}: {text!r} says {phrase!r}, not {entry['term']!r} ({idea})"
                      for key, text in texts.items() if pattern.search(spoken(text, phrase))]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sheets_sum_of_strokes_is_not_called_lives(lang: str) -> None:
    """The score sheet's sum row (terminal and browser) and the result's column count the
    stakes paid over the session, which pass the lives a player began with (11 for a
    player of 10 lives, one left, who lost a knock to 2): their label is not "lives"."""
    texts = messages(lang)
    lives = words(GLOSSARY["lives"][lang]["term"])
    for key in ("po:tally.lost", "web:web.tally.lost", "web:web.lives_lost"):
        assert not lives.search(texts[key]), (key, texts[key])
