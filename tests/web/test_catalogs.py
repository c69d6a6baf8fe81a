"""The browser client's texts: every message id its code uses exists in all five catalogs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from toepen.engine.actions import VERBS
from toepen.engine.events import EventKind
from toepen.engine.state import Phase
from toepen.i18n import LANGUAGES, catalog, placeholders

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "toepen" / "server" / "static"
KEY_RE = re.compile(r"""["'`]((?:log|web|act|phase|suit|rank)\.[a-z_.]+[a-z_])["'`]""")


def _sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8")
                     for p in sorted(STATIC.rglob("*")) if p.suffix in (".js", ".html"))


def _used_keys() -> set[str]:
    keys = set(KEY_RE.findall(_sources()))
    # ids the code builds from values: phases, verbs, suits, connection states, options
    keys |= {f"phase.{p.name.lower()}" for p in Phase}
    keys |= {f"act.{v}" for v in VERBS} | {"act.play"}
    keys |= {f"suit.{s}" for s in "cdhs"}
    keys |= {f"web.conn.{s}" for s in ("connecting", "open", "reconnecting", "closed")}
    keys |= {f"web.opt.{o}" for o in ("lives", "max_stake", "last_trick")}
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
        assert placeholders(text) == placeholders(english[key]), f"{lang} {key}: {text!r}"


def test_generated_catalogs_are_current_and_hold_the_shared_texts() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_web_catalogs.py"),
                           "--check"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    for lang in LANGUAGES:
        data = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        for key, text in catalog(lang).items():
            assert data["messages"][key] == text


def test_the_narrator_handles_every_event_kind() -> None:
    source = (STATIC / "js" / "narrate.js").read_text(encoding="utf-8")
    cases = set(re.findall(r'case "([a-z_]+)":', source))
    assert cases == {k.value for k in EventKind}


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
    assert len(calls) >= 35
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
