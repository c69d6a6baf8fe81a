"""The accounts' tables (SQLAlchemy 2, on the server's ``Base``; created by the Alembic
revision ``a1_accounts``).

- ``toepen_users``: people (with an argon2 hash of their password) and bots (one row per
  bot kind, no password), by a unique folded name;
- ``toepen_user_sessions``: logged-in browsers, by the SHA-256 of their cookie;
- ``toepen_seat_accounts``: which account played which seat (seated logged in, or claimed);
- ``toepen_table_rated``: the tables that count for ratings;
- ``toepen_results``: every finished game's result per seat (place, lives lost, hands,
  knocks; the rating before and after in rated games), the source of profiles and history;
- ``toepen_ratings``: the current OpenSkill rating per player, preset family and table size.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ...db.store import Base


class UserModel(Base):
    __tablename__ = "toepen_users"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    kind: Mapped[str] = mapped_column(String(8))  # person | bot
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionModel(Base):
    __tablename__ = "toepen_user_sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("toepen_users.id", ondelete="CASCADE"), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatAccountModel(Base):
    __tablename__ = "toepen_seat_accounts"
    table_id: Mapped[str] = mapped_column(
        String(12), ForeignKey("toepen_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("toepen_users.id", ondelete="CASCADE"), index=True)
    claimed: Mapped[bool] = mapped_column(Boolean)


class RatedTableModel(Base):
    __tablename__ = "toepen_table_rated"
    table_id: Mapped[str] = mapped_column(
        String(12), ForeignKey("toepen_tables.id", ondelete="CASCADE"), primary_key=True)
    rated: Mapped[bool] = mapped_column(Boolean)


class ResultModel(Base):
    __tablename__ = "toepen_results"
    table_id: Mapped[str] = mapped_column(
        String(12), ForeignKey("toepen_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        Integer, ForeignKey("toepen_users.id", ondelete="SET NULL"), nullable=True, index=True)
    family: Mapped[str] = mapped_column(String(40))
    size: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    place: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    people: Mapped[int] = mapped_column(Integer)
    """How many seats people played (a bot's record against people counts these)."""
    hands: Mapped[int] = mapped_column(Integer)
    hands_won: Mapped[int] = mapped_column(Integer)
    lives_lost: Mapped[int] = mapped_column(Integer)
    knocks: Mapped[int] = mapped_column(Integer)
    bluffs: Mapped[int] = mapped_column(Integer)
    """Knocks that everyone else folded to."""
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingModel(Base):
    __tablename__ = "toepen_ratings"
    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("toepen_users.id", ondelete="CASCADE"), primary_key=True)
    family: Mapped[str] = mapped_column(String(40), primary_key=True)
    size: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
