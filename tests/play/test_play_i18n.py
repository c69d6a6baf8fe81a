"""The message catalogs: five languages, the same messages, every id the app uses."""

from __future__ import annotations

import json

import pytest

from toepen.i18n import (
    LANGUAGES,
    I18nError,
    Translator,
    catalog,
    catalog_json,
    check_lang,
    detect_lang,
    placeholders,
    plural_base,
    po_paths,
)

from .msgids import used_ids


def test_every_language_has_every_message() -> None:
    # (but the plural variants, which a language has where it needs them: test_plurals.py)
    reference = {k: v for k, v in catalog("en").items() if plural_base(k) is None}
    assert len(reference) > 100
    for lang in LANGUAGES:
        messages = {k: v for k, v in catalog(lang).items() if plural_base(k) is None}
        missing = sorted(set(reference) - set(messages))
        extra = sorted(set(messages) - set(reference))
        assert not missing, f"{lang} lacks {missing}"
        assert not extra, f"{lang} has messages English lacks: {extra}"
        for key, text in messages.items():
            assert text.strip(), f"{lang}: {key} is empty"
            assert placeholders(text) == placeholders(reference[key]), (
                f"{lang}: {key} has placeholders {sorted(placeholders(text))}, "
                f"English {sorted(placeholders(reference[key]))}"
            )


def test_catalogs_are_translated() -> None:
    """Not English copied five times: most texts differ from the English ones."""
    en = catalog("en")
    for lang in LANGUAGES[1:]:
        same = [k for k, v in catalog(lang).items() if v == en[k]]
        assert len(same) < len(en) // 10, f"{lang}: {len(same)} messages are the English text"


def test_every_id_the_app_uses_is_in_every_catalog() -> None:
    used = used_ids()
    # The extractor must see the code's ids, or this test proves nothing.
    assert {"log.knock", "act.fold", "log.pass.exchange", "illegal.no_card",
            "notice.fallback"} <= set(used)
    for lang in LANGUAGES:
        missing = {k: where for k, where in used.items() if k not in catalog(lang)}
        assert not missing, f"{lang} catalog lacks {missing}"
    unused = sorted(k for k in catalog("en") if (plural_base(k) or k) not in used)
    assert not unused, f"catalog messages no code uses: {unused}"


def test_po_files_are_plain_gettext() -> None:
    from babel.messages.pofile import read_po

    for lang in LANGUAGES:
        for path in po_paths(lang):
            with path.open("rb") as f:
                cat = read_po(f)
            assert str(cat.locale) == lang, path
            assert not [m.id for m in cat if m.fuzzy and m.id], path


def test_catalog_json_for_the_web_client() -> None:
    data = json.loads(json.dumps(catalog_json("nl")))
    assert data["lang"] == "nl"
    assert data["messages"]["log.knock"] == "{name} toept: inzet {stake}"
    assert data["ranks"][4:] == ["A", "H", "V", "B"]
    assert data["suits"] == ["♣", "♦", "♥", "♠"]
    assert catalog_json("nb")["ranks"][4:] == ["E", "K", "D", "Kn"]
    assert catalog_json("de")["ranks"][4:] == ["A", "K", "D", "B"]
    assert catalog_json("it")["ranks"][4:] == ["A", "R", "D", "F"]
    with pytest.raises(I18nError, match="'fr'.*en, nl, de, it, nb"):
        catalog_json("fr")


def test_language_choice() -> None:
    assert check_lang("NL") == "nl"
    assert check_lang("no_NO") == "nb"
    with pytest.raises(I18nError, match="not available"):
        check_lang("klingon")
    assert detect_lang({"LC_ALL": "de_DE.UTF-8", "LANG": "it_IT.UTF-8"}) == "de"
    assert detect_lang({"LANG": "nb_NO.UTF-8"}) == "nb"
    assert detect_lang({"LANGUAGE": "fr:nl", "LANG": "en_US.UTF-8"}) == "nl"
    assert detect_lang({"LC_ALL": "fr_FR.UTF-8", "LANG": "nl_NL"}) == "en"
    assert detect_lang({}) == "en"


def test_translator_strict_and_fallback() -> None:
    assert Translator("it")("log.fold", name="Cor", n=2) == "Cor lascia e paga 2"
    with pytest.raises(I18nError, match="'no.such'.*de catalog"):
        Translator("de", strict=True)("no.such")
    assert Translator("de")("no.such") == "no.such"


def test_dutch_fold_is_passen_and_the_pass_is_another_word() -> None:
    """In Toepen Dutch "passen" is folding; the armoede/exchange/challenge pass is not."""
    nl = catalog("nl")
    assert nl["act.fold"] == "passen"
    assert "pas" not in nl["act.pass"] and "pas" not in nl["log.pass.claim"]
    for key in ("phase.claim", "phase.exchange", "phase.claim_challenge",
                "phase.exchange_challenge", "log.pass.exchange", "log.pass.challenge"):
        assert "pas" not in nl[key].lower(), (key, nl[key])
    assert "passen" in nl["phase.answer"] and "passen" in nl["screen.answer_costs"].lower()
    for lang in LANGUAGES:
        texts = catalog(lang)
        assert texts["act.fold"] != texts["act.pass"], lang
