"""What a finished game says about each seat: its place, its figures and, in rated
games, its new OpenSkill rating.

The place comes from the game's events as :func:`toepen.narration.standings` orders
them: the winner first, then the others from the last one out to the first; seats that
never went out and did not win share the place after the winner's (e.g. a team's
partner). The figures per seat: hands played, hands won (the engine's count), lives lost
(the engine's count), knocks, and knocks that every other player folded to (the bluffs
that worked; the profile shows them as a share of the knocks).

>>> from toepen.engine import Game
>>> from toepen.rules import Rules
>>> from toepen.bots import make_bot
>>> from toepen.view import observe
>>> g = Game(Rules.preset("rulebook", lives=3), ["A", "B", "C"], seed=4)
>>> bots = [make_bot("random", seed=s) for s in range(3)]
>>> while not g.is_over:
...     _ = g.apply(g.turn, bots[g.turn].act(observe(g, g.turn)))
>>> rs = seat_results(g)
>>> sorted(r.place for r in rs), rs[g.winner].place, rs[g.winner].won
([1, 2, 3], 1, True)
>>> new = rate([(25.0, 25 / 3)] * 3, [r.place for r in rs])
>>> new[g.winner][0] > 25.0 > min(mu for mu, _ in new)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from ....engine import Event, EventKind, Game
from ...tables.master import history

MODEL = PlackettLuce()
"""The rating model: OpenSkill's Plackett-Luce (mu 25, sigma 25/3 for a newcomer)."""
MU, SIGMA = MODEL.mu, MODEL.sigma


@dataclass(frozen=True)
class SeatResult:
    seat: int
    place: int
    won: bool
    hands: int
    hands_won: int
    lives_lost: int
    knocks: int
    bluffs: int


def places(game: Game, events: Sequence[Event] | None = None) -> list[int]:
    """Each seat's place (1 = the winner; partners share their pair's place): the
    engine's finishing order (``game.places()``, rules.md D16 for rubbers). ``events``
    is not needed any more and is ignored (kept for callers that pass it)."""
    place = [0] * game.n
    for p in game.places():
        for s in p.seats:
            place[s] = p.place
    return place


def seat_results(game: Game, events: Sequence[Event] | None = None) -> list[SeatResult]:
    """What the finished ``game`` says about each seat (``events``: :func:`history` of
    the game, if the caller has it: the table keeps it)."""
    if events is None:
        events = history(game)
    n = game.n
    hands = [0] * n
    knocks = [0] * n
    bluffs = [0] * n
    gone: set[int] = set()
    open_knock: int | None = None  # the last knock, while only folds answered it
    folded_to = False
    for e in events:
        k = e.kind
        if k is EventKind.KNOCK:
            open_knock, folded_to = e.seat, False
            knocks[e.seat] += 1
        elif k is EventKind.FOLD and open_knock is not None:
            folded_to = True
        elif k in (EventKind.STAY, EventKind.PLAY, EventKind.DEAL, EventKind.REDEAL):
            open_knock = None
        elif k is EventKind.HAND_RESULT:
            if open_knock is not None and folded_to and e.detail == "folded" \
                    and e.seat == open_knock:
                bluffs[open_knock] += 1
            open_knock = None
        if k is EventKind.DEAL:
            for s in range(n):
                if s not in gone:
                    hands[s] += 1
        elif k is EventKind.ELIMINATED and 0 <= e.seat < n:
            gone.add(e.seat)
    place = places(game, events)
    return [SeatResult(seat=s, place=place[s], won=s == game.winner, hands=hands[s],
                       hands_won=game.hands_won[s], lives_lost=game.lives_lost[s],
                       knocks=knocks[s], bluffs=bluffs[s]) for s in range(n)]


def rate(before: Sequence[tuple[float, float]], place: Sequence[int]) -> list[tuple[float,
                                                                                  float]]:
    """Each player's (mu, sigma) after a game they finished in ``place`` (ties allowed)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    new = MODEL.rate(teams, ranks=[float(p) for p in place])
    return [(t[0].mu, t[0].sigma) for t in new]


def ordinal(mu: float, sigma: float) -> float:
    """The rating people see: mu - 3 sigma (a newcomer starts at 0 and climbs)."""
    return mu - 3 * sigma
