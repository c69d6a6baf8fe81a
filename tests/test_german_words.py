"""German keeps two words apart in the browser as in the terminal (issue 25, point 14): a
hand is a "Spiel", the whole session a "Partie". The browser said "{name} gewinnt das
Spiel!" at the end of a session, beside "Spiel 3" for a hand in the same window."""

from __future__ import annotations

import json
import re
from pathlib import Path

from toepen.i18n import catalog

STATIC = Path(__file__).resolve().parents[1] / "src" / "toepen" / "server" / "static" / "i18n"

SESSION = ["web.game_over_winner", "web.tally.winner", "web.guide.over", "web.rematch_started",
           "web.start", "web.guide_title", "web.invite.started", "web.invite.started_next",
           "web.replay_local", "web.replay_unavailable", "error.join.started",
           "here.error.table_full", "review.error.not_over", "log.session_result"]


def test_the_browser_says_partie_for_the_session_and_spiel_for_a_hand() -> None:
    web = json.loads((STATIC / "de.json").read_text(encoding="utf-8"))["messages"]
    for key in SESSION:
        text = web.get(key) or catalog("de")[key]
        assert "Partie" in text and not re.search(r"\bSpiel\b", text), (key, text)
    assert web["web.hand_no"] == "Spiel {n}"
    assert "Spiel {hand}" in web["log.deal"]
