"""HTTP endpoints for the browser client: hints, replays and message catalogs.

- ``GET /api/tables/{id}/hint`` (a seat's bearer token): what ``expert`` would do for that
  seat now, from ``observe(game, seat)`` only, by the review's own valuation (its samples and
  seed: the hint is what the review will call best), thought in the bot pool; with one legal
  move, no action (nothing to decide) and ``hint.reason.forced``.
- ``GET /api/tables/{id}/replay?seat=N|all`` (finished games only): every step's view and
  redacted events for one seat, a spectator (no ``seat``) or everyone (``all``).
- ``GET /api/i18n/{lang}``: the shared message catalog of a language.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from ..bots.expert import ExpertBot
from ..bots.reasons import forced, reason
from ..cards import card_str, cards_of
from ..engine import Game
from ..i18n import catalog_json
from ..narration import action_message
from ..review import ReviewError
from ..view import observe
from .protocol import Refused, events_json
from .reviews import REVIEW_SEED, SAMPLES
from .routes import Authorization, LobbyDep

LANGS = ("en", "nl", "de", "it", "nb")
router = APIRouter()


def replay_steps(game: Game, seat: int | None, all_cards: bool) -> list[dict[str, Any]]:
    """Every position of a finished ``game`` as ``seat`` saw it (``all_cards``: with hands).

    Step 0 is the position before the first action; step ``k`` follows action ``k``.
    """
    replay = Game(game.rules, game.players, decks=game.dealt_decks(), dealer=game.first_dealer)

    def step(events: list[Any], last: dict[str, Any] | None) -> dict[str, Any]:
        view = observe(replay, None if all_cards else seat)
        out: dict[str, Any] = {
            "state": view.action_count,
            "last": last,
            "events": events_json(events, None if all_cards else seat),
            "view": view.to_json(),
        }
        if all_cards:
            out["hands"] = [[card_str(c) for c in cards_of(h)] for h in replay.hand_masks()]
        return out

    steps = [step(replay.opening_events(omniscient=True), None)]
    for s, act in game.actions:
        events = replay.apply(s, act)
        steps.append(step(events, {"seat": s, "action": str(act)}))
    return steps


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


@router.get("/api/tables/{table_id}/replay")
async def replay(table_id: str, lobby: LobbyDep, seat: str | None = None) -> dict[str, Any]:
    """Every step of a finished game, as one seat, a spectator or everyone saw it."""
    table = lobby.get(table_id)
    await lobby.fresh_copy(table)
    game = table.game
    if table.row.status != "over" or game is None:
        raise Refused("bad_command", "the game is not over: a replay would show hidden "
                      "cards", 409)
    if seat is None or seat == "all":
        who: int | None = None
    elif seat.isascii() and seat.isdigit() and len(seat) < 3 and int(seat) < game.n:
        who = int(seat)
    else:
        raise Refused("bad_message", f"seat: a seat from 0 to {game.n - 1} or 'all', "
                      f"not {seat!r}")
    steps = await asyncio.to_thread(replay_steps, game, who, seat == "all")
    return {"steps": steps}
