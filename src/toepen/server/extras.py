"""HTTP endpoints for the browser client: hints and message catalogs.

- ``GET /api/tables/{id}/hint`` (a seat's bearer token): what the strongest installed bot
  would do for that seat now, from ``observe(game, seat)`` only, thought in the bot pool.
- replays of finished games: :mod:`toepen.server.replays`.
- ``GET /api/i18n/{lang}``: the shared message catalog of a language.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from ..bots.reasons import reason
from ..i18n import catalog_json
from ..narration import action_message
from ..seeds import derive_seed
from ..view import observe
from .botpool import default_bot
from .protocol import Refused
from .routes import Authorization, LobbyDep

LANGS = ("en", "nl", "de", "it", "nb")
router = APIRouter()


@router.get("/api/i18n/{lang}")
async def i18n(lang: str) -> dict[str, Any]:
    """The message catalog of a language (en, nl, de, it, nb)."""
    if lang not in LANGS:
        raise Refused("not_found", f"lang: one of {', '.join(LANGS)}, not {lang!r}", 404)
    return catalog_json(lang)


@router.get("/api/tables/{table_id}/hint")
async def hint(table_id: str, lobby: LobbyDep,
               authorization: Authorization = None) -> dict[str, Any]:
    """What the strongest installed bot would do for the token's seat now."""
    table = lobby.get(table_id)
    await lobby.fresh_copy(table)
    seat, _host = lobby.bearer(table, authorization, "a seat's")
    game = table.game
    if seat is None:
        raise Refused("forbidden", "this token has no seat at the table", 403)
    if game is None or seat != game.turn:
        raise Refused("bad_command", f"seat {seat} is not to act", 409)
    view = observe(game, seat)
    name = await asyncio.to_thread(default_bot)
    seed = derive_seed(table.row.seed, "hint", view.action_count, seat)
    act = await lobby.bots.pool.decide(name, seed, view)
    # the action and why, as catalog messages the page translates (``hint.reason.*``)
    return {"action": str(act), "bot": name, "state": view.action_count,
            "say": action_message(act).to_json(), "reason": reason(view, act).to_json()}
