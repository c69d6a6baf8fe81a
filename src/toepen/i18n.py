"""Message catalogs: every user-facing text of the terminal and web clients, in five languages.

The catalogs are gettext ``.po`` files in ``toepen/locales/<lang>/LC_MESSAGES/``: the main
``toepen.po`` and one file per area beside it (``house.po``, ``accounts.po``, ...; every
``*.po`` there is read, and an id may live in only one of them), read directly with
Babel (no compiled ``.mo`` and no build step: a fresh clone works).
Message ids are stable symbolic keys (``log.knock``); the English text lives in the
``en`` catalog like every other language. Placeholders are named, in braces
(``{name} knocks: stake {stake}``), so that the same texts serve Python's
``str.format`` and a web client's simple replacement.

**Plural forms.** A text that depends on a count has variants by the CLDR plural category
of that count (``one``, and where a language has them ``zero``, ``two``, ``few``,
``many``): the variant of ``<id>`` for category ``one`` is the id ``<id>.one``, beside
``<id>``, which is the ``other`` form and the fallback of every category a catalog gives
no variant for. The count is the message's parameter named first in :data:`COUNT_PARAMS`
(``n``, else ``lives``, else ``seconds``), and only a number counts (text never does). A
language that needs no variant for a message simply has none (German ``1 Leben``): a
variant is never taken from another language, but from the catalog the text itself comes
from. The category is the language's own rule: Babel's ``Locale.plural_form`` here, the
browser's ``Intl.PluralRules`` in ``static/js/ui/i18n.js`` (no rule of our own in either).
A variant has the placeholders of its ``<id>`` or fewer (``l'unica vita``, where the
category is one number). The same ids serve the ``.po`` files, the browser's
``web-extra*.json`` and the narration's messages (``{id, params}``): the translators
choose, never the code that passes the count.

>>> t = Translator("nl")
>>> t("log.knock", name="Bas", stake=3)
'Bas toept: inzet 3'
>>> Translator("de")("act.fold")
'aussteigen'
>>> normalise_lang("nb_NO.UTF-8"), normalise_lang("no"), normalise_lang("en-GB")
('nb', 'nb', 'en')
>>> detect_lang({"LANG": "it_IT.UTF-8"}), detect_lang({"LANG": "C"})
('it', 'en')
>>> t("standings.fig.in", lives=1), t("standings.fig.in", lives=2)
('nog in het spel, 1 leven over', 'nog in het spel, 2 levens over')
>>> Translator("de")("standings.fig.in", lives=1)
'noch dabei, 1 Leben übrig'
>>> sorted(catalog_json("it"))
['counts', 'keys', 'lang', 'messages', 'notation', 'ranks', 'suits']
>>> catalog_json("nl")["keys"]["knock"], languages_json()["aliases"]["no"]
('k', 'nb')
"""

from __future__ import annotations

import os
import string
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from .cards import LOCAL_RANKS, RANKS, SUIT_SYMBOLS, SUITS
from .narration import VERB_KEYS

LANGUAGES: tuple[str, ...] = ("en", "nl", "de", "it", "nb")
"""The languages with a complete catalog, English (the fallback) first."""

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English", "nl": "Nederlands", "de": "Deutsch", "it": "Italiano", "nb": "Norsk bokmål",
}
"""Each language's name in itself (for a language menu)."""

DEFAULT_LANG = "en"
DOMAIN = "toepen"
LOCALE_DIR = Path(__file__).parent / "locales"

_ALIASES = {"no": "nb", "nn": "nb", "nob": "nb", "nld": "nl", "deu": "de", "ger": "de",
            "ita": "it", "eng": "en", "dut": "nl"}


PLURAL_CATEGORIES: tuple[str, ...] = ("zero", "one", "two", "few", "many")
"""The CLDR plural categories a variant ``<id>.<category>`` may have (``other`` is ``<id>``)."""

