"""Storage: tables as their rules, seed and actions (event sourcing), SQLAlchemy 2.

SQLite (the default, a file in the user's data folder) or PostgreSQL (psycopg 3). The
schema is created and upgraded by the Alembic migrations shipped in
``toepen/server/db/migrations``, applied by :meth:`Store.open` at start-up.

Every write is one transaction, committed before the caller goes on: an action that a
client has seen broadcast is on disk.

>>> s = Store.open("sqlite://")
>>> s.create_table(TableRow(id="0123456789ab", code="ABCDEF", preset="rulebook",
...     rules={"preset": "rulebook"}, size=2, seed=5, dealer=0, idle_seconds=60.0,
...     autostart=False, creator="x", host_hash="h"), [SeatRow(0, "open"), SeatRow(1, "open")])
>>> s.append_action("0123456789ab", 0, 1, "pass", "player")
>>> [t.id for t in s.load_tables()], s.load_actions("0123456789ab")
(['0123456789ab'], [(1, 'pass', 'player')])
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, CursorResult, Dialect, Engine
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import PoolProxiedConnection, StaticPool
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

MIGRATIONS = Path(__file__).parent / "migrations"


class Base(DeclarativeBase):
    """Declarative base of the server's models."""


class TableModel(Base):
    __tablename__ = "toepen_tables"
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    code: Mapped[str] = mapped_column(String(6), unique=True, index=True)
    preset: Mapped[str] = mapped_column(String(40))
    rules: Mapped[str] = mapped_column(Text)
    size: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    dealer: Mapped[int] = mapped_column(Integer)
    idle_seconds: Mapped[float] = mapped_column(Float)
    autostart: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(10), index=True)
    players: Mapped[str | None] = mapped_column(Text, nullable=True)
    creator: Mapped[str] = mapped_column(String(64), index=True)
    host_hash: Mapped[str] = mapped_column(String(64))
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    epoch: Mapped[int] = mapped_column(Integer, server_default="0")
    """The epoch of the table's lease: raised by each process that takes it (fencing)."""


