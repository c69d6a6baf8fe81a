"""The browser holds no prompt and no server limit of its own (issue 22, point 4): a static
check of ``src/toepen/server/static``. The prompt of a decision is the server's
(``state.prompt``, :func:`toepen.narration.turn_prompt`); the chat field's length is the
server's (``welcome.limits``)."""

from __future__ import annotations

import re

from toepen.narration import PROMPT_VERBS

from .test_catalogs import STATIC


def _js() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((STATIC / "js").rglob("*.js"))}


def test_no_page_works_out_a_prompt() -> None:
    js = _js()
    text = "\n".join(js.values())
    decisions = [ident for ident, verbs in PROMPT_VERBS.items() if verbs]
    for ident in decisions:  # no prompt of a decision written out (it comes with the state)
        assert not re.search(rf"""["'`]{re.escape(ident)}["'`]""", text), ident
    # no prompt built from the phase, except the rules page's glossary of the decisions
    built = [name for name, src in js.items() if re.search(r"`phase\.\$\{", src)]
    assert built == ["rules.js"], built
    assert "phase.${view.phase}" not in text
    # no page decides from the legal moves what to say ("may knock?"): it draws the buttons
    assert not re.search(r"legal\.includes\(\s*[\"']knock[\"']\s*\)", text)
    assert "function phaseText" not in text
    board = js["board.js"]
    assert re.search(r"say\(\s*opts\.prompt\b", board)


def test_no_page_holds_the_servers_limits() -> None:
    html = "\n".join(p.read_text(encoding="utf-8") for p in sorted(STATIC.rglob("*"))
                     if p.suffix in (".js", ".html"))
    chat = re.findall(r"<input[^>]*id=\"chat-text\"[^>]*>", html)
    assert chat and all("maxlength" not in tag for tag in chat), chat
    assert "msg.limits.chat_length" in _js()["tablepage.js"]


def test_no_page_sums_lives_lost() -> None:
    """The score sheet's strokes are the server's (``view.lives_lost``, the engine's count
    over the whole session), not a sum of the replay's ``lives`` events."""
    js = _js()
    text = "\n".join(js.values())
    assert not re.search(r"""kind\s*===?\s*["']lives["']""", text)
    assert "lostFromEvents" not in text
    assert "/replay`" not in js["tablepage.js"]
    assert "view.lives_lost" in js["scoresheet.js"]


def test_no_page_holds_the_scoring_schemes() -> None:
    """The clubs' and tournaments' scoring schemes are the server's (``GET /api/presets``:
    ``schemes``, from :data:`toepen.tourney.SCHEMES`): no page lists them."""
    from toepen.tourney import SCHEMES

    text = "\n".join(_js().values())
    for name in SCHEMES:
        assert not re.search(rf"""["'`]{name}["'`]""", text), name
    assert "web.club.scheme.${" not in text
    assert "meta.schemes" in _js()["club.js"]


def test_no_page_resolves_the_rules() -> None:
    """The table's options are the server's, every one resolved (``table.rules_full``):
    no page looks an option up in a preset or falls back to the preset's value."""
    js = _js()
    text = "\n".join(js.values())
    for name in ("ruleOption", "startLives", "sessionKind"):
        assert name not in text, name
    assert not re.search(r"presets\.find\(", js["scoresheet.js"])
    assert not re.search(r"\.rules\[option\]", text)
    assert "rules_full" in js["tablepage.js"]


def test_no_page_narrates_a_sheet_entry() -> None:
    """A sheet's entry buttons say the server's words (``legal_say``): no page builds a rank
    letter from an entry or maps its verbs to words."""
    tally = _js()["tally.js"]
    assert "toUpperCase()}c" not in tally
    assert "entryLabel" not in tally and "rankText" not in tally
    assert "legal_say" in tally
