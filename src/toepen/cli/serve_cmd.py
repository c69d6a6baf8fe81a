"""``toepen serve``: the multiplayer server (its command is the server's own,
:mod:`toepen.server.command`, which ``python -m toepen.server`` runs too). Without the
``[server]`` extra the command is still there and says what to install; so does
``--db postgresql://...`` without ``[postgres]`` and ``--redis`` without ``[redis]``
(checked here, before the server is started: the server package does not import the
CLI)."""

from __future__ import annotations

import functools
from typing import Any

import typer

from ..i18n import I18nError, Translator, check_lang
from .extras import missing, require

POSTGRES_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")
"""``--db`` URLs served by PostgreSQL (psycopg 3, the ``[postgres]`` extra)."""


def require_serve_extras(db: str | None, redis: str | None) -> None:
    """Refuse (exit 2, ``error.extra``) a ``--db``/``--redis`` whose extra is missing."""
    if db is not None and db.startswith(POSTGRES_SCHEMES):
        require("postgres", "toepen serve --db postgresql://...")
    if redis is not None:
        require("redis", "toepen serve --redis")


def _asked_lang(args: list[str]) -> Translator | None:
    """The translator of a ``--lang`` among ``args`` (None: none, or not a language)."""
    for i, arg in enumerate(args):
        value = arg.partition("=")[2] if arg.startswith("--lang=") else (
            args[i + 1] if arg == "--lang" and i + 1 < len(args) else None)
        if value is not None:
            try:
                return Translator(check_lang(value))
            except I18nError:
                return None
    return None


def register(app: typer.Typer) -> None:
    if missing("server"):
        @app.command("serve", context_settings={"allow_extra_args": True,
                                                 "ignore_unknown_options": True})
        def serve_without_server(ctx: typer.Context) -> None:
            """The multiplayer server. It needs the [server] extra, which is not installed:
            pip install 'toepen[server]'; then toepen serve --help lists its options."""
            require("server", "toepen serve", _asked_lang(list(ctx.args)))
        return
    from ..server.command import serve_cmd

    @functools.wraps(serve_cmd)
    def serve(**options: Any) -> None:
        require_serve_extras(options.get("db"), options.get("redis"))
        serve_cmd(**options)

    app.command("serve")(serve)