class SeatModel(Base):
    __tablename__ = "toepen_seats"
    table_id: Mapped[str] = mapped_column(
        String(12), ForeignKey("toepen_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class ActionModel(Base):
    __tablename__ = "toepen_actions"
    table_id: Mapped[str] = mapped_column(
        String(12), ForeignKey("toepen_tables.id", ondelete="CASCADE"), primary_key=True
    )
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(20))
    by: Mapped[str] = mapped_column(String(8))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    epoch: Mapped[int] = mapped_column(Integer, server_default="0")
    """The lease epoch it was written under (0: outside a lease)."""


@dataclass
class SeatRow:
    """One seat as stored."""

    seat: int
    kind: str  # open | human | bot
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None


@dataclass(frozen=True)
class ActionRow:
    """One action to store; ``winner`` when it ends the game.

    ``epoch``: the table's lease epoch its writer holds (:meth:`Store.take_lease`): the
    action is stored only while the table's epoch is still that one (fencing); None:
    written outside a lease, not fenced (stored with epoch 0)."""

    table_id: str
    n: int
    seat: int
    action: str
    by: str
    winner: int | None = None
    epoch: int | None = None


@dataclass
class TableRow:
    """One table as stored (its game is rebuilt from ``seed`` and the actions)."""

    id: str
    code: str
    preset: str
    rules: Any
    size: int
    seed: int
    dealer: int
    idle_seconds: float
    autostart: bool
    creator: str
    host_hash: str
    status: str = "lobby"
    players: list[str] | None = None
    winner: int | None = None
    created: datetime = field(default_factory=lambda: datetime.now(UTC))
    seats: list[SeatRow] = field(default_factory=list)


def database_url(url: str) -> str:
    """The SQLAlchemy URL for a user's URL: ``postgresql://`` means psycopg 3.

    >>> database_url("postgresql://u@h/db")
    'postgresql+psycopg://u@h/db'
    >>> database_url("postgres://u@h/db")
    'postgresql+psycopg://u@h/db'
    >>> database_url("sqlite:////tmp/x.sqlite3")
    'sqlite:////tmp/x.sqlite3'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def default_url() -> str:
    """SQLite in the user's data folder (created if missing)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("toepen"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'server.sqlite3'}"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL + NORMAL: every commit survives the process being killed (not a power cut).
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def upgrade(engine: Engine) -> None:
    """Apply the shipped Alembic migrations up to every head.

    Each area (accounts, clubs, ...) adds its own branch of revisions from ``0001``.
    """
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":  # servers starting together: one at a time
            conn.execute(text("SELECT pg_advisory_xact_lock(7152936001)"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "heads")


class Prepared:
    """A statement compiled once for a dialect and run with the driver's own parameters
    (:meth:`Connection.exec_driver_sql`): the SQL and the values SQLAlchemy would send,
    without its per-call compile-cache lookup and per-row parameter processing (most of
    a small write's CPU). For the hot writes: an action, a game's results.

    ``names``: the parameters in the order a row gives them; ``ready``: those the caller
    passes already converted with :meth:`convert` (a value shared by every row). It is
    compiled when made, so made once the engine has connected (as :meth:`Store.open`
    does, migrating first): the dialect then knows its server.

    >>> from sqlalchemy.dialects import sqlite
    >>> p = Prepared(insert(ActionModel), sqlite.dialect(),
    ...              ("table_id", "n", "seat", "action", "by", "at", "epoch"))
    >>> print(p.sql.replace(" VALUES", "\\nVALUES"))
    INSERT INTO toepen_actions (table_id, n, seat, action, "by", at, epoch)
    VALUES (?, ?, ?, ?, ?, ?, ?)
    >>> p.params(("t", 0, 1, "pass", "player", datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC), 0))
    ('t', 0, 1, 'pass', 'player', '2026-01-02 03:04:05.000000', 0)
    """

    def __init__(self, stmt: ClauseElement, dialect: Dialect, names: Sequence[str],
                 ready: Iterable[str] = ()) -> None:
        compiled = stmt.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)
        self.sql = compiled.string
        binds = compiled.binds
        if set(binds) != set(names) or compiled.escaped_bind_names:
            raise ValueError(f"parameters {sorted(binds)}, not {sorted(names)}")
        self._convert = {n: binds[n].type.dialect_impl(dialect).bind_processor(dialect)
                         for n in names}
        skip = set(ready)
        self._steps = tuple((i, f) for i, n in enumerate(names)
                            if n not in skip and (f := self._convert[n]) is not None)
        self._names = tuple(names)
        self._order: tuple[int, ...] | None = None
        if dialect.positional:
            where = {n: i for i, n in enumerate(names)}
            order = tuple(where[n] for n in compiled.positiontup or ())
            self._order = None if order == tuple(range(len(names))) else order
        self._positional = dialect.positional

    def convert(self, name: str, value: Any) -> Any:
        """``value`` of parameter ``name`` as the driver takes it."""
        f = self._convert[name]
        return value if f is None else f(value)

    def params(self, row: Sequence[Any]) -> Sequence[Any] | Mapping[str, Any]:
        """One row's values as the driver takes them."""
        if self._steps:
            values = list(row)
            for i, f in self._steps:
                values[i] = f(values[i])
            row = values
        if not self._positional:
            return dict(zip(self._names, row, strict=True))
        if self._order is None:
            return tuple(row)
        return tuple(row[i] for i in self._order)

    def run(self, conn: Connection,
            rows: Sequence[Sequence[Any]]) -> CursorResult[*tuple[Any, ...]]:
        """Execute for one row, or for several (``executemany``)."""
        if len(rows) == 1:
            return conn.exec_driver_sql(self.sql, self.params(rows[0]))
        return conn.exec_driver_sql(self.sql, [self.params(r) for r in rows])


FENCED_INSERT = """\
INSERT INTO toepen_actions (table_id, n, seat, action, "by", at, epoch)
SELECT v.table_id, v.n, v.seat, v.action, v.by, %s, v.epoch
FROM unnest(%s::varchar[], %s::int[], %s::int[], %s::varchar[], %s::varchar[], %s::int[])
  AS v(table_id, n, seat, action, by, epoch)
JOIN toepen_tables AS t ON t.id = v.table_id AND t.epoch = v.epoch
FOR SHARE OF t
RETURNING table_id, n"""
"""The fenced write of a lease holder on PostgreSQL (:meth:`Store._append_fenced`): the
rows whose epoch is still their table's, inserted; those stored, returned."""


class Store:
    """The tables on disk. Methods are synchronous: the server calls them in one thread."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        dialect = engine.dialect
        self._insert_actions = Prepared(insert(ActionModel), dialect,
                                        ("table_id", "n", "seat", "action", "by", "at",
                                         "epoch"), ready=("at",))
        # a no-op update that takes the table's row lock: a lease taken meanwhile
        # (take_lease's update) is waited for and then seen (PostgreSQL re-reads the row)
        self._fence = Prepared(update(TableModel)
                               .where(TableModel.id == bindparam("t"),
                                      TableModel.epoch == bindparam("e"))
                               .values(epoch=TableModel.epoch),
                               dialect, ("t", "e"))
        self._hot: PoolProxiedConnection | None = None
        self._fenced_sql: str | None = None
        if dialect.name == "postgresql" and dialect.driver == "psycopg":
            self._fenced_sql = FENCED_INSERT
            self._over_sql = (f"UPDATE {TableModel.__tablename__} SET status = %s, "
                              "winner = %s WHERE id = %s")
        self._game_over = Prepared(update(TableModel).where(TableModel.id == bindparam("t"))
                                   .values(status=bindparam("status"),
                                           winner=bindparam("winner")),
                                   dialect, ("status", "winner", "t"))

    @classmethod
    def open(cls, url: str | None = None) -> Store:
        """Connect (default: SQLite in the user's data folder) and apply migrations."""
        url = database_url(url or default_url())
        if url.startswith("sqlite"):
            memory = url in ("sqlite://", "sqlite:///:memory:")
            engine = create_engine(
                url,
                connect_args={"check_same_thread": False},
                poolclass=StaticPool if memory else None,
            )
            event.listen(engine, "connect", _sqlite_pragmas)
        else:
            engine = create_engine(url, pool_pre_ping=True)
        upgrade(engine)
        return cls(engine)

    def close(self) -> None:
        self._drop_hot()
        self.engine.dispose()

    # -- writes ----------------------------------------------------------------------

    def create_table(self, row: TableRow, seats: list[SeatRow]) -> None:
        """Store a new table with its seats; a row already ``playing`` (every seat taken
        at creation, ``autostart``) is stored started, in the same transaction."""
        with Session(self.engine) as s, s.begin():
            s.add(TableModel(
                id=row.id, code=row.code, preset=row.preset, rules=json.dumps(row.rules),
                size=row.size, seed=row.seed, dealer=row.dealer, idle_seconds=row.idle_seconds,
                autostart=row.autostart, status=row.status,
                players=json.dumps(row.players) if row.players is not None else None,
                creator=row.creator, host_hash=row.host_hash, winner=None, created=row.created,
            ))
            s.flush()
            for seat in seats:
                s.add(SeatModel(table_id=row.id, seat=seat.seat, kind=seat.kind, name=seat.name,
                                bot=seat.bot, token_hash=seat.token_hash))

    def set_seat(self, table_id: str, seat: SeatRow) -> None:
        self.set_seats(table_id, [seat])

    def set_seats(self, table_id: str, seats: list[SeatRow],
                  players: list[str] | None = None) -> None:
        """Change seats and, with ``players``, start the game: one transaction, so that a
        crash leaves either nothing changed or the seats taken and the game begun (never a
        full ``autostart`` table that did not start)."""
        with Session(self.engine) as s, s.begin():
            for seat in seats:
                s.execute(update(SeatModel)
                          .where(SeatModel.table_id == table_id, SeatModel.seat == seat.seat)
                          .values(kind=seat.kind, name=seat.name, bot=seat.bot,
                                  token_hash=seat.token_hash))
            if players is not None:
                s.execute(update(TableModel).where(TableModel.id == table_id)
                          .values(status="playing", players=json.dumps(players)))

    def start(self, table_id: str, players: list[str]) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(TableModel).where(TableModel.id == table_id)
                      .values(status="playing", players=json.dumps(players)))

    def append_action(self, table_id: str, n: int, seat: int, action: str, by: str,
                      winner: int | None = None) -> None:
        """Store action number ``n``; with ``winner`` the game is over in the same commit."""
        self.append_actions([ActionRow(table_id, n, seat, action, by, winner)])

    def append_actions(self, rows: list[ActionRow]) -> list[ActionRow]:
        """Store actions of several tables in one transaction (group commit); returns
        the rows the fence refused (their ``epoch`` is no longer the table's: a process
        that lost the table's lease), stored not at all, the others stored.

        The hottest write of a server (every action): one statement compiled once,
        executemany of plain rows, the shared time converted once; rows without an
        epoch (a lone server) cost no fence."""
        if not rows:
            return []
        if self._fenced_sql is not None and all(r.epoch is not None for r in rows):
            return self._append_fenced(rows)
        at = self._insert_actions.convert("at", datetime.now(UTC))
        fenced: list[ActionRow] = []
        with self.engine.begin() as conn:
            for r in rows:
                if r.epoch is not None and self._fence.run(conn, [(r.table_id, r.epoch)]
                                                           ).rowcount != 1:
                    fenced.append(r)
            keep = [r for r in rows if all(r is not f for f in fenced)] if fenced else rows
            if keep:
                self._insert_actions.run(conn, [(r.table_id, r.n, r.seat, r.action, r.by, at,
                                                 r.epoch or 0) for r in keep])
            for r in keep:
                if r.winner is not None:
                    self._game_over.run(conn, [("over", r.winner, r.table_id)])
        return fenced

    def _append_fenced(self, rows: list[ActionRow]) -> list[ActionRow]:
        """:meth:`append_actions` of a lease holder on PostgreSQL: one statement, on a
        connection of its own, held (no checkout, no ping) in autocommit.

        The statement inserts the rows whose epoch is still their table's and returns
        them; it reads each table's row ``FOR SHARE``, which waits for a lease being
        taken (``take_lease``'s update) and then re-reads it, as the no-op update did,
        and makes a lease taken later wait for this commit. A statement is atomic, so
        without a game's end it needs no transaction: one round trip, where the general
        path took five (ping, begin, fence, insert, commit) through SQLAlchemy. A row
        that ends a game is stored with its table's ``over`` in one transaction.

        The driver's errors are raised as SQLAlchemy's (what :class:`Storage` catches);
        a connection that failed is dropped and the next write takes a fresh one."""
        import psycopg  # the dialect is postgresql+psycopg: psycopg is there

        assert self._fenced_sql is not None
        params = (datetime.now(UTC), [r.table_id for r in rows], [r.n for r in rows],
                  [r.seat for r in rows], [r.action for r in rows], [r.by for r in rows],
                  [r.epoch for r in rows])
        over = [r for r in rows if r.winner is not None]
        try:
            conn = self._hot_connection()
            with contextlib.ExitStack() as stack:
                if over:
                    stack.enter_context(conn.transaction())
                with conn.cursor() as cur:
                    cur.execute(self._fenced_sql, params)
                    stored = {(t, n) for t, n in cur.fetchall()}
                    for r in over:
                        if (r.table_id, r.n) in stored:
                            cur.execute(self._over_sql, ("over", r.winner, r.table_id))
        except psycopg.IntegrityError as e:
            raise IntegrityError(self._fenced_sql, None, e) from None
        except (psycopg.OperationalError, psycopg.InterfaceError) as e:
            self._drop_hot()
            kind = OperationalError if isinstance(e, psycopg.OperationalError) else InterfaceError
            raise kind(self._fenced_sql, None, e) from None
        return [r for r in rows if (r.table_id, r.n) not in stored]

    def _hot_connection(self) -> Any:
        """The held driver connection of :meth:`_append_fenced` (psycopg, autocommit)."""
        if self._hot is None:
            hot = self.engine.raw_connection()
            driver = hot.driver_connection
            assert driver is not None
            driver.autocommit = True
            self._hot = hot
        return self._hot.driver_connection

    def _drop_hot(self) -> None:
        if self._hot is not None:
            hot, self._hot = self._hot, None
            with contextlib.suppress(Exception):
                hot.invalidate()

    def take_lease(self, table_id: str) -> int:
        """Raise the table's lease epoch and return it: from this commit on, an action
        written under an older epoch is refused (:meth:`append_actions`), and every
        action stored before it is visible to the caller (read after this returns).
        0: no such table."""
        with self.engine.begin() as conn:
            conn.execute(update(TableModel).where(TableModel.id == table_id)
                         .values(epoch=TableModel.epoch + 1))
            epoch = conn.scalar(select(TableModel.epoch).where(TableModel.id == table_id))
        return int(epoch or 0)

    def find_action(self, table_id: str, n: int) -> tuple[int, str, str, int] | None:
        """(seat, action, by, epoch) of action ``n`` if it is stored (None: it is not)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(ActionModel.seat, ActionModel.action, ActionModel.by,
                                      ActionModel.epoch)
                               .where(ActionModel.table_id == table_id, ActionModel.n == n)
                               ).first()
        return None if row is None else (row[0], row[1], row[2], row[3])

    def delete_table(self, table_id: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(ActionModel).where(ActionModel.table_id == table_id))
            s.execute(delete(SeatModel).where(SeatModel.table_id == table_id))
            s.execute(delete(TableModel).where(TableModel.id == table_id))

    # -- reads -----------------------------------------------------------------------

    def load_tables(self, table_id: str | None = None, live: bool = False) -> list[TableRow]:
        """Every table with its seats, oldest first (``table_id``: that one, if stored;
        ``live``: only those whose game is not over, as a server starting reads them)."""
        with Session(self.engine) as s:
            seats: dict[str, list[SeatRow]] = {}
            query = select(SeatModel).order_by(SeatModel.table_id, SeatModel.seat)
            tables = select(TableModel).order_by(TableModel.created)
            if table_id is not None:
                query = query.where(SeatModel.table_id == table_id)
                tables = tables.where(TableModel.id == table_id)
            if live:
                query = query.join(TableModel, TableModel.id == SeatModel.table_id).where(
                    TableModel.status != "over")
                tables = tables.where(TableModel.status != "over")
            for m in s.scalars(query):
                seats.setdefault(m.table_id, []).append(
                    SeatRow(m.seat, m.kind, m.name, m.bot, m.token_hash))
            out = []
            for t in s.scalars(tables):
                created = t.created if t.created.tzinfo else t.created.replace(tzinfo=UTC)
                out.append(TableRow(
                    id=t.id, code=t.code, preset=t.preset, rules=json.loads(t.rules),
                    size=t.size, seed=t.seed, dealer=t.dealer, idle_seconds=t.idle_seconds,
                    autostart=t.autostart, creator=t.creator, host_hash=t.host_hash,
                    status=t.status, players=json.loads(t.players) if t.players else None,
                    winner=t.winner, created=created, seats=seats.get(t.id, []),
                ))
            return out

    def load_table(self, table_id: str) -> TableRow | None:
        """One table with its seats (None: no such table)."""
        found = self.load_tables(table_id)
        return found[0] if found else None

    def finished_ids(self) -> list[str]:
        """The ids of the tables whose game is over, oldest first."""
        with Session(self.engine) as s:
            return list(s.scalars(select(TableModel.id).where(TableModel.status == "over")
                                  .order_by(TableModel.created)))

    def taken(self, table_id: str, code: str) -> bool:
        """Whether a stored table has the id ``table_id`` or the code ``code``."""
        with Session(self.engine) as s:
            return s.scalar(select(TableModel.id).where(
                (TableModel.id == table_id) | (TableModel.code == code)).limit(1)) is not None

    def load_code(self, code: str) -> str | None:
        """The id of the table with ``code`` (None: none)."""
        with Session(self.engine) as s:
            return s.scalar(select(TableModel.id).where(TableModel.code == code))

    def load_actions(self, table_id: str, start: int = 0) -> list[tuple[int, str, str]]:
        """(seat, action, by) of a table in order, from action number ``start``."""
        with Session(self.engine) as s:
            rows = s.execute(select(ActionModel.n, ActionModel.seat, ActionModel.action,
                                    ActionModel.by)
                             .where(ActionModel.table_id == table_id, ActionModel.n >= start)
                             .order_by(ActionModel.n))
            out = []
            for i, (n, seat, act, by) in enumerate(rows, start):
                if n != i:
                    raise RuntimeError(f"table {table_id}: action {i} missing from storage")
                out.append((seat, act, by))
            return out
