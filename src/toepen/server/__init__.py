"""``toepen serve``: tables over HTTP and WebSocket that never lose a game.

See ``docs/protocol.md`` (the protocol) and ``docs/server.md`` (running it).
"""

from .app import ServerConfig, create_app
from .tables import PROTOCOL, Limits

__all__ = ["PROTOCOL", "Limits", "ServerConfig", "create_app", "serve"]


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8000,
          log_level: str = "info") -> None:
    """Run the server with uvicorn until interrupted."""
    import uvicorn

    uvicorn.run(create_app(config), host=host, port=port, log_level=log_level,
                ws_max_size=config.limits.max_frame, timeout_graceful_shutdown=3,
                ws_per_message_deflate=config.ws_deflate)
