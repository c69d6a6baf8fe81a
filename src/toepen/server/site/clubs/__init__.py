"""Clubs and tournaments: clubs with members, admins, house rules and season standings;
tournaments that draw tables round by round and keep the standings (``docs/clubs.md``).

The draw and the standings are :mod:`toepen.tourney`'s; this package keeps them on disk
(migration ``c1_clubs``) and serves them over HTTP. :func:`install` adds the endpoints
to the app.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from .routes import router
from .tournament import ClubRefused

__all__ = ["ClubRefused", "install", "router"]


async def refused(_request: Request, exc: Exception) -> JSONResponse:
    """A refusal: ``{"detail": English, "code": why, "say": {id, params}}``."""
    assert isinstance(exc, ClubRefused)
    return JSONResponse({"detail": exc.message, "code": exc.why, "say": exc.said},
                        status_code=exc.status)


def install(app: FastAPI) -> None:
    """The clubs' endpoints and their refusals' shape."""
    app.add_exception_handler(ClubRefused, refused)
    app.include_router(router)
