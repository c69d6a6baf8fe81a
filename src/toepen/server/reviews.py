"""The review of a finished game over HTTP, thought in the bot pool with its progress.

- ``POST /api/tables/{id}/review?seat=N[&all=1]`` starts the review of seat ``N`` of a
  finished game (``all=1``: the all-cards mode, every hand open, marked as such) or finds
  the one already made or under way; ``GET`` with the same query tells how far it is:
  ``{"state": "running", "done", "total"}``, ``{"state": "done", "review": ...}`` (the
  JSON of :meth:`toepen.review.Review.to_json`, docs/review.md) or ``{"state": "failed",
  "say"}``; 404 for a review never started.

Like the replay, a review is for finished games only (nothing it shows is hidden then;
a review still values each decision from the seat's own view). Each decision is valued
in the bot pool (:meth:`~toepen.server.botpool.BotPool.review_values`), at most half the
pool's workers at once for all reviews together, so that the tables' bots keep theirs.
Memory is bounded: at most :data:`MAX_REVIEWS` reviews are kept (the oldest finished
ones go first) and at most :data:`MAX_RUNNING` run at once (``limit``, 429, past that).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request

from ..narration import Message
from ..record import to_record
from ..review import DEFAULT_SAMPLES, ReviewError, assemble, judge, points
from .protocol import Refused
from .routes import LobbyDep

router = APIRouter()

MAX_REVIEWS = 64
"""Reviews kept in memory (finished or running)."""
MAX_RUNNING = 4
"""Reviews worked out at once; another is refused (``limit``) until one ends."""
SAMPLES = DEFAULT_SAMPLES
"""Sampled deals per decision of a review made by the server."""
REVIEW_SEED = 0
"""The seed of the server's reviews (as ``toepen review``'s default: the same review)."""


@dataclass
class Job:
    """One review: its progress, then its result or why it failed."""

    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def running(self) -> bool:
        return self.result is None and self.error is None

    def to_json(self) -> dict[str, Any]:
        if self.result is not None:
            return {"state": "done", "done": self.total, "total": self.total,
                    "review": self.result}
        if self.error is not None:
            return {"state": "failed", "detail": self.error,
                    "say": Message("review.failed", {"error": self.error}).to_json()}
        return {"state": "running", "done": self.done, "total": self.total}


class Reviews:
    """The server's reviews, by (table, seat, mode)."""

    def __init__(self, slots: int) -> None:
        self.jobs: OrderedDict[tuple[str, int, bool], Job] = OrderedDict()
        self.slots = asyncio.Semaphore(max(1, slots))

    def running(self) -> int:
        return sum(1 for j in self.jobs.values() if j.running)

    def make_room(self) -> None:
        while len(self.jobs) >= MAX_REVIEWS:
            old = next((k for k, j in self.jobs.items() if not j.running), None)
            if old is None:
                break
            del self.jobs[old]


def _reviews(request: Request, lobby: Any) -> Reviews:
    got = getattr(request.app.state, "reviews", None)
    if not isinstance(got, Reviews):
        got = Reviews(max(1, lobby.bots.pool.workers // 2))
        request.app.state.reviews = got
    return got


def _query(seat: str | None, all_cards: str | None, n: int) -> tuple[int, bool]:
    if seat is None or not (seat.isascii() and seat.isdigit() and len(seat) < 3
                            and int(seat) < n):
        raise Refused("bad_message", f"seat: a seat from 0 to {n - 1}, not {seat!r}")
    if all_cards not in (None, "0", "1"):
        raise Refused("bad_message", f"all: 0 or 1, not {all_cards!r}")
    return int(seat), all_cards == "1"


async def _work(job: Job, reviews: Reviews, lobby: Any, record: dict[str, Any], seat: int,
                all_cards: bool, seed: int) -> None:
    try:
        pts, lives, game = await asyncio.to_thread(points, record, seat)
        job.total = len(pts)
        pool = lobby.bots.pool
        samples = 1 if all_cards else SAMPLES

        async def one(i: int) -> Any:
            p = pts[i]
            async with reviews.slots:
                values = await pool.review_values(p.view, SAMPLES, seed,
                                                  p.hands if all_cards else None)
            job.done += 1
            return judge(p, values, samples)

        decisions = await asyncio.gather(*(one(i) for i in range(len(pts))))
        job.result = assemble(game, seat, decisions, lives, samples=SAMPLES, seed=seed,
                              all_cards=all_cards).to_json()
    except ReviewError as e:
        job.error = str(e)
    except Exception as e:  # noqa: BLE001 - a failed review is reported, never a crash
        job.error = f"{type(e).__name__}"


@router.post("/api/tables/{table_id}/review")
async def start_review(table_id: str, request: Request, lobby: LobbyDep,
                       seat: str | None = None, all: str | None = None) -> dict[str, Any]:
    """Start (or find) the review of a seat of a finished game; its progress."""
    table = await lobby.find(table_id)
    game = table.game
    if table.row.status != "over" or game is None:
        raise Refused("bad_command", "the game is not over: a review waits for its end", 409,
                      say=Message("review.error.not_over"))
    who, all_cards = _query(seat, all, game.n)
    reviews = _reviews(request, lobby)
    key = (table_id, who, all_cards)
    job = reviews.jobs.get(key)
    if job is None:
        if reviews.running() >= MAX_RUNNING:
            raise Refused("limit", f"{MAX_RUNNING} reviews are running; try again later", 429,
                          say=Message("review.error.busy"))
        reviews.make_room()
        job = reviews.jobs[key] = Job()
        # the sampling's seed is the review's own, never the table's (which deals the cards)
        job.task = asyncio.create_task(_work(job, reviews, lobby, to_record(game), who,
                                             all_cards, REVIEW_SEED))
    reviews.jobs.move_to_end(key)
    return job.to_json()


@router.get("/api/tables/{table_id}/review")
async def review_progress(table_id: str, request: Request, lobby: LobbyDep,
                          seat: str | None = None, all: str | None = None) -> dict[str, Any]:
    """How far the review of a seat is, and the review once it is done."""
    table = await lobby.find(table_id)
    game = table.game
    if game is None:
        raise Refused("not_found", "no review of this table", 404)
    who, all_cards = _query(seat, all, game.n)
    job = _reviews(request, lobby).jobs.get((table_id, who, all_cards))
    if job is None:
        raise Refused("not_found", "no review of this seat was started", 404)
    return job.to_json()
