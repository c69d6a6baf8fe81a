"""The replay viewer on a game of many pages (issue 37: the replay API is paged).

The viewer asks for a page of steps at a time as the user moves; it must still show the
whole game: the first step, the last one, and any in between, each the server's step.
The game (four random bots, ten lives at a stake of one: 544 actions) is played by the engine
and stored through the storage layer before the server starts.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect
from server.test_replay_budget import store_finished

from toepen.bots.base import make_bot
from toepen.engine import Game
from toepen.match import play_game
from toepen.rules import Rules

from .conftest import Server

TABLE = "feedbeef0042"


def store_game(url: str) -> int:
    """A finished game of four random bots stored as a server would; its actions."""
    rules = Rules.preset("rulebook", lives=10, max_stake=1, armoede=False)
    game = Game(rules, ["Ada", "Bas", "Cor", "Dirk"], seed=7, dealer=3)
    play_game(game, [make_bot("random", seed=i) for i in range(4)])
    return store_finished(url, game, TABLE, "PAGESX", 7)


@pytest.fixture(scope="module")
def long_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, int]]:
    db = tmp_path_factory.mktemp("pages") / "toepen.sqlite3"
    n = store_game(f"sqlite:///{db}")
    srv = Server(db)
    srv.start()
    yield srv, n
    srv.stop()


def step_of(server: Server, k: int, seat: str) -> dict[str, object]:
    with urllib.request.urlopen(f"{server.url}/api/tables/{TABLE}/replay?from={k}&count=1"
                                f"&seat={seat}") as r:
        page = json.load(r)
    step: dict[str, object] = page["steps"][0]
    return step


def test_the_viewer_shows_every_page_of_a_long_game(page: Page,
                                                     long_server: tuple[Server, int]) -> None:
    server, n = long_server
    assert n > 300  # more than three pages of 100 steps
    page.goto(f"{server.url}/?replay={TABLE}")
    page.wait_for_selector("#rboard .felt")
    page.select_option("#who", "all")
    expect(page.locator("#slider")).to_have_attribute("max", str(n))
    page.click("#last")
    expect(page.locator("#stepno")).to_have_text(f"Step {n} of {n}")
    # the last step as the server has it: every hand shown, none left (the game is over)
    last = step_of(server, n, "all")
    assert last["hands"] and all(h == [] for h in last["hands"])  # type: ignore[union-attr]
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#stepno")).to_have_text(f"Step {n - 1} of {n}")
    # a step in the middle, on a page not asked for yet, then the first
    page.locator("#slider").fill(str(n // 2))
    expect(page.locator("#stepno")).to_have_text(f"Step {n // 2} of {n}")
    middle = step_of(server, n // 2, "all")
    hands = middle["hands"]
    assert isinstance(hands, list)
    expect(page.locator("#rboard .mini.face:not(.played)")).to_have_count(
        sum(len(h) for h in hands))
    page.keyboard.press("Home")
    expect(page.locator("#stepno")).to_have_text(f"Step 0 of {n}")
    assert page.url.endswith("step=0")
