"""The accounts in the database: users, sessions, seats, results, ratings (synchronous;
the server runs every call in its storage thread, :meth:`Storage.run`).

>>> from toepen.server.db.store import Store
>>> db = AccountStore(Store.open("sqlite://").engine)
>>> ann = db.register("Ann", "$argon2id$...")
>>> ann is not None and db.user("ANN") == ann, db.user("Bob")
(True, None)
>>> db.register("aNN", "x") is None
True
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...db.store import Prepared, SeatModel, TableModel
from .models import (
    RatedTableModel,
    RatingModel,
    ResultModel,
    SeatAccountModel,
    SessionModel,
    UserModel,
)
from .results import MU, SIGMA, SeatResult, ordinal, rate
from .security import ANON_PREFIX, name_key

SESSION_DAYS = 30
RESULT_COLUMNS = ("table_id", "seat", "user_id", "family", "size", "rated", "place", "won",
                  "people", "hands", "hands_won", "lives_lost", "knocks", "bluffs",
                  "mu_before", "sigma_before", "mu_after", "sigma_after", "at")
"""The columns of ``toepen_results`` in the order :meth:`AccountStore.record` gives them."""


@dataclass(frozen=True)
class User:
    """An account as the rest of the server sees it (never its password hash)."""

    id: int
    name: str
    kind: str  # person | bot
    created: datetime

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "since": iso(self.created)}


def utc(t: datetime) -> datetime:
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def iso(t: datetime) -> str:
    return utc(t).strftime("%Y-%m-%dT%H:%M:%SZ")


def _user(m: UserModel) -> User:
    return User(m.id, m.name, m.kind, utc(m.created))


@dataclass(frozen=True)
class SeatEntry:
    """A seat of a finished game, for recording: how it went, and whether a person
    played it (its account, if any, is the seat's link in ``toepen_seat_accounts``)."""

    result: SeatResult
    person: bool


class AccountStore:
    """The accounts' tables on the server's database engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        dialect = engine.dialect
        self._bots: dict[str, int] = {}
        """Bot kind -> its account's id, once committed."""
        self._linked = Prepared(select(SeatAccountModel.seat, SeatAccountModel.user_id)
                                .where(SeatAccountModel.table_id == bindparam("t")),
                                dialect, ("t",))
        self._insert_results = Prepared(insert(ResultModel), dialect, RESULT_COLUMNS,
                                        ready=("at",))
        self._ratings = (select(RatingModel.user_id, RatingModel.mu, RatingModel.sigma)
                         .where(RatingModel.user_id.in_(bindparam("ids", expanding=True)),
                                RatingModel.family == bindparam("f"),
                                RatingModel.size == bindparam("n")))
        self._move_rating = (update(RatingModel)
                             .where(RatingModel.user_id == bindparam("u"),
                                    RatingModel.family == bindparam("f"),
                                    RatingModel.size == bindparam("n"))
                             .values(mu=bindparam("m"), sigma=bindparam("s"),
                                     games=RatingModel.games + bindparam("g"),
                                     wins=RatingModel.wins + bindparam("w"),
                                     updated=bindparam("at")))

    # -- users -----------------------------------------------------------------------

    def register(self, name: str, password_hash: str | None, kind: str = "person") -> User | None:
        """A new account, or None: the name (folded) is taken."""
        now = datetime.now(UTC)
        try:
            with Session(self.engine) as s, s.begin():
                m = UserModel(name=name, name_key=name_key(name), kind=kind,
                              password_hash=password_hash, created=now)
                s.add(m)
                s.flush()
                return _user(m)
        except IntegrityError:
            return None

    def user(self, name: str) -> User | None:
        with Session(self.engine) as s:
            m = s.scalar(select(UserModel).where(UserModel.name_key == name_key(name)))
            return _user(m) if m else None

    def password_hash(self, name: str) -> tuple[User | None, str | None]:
        """The person of a name and its stored hash (``(None, None)``: no such person)."""
        with Session(self.engine) as s:
            m = s.scalar(select(UserModel).where(UserModel.name_key == name_key(name),
                                                 UserModel.kind == "person"))
            return (_user(m), m.password_hash) if m else (None, None)

    def password_hash_of(self, user_id: int) -> str | None:
        with Session(self.engine) as s:
            return s.scalar(select(UserModel.password_hash).where(UserModel.id == user_id))

    def set_password(self, user_id: int, password_hash: str, keep: str) -> None:
        """A new password; every session but ``keep`` (a token hash) ends."""
        with Session(self.engine) as s, s.begin():
            s.execute(update(UserModel).where(UserModel.id == user_id)
                      .values(password_hash=password_hash))
            s.execute(delete(SessionModel).where(SessionModel.user_id == user_id,
                                                 SessionModel.token_hash != keep))

    # -- sessions --------------------------------------------------------------------

    def open_session(self, user_id: int, thash: str) -> None:
        now = datetime.now(UTC)
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionModel).where(SessionModel.expires < now))
            s.add(SessionModel(token_hash=thash, user_id=user_id, created=now,
                               expires=now + timedelta(days=SESSION_DAYS)))

    def session_user(self, thash: str) -> User | None:
        """The person of a live session, or None (unknown, expired, or account gone)."""
        with Session(self.engine) as s:
            row = s.execute(select(UserModel, SessionModel.expires)
                            .join(SessionModel, SessionModel.user_id == UserModel.id)
                            .where(SessionModel.token_hash == thash)).first()
            if row is None or utc(row[1]) < datetime.now(UTC):
                return None
            return _user(row[0])

    def close_session(self, thash: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SessionModel).where(SessionModel.token_hash == thash))

    # -- seats and tables --------------------------------------------------------------

    def link_seat(self, table_id: str, seat: int, user_id: int, claimed: bool) -> None:
        """``user_id`` played ``seat``: seated logged in, or claimed afterwards (a claim
        of a finished game's seat puts its result on the account too)."""
        with Session(self.engine) as s, s.begin():
            s.merge(SeatAccountModel(table_id=table_id, seat=seat, user_id=user_id,
                                     claimed=claimed))
            s.execute(update(ResultModel).where(ResultModel.table_id == table_id,
                                                ResultModel.seat == seat)
                      .values(user_id=user_id))

    def unlink_seat(self, table_id: str, seat: int) -> None:
        """``seat`` has a new player before the start (a guest): an account that sat there
        and left is no longer its player."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(SeatAccountModel).where(SeatAccountModel.table_id == table_id,
                                                     SeatAccountModel.seat == seat))

    def seat_accounts(self, table_id: str | None = None) -> dict[tuple[str, int], str]:
        """(table, seat) -> account name, of every seat an account played (``table_id``:
        of that table's seats)."""
        query = (select(SeatAccountModel.table_id, SeatAccountModel.seat, UserModel.name)
                 .join(UserModel, UserModel.id == SeatAccountModel.user_id))
        if table_id is not None:
            query = query.where(SeatAccountModel.table_id == table_id)
        with Session(self.engine) as s:
            return {(t, seat): name for t, seat, name in s.execute(query)}

    def set_rated(self, table_id: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.merge(RatedTableModel(table_id=table_id, rated=True))

    def rated_tables(self, table_id: str | None = None) -> set[str]:
        """The rated tables (``table_id``: that one, if it is)."""
        query = select(RatedTableModel.table_id).where(RatedTableModel.rated.is_(True))
        if table_id is not None:
            query = query.where(RatedTableModel.table_id == table_id)
        with Session(self.engine) as s:
            return set(s.scalars(query))

    def recorded_tables(self) -> set[str]:
        with Session(self.engine) as s:
            return set(s.scalars(select(ResultModel.table_id).distinct()))

    # -- results and ratings -------------------------------------------------------------

    def record(self, table_id: str, family: str, size: int, rated: bool,
               seats: list[SeatEntry], bots: dict[int, str]) -> bool:
        """Store a finished game's result per seat and, if ``rated``, move the ratings of
        its accounts and bots (guests play as newcomers and keep nothing), all in one
        transaction; a game already recorded is left alone (False).

        Every finished game comes here, so it is lean: SQLAlchemy Core on statements
        built once, the results' primary key (table, seat) as the "already recorded?"
        check (no select first: a second record's INSERT fails, nothing is kept, and a
        look afterwards tells a duplicate from any other failure), the bots' account ids
        kept once committed, and no rating read or written in an unrated game."""
        new_bots: dict[str, int] = {}
        try:
            with self.engine.begin() as conn:
                self._record(conn, table_id, family, size, rated, seats, bots, new_bots)
        except IntegrityError:
            if self._recorded(table_id):
                return False
            raise
        self._bots.update(new_bots)
        return True

    def _record(self, conn: Connection, table_id: str, family: str, size: int, rated: bool,
                seats: list[SeatEntry], bots: dict[int, str], new_bots: dict[str, int]) -> None:
        now = datetime.now(UTC)
        linked: dict[int, int] = {}
        if any(e.person for e in seats):
            linked = {r[0]: r[1] for r in self._linked.run(conn, [(table_id,)])}
        users: list[int | None] = [linked.get(e.result.seat) if e.person else None
                                   for e in seats]
        for seat, kind in bots.items():
            users[seat] = self._bot_id(conn, kind, new_bots)
        people = sum(1 for e in seats if e.person)
        current: dict[int, tuple[float, float]] = {}
        ids = [u for u in users if u is not None]
        if rated and ids:
            current = {u: (mu, sigma) for u, mu, sigma in conn.execute(
                self._ratings, {"ids": sorted(set(ids)), "f": family, "n": size})}
        before = [current.get(u, (MU, SIGMA)) if u is not None else (MU, SIGMA)
                  for u in users]
        after = rate(before, [e.result.place for e in seats]) if rated else before
        at = self._insert_results.convert("at", now)
        rows: list[tuple[Any, ...]] = []
        moved: dict[int, tuple[float, float, int, int]] = {}  # user: mu, sigma, games, wins
        for e, u, b, a in zip(seats, users, before, after, strict=True):
            r = e.result
            keep = rated and u is not None
            rows.append((table_id, r.seat, u, family, size, rated, r.place, r.won, people,
                         r.hands, r.hands_won, r.lives_lost, r.knocks, r.bluffs,
                         b[0] if keep else None, b[1] if keep else None,
                         a[0] if keep else None, a[1] if keep else None, at))
            if keep:
                assert u is not None
                _, _, games, wins = moved.get(u, (0.0, 0.0, 0, 0))
                moved[u] = (a[0], a[1], games + 1, wins + int(r.won))  # a bot's 2nd seat
        self._insert_results.run(conn, rows)  # the primary key: a game recorded once
        old = [{"u": u, "f": family, "n": size, "m": mu, "s": sigma, "g": games, "w": wins,
                "at": now} for u, (mu, sigma, games, wins) in moved.items() if u in current]
        if old:
            conn.execute(self._move_rating, old)
        new = [{"user_id": u, "family": family, "size": size, "mu": mu, "sigma": sigma,
                "games": games, "wins": wins, "updated": now}
               for u, (mu, sigma, games, wins) in moved.items() if u not in current]
        if new:
            conn.execute(insert(RatingModel), new)

    def _recorded(self, table_id: str) -> bool:
        with self.engine.connect() as conn:
            return conn.scalar(select(ResultModel.seat).where(ResultModel.table_id == table_id)
                               .limit(1)) is not None

    def _bot_id(self, conn: Connection, kind: str, new_bots: dict[str, int]) -> int | None:
        """The account of bot ``kind`` (made if missing; None: a person has its name).
        Known ids come from :attr:`_bots` (a bot's account is never deleted); one read or
        made here goes into ``new_bots``, kept by the caller once committed."""
        found = self._bots.get(kind) or new_bots.get(kind)
        if found is not None:
            return found
        key = name_key(kind)
        row = conn.execute(select(UserModel.id, UserModel.kind)
                           .where(UserModel.name_key == key)).first()
        if row is None:
            made = conn.execute(insert(UserModel).values(
                name=kind, name_key=key, kind="bot", password_hash=None,
                created=datetime.now(UTC)))
            pk = made.inserted_primary_key
            assert pk is not None
            uid = int(pk[0])
        elif row.kind == "bot":
            uid = int(row.id)
        else:  # a person's name: not this bot's
            return None
        new_bots[kind] = uid
        return uid

    # -- profile, history, leaderboard -------------------------------------------------

    def profile(self, name: str) -> dict[str, Any] | None:
        """Everything the profile page shows, or None (no such player)."""
        with Session(self.engine) as s:
            m = s.scalar(select(UserModel).where(UserModel.name_key == name_key(name)))
            if m is None:
                return None
            user = _user(m)
            ratings = [
                {"preset": r.family, "size": r.size, "rating": round(ordinal(r.mu, r.sigma), 2),
                 "mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "games": r.games,
                 "wins": r.wins}
                for r in s.scalars(select(RatingModel).where(RatingModel.user_id == m.id)
                                   .order_by(RatingModel.games.desc()))]
            rows = list(s.scalars(select(ResultModel).where(ResultModel.user_id == m.id)
                                  .order_by(ResultModel.at, ResultModel.table_id)))
            hands = sum(r.hands for r in rows)
            knocks = sum(r.knocks for r in rows)
            stats = {
                "sessions": len(rows), "won": sum(r.won for r in rows), "hands": hands,
                "hands_won": sum(r.hands_won for r in rows),
                "lives_lost": sum(r.lives_lost for r in rows), "knocks": knocks,
                "bluffs": sum(r.bluffs for r in rows),
                "lives_lost_per_hand": round(sum(r.lives_lost for r in rows) / hands, 3)
                if hands else None,
                "knocks_per_hand": round(knocks / hands, 3) if hands else None,
                "bluff_rate": round(sum(r.bluffs for r in rows) / knocks, 3) if knocks else None,
            }
            counts: dict[tuple[str, int], int] = {}
            for r in rows:
                counts[(r.family, r.size)] = counts.get((r.family, r.size), 0) + 1
            favourite = None
            if counts:
                (fam, size), n = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
                favourite = {"preset": fam, "size": size, "games": n}
            graph = [{"at": iso(r.at), "table": r.table_id, "preset": r.family, "size": r.size,
                      "place": r.place,
                      "rating": round(ordinal(r.mu_after or MU, r.sigma_after or SIGMA), 2),
                      "before": round(ordinal(r.mu_before or MU, r.sigma_before or SIGMA), 2)}
                     for r in rows if r.rated and r.mu_after is not None]
            out: dict[str, Any] = {**user.to_json(), "ratings": ratings, "stats": stats,
                                   "favourite": favourite, "graph": graph[-500:]}
            if user.kind == "bot":
                vs = [r for r in rows if r.people > 0]
                out["against_people"] = {"sessions": len(vs), "won": sum(r.won for r in vs)}
            return out

    def history(self, name: str, limit: int = 50, offset: int = 0) -> list[dict[str, Any]] | None:
        """A player's finished games, newest first, or None (no such player)."""
        with Session(self.engine) as s:
            uid = s.scalar(select(UserModel.id).where(UserModel.name_key == name_key(name)))
            if uid is None:
                return None
            rows = s.execute(select(ResultModel, TableModel.players, TableModel.code)
                             .join(TableModel, TableModel.id == ResultModel.table_id)
                             .where(ResultModel.user_id == uid)
                             .order_by(ResultModel.at.desc(), ResultModel.table_id)
                             .limit(limit).offset(offset))
            out = []
            for r, players, code in rows:
                change = None
                if r.rated and r.mu_after is not None:
                    change = round(ordinal(r.mu_after, r.sigma_after or SIGMA)
                                   - ordinal(r.mu_before or MU, r.sigma_before or SIGMA), 2)
                out.append({"table": r.table_id, "code": code, "preset": r.family,
                            "size": r.size, "rated": r.rated, "seat": r.seat, "place": r.place,
                            "won": r.won, "players": json.loads(players) if players else [],
                            "at": iso(r.at), "rating_change": change,
                            "replay": f"/?replay={r.table_id}",
                            "record": f"/api/tables/{r.table_id}/record"})
            return out

    def leaderboard(self, family: str, size: int, limit: int = 100) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = s.execute(select(RatingModel, UserModel.name, UserModel.kind)
                             .join(UserModel, UserModel.id == RatingModel.user_id)
                             .where(RatingModel.family == family, RatingModel.size == size))
            board = sorted(((ordinal(r.mu, r.sigma), r, n, k) for r, n, k in rows),
                           key=lambda x: (-x[0], x[2]))[:limit]
            return [{"rank": i + 1, "name": n, "kind": k, "rating": round(o, 2),
                     "games": r.games, "wins": r.wins} for i, (o, r, n, k) in enumerate(board)]

    def last_board(self, user_id: int) -> tuple[str, int] | None:
        """The (preset, size) of the person's latest rated game, or None."""
        with Session(self.engine) as s:
            row = s.execute(select(ResultModel.family, ResultModel.size)
                            .where(ResultModel.user_id == user_id, ResultModel.rated.is_(True))
                            .order_by(ResultModel.at.desc()).limit(1)).first()
            return (str(row.family), int(row.size)) if row is not None else None

    def boards(self) -> list[dict[str, Any]]:
        """Every (preset, size) that has ratings, with how many players."""
        with Session(self.engine) as s:
            rows = s.execute(select(RatingModel.family, RatingModel.size, func.count())
                             .group_by(RatingModel.family, RatingModel.size)
                             .order_by(RatingModel.family, RatingModel.size))
            return [{"preset": f, "size": n, "players": c} for f, n, c in rows]

    # -- deleting an account ---------------------------------------------------------------

    def delete(self, user_id: int) -> tuple[str, list[tuple[str, int]]]:
        """Delete a person: its sessions, ratings and seats' links go; its games stay,
        its seats renamed ``anon-XXXXXX``. Returns that name and the (table, seat) pairs."""
        anon = ANON_PREFIX + secrets.token_hex(3)
        with Session(self.engine) as s, s.begin():
            seats = [(t, n) for t, n in s.execute(
                select(SeatAccountModel.table_id, SeatAccountModel.seat)
                .where(SeatAccountModel.user_id == user_id))]
            for table_id, seat in seats:
                s.execute(update(SeatModel).where(SeatModel.table_id == table_id,
                                                  SeatModel.seat == seat).values(name=anon))
                players = s.scalar(select(TableModel.players).where(TableModel.id == table_id))
                if players:
                    names = json.loads(players)
                    if 0 <= seat < len(names):
                        names[seat] = anon
                        s.execute(update(TableModel).where(TableModel.id == table_id)
                                  .values(players=json.dumps(names)))
            s.execute(update(ResultModel).where(ResultModel.user_id == user_id)
                      .values(user_id=None, mu_before=None, sigma_before=None, mu_after=None,
                              sigma_after=None))
            for model in (SessionModel, SeatAccountModel, RatingModel):
                s.execute(delete(model).where(model.user_id == user_id))
            s.execute(delete(UserModel).where(UserModel.id == user_id))
        return anon, seats
