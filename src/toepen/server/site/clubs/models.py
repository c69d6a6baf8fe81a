"""The clubs' tables on disk: clubs, their members, tournaments (migration ``c1_clubs``).

A tournament is kept as one JSON document (its players, rounds, tables and results),
written whole in one transaction: a change is all there or not at all.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from ...db.store import Base


class ClubModel(Base):
    __tablename__ = "toepen_clubs"
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    name_key: Mapped[str] = mapped_column(String(80), unique=True)
    house_rules: Mapped[str] = mapped_column(Text)
    """``{"name": the set's name, "rules": Rules.to_json()}``."""
    scheme: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MemberModel(Base):
    __tablename__ = "toepen_club_members"
    __table_args__ = (UniqueConstraint("club_id", "name_key"),)
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    club_id: Mapped[str] = mapped_column(
        String(12), ForeignKey("toepen_clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64))
    account: Mapped[str | None] = mapped_column(String(64), nullable=True)
    admin: Mapped[bool] = mapped_column(Boolean)
    key_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TournamentModel(Base):
    __tablename__ = "toepen_tournaments"
    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    club_id: Mapped[str | None] = mapped_column(
        String(12), ForeignKey("toepen_clubs.id", ondelete="CASCADE"), nullable=True,
        index=True)
    name: Mapped[str] = mapped_column(String(80))
    season: Mapped[str] = mapped_column(String(20), index=True)
    status: Mapped[str] = mapped_column(String(10))
    key_hash: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
