"""Drive ``PlayApp`` headless through key presses, as a person would."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from toepen.rules import Rules
from toepen.tui.app import PlayApp
from toepen.tui.session import PlaySession

Policy = Callable[[PlayApp, list[str]], str]
"""Chooses the key to press from the app and the keys of the legal actions."""


def first_key(app: PlayApp, keys: list[str]) -> str:
    """Deterministic from the game state alone (so a resumed game chooses the same)."""
    n = len(app.session.game.actions)
    return keys[n % len(keys)]


def make_session(tmp: Path, preset: str = "rulebook", *, players: int = 4, lives: int = 2,
                 bots: str = "random", seed: int = 1, lang: str = "en",
                 **options: object) -> PlaySession:
    rules = Rules.preset(preset, lives=lives, **options)
    return PlaySession.new(rules, players=players, bots=[bots], name="Ann", seed=seed,
                           path=tmp / "game.json", lang=lang)


async def settle(pilot: Pilot[None], app: PlayApp, timeout: float = 20.0) -> None:
    """Wait until the app awaits the human, or the session is over; a hand's summary on a
    screen of its own (a small window) is read and closed with a key on the way."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not (app.awaiting_human or app.over) or (app.summary_open and not app.over):
        if app.summary_open and not app.over:
            await pilot.press("enter")
            continue
        if loop.time() > end:
            raise AssertionError(f"app stuck: phase {app.session.game.phase}, "
                                 f"turn {app.session.game.turn}")
        await pilot.pause(0.005)
    await pilot.pause()


async def play_out(pilot: Pilot[None], app: PlayApp, policy: Policy = first_key,
                   max_presses: int | None = None,
                   on_turn: Callable[[PlayApp], None] | None = None) -> int:
    """Press keys for the human until the session ends (or ``max_presses``); presses made."""
    presses = 0
    while True:
        await settle(pilot, app)
        if app.over or (max_presses is not None and presses >= max_presses):
            return presses
        if on_turn is not None:
            on_turn(app)
        keys = app.legal_keys()
        assert keys and all(keys), f"no key for a legal action: {keys}"
        before = len(app.session.game.actions)
        await pilot.press(policy(app, keys))
        actions = app.session.game.actions
        assert len(actions) > before and actions[before][0] == app.human, app.message
        presses += 1
