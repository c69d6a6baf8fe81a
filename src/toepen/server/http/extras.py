"""HTTP endpoints for the browser client: hints and message catalogs.

- ``GET /api/tables/{id}/hint`` (a seat's bearer token): what ``expert`` would do for that
  seat now, from ``observe(game, seat)`` only, by the review's own valuation (its samples and
  seed: the hint is what the review will call best); with one legal move, no action (nothing
  to decide) and ``hint.reason.forced``. Thought in the bot pool's hint lane
  (:class:`~toepen.server.tables.botpool.Lanes`: never ahead of a table's move, and with reviews on
  half the workers at most). The answer of a position (table, seat, state number) is worked
  out once: asked again, or by many at once, it is the same answer without new work
  (:class:`~toepen.server.tables.botpool.Answers`). Each seat may ask
  :attr:`~toepen.server.protocol.Limits.hints_per_seat` (``--hints-per-minute``) and each
  address :data:`HINTS_PER_ADDRESS` hints a minute; past that, and while
  :data:`HINTS_WAITING` hints wait for a worker, 429 with ``Retry-After``.
- replays of finished games: :mod:`toepen.server.http.replays`.
- ``GET /api/i18n/{lang}``: the shared message catalog of a language.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ...bots.expert import ExpertBot
from ...bots.reasons import forced, reason
from ...i18n import catalog_json
from ...narration import Message, action_message
from ...review import ReviewError
from ...view import observe
from ..protocol import Refused
from ..site.accounts.limits import MemoryWindow, RedisWindow, Window, client_key
from ..site.playnow import limited
from ..tables.botpool import HINT, Answers
from .review_jobs import REVIEW_SEED, SAMPLES
from .routes import Authorization, LobbyDep

LANGS = ("en", "nl", "de", "it", "nb")
router = APIRouter()

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

    def __init__(self, redis: Any, per_seat: int) -> None:
        self.answers: Answers[tuple[str, int, int], dict[str, Any]] = Answers(HINTS_KEPT)

        def window(name: str, most: int) -> Window:
            return (MemoryWindow(most, HINT_WINDOW) if redis is None
                    else RedisWindow(redis, name, most, HINT_WINDOW))

        self.per_seat = window("hint-seat", per_seat)
        self.per_address = window("hint-address", HINTS_PER_ADDRESS)


def hints_of(request: Request) -> Hints:
    """The running server's :class:`Hints` (made at the first hint)."""
    got = getattr(request.app.state, "hints", None)
    if not isinstance(got, Hints):
        accounts = getattr(request.app.state, "accounts", None)
        got = Hints(getattr(accounts, "redis", None),
                    request.app.state.config.limits.hints_per_seat)
        request.app.state.hints = got
    return got


@router.get("/api/i18n/{lang}")
async def i18n(lang: str) -> dict[str, Any]:
    """The message catalog of a language (en, nl, de, it, nb)."""
    if lang not in LANGS:
        raise Refused("not_found", f"lang: one of {', '.join(LANGS)}, not {lang!r}", 404)
    return catalog_json(lang)


@router.get("/api/tables/{table_id}/hint")
async def hint(table_id: str, request: Request, lobby: LobbyDep,
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
        # The review's own valuation of this position (its samples, its seed): the hint is
        # the action the review will call best, or one expert mixes within a tie of it.
        try:
            ev = await pool.review_values(view, SAMPLES, REVIEW_SEED, None, lane=HINT)
        except ReviewError as e:
            raise Refused("bad_command", f"no hint: {e}", 409) from None
        act = ev.choice
        # the action and why, worded from the values it was chosen by (``hint.reason.*``)
        return {"action": str(act), "bot": ExpertBot.name, "state": view.action_count,
                "say": action_message(act).to_json(),
                "reason": reason(view, act, ev.values).to_json()}

    return await hints.answers.get(key, work)
