"""``toepen serve``: the multiplayer server (its command is the server's own,
:mod:`toepen.server.command`, which ``python -m toepen.server`` runs too). Without the
``[server]`` extra the command is still there and says what to install."""

from __future__ import annotations

import typer

from .extras import missing, require


def register(app: typer.Typer) -> None:
    if missing("server"):
        @app.command("serve", context_settings={"allow_extra_args": True,
                                                 "ignore_unknown_options": True})
        def serve_without_server(ctx: typer.Context) -> None:
            """The multiplayer server (needs the [server] extra)."""
            require("server", "toepen serve")
        return
    from ..server.command import serve_cmd

    app.command("serve")(serve_cmd)
