"""The review of a finished game over HTTP, thought in the bot pool with its progress.

- ``POST /api/tables/{id}/review?seat=N[&all=1]`` starts the review of seat ``N`` of a
  finished game (``all=1``: the all-cards mode, every hand open, marked as such) or finds
  the one already made or under way; ``GET`` with the same query tells how far it is:
  ``{"state": "running", "done", "total"}``, ``{"state": "done", "review": ...}`` (the
  JSON of :meth:`toepen.review.Review.to_json`, docs/review.md) or ``{"state": "failed",
  "say"}``; 404 for a review never started.

Like the replay, a review is for finished games only (nothing it shows is hidden then;
a review still values each decision from the seat's own view). Each decision is valued
in the bot pool's review lane (:meth:`~toepen.server.tables.botpool.BotPool.review_values`):
after the tables' moves and the hints, and with the hints on half the pool's workers at
most (:class:`~toepen.server.tables.botpool.Lanes`), so that the tables' bots keep theirs; one
review sends at most that many decisions at once, so that reviews take turns.

Budgets per client (the account if logged in, else the address): a client has at most
:data:`RUNNING_EACH` review worked out at once, an address :data:`RUNNING_PER_ADDRESS`,
the server :data:`MAX_RUNNING` (``limit``, 429, past any of them). Memory is bounded: at
most :data:`MAX_REVIEWS` reviews are kept; each belongs to the clients who started or
asked for it, a client keeps its :data:`KEPT_EACH` newest (its older ones are dropped
as it starts more), and when the server's are all taken the client with the most gives
up its oldest: no client can push out another's review by asking for many.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request

from ...narration import Message
from ...record import to_record
from ...review import DEFAULT_SAMPLES, ReviewError, assemble, judge, points
from ..protocol import Refused
from ..site.accounts import routes as accounts_routes
from ..site.accounts.limits import client_key
from .routes import LobbyDep

router = APIRouter()

MAX_REVIEWS = 64
"""Reviews kept in memory (finished or running)."""
KEPT_EACH = 8
"""Finished reviews kept for one client (the newest it asked for)."""
MAX_RUNNING = 4
"""Reviews worked out at once; another is refused (``limit``) until one ends."""
RUNNING_EACH = 1
"""Reviews one client (an account, else an address) may have worked out at once."""
RUNNING_PER_ADDRESS = 2
"""Reviews worked out at once for one address (its accounts together)."""
SAMPLES = DEFAULT_SAMPLES
"""Sampled deals per decision of a review made by the server."""
REVIEW_SEED = 0
"""The seed of the server's reviews (as ``toepen review``'s default: the same review)."""


@dataclass
class Job:
    """One review: its progress, then its result or why it failed."""

    client: str = ""
    """Who started it (``u:ID`` or ``a:ADDRESS``)."""
    address: str = ""
    """The address it was started from."""
    owners: set[str] = field(default_factory=set)
    """The clients who asked for it: it is kept while one of them keeps it."""
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
        self.slots = max(1, slots)
        """Decisions one review sends to the pool at once."""

    def running(self) -> int:
        return sum(1 for j in self.jobs.values() if j.running)

    def check_room(self, client: str, address: str) -> None:
        """Refused (429) if ``client`` may not start a review now: its own under way,
        its address's, or the server's."""
        running = [j for j in self.jobs.values() if j.running]
        if sum(1 for j in running if j.client == client) >= RUNNING_EACH:
            raise Refused("limit", "your review is still being worked out: wait for it", 429,
                          say=Message("review.error.yours"), retry_after=10)
        if (len(running) >= MAX_RUNNING
                or sum(1 for j in running if j.address == address) >= RUNNING_PER_ADDRESS):
            raise Refused("limit", f"{MAX_RUNNING} reviews are running; try again later", 429,
                          say=Message("review.error.busy"), retry_after=30)

    def keep(self, key: tuple[str, int, bool], client: str) -> None:
        """``client`` asked for the review of ``key``: it is one of the client's newest
        (its :data:`KEPT_EACH` newest finished ones are kept for it)."""
        self.jobs[key].owners.add(client)
        self.jobs.move_to_end(key)
        mine = [k for k, j in self.jobs.items() if client in j.owners and not j.running]
        for old in mine[:max(0, len(mine) - KEPT_EACH)]:
            self._disown(old, client)

    def _disown(self, key: tuple[str, int, bool], client: str) -> None:
        job = self.jobs[key]
        job.owners.discard(client)
        if not job.owners and not job.running:
            del self.jobs[key]

    def make_room(self, client: str) -> None:
        """Room for one more review of ``client``: while the server keeps
        :data:`MAX_REVIEWS`, the client that keeps the most finished ones gives up its
        oldest (``client`` itself among equals)."""
        while len(self.jobs) >= MAX_REVIEWS:
            counts: dict[str, int] = {}
            for job in self.jobs.values():
                if not job.running:
                    for owner in job.owners:
                        counts[owner] = counts.get(owner, 0) + 1
            if not counts:
                break  # all running (MAX_RUNNING bounds them)
            heaviest = max(counts, key=lambda c: (counts[c], c == client))
            oldest = next(k for k, j in self.jobs.items()
                          if not j.running and heaviest in j.owners)
            self._disown(oldest, heaviest)
            for key in [k for k, j in self.jobs.items() if not j.owners and not j.running]:
                del self.jobs[key]  # (a job nobody keeps: started by an older server)


def _reviews(request: Request, lobby: Any) -> Reviews:
    got = getattr(request.app.state, "reviews", None)
    if not isinstance(got, Reviews):
        got = Reviews(lobby.bots.pool.lanes.share)
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

        slots = asyncio.Semaphore(reviews.slots)

        async def one(i: int) -> Any:
            p = pts[i]
            async with slots:
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
    address = client_key(request)
    user = await accounts_routes.player(request)
    client = f"u:{user.id}" if user is not None else f"a:{address}"
    key = (table_id, who, all_cards)
    job = reviews.jobs.get(key)
    if job is None:
        reviews.check_room(client, address)
        reviews.make_room(client)
        job = reviews.jobs[key] = Job(client=client, address=address)
        # the sampling's seed is the review's own, never the table's (which deals the cards)
        job.task = asyncio.create_task(_work(job, reviews, lobby, to_record(game), who,
                                             all_cards, REVIEW_SEED))
    reviews.keep(key, client)
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
