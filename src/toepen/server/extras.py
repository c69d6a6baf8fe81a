"""HTTP endpoints for the browser client: hints and message catalogs.

- ``GET /api/tables/{id}/hint`` (a seat's bearer token): what ``expert`` would do for that
  seat now, from ``observe(game, seat)`` only, by the review's own valuation (its samples and
  seed: the hint is what the review will call best), thought in the bot pool; with one legal
  move, no action (nothing to decide) and ``hint.reason.forced``.
- replays of finished games: :mod:`toepen.server.replays`.
- ``GET /api/i18n/{lang}``: the shared message catalog of a language.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..bots.expert import ExpertBot
from ..bots.reasons import forced, reason
from ..i18n import catalog_json
from ..narration import action_message
from ..review import ReviewError
from ..view import observe
from .protocol import Refused
from .reviews import REVIEW_SEED, SAMPLES
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
    """What expert would do for the token's seat now, and why in its figures."""
    table = lobby.get(table_id)
    await lobby.fresh_copy(table)
    seat, _host = lobby.bearer(table, authorization, "a seat's")
    game = table.game
    if seat is None:
        raise Refused("forbidden", "this token has no seat at the table", 403)
    if game is None or seat != game.turn:
        raise Refused("bad_command", f"seat {seat} is not to act", 409)
    view = observe(game, seat)
    nothing = forced(view)
    if nothing is not None:
        # one legal move: nothing to decide, so no action is hinted (``hint.reason.forced``)
        return {"action": None, "bot": None, "state": view.action_count, "say": None,
                "reason": nothing.to_json()}
    # The review's own valuation of this position (its samples, its seed): the hint is the
    # action the review will call best, or one expert mixes within a tie of it.
    try:
        ev = await lobby.bots.pool.review_values(view, SAMPLES, REVIEW_SEED, None)
    except ReviewError as e:
        raise Refused("bad_command", f"no hint: {e}", 409) from None
    act = ev.choice
    # the action and why, worded from the values the choice was made by (``hint.reason.*``)
    return {"action": str(act), "bot": ExpertBot.name, "state": view.action_count,
            "say": action_message(act).to_json(),
            "reason": reason(view, act, ev.values).to_json()}
