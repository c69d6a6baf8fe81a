"""Bring a real table through every phase a player sees, calling back at each one once:
the waiting room, a card to play, a knock to answer, a hand's summary, the result dialog
and the finished table. Used by tests/web/test_phone_layout.py and scripts/screenshot_web.py.

Ann (the page under test, seat 0, host) and Bob (a second page, seat 1) sit with two random
bots at a ``classic`` table of one rubber at 3 lives, the stake capped at 2 (no hand ends
the session: there is a summary), so that the seats carry rubbers and
rounds and the result shows every column. Bob knocks whenever he may until Ann has had a
knock to answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Browser, Page

from .conftest import Server
from .helpers import wait_ready

READY = """() => { const s = window.toepenState;
  return !!(s && s.view && s.view.to_act.includes(s.seat) && !s.pending && !s.queue.length
    && document.querySelector(
  ".actions button.act:not([disabled]), .hand .card.playable:not([disabled])")); }"""
STATE = """() => { const s = window.toepenState; if (!s || !s.view) return null;
  return {legal: s.view.legal, phase: s.view.phase, count: s.view.action_count,
          summary: !!document.querySelector(".felt .summary"), over: s.view.phase === "over"}; }"""

Phase = Callable[[str, Page], None]


def seat_page(browser: Browser, server: Server, table_id: str, joined: dict[str, Any],
              options: dict[str, Any], pause: int = 0) -> Page:
    """A page of its own context, sitting at the table with the seat ``joined`` gave."""
    ctx = browser.new_context(**options)
    page = ctx.new_page()
    page.set_default_timeout(30000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(server.url + "/?rules")
    page.evaluate("""([id, j, pause]) => {
        const all = JSON.parse(localStorage.getItem("toepen.seats") || "{}");
        all[id] = {token: j.token, seat: j.seat, host: !!j.host};
        localStorage.setItem("toepen.seats", JSON.stringify(all));
        localStorage.setItem("toepen.pause", String(pause));
    }""", [table_id, joined, pause])
    page.goto(f"{server.url}/?table={table_id}")
    wait_ready(page)
    return page


def first(legal: list[str], prefer: tuple[str, ...]) -> str:
    for verb in prefer:
        if verb in legal:
            return verb
    plays = [a for a in legal if a.startswith("play ")]
    return plays[0] if plays else legal[0]


def click(page: Page, action: str, count: int) -> None:
    page.click(f"[data-action='{action}']:not([disabled])")
    page.wait_for_function("n => window.toepenState.view.action_count > n"
                           " || window.toepenState.queue.length", arg=count)


def drive(browser: Browser, server: Server, on_phase: Phase, options: dict[str, Any],
          size: int = 4, timeout: float = 120.0, sessions: int = 3) -> Page:
    """Play sessions until ``on_phase(name, ann)`` was called once for each of ``waiting``,
    ``play``, ``knock``, ``summary``, ``result`` and ``finished`` (the table after the
    dialog is closed), at most ``sessions`` (a session that ends in its first hand, or
    where nobody knocks at Ann, leaves a phase for the next); ``on_phase("turn", ann)``
    at every other decision of Ann's. Answer Ann's page (the caller closes its context)."""
    seen: set[str] = set()
    ann: Page | None = None
    deadline = time.monotonic() + timeout
    for _ in range(sessions):
        if ann is not None:
            ann.context.close()
        ann = session(browser, server, on_phase, options, size, seen, deadline)
        if seen >= set(PHASES):
            break
    assert ann is not None
    return ann


PHASES = ("waiting", "play", "knock", "summary", "result", "finished")


def session(browser: Browser, server: Server, on_phase: Phase, options: dict[str, Any],
            size: int, seen: set[str], deadline: float) -> Page:
    """One session of :func:`drive`: the phases in ``seen`` are not called again."""
    def phase(name: str, page: Page) -> None:
        if name == "turn" or name not in seen:
            if name != "turn":
                seen.add(name)
            on_phase(name, page)

    bots = {str(s): "random" for s in range(2, size)}
    made = server.post("/api/tables", {
        "preset": "classic", "size": size, "bots": bots, "name": "Ann", "idle_seconds": 300,
        "options": {"lives": 3, "rubbers": 1, "max_stake": 2}})
    table_id = made["table"]["id"]
    ann = seat_page(browser, server, table_id, made, options, pause=1)
    phase("waiting", ann)
    joined = server.post(f"/api/tables/{table_id}/join", {"name": "Bob", "seat": 1})
    # Bob plays his seat in a low window (800x600: the felt of a full table of 8 once
    # spilled over his buttons there, and a seat's name took his clicks)
    bob = seat_page(browser, server, table_id, joined, {"viewport": {"width": 800, "height": 600}})
    ann.click("#start")
    ann.wait_for_selector(".felt")
    while time.monotonic() < deadline:
        a = ann.evaluate(STATE)
        if a and a["over"]:
            break
        if a and a["summary"] and "summary" not in seen:
            # the summary stays while it is looked at (what comes meanwhile waits)
            ann.evaluate("() => { window.toepenState.holdUntil = Date.now() + 600000; }")
            phase("summary", ann)
            ann.click("#summary-close")
            continue
        if a and ann.evaluate(READY):
            a = ann.evaluate(STATE)
            legal = a["legal"]
            if "stay" in legal and "fold" in legal and "knock" not in seen:
                phase("knock", ann)
            elif any(x.startswith("play ") for x in legal) and "play" not in seen:
                phase("play", ann)
            else:
                phase("turn", ann)
            click(ann, first(legal, ("stay", "accept", "pass", "no_claim")), a["count"])
            continue
        if bob.evaluate(READY):
            b = bob.evaluate(STATE)
            prefer = ("knock",) if "knock" not in seen else ()
            action = first(b["legal"], (*prefer, "stay", "accept", "pass", "no_claim"))
            click(bob, action, b["count"])
            continue
        time.sleep(0.03)
    else:
        raise AssertionError(f"the sessions did not end in time (seen {sorted(seen)})")
    ann.wait_for_selector(".result-panel .standings li")
    phase("result", ann)
    if ann.locator("#close-result").is_visible():
        ann.click("#close-result")
    phase("finished", ann)
    errors = [*ann.errors, *bob.errors]  # type: ignore[attr-defined]
    bob.context.close()
    assert errors == [], errors
    return ann


def open_sheet(browser: Browser, server: Server, players: list[str], options: dict[str, Any],
               entries: tuple[str, ...] = ()) -> Page:
    """A page keeping a new score sheet for real cards with ``players`` (classic, so that
    rubbers and rounds have their columns), with ``entries`` made through the API."""
    made = server.post("/api/sheets", {"preset": "classic", "players": players,
                                       "options": {"lives": 3}})
    version = 0
    for entry in entries:
        got = server.post(f"/api/sheets/{made['id']}/entries", {"entry": entry, "version": version},
                          token=made["key"])
        version = got["version"]
    ctx = browser.new_context(**options)
    page = ctx.new_page()
    page.set_default_timeout(30000)
    page.goto(server.url + made["keep"])
    wait_ready(page)
    page.wait_for_selector(".tally-table")
    return page
