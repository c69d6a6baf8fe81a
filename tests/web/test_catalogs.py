"""The browser client's texts: every message id its code uses exists in all five catalogs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from toepen.engine import REFUSAL_CODES, VERBS, Phase
from toepen.engine.events import EventKind
from toepen.i18n import LANGUAGES, catalog, placeholders, plural_base
from toepen.server.tables.presets import presets_json

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "toepen" / "server" / "static"
KEY_RE = re.compile(r"""["'`]((?:log|web|act|phase|suit|rank|error|review)\.[a-z_.]+[a-z_])["'`]""")


def _sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8")
                     for p in sorted(STATIC.rglob("*")) if p.suffix in (".js", ".html"))


def _used_keys() -> set[str]:
    keys = set(KEY_RE.findall(_sources()))
    # ids the code builds from values: phases, verbs, suits, connection states, options
    keys |= {f"phase.{p}" for p in Phase}
    keys |= {f"act.{v}" for v in VERBS} | {"act.play"}
    keys |= {f"suit.{s}" for s in "cdhs"}
    keys |= {f"web.conn.{s}" for s in ("connecting", "open", "reconnecting", "closed")}
    # ids the server hands the page: presets and options (GET /api/presets), refusals
    meta = presets_json()
    keys |= {p["label"] for p in meta["presets"]} | {p["about"] for p in meta["presets"]}
    for o in meta["options"]:
        keys.add(o["about"])
        if o["type"] == "choice":
            keys |= {f"{o['about']}.{c}" for c in o["choices"] or ()}
    keys |= {f"refusal.{code}" for code in REFUSAL_CODES}
    # the first-game guide explains every decision (web.guide.<phase>); the server's errors
    keys |= {f"web.guide.{p}" for p in Phase}
    from toepen.server.protocol import ERROR_CODES

    keys |= {f"error.{code}" for code in ERROR_CODES}
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_used_message_is_in_the_catalog(lang: str) -> None:
    data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert data["lang"] == lang and len(data["ranks"]) == 8 and len(data["suits"]) == 4
    messages = data["messages"]
    missing = sorted(k for k in _used_keys() if k not in messages)
    assert not missing, f"{lang}: missing {missing}"
    english = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))["messages"]
    for key, text in messages.items():
        base = plural_base(key)  # a plural variant: its message's placeholders or fewer
        if base is not None:
            assert placeholders(text) <= placeholders(messages[base]), f"{lang} {key}: {text!r}"
            continue
        assert placeholders(text) == placeholders(english[key]), f"{lang} {key}: {text!r}"


def test_generated_catalogs_are_current_and_hold_the_shared_texts() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_web_catalogs.py"),
                           "--check"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    for lang in LANGUAGES:
        data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for key, text in catalog(lang).items():
            assert data["messages"][key] == text


def test_the_page_holds_no_narration_and_no_rule_facts() -> None:
    """Events are put in words once, by toepen.narration on the server (each event's
    ``say``); the page only translates. Rule facts come from the server or the catalogs."""
    assert not list((STATIC / "js").rglob("narrate.js"))
    js = {p.name: p.read_text(encoding="utf-8") for p in sorted((STATIC / "js").rglob("*.js"))}
    text = "\n".join(js.values())
    # no switch over event kinds, no event message ids written out
    kinds = {k.value for k in EventKind}
    assert not set(re.findall(r'case\s+"([a-z_]+)"', text)) & kinds
    assert not re.findall(r"""["'`]log\.[a-z_.]+["'`]""", text)
    # (the animations and the tally read a few kinds of event, never to put them in words)
    # (and the trick event, to keep a taken trick on the felt: its words are its say)
    assert set(re.findall(r'kind\s*===?\s*"([a-z_]+)"', text)) & kinds <= {"play", "knock",
                                                                            "lives", "trick"}
    # no rule facts: presets, sizes, lives, verb keys, card letters, suit symbols, aliases
    for fact in ("PRESET_SIZES", "PRESET_LIVES", "VERB_KEYS", "NUMBER_OPTIONS", "gezinstoepen",
                 "rulebook", "T987AKQJ", '"cdhs"', "\\u2663", '"nn"', '"nb"', "lives_at_least"):
        assert fact not in text, fact
    assert not re.search(r"\bknock\s*:\s*\"k\"", text)
    # one esc(), in util.js
    assert [name for name, src in js.items() if re.search(r"function esc\b", src)] == ["util.js"]


def test_no_page_loads_anything_from_elsewhere() -> None:
    """No CDN: every script, style and image is served by toepen serve itself."""
    text = _sources() + "".join(p.read_text(encoding="utf-8") for p in STATIC.rglob("*.css"))
    assert not re.search(r"(src|href)=[\"']https?://", text)
    assert not re.search(r"@import\s+url\(\s*[\"']?https?:", text)
    assert "import" in text and not re.search(r"from\s+[\"']https?://", text)


def test_the_code_fills_exactly_the_placeholders_of_each_message() -> None:
    """``t("log.knock", {name, stake})`` must pass every placeholder the text has, no other."""
    english = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))["messages"]
    calls = re.findall(r't\(\s*"([a-z_.]+)"\s*,\s*\{([^{}]*)\}', _sources())
    # (the narration's messages are checked in Python: tests/play/test_play_narrate.py)
    assert len(calls) >= 18
    for key, body in calls:
        given = {piece.strip().split(":")[0].strip() for piece in _top_level(body).split(",")}
        assert given == placeholders(english[key]), f"{key}: passes {given}"


def _top_level(body: str) -> str:
    """An object literal's body without strings and parenthesised parts (they hold commas)."""
    body = re.sub(r'"[^"]*"', '""', body)
    while True:
        shorter = re.sub(r"\([^()]*\)", "", body)
        if shorter == body:
            return body
        body = shorter
