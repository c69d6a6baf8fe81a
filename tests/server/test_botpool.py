"""Bots think in a worker pool: the event loop (and every other table) keeps going."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from toepen.engine import Action, Game
from toepen.rules import Rules
from toepen.server.tables import botpool
from toepen.view import View, observe

from .conftest import registered_bot


class SlowBot:
    """Thinks for half a second (without holding the interpreter), then plays first legal."""

    name = "slow-test"

    def __init__(self, seed: int | None = None, time_budget: float | None = None) -> None:
        pass

    def act(self, view: View) -> Action:
        time.sleep(0.5)
        return view.legal[0]


@pytest.fixture
def slow_bot() -> Iterator[str]:
    with registered_bot("slow-test", SlowBot) as registered:
        yield registered


def test_a_slow_bot_does_not_stall_the_event_loop(slow_bot: str) -> None:
    game = Game.new("rulebook", 4, seed=3)
    view = observe(game, game.turn)
    pool = botpool.BotPool(workers=2, kind="thread")

    async def main() -> tuple[Action, int]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        tick = asyncio.create_task(ticker())
        choice = await pool.decide(slow_bot, 1, view)
        tick.cancel()
        return choice, ticks

    try:
        choice, ticks = asyncio.run(main())
    finally:
        pool.close()
    assert choice is view.legal[0]  # the interned action, as the engine wants
    assert ticks >= 10  # the loop ran all along the half second the bot thought


def test_process_pool_decisions_are_legal_interned_and_seeded() -> None:
    game = Game.new("rulebook", 4, seed=8)
    pool = botpool.BotPool(workers=1, kind="process")

    async def main() -> list[Action]:
        out = []
        for seed in (1, 1, 2):
            out.append(await pool.decide("random", seed, observe(game, game.turn)))
        return out

    try:
        a, b, _c = asyncio.run(main())
    finally:
        pool.close()
    assert a in game.legal_actions() and a is b  # same seed, same decision, interned


def test_resolving_bots() -> None:
    assert botpool.resolve_bot("random") == "random"
    assert botpool.resolve_bot("default") in ("expert", "heuristic", "random")
    with pytest.raises(ValueError, match="nobody"):
        botpool.resolve_bot("nobody")
    with pytest.raises(ValueError, match="thread"):
        botpool.BotPool(1, kind="fibre")


def test_the_pool_never_starts_a_program(tmp_path: Path) -> None:
    """Whatever name reaches the pool (a stored seat's bot included), ``cmd:`` starts
    nothing: data never runs code (issue 23, point 1)."""
    marker = tmp_path / "PWNED"
    game = Game(Rules.preset("rulebook"), ("a", "b", "c"), seed=4)
    view = observe(game, game.turn)
    with pytest.raises(ValueError, match="never a command"):
        botpool.decide(f"cmd:touch {marker}", 1, view)
    assert not marker.exists()