COUNT_PARAMS: tuple[str, ...] = ("n", "lives", "seconds")
"""The parameters that may be a message's count, the first present one deciding: its value
picks the plural variant (see the module's text). The browser gets them in each catalog."""


class I18nError(ValueError):
    """An unknown language, a missing message or a broken catalog."""


def N_(key: str) -> str:
    """Mark a message id for the catalogs without translating it (gettext's ``N_``)."""
    return key


def normalise_lang(value: str) -> str | None:
    """The catalog language of a locale name (``nl_BE.UTF-8`` -> ``nl``), or None."""
    if not isinstance(value, str):
        return None
    code = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    code = _ALIASES.get(code, code)
    return code if code in LANGUAGES else None


def check_lang(value: str) -> str:
    """A language from ``--lang``: normalised, or I18nError naming the languages there are."""
    lang = normalise_lang(value)
    if lang is None:
        raise I18nError(
            f"language {value!r} is not available (one of {', '.join(LANGUAGES)})"
        )
    return lang


def detect_lang(environ: Mapping[str, str] | None = None) -> str:
    """The language of the user's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English.

    ``LANGUAGE`` (a colon-separated preference list) is read first, as gettext does.
    """
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":"):
            lang = normalise_lang(part)
            if lang is not None:
                return lang
        if var != "LANGUAGE":
            # The first locale variable that is set decides, as in POSIX.
            return DEFAULT_LANG
    return DEFAULT_LANG


def po_path(lang: str) -> Path:
    """Where the main ``.po`` catalog of a language lives."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def po_paths(lang: str) -> list[Path]:
    """Every ``.po`` file of a language: the main catalog first, then the area files by name."""
    main = po_path(lang)
    return [main, *sorted(p for p in main.parent.glob("*.po") if p != main)]


@cache
def catalog(lang: str) -> dict[str, str]:
    """The messages of one language, id -> text (I18nError for an unknown language)."""
    from babel.messages.pofile import read_po

    lang = check_lang(lang)
    out: dict[str, str] = {}
    where: dict[str, str] = {}
    for path in po_paths(lang):
        try:
            with path.open("rb") as f:
                cat = read_po(f, locale=lang, domain=DOMAIN)
        except OSError as e:
            raise I18nError(f"catalog {lang}: cannot read {path}: {e.strerror}") from None
        for message in cat:
            if not message.id or not isinstance(message.id, str):
                continue
            text = message.string
            if not isinstance(text, str) or not text:
                continue
            if message.id in where:
                raise I18nError(f"catalog {lang}: message {message.id!r} is in both "
                                f"{where[message.id]} and {path.name}")
            where[message.id] = path.name
            out[message.id] = text
    return out


def plural_base(key: str) -> str | None:
    """The message a plural variant belongs to (``standings.fig.in.one`` ->
    ``standings.fig.in``), None for an id that is not a variant's."""
    base, _, category = key.rpartition(".")
    return base if base and category in PLURAL_CATEGORIES else None


@cache
def plural_rule(lang: str) -> Callable[[float], str]:
    """The CLDR plural category of a count in a language (``one``, ``other``...), by Babel."""
    from babel import Locale

    rule: Callable[[float], str] = Locale.parse(check_lang(lang)).plural_form
    return rule


def plural_categories(lang: str) -> frozenset[str]:
    """The categories a language's variants may have: its CLDR categories but ``other``."""
    from babel import Locale

    return frozenset(Locale.parse(check_lang(lang)).plural_form.tags) - {"other"}


def count_of(values: Mapping[str, object]) -> int | float | None:
    """The count among a message's parameters: the first of :data:`COUNT_PARAMS` given,
    if it is a number (None otherwise: no variant is chosen)."""
    for name in COUNT_PARAMS:
        if name in values:
            value = values[name]
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return value
            return None
    return None


@cache
def _counted(lang: str) -> frozenset[str]:
    """The ids of a language's catalog that have plural variants there."""
    messages = catalog(lang)
    return frozenset(b for k in messages if (b := plural_base(k)) is not None and b in messages)


