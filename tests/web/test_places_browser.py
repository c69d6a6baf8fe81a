"""One finishing order in the browser (issue 22): the final standings and the score sheet
draw the server's places, in the server's order.

Tables of bots of every preset (elimination, rubbers with drinks, teams, kroeg-huisregels
with its house rules, points counted up) and several table sizes are made through the API
and started at once, with few lives so that each session ends within seconds. A spectator
opens each finished table; the result dialog's standings (one line per place, as the server
said them, translated by the page) and the score sheet's rows must both follow the places
that the engine gives when the table's record is replayed, which is also the final
``view.places`` the page received. The in-process consumers are checked in
``tests/test_places_agree.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from toepen.engine import Game
from toepen.i18n import Translator
from toepen.narration import name_list, standings
from toepen.record import start

from .conftest import Server
from .helpers import view, wait_ready
from .test_table_play import act, my_turn, sit

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("rulebook", 2, {"lives": 2}),
    ("rulebook", 5, {"lives": 1}),
    ("classic", 3, {"lives": 2, "rubbers": 2}),
    ("classic", 4, {"lives": 2, "rubbers": 1}),
    ("teams", 4, {"lives": 2}),
    ("teams", 6, {"lives": 1}),
    ("teams", 4, {"lives": 1, "session": "rubber", "rubbers": 2}),
    ("kroeg-huisregels", 4, {"lives": 2}),
    ("kroeg-huisregels", 6, {"lives": 2}),
    ("kroeg-huisregels", 5, {"lives": 2, "count": "points_up"}),
    ("gezinstoepen", 3, {"lives": 2}),
    ("kroegtoepen", 7, {"lives": 1}),
    ("no-knock", 4, {"lives": 2}),
]


def case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    name, size, options = case
    return f"{name}-{size}-" + "-".join(f"{k}={v}" for k, v in options.items())


@pytest.fixture(scope="module")
def tables(server: Server) -> dict[str, str]:
    """Every case's table, made and started at once (the bots play them side by side)."""
    out: dict[str, str] = {}
    for case in CASES:
        name, size, options = case
        made = server.post("/api/tables", {
            "preset": name, "size": size, "autostart": True, "options": options,
            "bots": {str(s): "random" for s in range(size)}})
        out[case_id(case)] = made["table"]["id"]
    return out


@pytest.fixture(scope="module")
def watcher(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB")
    yield ctx
    ctx.close()


def server_places(record: dict[str, Any]) -> tuple[list[dict[str, Any]], Game]:
    """The engine's places of the recorded session (its record replayed), as JSON, with the
    game at its end."""
    game, actions = start(record)
    for seat, action in actions:
        game.apply(seat, action)
    assert game.is_over, "the recorded session did not end"
    return [{"place": p.place, "seats": list(p.seats)} for p in game.places()], game


def check_result(page: Page, server: Server, table_id: str) -> None:
    """The finished table's result dialog on ``page``: its standings lines and its score
    sheet's rows follow the server's places (the replayed record's ``game.places()``)."""
    result = page.locator(".result-panel")
    expect(result.locator(".scoresheet tbody tr").first).to_be_visible(timeout=45000)
    expect(result.locator(".standings li").first).to_be_visible()
    record = server.get(f"/api/tables/{table_id}/record")
    places, game = server_places(record)
    final = view(page)
    assert final is not None and final["phase"] == "over"
    # the page's last view carries the same places as the replayed record
    assert [{"place": p["place"], "seats": p["seats"]} for p in final["places"]] == places
    names: list[str] = final["players"]
    assert len(set(names)) == len(names), names  # a line names its player unambiguously

    # the standings: one line per place, in order, naming that place's side, in exactly
    # the words the server's narration gives (rendered here in English)
    lines = result.locator(".standings li").all_inner_texts()
    said = standings(game.places(), game.rules)
    t = Translator("en", strict=True)
    assert lines == [m.render(t, names) for m in said[1:]], (lines, places)
    for line, p in zip(lines, places, strict=True):
        side = name_list([names[s] for s in p["seats"]], "en")  # "Gijs and Pien"
        assert line.startswith(f"{p['place']}. {side}:"), \
            (line, p)

    # the score sheet: a row per seat, in the order of the places, each marked with its place
    rows = result.locator(".scoresheet tbody tr")
    seats = [int(s) for s in rows.evaluate_all("rs => rs.map(r => r.dataset.seat)")]
    marks = [int(s) for s in rows.evaluate_all("rs => rs.map(r => r.dataset.place)")]
    heads = rows.evaluate_all(
        "rs => rs.map(r => r.querySelector('th').firstChild.textContent.trim())")
    assert seats == [s for p in places for s in p["seats"]], (seats, places)
    assert marks == [p["place"] for p in places for _ in p["seats"]], (marks, places)
    assert heads == [names[s] for s in seats], heads
    if final["winner"] is not None:
        # the winner's badge sits on a row of the first place, and only there
        assert final["winner"] in places[0]["seats"]
        badged = rows.evaluate_all(
            "rs => rs.filter(r => r.querySelector('.badge.winner')).map(r => +r.dataset.seat)")
        assert badged == [final["winner"]], badged


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_the_standings_and_the_sheet_draw_the_servers_places(
        case: tuple[str, int, dict[str, Any]], tables: dict[str, str], server: Server,
        watcher: BrowserContext) -> None:
    """A spectator of each finished table of bots: the result dialog's standings lines and
    the score sheet's rows are in the order of the server's places, each line naming that
    place's player (or pair) and each row marked with its place."""
    table_id = tables[case_id(case)]
    page = watcher.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server.url}/?table={table_id}")
        wait_ready(page)
        check_result(page, server, table_id)
        assert errors == []
    finally:
        page.close()


@pytest.mark.parametrize("preset", ["rulebook", "classic"])
def test_a_player_who_played_to_the_end_sees_the_servers_places(
        preset: str, page: Page, server: Server) -> None:
    """The same for a seated player who played the session to its end on the page (the
    standings then come with the last state, not on connecting after the end)."""
    options: dict[str, Any] = {"lives": 1} if preset == "rulebook" else {"lives": 1, "rubbers": 1}
    made = server.post("/api/tables", {"preset": preset, "size": 3, "name": "Ann",
                                       "bots": {"1": "random", "2": "random"},
                                       "idle_seconds": 60.0, "options": options})
    table_id = made["table"]["id"]
    sit(page, server, table_id, made, 0)
    page.click("#start")
    while my_turn(page):
        act(page)
    check_result(page, server, table_id)
    assert page.errors == []  # type: ignore[attr-defined]
