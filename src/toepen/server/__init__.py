"""``toepen serve``: tables over HTTP and WebSocket that never lose a game.

See ``docs/protocol.md`` (the protocol) and ``docs/server.md`` (running it). The parts,
along boardgame.io's lines, in wings (``tests/test_layering.py`` says which may import
which):

- the base: :mod:`~toepen.server.protocol` (the messages, the errors and the limits),
  :mod:`~toepen.server.names`, :mod:`~toepen.server.config`;
- :mod:`~toepen.server.tables`: a table, the lobby, the table master (check, commit, apply,
  broadcast), the scheduler, the bot pool and external bots;
- :mod:`~toepen.server.db`: the tables on disk and the storage thread with group commit;
- :mod:`~toepen.server.cluster`: many processes, one game (``--redis``);
- :mod:`~toepen.server.socket`: one client's WebSocket;
- :mod:`~toepen.server.http`: the HTTP endpoints, one module per resource;
- :mod:`~toepen.server.site`: accounts, clubs, play now, presence, score sheets;
- :mod:`~toepen.server.app`: the web application that puts them together.

Importing this package is light; the web application (``toepen.server.app.create_app``)
loads when the server starts.
"""

from typing import Any

from .config import ServerConfig
from .protocol import PROTOCOL, Limits

__all__ = ["PROTOCOL", "Limits", "ServerConfig", "serve"]


def _safe_url(url: str) -> str:
    """A database URL without its password, for the log."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - a bad URL is reported by the store itself
        return url


class JsonLines:
    """A logging formatter: one JSON object per line (time, level, logger, message, pid
    and the exception's traceback if any), for a log collector (``--log-format json``)."""

    def format(self, record: object) -> str:
        import json
        import logging
        from datetime import UTC, datetime

        assert isinstance(record, logging.LogRecord)
        out = {"time": datetime.fromtimestamp(record.created, UTC).isoformat(),
               "level": record.levelname.lower(), "logger": record.name,
               "message": record.getMessage(), "pid": record.process}
        if record.exc_info:
            out["exception"] = logging.Formatter().formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8000,
          log_level: str = "info", log_format: str = "text") -> None:
    """Run the server with uvicorn until interrupted."""
    import dataclasses
    import logging
    import sys

    import uvicorn

    from .app import create_app
    from .db.store import default_url
    from .http import deadline
    from .socket import wire

    handler = logging.StreamHandler(sys.stderr)
    if log_format == "json":
        handler.setFormatter(JsonLines())  # type: ignore[arg-type]
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(message)s"))
    logger = logging.getLogger("toepen")
    logger.addHandler(handler)
    logger.setLevel(log_level.upper())
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    logger.info("toepen serve: open http://%s:%d in a browser (database %s)",
                shown, port, _safe_url(config.db or default_url()))

    log_config: Any = uvicorn.config.LOGGING_CONFIG
    if log_format == "json":  # uvicorn's own lines through the same handler
        log_config = None
        for name in ("uvicorn.error", "uvicorn.access"):
            uv = logging.getLogger(name)
            uv.handlers = [handler]
            uv.propagate = False
            uv.setLevel(log_level.upper())
    config = dataclasses.replace(config, own_process=True)
    uvicorn.run(create_app(config), host=host, port=port, log_level=log_level,
                log_config=log_config,
                ws_max_size=config.limits.max_frame, timeout_graceful_shutdown=3,
                proxy_headers=bool(config.trusted_proxies),  # else none is believed
                forwarded_allow_ips=list(config.trusted_proxies) or None,
                ws_per_message_deflate=config.ws_deflate,
                timeout_keep_alive=config.keep_alive,
                http=deadline.protocol(config.request_timeout) or "auto",
                ws=wire.protocol() or "auto")  # uvicorn's own, with the game's side door
