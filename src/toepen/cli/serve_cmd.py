"""``toepen serve``: the multiplayer server (its command is the server's own,
:mod:`toepen.server.command`, which ``python -m toepen.server`` runs too)."""

from __future__ import annotations

import typer

from ..server.command import serve_cmd


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_cmd)
