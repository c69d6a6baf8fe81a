"""The clubs on disk: synchronous reads and writes, run in the storage thread.

Each function takes the SQLAlchemy engine and does one transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .models import ClubModel, MemberModel, TournamentModel


@dataclass
class Club:
    id: str
    name: str
    house_rules: dict[str, Any]
    scheme: Any
    created: datetime


@dataclass
class Member:
    id: str
    club_id: str
    name: str
    admin: bool
    account: str | None
    key_hash: str | None


@dataclass
class TournamentRow:
    id: str
    club_id: str | None
    name: str
    season: str
    status: str
    key_hash: str
    state: dict[str, Any]
    created: datetime


def _club(m: ClubModel) -> Club:
    return Club(m.id, m.name, json.loads(m.house_rules), json.loads(m.scheme), m.created)


def _member(m: MemberModel) -> Member:
    return Member(m.id, m.club_id, m.name, m.admin, m.account, m.key_hash)


def _tournament(m: TournamentModel) -> TournamentRow:
    return TournamentRow(m.id, m.club_id, m.name, m.season, m.status, m.key_hash,
                         json.loads(m.state), m.created)


def create_club(engine: Engine, club: Club, founder: Member) -> bool:
    """Store a new club with its first admin; False if the name is taken."""
    try:
        with Session(engine) as s, s.begin():
            s.add(ClubModel(id=club.id, name=club.name, name_key=club.name.casefold(),
                            house_rules=json.dumps(club.house_rules),
                            scheme=json.dumps(club.scheme), created=club.created))
            s.flush()
            s.add(_member_model(founder))
    except IntegrityError:
        return False
    return True


def _member_model(m: Member) -> MemberModel:
    return MemberModel(id=m.id, club_id=m.club_id, name=m.name, name_key=m.name.casefold(),
                       account=m.account, admin=m.admin, key_hash=m.key_hash,
                       created=datetime.now(UTC))


def clubs(engine: Engine) -> list[Club]:
    with Session(engine) as s:
        return [_club(m) for m in s.scalars(select(ClubModel).order_by(ClubModel.name_key))]


def club(engine: Engine, club_id: str) -> Club | None:
    with Session(engine) as s:
        m = s.get(ClubModel, club_id)
        return _club(m) if m else None


def set_club(engine: Engine, club_id: str, house_rules: dict[str, Any], scheme: Any) -> None:
    with Session(engine) as s, s.begin():
        s.execute(update(ClubModel).where(ClubModel.id == club_id).values(
            house_rules=json.dumps(house_rules), scheme=json.dumps(scheme)))


def members(engine: Engine, club_id: str) -> list[Member]:
    with Session(engine) as s:
        return [_member(m) for m in s.scalars(
            select(MemberModel).where(MemberModel.club_id == club_id)
            .order_by(MemberModel.name_key))]


def add_member(engine: Engine, member: Member) -> bool:
    """False if the club has a member of that name."""
    try:
        with Session(engine) as s, s.begin():
            s.add(_member_model(member))
    except IntegrityError:
        return False
    return True


def remove_member(engine: Engine, member_id: str) -> None:
    with Session(engine) as s, s.begin():
        m = s.get(MemberModel, member_id)
        if m is not None:
            s.delete(m)


def create_tournament(engine: Engine, row: TournamentRow) -> None:
    with Session(engine) as s, s.begin():
        s.add(TournamentModel(id=row.id, club_id=row.club_id, name=row.name,
                              season=row.season, status=row.status, key_hash=row.key_hash,
                              state=json.dumps(row.state), created=row.created,
                              updated=row.created))


def tournament(engine: Engine, tournament_id: str) -> TournamentRow | None:
    with Session(engine) as s:
        m = s.get(TournamentModel, tournament_id)
        return _tournament(m) if m else None


def tournaments(engine: Engine, club_id: str | None = None,
                season: str | None = None) -> list[TournamentRow]:
    with Session(engine) as s:
        q = select(TournamentModel).order_by(TournamentModel.created)
        if club_id is not None:
            q = q.where(TournamentModel.club_id == club_id)
        if season is not None:
            q = q.where(TournamentModel.season == season)
        return [_tournament(m) for m in s.scalars(q)]


def save_tournament(engine: Engine, tournament_id: str, state: dict[str, Any],
                    status: str) -> None:
    """The whole document in one transaction."""
    with Session(engine) as s, s.begin():
        s.execute(update(TournamentModel).where(TournamentModel.id == tournament_id).values(
            state=json.dumps(state), status=status, updated=datetime.now(UTC)))
