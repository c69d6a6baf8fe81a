"""The store's hot writes on SQLite and PostgreSQL: a group of actions
(:meth:`Store.append_actions`) and a finished game's results and ratings
(:meth:`AccountStore.record`) store what SQLAlchemy's own statements stored, in one
transaction each; a second record of a game is refused and changes nothing."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select, text, update
from sqlalchemy.exc import IntegrityError, OperationalError

from toepen.server.db.store import (
    ActionModel,
    ActionRow,
    Prepared,
    SeatRow,
    Store,
    TableModel,
    TableRow,
)
from toepen.server.site.accounts.models import RatingModel, ResultModel, UserModel
from toepen.server.site.accounts.results import MU, SIGMA, SeatResult, rate
from toepen.server.site.accounts.service import RESULT_COLUMNS, AccountStore, SeatEntry


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    url = (f"sqlite:///{tmp_path / 'toepen.sqlite3'}" if request.param == "sqlite"
           else request.getfixturevalue("postgres_url"))
    s = Store.open(url)
    yield s
    s.close()


def new_table(store: Store, seats: list[SeatRow] | None = None) -> str:
    """A table of 4 (guests unless ``seats``), started; a fresh id (the PostgreSQL
    database is shared by the session's tests)."""
    tid = secrets.token_hex(6)
    store.create_table(TableRow(
        id=tid, code=secrets.token_hex(3).upper(), preset="rulebook",
        rules={"preset": "rulebook"}, size=4, seed=7, dealer=0, idle_seconds=60.0,
        autostart=False, creator="c", host_hash="h"),
        seats or [SeatRow(s, "human", name=f"G{s}") for s in range(4)])
    store.start(tid, ["A", "B", "C", "D"])
    return tid


def raw(store: Store, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    """Rows as the database holds them (no SQLAlchemy type processing)."""
    with store.engine.connect() as conn:
        return [tuple(r) for r in conn.exec_driver_sql(
            sql.replace(":t", "?" if store.engine.dialect.positional else "%(t)s"),
            (params["t"],) if store.engine.dialect.positional else params)]


def test_a_prepared_insert_stores_what_sqlalchemy_stores(store: Store) -> None:
    a, b = new_table(store), new_table(store)
    at = datetime(2026, 12, 1, 18, 30, 5, 123456, tzinfo=UTC)
    with store.engine.begin() as conn:
        conn.execute(insert(ActionModel), [{"table_id": a, "n": 0, "seat": 1, "action": "knock",
                                            "by": "player", "at": at}])
        p = Prepared(insert(ActionModel), store.engine.dialect,
                     ("at", "by", "action", "seat", "n", "table_id", "epoch"))
        p.run(conn, [(at, "player", "knock", 1, 0, b, 0)])
    sql = 'SELECT n, seat, action, "by", at FROM toepen_actions WHERE table_id = :t'
    assert raw(store, sql, t=a) == raw(store, sql, t=b)
    with pytest.raises(ValueError):
        Prepared(insert(ActionModel), store.engine.dialect, ("table_id", "n"))


def test_a_group_of_actions_is_one_transaction(store: Store) -> None:
    a, b = new_table(store), new_table(store)
    store.append_actions([ActionRow(a, 0, 0, "pass", "player"),
                          ActionRow(b, 0, 1, "knock", "standin")])
    store.append_actions([ActionRow(a, 1, 1, "fold", "bot", winner=1)])
    assert store.load_actions(a) == [(0, "pass", "player"), (1, "fold", "bot")]
    assert store.load_actions(b) == [(1, "knock", "standin")]
    over = store.load_table(a)
    assert over is not None and (over.status, over.winner) == ("over", 1)
    again = store.load_table(b)
    assert again is not None and (again.status, again.winner) == ("playing", None)
    with pytest.raises(IntegrityError):  # action 0 of b is stored: nothing of this group is
        store.append_actions([ActionRow(a, 2, 0, "pass", "player", winner=0),
                              ActionRow(b, 0, 0, "pass", "player")])
    assert len(store.load_actions(a)) == 2
    over = store.load_table(a)
    assert over is not None and over.winner == 1
    store.append_action(b, 1, 0, "pass", "player")  # one row alone (execute, not many)
    assert len(store.load_actions(b)) == 2


def test_the_fence_refuses_the_write_of_an_owner_that_lost_its_lease(store: Store) -> None:
    """Taking a table's lease raises its epoch; an action written under an older epoch is
    refused (not stored, the other rows of its group are), and each action keeps the
    epoch it was written under; a write without an epoch (a lone server) is not fenced."""
    a, b = new_table(store), new_table(store)
    first = store.take_lease(a)
    assert first == 1 and store.take_lease(b) == 1
    assert store.append_actions([ActionRow(a, 0, 0, "pass", "bot", epoch=first)]) == []
    second = store.take_lease(a)  # another process takes the table over
    assert second == first + 1
    late = ActionRow(a, 1, 1, "pass", "bot", epoch=first)
    other = ActionRow(b, 0, 1, "knock", "player", epoch=1)
    assert store.append_actions([late, other]) == [late]  # the late owner's: refused
    assert store.load_actions(a) == [(0, "pass", "bot")]
    assert store.find_action(a, 1) is None
    assert store.find_action(b, 0) == (1, "knock", "player", 1)
    assert store.append_actions([ActionRow(a, 1, 1, "fold", "bot", winner=1,
                                           epoch=second)]) == []
    assert store.append_actions([ActionRow(b, 1, 0, "pass", "player")]) == []
    assert [store.find_action(a, n) for n in (0, 1)] == [(0, "pass", "bot", 1),
                                                          (1, "fold", "bot", 2)]
    assert store.find_action(b, 1) == (0, "pass", "player", 0)
    over = store.load_table(a)
    assert over is not None and over.winner == 1
    assert store.take_lease("nosuchtable") == 0


def test_a_write_waits_for_a_lease_being_taken_and_is_then_refused(
        postgres_url: str) -> None:
    """PostgreSQL, two processes at once: while another process's ``take_lease`` is in
    its transaction (the table's row updated, not committed), the holder's write waits
    for it, then sees the new epoch and is refused (nothing stored); a write committed
    before a lease is taken is seen by the taker. Each on its own connection, as in a
    cluster."""
    store, taker = Store.open(postgres_url), Store.open(postgres_url)
    try:
        a = new_table(store)
        first = store.take_lease(a)
        assert store.append_actions([ActionRow(a, 0, 0, "pass", "bot", epoch=first)]) == []
        with taker.engine.connect() as conn:  # a lease being taken: the row locked
            conn.execute(update(TableModel).where(TableModel.id == a)
                         .values(epoch=TableModel.epoch + 1))
            with ThreadPoolExecutor(1) as pool:
                write = pool.submit(store.append_actions,
                                    [ActionRow(a, 1, 1, "knock", "bot", epoch=first)])
                time.sleep(0.5)
                assert not write.done()  # waits for the taker's transaction
                conn.commit()
                late = write.result(timeout=10)
        assert [r.n for r in late] == [1]  # refused: the epoch moved on
        assert store.load_actions(a) == [(0, "pass", "bot")]
        second = taker.take_lease(a)
        assert second == first + 2
        assert store.append_actions([ActionRow(a, 1, 1, "fold", "bot", winner=1,
                                               epoch=second)]) == []
        assert taker.load_actions(a) == [(0, "pass", "bot"), (1, "fold", "bot")]
        over = taker.load_table(a)
        assert over is not None and (over.status, over.winner) == ("over", 1)
    finally:
        store.close()
        taker.close()


def test_a_fenced_write_after_a_broken_connection_takes_a_fresh_one(
        postgres_url: str) -> None:
    """The lease holder's write keeps a connection of its own; when the database drops it
    (a restart, a proxy) the write fails as SQLAlchemy's ``OperationalError`` (what the
    server's storage looks again after) and the next write connects afresh."""
    store = Store.open(postgres_url)
    try:
        a = new_table(store)
        epoch = store.take_lease(a)
        assert store.append_actions([ActionRow(a, 0, 0, "pass", "bot", epoch=epoch)]) == []
        pid = store._hot_connection().info.backend_pid
        with store.engine.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
        with pytest.raises(OperationalError):
            store.append_actions([ActionRow(a, 1, 1, "pass", "bot", epoch=epoch)])
        assert store.append_actions([ActionRow(a, 1, 1, "pass", "bot", epoch=epoch)]) == []
        assert store.load_actions(a) == [(0, "pass", "bot"), (1, "pass", "bot")]
        with pytest.raises(IntegrityError):  # another server stored action 1 first
            store.append_actions([ActionRow(a, 1, 2, "knock", "bot", epoch=epoch)])
        assert store.find_action(a, 1) == (1, "pass", "bot", epoch)
    finally:
        store.close()


def result(seat: int, place: int) -> SeatResult:
    return SeatResult(seat=seat, place=place, won=place == 1, hands=9, hands_won=seat,
                      lives_lost=3, knocks=4 + seat, bluffs=1)


PLACES = (2, 1, 4, 3)


def flat(rows: Iterable[Sequence[Any]]) -> list[Any]:
    return [v for r in rows for v in r]


def results(store: Store, tid: str) -> list[Any]:
    with store.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(
            select(*(getattr(ResultModel, c) for c in RESULT_COLUMNS))
            .where(ResultModel.table_id == tid).order_by(ResultModel.seat))]


def ratings(store: Store, ids: list[int]) -> dict[int, tuple[float, float, int, int]]:
    with store.engine.connect() as conn:
        return {r.user_id: (r.mu, r.sigma, r.games, r.wins) for r in conn.execute(
            select(RatingModel).where(RatingModel.user_id.in_(ids),
                                      RatingModel.family == "rulebook",
                                      RatingModel.size == 4))}


def test_an_unrated_game_of_guests_is_recorded_once(store: Store) -> None:
    db = AccountStore(store.engine)
    tid = new_table(store)
    seats = [SeatEntry(result(s, p), True) for s, p in enumerate(PLACES)]
    assert db.record(tid, "rulebook", 4, False, seats, {}) is True
    rows = results(store, tid)
    assert [r[:14] for r in rows] == [
        (tid, s, None, "rulebook", 4, False, p, p == 1, 4, 9, s, 3, 4 + s, 1)
        for s, p in enumerate(PLACES)]
    assert all(r[14:18] == (None,) * 4 for r in rows)
    assert len({r[18] for r in rows}) == 1  # one time for the game
    assert db.record(tid, "rulebook", 4, False,
                     [SeatEntry(result(s, 1 + s), True) for s in range(4)], {}) is False
    assert results(store, tid) == rows
    assert tid in db.recorded_tables()


def test_a_rated_game_moves_the_ratings_once(store: Store) -> None:
    db = AccountStore(store.engine)
    tag = secrets.token_hex(3)
    bot = f"bot{tag}"  # a bot kind no other test has: its account is made here
    ann, bob = db.register(f"Ann{tag}", "x"), db.register(f"Bob{tag}", "x")
    assert ann is not None and bob is not None
    seats = [SeatRow(0, "human", name="Ann"), SeatRow(1, "human", name="Bob"),
             SeatRow(2, "bot", bot=bot), SeatRow(3, "bot", bot=bot)]
    first, second = new_table(store, seats), new_table(store, seats)
    for tid in (first, second):
        db.link_seat(tid, 0, ann.id, False)
        db.link_seat(tid, 1, bob.id, False)
    entries = [SeatEntry(result(s, p), s < 2) for s, p in enumerate(PLACES)]
    bots = {2: bot, 3: bot}
    assert db.record(first, "rulebook", 4, True, entries, bots) is True
    b = db.user(bot)
    assert b is not None and b.kind == "bot"
    ids = [ann.id, bob.id, b.id]
    new = rate([(MU, SIGMA)] * 4, PLACES)
    got = ratings(store, ids)
    assert got[ann.id] == pytest.approx((*new[0], 1, 0))
    assert got[bob.id] == pytest.approx((*new[1], 1, 1))
    assert got[b.id] == pytest.approx((*new[3], 2, 0))  # both seats count; the last one's
    rows = results(store, first)
    assert [r[2] for r in rows] == [ann.id, bob.id, b.id, b.id]
    assert flat(r[14:18] for r in rows) == pytest.approx(
        flat((MU, SIGMA, *new[s]) for s in range(4)))

    assert db.record(first, "rulebook", 4, True, entries, bots) is False
    assert ratings(store, ids) == got and results(store, first) == rows

    assert db.record(second, "rulebook", 4, True, entries, bots) is True  # from the ratings
    before = [got[ann.id][:2], got[bob.id][:2], got[b.id][:2], got[b.id][:2]]
    then = rate(before, PLACES)
    moved = ratings(store, ids)
    assert moved[ann.id] == pytest.approx((*then[0], 2, 0))
    assert moved[bob.id] == pytest.approx((*then[1], 2, 2))
    assert moved[b.id] == pytest.approx((*then[3], 4, 0))
    assert flat(r[14:16] for r in results(store, second)) == pytest.approx(flat(before))


def test_a_failed_record_keeps_nothing_not_even_a_new_bot(store: Store) -> None:
    db = AccountStore(store.engine)
    bot = f"bot{secrets.token_hex(3)}"
    seats = [SeatEntry(result(s, p), s != 0) for s, p in enumerate(PLACES)]
    with pytest.raises(IntegrityError):  # no such table: not "already recorded"
        db.record("nosuchtable0", "rulebook", 4, True, seats, {0: bot})
    assert db.user(bot) is None
    tid = new_table(store, [SeatRow(0, "bot", bot=bot)]
                    + [SeatRow(s, "human", name=f"G{s}") for s in range(1, 4)])
    assert db.record(tid, "rulebook", 4, True, seats, {0: bot}) is True
    b = db.user(bot)
    assert b is not None and results(store, tid)[0][2] == b.id


def test_a_bot_kind_named_like_a_person_gets_no_account(store: Store) -> None:
    db = AccountStore(store.engine)
    name = f"Eve{secrets.token_hex(3)}"
    eve = db.register(name, "x")
    assert eve is not None
    tid = new_table(store)
    seats = [SeatEntry(result(s, p), s != 0) for s, p in enumerate(PLACES)]
    assert db.record(tid, "rulebook", 4, True, seats, {0: name}) is True
    assert results(store, tid)[0][2] is None
    with store.engine.connect() as conn:
        assert conn.scalar(select(UserModel.kind).where(UserModel.id == eve.id)) == "person"
    assert ratings(store, [eve.id]) == {}
