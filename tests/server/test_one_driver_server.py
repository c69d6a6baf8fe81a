"""One driver (issue 22): the same seeded table with the same bots makes the same actions
at a real server (``toepen serve`` in a subprocess: its scheduler, bot pool in a worker
process, master and storage) as in the arena's driver and in the terminal's, under every
preset and every option value (each also under ``knock_anytime``, where the server
offers its bots the knock windows the arena and the RL adapters offer); and an answer a
bot cannot play is the fallback bot's there as in every venue, and is counted."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from driver_cases import HANDS, Case, arena_actions, cases, lineup, names, terminal_actions

from toepen.engine import KNOCK, PASS, Action, Game, action
from toepen.match import Incident, seat_seed
from toepen.server.db.store import Store
from toepen.server.http.metrics import Metrics
from toepen.server.tables import botpool
from toepen.server.tables.lobby import Lobby
from toepen.view import View

from .conftest import Server, create, registered_bot


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("db") / "toepen.sqlite3"
    srv = Server(f"sqlite:///{db}", "--tables-per-client", "500").start()
    yield srv
    srv.stop()


def stored(db: str, table_id: str) -> tuple[int, int, str, list[tuple[int, Action]]]:
    """A table's seed, dealer, status and actions, read from the server's own database."""
    with sqlite3.connect(db.removeprefix("sqlite:///")) as con:
        seed, dealer, status = con.execute(
            "SELECT seed, dealer, status FROM toepen_tables WHERE id = ?", (table_id,)
        ).fetchone()
        rows = con.execute("SELECT seat, action FROM toepen_actions WHERE table_id = ? "
                           "ORDER BY n", (table_id,)).fetchall()
    return seed, dealer, status, [(seat, action(text)) for seat, text in rows]


def ends(case: Case, actions: list[tuple[int, Action]], seed: int, dealer: int) -> bool:
    """Whether the game is over after ``actions`` (else the arena stopped at HANDS)."""
    game = Game(case.rules, tuple(names(case.size)), seed=seed, dealer=dealer)
    for seat, act in actions:
        game.apply(seat, act)
    return game.is_over


def test_the_server_plays_every_case_as_the_arena_and_the_terminal(many: Server) -> None:
    all_cases = cases()
    tables = []
    for i, case in enumerate(all_cases):
        bots = lineup(i, case.size)
        made = create(many, preset=case.preset, options=case.options, size=case.size,
                      bots={str(s): b for s, b in enumerate(bots)}, autostart=True)
        tables.append((case, bots, made["table"]["id"]))
    expected: dict[str, tuple[list[tuple[int, Action]], bool]] = {}
    served: dict[str, list[tuple[int, Action]]] = {}
    deadline = time.monotonic() + 900
    while len(served) < len(tables):
        assert time.monotonic() < deadline, f"not over: {len(tables) - len(served)} tables"
        time.sleep(0.5)
        for case, bots, tid in tables:
            if tid in served:
                continue
            seed, dealer, status, actions = stored(many.db, tid)
            if tid not in expected:
                arena = arena_actions(case, bots, seed, dealer)
                expected[tid] = (arena, ends(case, arena, seed, dealer))
            arena, over = expected[tid]
            if status == "over" or not over and len(actions) >= len(arena):
                served[tid] = actions if over else actions[:len(arena)]  # capped: its start
    capped = windows = 0
    for case, bots, tid in tables:
        seed, dealer, _status, _ = stored(many.db, tid)
        arena, over = expected[tid]
        capped += not over
        assert served[tid] == arena, f"{case.label}: the server and the arena differ"
        assert terminal_actions(case, bots, seed, dealer) == arena, \
            f"{case.label}: the terminal and the arena differ"
        if case.rules.knock_anytime:  # knocks out of turn: a window was taken
            game = Game(case.rules, tuple(names(case.size)), seed=seed, dealer=dealer)
            for seat, act in arena:
                windows += act is KNOCK and seat != game.turn
                game.apply(seat, act)
    assert windows > 0, "no bot knocked in a window"
    assert capped >= 1  # the open-ended rubbers: compared over their first HANDS hands
    assert HANDS >= 10


# -- an answer that cannot be played, at the server ------------------------------------------


class Broken:
    """Raises on every other decision, answers knock-or-pass windows with a card, and
    otherwise chooses an action that is never legal (pass in the play)."""

    name = "test-broken"

    def __init__(self, seed: int | None = None, time_budget: float | None = None) -> None:
        pass

    def act(self, view: View) -> Action:
        if view.action_count % 2:
            raise RuntimeError("no idea")
        if PASS in view.legal:
            return action("play 7c")
        return PASS


@pytest.fixture
def broken_bot() -> Iterator[str]:
    with registered_bot("test-broken", Broken) as registered:
        yield registered


def test_a_failed_answer_at_the_server_is_the_fallbacks_and_is_counted(
        broken_bot: str, tmp_path: Path) -> None:
    """The server's lobby, master, scheduler and storage in this process (so that the test
    bot is registered there; the bot pool in threads): the broken bot's every answer is
    the fallback's (``random``, seeded by the seat), as in the arena's and the terminal's
    driver, and each incident is in the metrics."""
    case = Case("broken", "rulebook", {"lives": 2, "knock_anytime": True}, 3)
    bots = ["heuristic", broken_bot, "random"]
    metrics = Metrics()

    async def main() -> tuple[int, int, list[tuple[int, Action]]]:
        store = await asyncio.to_thread(Store.open, f"sqlite:///{tmp_path / 'db.sqlite3'}")
        pool = botpool.BotPool(1, "thread")
        lobby = Lobby(store, pool)
        lobby.master.metrics = metrics
        await lobby.load()
        try:
            table, _token, _seat = await lobby.create(
                preset=case.preset, options=case.options, size=case.size,
                bots=dict(enumerate(bots)), name=None, idle_seconds=60, autostart=True,
                creator="test")
            end = time.monotonic() + 120
            while table.game is None or not table.game.is_over:
                assert time.monotonic() < end, "the game did not end"
                await asyncio.sleep(0.02)
            return table.row.seed, table.row.dealer, list(table.game.actions)
        finally:
            await lobby.close()
            pool.close()

    # a table's seed is its secret (random): a broken seat may go out before any knock
    # window of its own, so tables are played until one had an incident in a window too
    # and both kinds were met (nearly always the first); every table must agree with the
    # arena and the terminal
    arena: list[Incident] = []
    for _table in range(12):
        seed, dealer, actions = asyncio.run(main())
        game_arena: list[Incident] = []
        assert arena_actions(case, bots, seed, dealer, game_arena) == actions
        terminal: list[Incident] = []
        # the person of seat 0 is the broken bot too: asked through the same match.ask
        assert terminal_actions(case, bots, seed, dealer, terminal) == actions
        assert game_arena and [(i.seat, i.kind, i.action) for i in terminal] == \
            [(i.seat, i.kind, i.action) for i in game_arena]
        arena += game_arena
        # (and until both kinds were met: a seat out early may have failed one way only)
        if any(i.window for i in arena) and {i.kind for i in arena} == {"error", "illegal"}:
            break
    assert {i.kind for i in arena} == {"error", "illegal"}
    assert {i.fallback for i in arena} == {"random"}  # not in the registry: the weakest
    assert any(i.window for i in arena)  # in knock windows too
    assert {i.seat for i in arena} == {1}
    counted = {kind: metrics.registry.get_sample_value("toepen_bot_incidents_total",
                                                       {"kind": kind})
               for kind in ("error", "illegal")}
    assert counted == {"error": sum(i.kind == "error" for i in arena),
                       "illegal": sum(i.kind == "illegal" for i in arena)}
    assert seat_seed(seed, 0) != seat_seed(seed, 1)
