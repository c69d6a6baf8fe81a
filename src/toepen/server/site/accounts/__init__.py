"""Player accounts: registration, sessions, ratings, profiles, history (``docs/accounts.md``).

- :mod:`.security`: argon2 password hashes, user names, session and CSRF tokens, the
  login rate limit;
- :mod:`.models`, :mod:`.service`: the accounts' tables and every query on them;
- :mod:`.results`: a finished game's places and figures per seat, OpenSkill ratings;
- :mod:`.core`: :class:`Accounts`, the accounts of a running server (the API other parts
  of the server use: :meth:`Accounts.get_user`, :meth:`Accounts.user`);
- :mod:`.routes`: the HTTP endpoints.

:func:`install` adds the endpoints to an app; :func:`start` makes the server's
:class:`Accounts` once its lobby is loaded.
"""

from __future__ import annotations

from fastapi import FastAPI

from ...tables.lobby import Lobby
from .core import Accounts, accounts_of
from .routes import AccountError, account_error, router
from .service import User

__all__ = ["Accounts", "User", "accounts_of", "install", "start", "stop"]


def install(app: FastAPI) -> None:
    """The accounts' endpoints and error answers."""
    app.add_exception_handler(AccountError, account_error)
    app.include_router(router)


async def start(app: FastAPI, lobby: Lobby) -> Accounts:
    """The accounts of the running server, on ``app.state.accounts``; with ``--redis``
    their rate limits are kept in Redis (one limit for every process)."""
    url = app.state.config.redis
    redis = None
    if url:  # the Redis client is imported only for a cluster
        import redis.asyncio as aioredis

        redis = aioredis.from_url(url, decode_responses=True)
    accounts = Accounts(lobby, redis)
    app.state.accounts = accounts
    await accounts.attach()
    return accounts


async def stop(app: FastAPI) -> None:
    """Close what :func:`start` opened."""
    accounts: Accounts | None = getattr(app.state, "accounts", None)
    if accounts is not None and accounts.redis is not None:
        await accounts.redis.aclose()
