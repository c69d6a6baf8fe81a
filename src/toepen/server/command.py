"""The ``toepen serve`` command (also ``python -m toepen.server``): options to a
:class:`~toepen.server.config.ServerConfig`, then :func:`toepen.server.serve`.

It lives in the server package so that ``python -m toepen.server`` needs nothing of the
``toepen`` CLI; the CLI registers it (``toepen.cli.serve_cmd``). Importing it is light:
the web framework loads only when the server starts."""

from __future__ import annotations

from typing import Annotated

import typer


def serve_cmd(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.", min=0,
                                      max=65535)] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", help="Database URL: sqlite:///PATH or postgresql://... (default: SQLite in "
        "the user's data folder).")] = None,
    bot_workers: Annotated[int, typer.Option("--bot-workers", min=1, max=64,
                                             help="Bot worker processes.")] = 2,
    bot_pool: Annotated[str, typer.Option("--bot-pool",
                                          help="process or thread.")] = "process",
    bot_delay: Annotated[float, typer.Option("--bot-delay", min=0.0, max=10.0,
                                             help="Seconds a bot waits before acting.")] = 0.4,
    tables_per_client: Annotated[int, typer.Option("--tables-per-client", min=1,
                                                   help="Open tables one client may create.")] = 20,
    max_tables: Annotated[int, typer.Option("--max-tables", min=1,
                                            help="Open tables in all.")] = 10000,
    hints_per_minute: Annotated[int, typer.Option(
        "--hints-per-minute", min=1, max=600,
        help="Hints one seat may ask for in a minute.")] = 20,
    rate: Annotated[int, typer.Option("--rate", min=1,
                                      help="Messages per second per socket.")] = 20,
    name_length: Annotated[int, typer.Option("--name-length", min=1, max=64,
                                             help="Characters a display name may have.")] = 24,
    abandoned_after: Annotated[float, typer.Option(
        "--abandoned-after", min=0.1, max=864000.0,
        help="Seconds a table that has not started stays in the list of open tables with "
        "no person connected (it can still be reached by its link).")] = 600.0,
    sockets_per_seat: Annotated[int, typer.Option(
        "--sockets-per-seat", min=1, max=100,
        help="Open WebSockets of one seat; a newer one closes the oldest, which is told.")] = 4,
    sockets_per_address: Annotated[int, typer.Option(
        "--sockets-per-address", min=1, max=1000000,
        help="Open WebSockets from one client address; one more is refused (behind a "
        "proxy, name it with --trust-proxy or every client shares its address).")] = 64,
    hello_timeout: Annotated[float, typer.Option(
        "--hello-timeout", min=0.5, max=600.0,
        help="Seconds a new WebSocket has to say hello before it is closed.")] = 10.0,
    away_grace: Annotated[float, typer.Option(
        "--away-grace", min=0.1, max=3600.0,
        help="Seconds after a player closed their last tab of a table before a stand-in "
        "plays their seat (a dropped network keeps the table's idle clock).")] = 10.0,
    offer_wait: Annotated[float, typer.Option(
        "--offer-wait", min=0.1, max=3600.0,
        help="Seconds an offer to play again waits for the players who have not "
        "answered; then the next game starts, a bot playing for them until they come.")] = 60.0,
    finished_grace: Annotated[float, typer.Option(
        "--finished-grace", min=0.1, max=86400.0,
        help="Seconds a finished table with nobody connected stays in memory (then it "
        "is read from the database when asked for).")] = 60.0,
    finished_kept: Annotated[int, typer.Option(
        "--finished-kept", min=1, max=100000,
        help="Finished tables kept in memory at most (past it the quiet ones leave at "
        "once).")] = 200,
    public_url: Annotated[str | None, typer.Option(
        "--public-url", help="Base URL for invite links (default: as the request came).")] = None,
    ws_deflate: Annotated[bool, typer.Option(
        "--ws-deflate/--no-ws-deflate",
        help="Compress WebSocket messages (less bandwidth, more CPU and memory).")] = False,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", metavar="NAME=cmd:COMMAND",
        help="Register an external bot (JSON lines on stdin/stdout, docs/bots.md) that "
        "tables may choose by NAME, e.g. --bot mybot=\"cmd:python mybot.py\" "
        "(repeatable).")] = None,
    bot_timeout: Annotated[float | None, typer.Option(
        "--bot-timeout", min=0.01, max=600.0,
        help="Seconds an external bot may take per decision (default 5).")] = None,
    redis: Annotated[str | None, typer.Option(
        "--redis", help="Redis URL (redis://HOST:PORT/N): run as one of many processes "
        "sharing --db (PostgreSQL) and this Redis (docs/deploy.md).")] = None,
    trust_proxy: Annotated[list[str] | None, typer.Option(
        "--trust-proxy", metavar="ADDRESS",
        help="A reverse proxy (an IP address or network, e.g. 127.0.0.1 or 10.0.0.0/8) "
        "whose X-Forwarded-For and X-Forwarded-Proto name the client; from anyone else "
        "they are ignored (repeatable; default: none is trusted).")] = None,
    request_timeout: Annotated[float, typer.Option(
        "--request-timeout", min=0.5, max=600.0,
        help="Seconds a client has to send one HTTP request whole, headers and body "
        "(past it: 408, or the connection closed); a new connection, to begin one.")] = 10.0,
    keep_alive: Annotated[int, typer.Option(
        "--keep-alive", min=1, max=600,
        help="Seconds an HTTP connection may stay idle between two requests.")] = 5,
    log_level: Annotated[str, typer.Option("--log-level")] = "info",
    log_format: Annotated[str, typer.Option(
        "--log-format", help="text, or json: one JSON object per line (for a log "
        "collector).")] = "text",
) -> None:
    """Serve tables over HTTP and WebSocket (see docs/protocol.md)."""
    from . import serve
    from .config import ServerConfig, check_proxies
    from .protocol import Limits
    from .tables.external_bots import parse_bot_options

    if bot_pool not in ("process", "thread"):
        raise typer.BadParameter("--bot-pool: process or thread")
    if log_format not in ("text", "json"):
        raise typer.BadParameter("text or json", param_hint="'--log-format'")
    if db is not None and not _database_url(db):
        raise typer.BadParameter(f"{db!r} is not a database URL: sqlite:///PATH (a file) or "
                                 "postgresql://USER@HOST/DB", param_hint="'--db'")
    if redis is not None and not redis.startswith(("redis://", "rediss://", "unix://")):
        raise typer.BadParameter("a URL such as redis://127.0.0.1:6379/0",
                                 param_hint="'--redis'")
    try:
        proxies = check_proxies(trust_proxy or [])
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="'--trust-proxy'") from None
    try:
        external = parse_bot_options(bot or [])
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="'--bot'") from None
    limits = Limits(tables_per_client=tables_per_client, max_tables=max_tables,
                    messages_per_second=rate, name_length=name_length,
                    abandoned_after=abandoned_after, sockets_per_seat=sockets_per_seat,
                    sockets_per_address=sockets_per_address, hello_timeout=hello_timeout,
                    away_grace=away_grace, offer_wait=offer_wait,
                    hints_per_seat=hints_per_minute,
                    finished_grace=finished_grace,
                    finished_kept=finished_kept)
    config = ServerConfig(db=db, bot_workers=bot_workers, bot_pool=bot_pool,
                          bot_delay=bot_delay, limits=limits, public_url=public_url,
                          ws_deflate=ws_deflate, external_bots=external,
                          bot_timeout=bot_timeout, redis=redis, trusted_proxies=proxies,
                          request_timeout=request_timeout, keep_alive=keep_alive)
    serve(config, host=host, port=port, log_level=log_level, log_format=log_format)


def _database_url(text: str) -> bool:
    """Whether ``--db`` is a URL of a database the server keeps (SQLAlchemy parses it).

    >>> _database_url("sqlite:////tmp/toepen.sqlite3"), _database_url("postgres://u@h/db")
    (True, True)
    >>> _database_url("/tmp/toepen.sqlite3"), _database_url("mysql://u@h/db")
    (False, False)
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        backend = make_url(text).get_backend_name()
    except ArgumentError:
        return False
    return backend in ("sqlite", "postgresql", "postgres")


def main() -> None:
    """``python -m toepen.server``: the command on its own."""
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    app.command()(serve_cmd)
    app()
