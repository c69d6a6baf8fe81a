"""The server says, the browser draws (issue 22, point 4): the prompt of each decision
comes with the state (``narration.turn_prompt``, naming only the legal moves) and the page
shows it as it is; the chat field is as long as the server allows. In Debian's Chromium."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser

from toepen.engine import Action
from toepen.i18n import Translator
from toepen.narration import PROMPT_VERBS, decision_verbs
from toepen.server.protocol import Limits

from .conftest import Server
from .test_catalogs import STATIC
from .test_table_play import my_turn, sit


def test_the_prompt_is_the_servers_and_names_only_the_legal_moves(browser: Browser,
                                                                  server: Server) -> None:
    """Family toepen caps the stake at 2: answering a knock, knocking again is never
    legal, and the page must not offer it ("stay, fold or knock again" was shown)."""
    made: dict[str, Any] = server.post("/api/tables", {
        "preset": "gezinstoepen", "size": 3, "bots": {"1": "heuristic", "2": "random"},
        "name": "Ann", "idle_seconds": 60, "options": {"lives": 4}})
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(30000)
    sit(page, server, made["table"]["id"], made, 0)
    page.click("#start")
    t = Translator("en", strict=True)
    web = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))["messages"]
    kinds: set[str] = set()
    answered = 0
    for _ in range(200):
        if not my_turn(page):
            break
        state = page.evaluate("() => ({view: window.toepenState.view,"
                              " prompt: window.toepenState.prompt})")
        v, prompt = state["view"], state["prompt"]
        legal = [Action.parse(a) for a in v["legal"]]
        assert prompt is not None, v["phase"]
        assert PROMPT_VERBS[prompt["id"]] == decision_verbs(legal), (prompt, v["legal"])
        shown = page.locator(".prompt-text").inner_text()
        name = v["players"][v["target"]] if 0 <= v["target"] < len(v["players"]) else ""
        assert shown == f"{web['web.your_turn']} {t(prompt['id'], name=name)}", shown
        kinds.add(prompt["id"])
        if v["phase"] == "answer":
            answered += 1
            assert "knock" not in v["legal"]
            assert prompt["id"] == "phase.answer.stay_fold", prompt
            assert "knock" not in shown.rsplit(":", 1)[1], shown  # after "Bas knocked:"
        plays = [a for a in v["legal"] if a.startswith("play ")]
        action = "stay" if "stay" in v["legal"] else (plays[0] if plays else v["legal"][-1])
        page.click(f"[data-action='{action}']:not([disabled])")
        page.wait_for_function("n => window.toepenState.view.action_count > n ||"
                               " window.toepenState.queue.length", arg=v["action_count"])
    assert answered >= 1 and len(kinds) >= 2, kinds
    # the chat field takes what the server allows, no more
    assert page.get_attribute("#chat-text", "maxlength") == str(Limits().chat_length)
    ctx.close()
