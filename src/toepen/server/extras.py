"""HTTP endpoints for the browser client: hints, replays and message catalogs.

- ``GET /api/tables/{id}/hint`` (a seat's bearer token): what the strongest installed bot
  would do for that seat now, from ``observe(game, seat)`` only, thought in the bot pool's
  hint lane (:class:`~toepen.server.botpool.Lanes`: never ahead of a table's move, and
  with reviews on half the workers at most). The answer of a position (table, seat,
  state number) is worked out once: asked again, or by many at once, it is the same
  answer without new work (:class:`~toepen.server.botpool.Answers`). Each seat may ask
  :data:`HINTS_PER_SEAT` and each address :data:`HINTS_PER_ADDRESS` hints a minute;
  past that, and while :data:`HINTS_WAITING` hints wait for a worker, 429 with
  ``Retry-After``.
- ``GET /api/tables/{id}/replay?seat=N|all`` (finished games only): every step's view and
  redacted events for one seat, a spectator (no ``seat``) or everyone (``all``).
- ``GET /api/i18n/{lang}``: the shared message catalog of a language.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from ..bots.reasons import reason
from ..cards import card_str, cards_of
from ..engine import Game
from ..i18n import catalog_json
from ..narration import Message, action_message
from ..seeds import derive_seed
from ..view import observe
from .accounts.limits import MemoryWindow, RedisWindow, Window
from .botpool import HINT, Answers, default_bot
from .playnow import limited
from .protocol import Refused, events_json
from .routes import Authorization, LobbyDep, client_key

LANGS = ("en", "nl", "de", "it", "nb")
router = APIRouter()

HINTS_PER_SEAT = 20
"""Hints one seat may ask for in :data:`HINT_WINDOW` seconds."""
HINTS_PER_ADDRESS = 60
"""Hints one client address may ask for in :data:`HINT_WINDOW` seconds (all its seats)."""
HINT_WINDOW = 60.0
HINTS_WAITING = 64
"""Hints waiting for a worker of the pool at most; another is refused until one ends."""
HINTS_KEPT = 2048
"""Answers of positions kept (one position's hint is a few hundred bytes)."""


class Hints:
    """The server's hints: the answers of positions and the limits per seat and address
    (in Redis with ``--redis``, one limit for the cluster; the answers are per process)."""

    def __init__(self, redis: Any = None) -> None:
        self.answers: Answers[tuple[str, int, int], dict[str, Any]] = Answers(HINTS_KEPT)

        def window(name: str, most: int) -> Window:
            return (MemoryWindow(most, HINT_WINDOW) if redis is None
                    else RedisWindow(redis, name, most, HINT_WINDOW))

        self.per_seat = window("hint-seat", HINTS_PER_SEAT)
        self.per_address = window("hint-address", HINTS_PER_ADDRESS)


def hints_of(request: Request) -> Hints:
    """The running server's :class:`Hints` (made at the first hint)."""
    got = getattr(request.app.state, "hints", None)
    if not isinstance(got, Hints):
        accounts = getattr(request.app.state, "accounts", None)
        got = Hints(getattr(accounts, "redis", None))
        request.app.state.hints = got
    return got


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
async def hint(table_id: str, request: Request, lobby: LobbyDep,
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
    hints = hints_of(request)
    await limited(request, hints.per_seat, "hints for this seat", key=f"{table.id}:{seat}",
                  area="hint")
    try:
        await limited(request, hints.per_address, "hints", key=client_key(request),
                      area="hint")
    except Refused:
        await hints.per_seat.give_back(f"{table.id}:{seat}")
        raise
    key = (table.id, seat, len(game.actions))
    pool = lobby.bots.pool
    if (key not in hints.answers.kept and key not in hints.answers.running
            and pool.lanes.queued(HINT) >= HINTS_WAITING):
        raise Refused("limit", f"{HINTS_WAITING} hints are waiting for the bots: try again "
                      "in a few seconds", 429, say=Message("hint.error.busy"), retry_after=5)

    async def work() -> dict[str, Any]:
        view = observe(game, seat)
        name = await asyncio.to_thread(default_bot)
        seed = derive_seed(table.row.seed, "hint", view.action_count, seat)
        act = await pool.decide(name, seed, view, lane=HINT)
        # the action and why, as catalog messages the page translates (``hint.reason.*``)
        return {"action": str(act), "bot": name, "state": view.action_count,
                "say": action_message(act).to_json(), "reason": reason(view, act).to_json()}

    return await hints.answers.get(key, work)


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
