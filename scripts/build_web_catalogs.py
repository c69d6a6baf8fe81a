"""Build the browser client's message catalogs: ``src/toepen/server/static/i18n/{lang}.json``.

Also ``languages.json``: the languages, their names and the aliases of language codes
(``toepen.i18n.languages_json``), so that the browser holds no list of its own.

The browser client speaks the same five languages from the same catalogs as the terminal
client (``toepen.i18n.catalog_json``: game texts such as ``log.knock`` and ``act.fold``),
plus the texts only the web pages need (``web.*``, and the words of the rule options' choices,
``option.<name>.<choice>``) from ``static/i18n/web-extra.json`` and the area files beside it
(``web-extra-<area>.json``; an id may live in only one of them).
A text of the shared catalogs wins over a ``web-extra`` one with the same id. A web text
missing in a language is the English one, but for a plural variant (``<id>.one``...,
``toepen.i18n``): a language without its own variant says ``<id>`` (German ``1 Leben``),
never the English variant.

Run after changing either source, and commit the output::

    uv run python scripts/build_web_catalogs.py          # write the files
    uv run python scripts/build_web_catalogs.py --check  # exit 1 if they are out of date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from toepen.i18n import LANGUAGES, catalog_json, languages_json, plural_base

STATIC = Path(__file__).resolve().parent.parent / "src" / "toepen" / "server" / "static" / "i18n"
EXTRA = STATIC / "web-extra.json"


def build(lang: str, extra: dict[str, dict[str, str]]) -> dict[str, Any]:
    """The merged catalog of one language (web texts missing in a language fall back to English)."""
    data = catalog_json(lang)
    messages: dict[str, str] = {}
    for key, texts in extra.items():
        base = plural_base(key)
        if base is not None and base not in extra and base not in data["messages"]:
            raise SystemExit(f"web-extra: {key!r} is a plural variant of {base!r}, which is "
                             "in no catalog")
        if base is not None:  # a variant only in the languages that have one
            if texts.get(lang):
                messages[key] = texts[lang]
            continue
        text = texts.get(lang) or texts.get("en")
        if not text:
            raise SystemExit(f"web-extra.json: message {key!r} has no text for {lang} or en")
        messages[key] = text
    messages.update(data["messages"])
    data["messages"] = dict(sorted(messages.items()))
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only check that the files are current")
    args = parser.parse_args(argv)
    extra: dict[str, dict[str, str]] = {}
    for path in [EXTRA, *sorted(STATIC.glob("web-extra-*.json"))]:
        for key, texts in json.loads(path.read_text(encoding="utf-8")).items():
            if key in extra:
                raise SystemExit(f"{path.name}: message {key!r} is also in another web-extra file")
            extra[key] = texts
    stale = []
    outputs = {f"{lang}.json": build(lang, extra) for lang in LANGUAGES}
    outputs["languages.json"] = languages_json()
    for name, data in outputs.items():
        text = json.dumps(data, ensure_ascii=False, indent=0, sort_keys=True) + "\n"
        path = STATIC / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path.name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path} ({len(text)} bytes)")
    if stale:
        print(f"out of date: {', '.join(stale)} (run scripts/build_web_catalogs.py)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
