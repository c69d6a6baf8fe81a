"""What the browser tests do with a page: create tables, click legal actions, read the state."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page

from toepen.cards import card_str
from toepen.engine.events import Event, EventKind, redact
from toepen.narration import describe
from toepen.record import start
from toepen.view import observe

ACTIONABLE = ".actions button.act:not([disabled]), .hand .card.playable:not([disabled])"
CARD_RE = re.compile(r"^[T987AKQJ][cdhs]$")


def view(page: Page) -> dict[str, Any] | None:
    """The last view the page received (the page's own state, as the server sent it)."""
    v: dict[str, Any] | None = page.evaluate(
        "() => window.toepenState ? window.toepenState.view : null")
    return v


def wait_ready(page: Page) -> None:
    page.wait_for_selector("body[data-ready='1']")


def create_table(page: Page, base: str, name: str, bots: dict[int, str], size: int = 4) -> str:
    """Create a table from the lobby form; return its id (the page is on the table page)."""
    page.goto(base + "/")
    wait_ready(page)
    page.fill("#name", name)
    page.select_option("#size", str(size))
    for seat in range(1, size):
        page.select_option(f"select[data-seat='{seat}']", bots.get(seat, ""))
    page.click("#create")
    page.wait_for_url(re.compile(r"\?table=[0-9a-f]{12}$"))
    page.wait_for_selector(".waiting")
    return page.url.rsplit("=", 1)[1]


def start_game(page: Page) -> None:
    page.click("#start")
    page.wait_for_selector(".felt")


def my_turn_or_over(page: Page, timeout: float = 20000) -> str:
    """Wait until the page offers an action ('turn') or the game is over ('over')."""
    page.wait_for_function(
        f"""() => document.querySelector("{ACTIONABLE}") || (window.toepenState
              && window.toepenState.view && window.toepenState.view.phase === "over")""",
        timeout=timeout,
    )
    v = view(page)
    return "over" if v is not None and v["phase"] == "over" else "turn"


def choose(legal: list[str], prefer: tuple[str, ...]) -> str:
    """The first preferred verb that is legal, else the first legal card, else the first verb."""
    for verb in prefer:
        if verb in legal:
            return verb
    plays = [a for a in legal if a.startswith("play ")]
    return plays[0] if plays else legal[0]


def click_action(page: Page, action: str) -> None:
    """Click the button (or card) of a legal action and wait until the server moved on."""
    before = view(page)
    assert before is not None and action in before["legal"], (action, before and before["legal"])
    page.click(f"[data-action='{action}']:not([disabled])")
    page.wait_for_function(
        "(n) => window.toepenState.view && window.toepenState.view.action_count > n",
        arg=before["action_count"],
    )


def event_json(e: Event, viewer: int | None) -> dict[str, Any]:
    """An event as the server sends it to ``viewer``: with its narration (``say``)."""
    say = describe(e, viewer)
    return {"kind": str(e.kind), "seat": e.seat, "value": e.value,
            "cards": [card_str(c) for c in e.cards], "detail": e.detail, "private": e.private,
            "say": None if say is None else say.to_json()}


def check_frames(frames: list[str], record: dict[str, Any]) -> int:
    """Every ``state`` frame must be exactly what its receiver may see at that state number.

    The game is replayed from the finished game's record; each frame's view must equal
    ``observe(game, seat)`` and its events the redacted events of the action that led
    there. No other frame may hold a card. Returns how many state frames were checked.
    """
    by_state: dict[int, list[dict[str, Any]]] = {}
    for text in frames:
        msg = json.loads(text)
        if msg["type"] == "state":
            by_state.setdefault(msg["state"], []).append(msg)
        else:
            assert not _cards_in(msg), f"a {msg['type']} frame holds cards: {msg}"
    game, actions = start(record)
    checked = 0
    events: list[Event] = game.opening_events(omniscient=True)
    for k in range(len(actions) + 1):
        for msg in by_state.pop(k, []):
            seat = msg["view"]["seat"]
            assert msg["view"] == observe(game, seat).to_json(), f"state {k}: seat {seat}'s view"
            expected = [event_json(e, seat) for e in redact(events, seat)]
            assert msg["events"] in ([], expected), f"state {k}: events for seat {seat} differ"
            hidden = _hidden_cards(game, seat)
            in_view = {c for c in _cards_in(msg["view"])}
            assert not in_view & hidden, f"state {k}: seat {seat} sees {in_view & hidden}"
            checked += 1
        if k < len(actions):
            seat, act = actions[k]
            events = game.apply(seat, act)
    assert not by_state, f"frames for states beyond the record: {sorted(by_state)}"
    return checked


def lives_lost(record: dict[str, Any]) -> list[int]:
    """Lives lost by seat over the whole recorded session (the strokes of the score sheet)."""
    game, actions = start(record)
    lost = [0] * game.n
    events: list[Event] = game.opening_events(omniscient=True)
    for seat, act in actions:
        events += game.apply(seat, act)
    for e in events:
        if e.kind is EventKind.LIVES:
            lost[e.seat] += e.value
    return lost


def _hidden_cards(game: Any, seat: int | None) -> set[str]:
    """Cards in the other seats' hands that no challenge has revealed."""
    shown = {card_str(c) for _, mask, _ in game.revealed for c in _cards_of(mask)}
    out: set[str] = set()
    for s, mask in enumerate(game.hand_masks()):
        if s != seat:
            out |= {card_str(c) for c in _cards_of(mask)}
    return out - shown


def _cards_of(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def _cards_in(data: Any) -> set[str]:
    """Every string in a JSON value that is a card (or a 'play CARD' action)."""
    out: set[str] = set()
    if isinstance(data, dict):
        for v in data.values():
            out |= _cards_in(v)
    elif isinstance(data, list):
        for v in data:
            out |= _cards_in(v)
    elif isinstance(data, str):
        if CARD_RE.match(data):
            out.add(data)
        elif data.startswith("play ") and CARD_RE.match(data[5:]):
            out.add(data[5:])
    return out