def choose(messages: Mapping[str, str], lang: str, key: str,
           values: Mapping[str, object]) -> str | None:
    """The text of ``key`` in ``messages`` (one language's catalog, ``lang``) for these
    parameter ``values``: the variant of the count's plural category where the catalog has
    one, else the message itself; None when ``messages`` lacks ``key``.

    >>> messages = {"web.lives": "{n} levens", "web.lives.one": "{n} leven"}
    >>> choose(messages, "nl", "web.lives", {"n": 1}), choose(messages, "nl", "web.lives", {"n": 0})
    ('{n} leven', '{n} levens')
    """
    text = messages.get(key)
    if text is None:
        return None
    count = count_of(values)
    if count is None:
        return text
    return messages.get(f"{key}.{plural_rule(lang)(count)}", text)


def message_ids() -> frozenset[str]:
    """Every message id of the English catalog (the reference set)."""
    return frozenset(catalog(DEFAULT_LANG))


def placeholders(text: str) -> frozenset[str]:
    """The named ``{placeholders}`` of a message text."""
    return frozenset(
        field for _, field, _, _ in string.Formatter().parse(text) if field
    )


def catalog_json(lang: str) -> dict[str, Any]:
    """A language's catalog as JSON-ready data for the web client.

    ``messages`` maps id -> text (placeholders in braces); ``ranks`` are the localised
    rank letters in rank order (ten first, jack last); ``suits`` the suit symbols in
    suit order (clubs, diamonds, hearts, spades); ``notation`` the letters of card
    notation (``Th``) in the same orders; ``keys`` the keyboard key of each verb;
    ``counts`` the parameters that may be a message's count (:data:`COUNT_PARAMS`: the
    plural variants ``<id>.one``... are among the messages).
    """
    lang = check_lang(lang)
    return {
        "lang": lang,
        "counts": list(COUNT_PARAMS),
        "messages": dict(sorted(catalog(lang).items())),
        "ranks": list(LOCAL_RANKS[lang]),
        "suits": list(SUIT_SYMBOLS),
        "notation": {"ranks": RANKS, "suits": SUITS},
        "keys": {str(act): key for act, key in VERB_KEYS.items()},
    }


def languages_json() -> dict[str, Any]:
    """The languages for the web client: code and name, English first, and the aliases
    a browser's language code may use (``no`` -> ``nb``); see :func:`normalise_lang`."""
    return {
        "languages": [{"code": code, "name": LANGUAGE_NAMES[code]} for code in LANGUAGES],
        "default": DEFAULT_LANG,
        "aliases": dict(sorted(_ALIASES.items())),
    }


class Translator:
    """Translate message ids into one language.

    A missing id falls back to English; with ``strict`` it raises I18nError instead
    (tests run the app strictly so that no message can be missing). A message with plural
    variants gets the one of its count (see the module's text): a variant is optional and
    never missing.
    """

    def __init__(self, lang: str = DEFAULT_LANG, *, strict: bool = False) -> None:
        self.lang = check_lang(lang)
        self.strict = strict
        self._messages = catalog(self.lang)
        self._fallback = catalog(DEFAULT_LANG)

    def __call__(self, key: str, /, **values: object) -> str:
        messages, lang = self._messages, self.lang
        text = messages.get(key)
        if text is None:
            if self.strict:
                raise I18nError(f"message {key!r} is missing from the {self.lang} catalog")
            messages, lang = self._fallback, DEFAULT_LANG
            text = messages.get(key, key)
        if not values:
            return text
        if key in _counted(lang):
            text = choose(messages, lang, key, values) or text
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError) as e:
            if self.strict:
                raise I18nError(f"message {key!r} ({self.lang}): bad placeholder {e}") from None
            return text

    def has(self, key: str) -> bool:
        """True if the language's own catalog holds ``key``."""
        return key in self._messages
