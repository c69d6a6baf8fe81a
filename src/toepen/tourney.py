"""Tournaments: table sizes, the draw of each round, points per place and the standings.

Pure and deterministic: a draw depends only on the players, who has met whom and a seed
(its own :class:`random.Random`, never the global one). The server keeps tournaments
(``toepen.server.site.clubs``); this module only computes.

>>> table_sizes(10)
(4, 3, 3)
>>> tables = draw(["Ann", "Bas", "Cor", "Dirk", "Els", "Fien"], {}, (3, 3), seed=1)
>>> sorted(len(t) for t in tables)
[3, 3]
>>> rows = standings([[("Ann", "Bas", "Cor"), ("Dirk", "Els", "Fien")]], SCHEMES["beaten"])
>>> [(r.place, r.player, r.points) for r in rows][:3]
[(1, 'Ann', 2), (1, 'Dirk', 2), (3, 'Bas', 1)]
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

MIN_TABLE = 3
MAX_TABLE = 8
"""A tournament table seats 3 to 8 players (what every preset that allows it plays)."""
DEFAULT_TARGET = 4
"""The table size a draw aims at: four, as a pub table plays."""

Pair = tuple[str, str]
Round = Sequence[Sequence[str]]
"""One round's results: each table's finishing order, its winner first."""


class DrawError(ValueError):
    """No draw is possible (too few players, no table size the rules allow)."""


def pair(a: str, b: str) -> Pair:
    """The key of two players meeting (in a fixed order)."""
    return (a, b) if a <= b else (b, a)


def table_sizes(players: int, allowed: Iterable[int] = range(MIN_TABLE, MAX_TABLE + 1),
                target: int = DEFAULT_TARGET) -> tuple[int, ...]:
    """Balanced table sizes for ``players``: sizes differ by at most one, each one of
    ``allowed`` (within 3 to 8), and the tables are as near ``target`` as can be (of two
    equally near, more tables). Largest first.

    >>> table_sizes(5), table_sizes(7), table_sizes(9), table_sizes(40)
    ((5,), (4, 3), (5, 4), (4, 4, 4, 4, 4, 4, 4, 4, 4, 4))
    >>> table_sizes(5, allowed=(3, 4))
    Traceback (most recent call last):
    ...
    toepen.tourney.DrawError: 5 players cannot sit at tables of 3 to 4 of balanced sizes
    """
    sizes = sorted({s for s in allowed if MIN_TABLE <= s <= MAX_TABLE})
    if not sizes:
        raise DrawError("no table size from 3 to 8 is allowed")
    if players < sizes[0]:
        raise DrawError(f"{players} players are too few: a table needs {sizes[0]}")
    best: tuple[float, int] | None = None
    for k in range(1, players // sizes[0] + 1):
        q, r = divmod(players, k)
        if q not in sizes or (r and q + 1 not in sizes):
            continue
        key = (abs(players / k - target), -k)
        if best is None or key < best:
            best = key
    if best is None:
        raise DrawError(f"{players} players cannot sit at tables of {sizes[0]} to {sizes[-1]}"
                        " of balanced sizes")
    k = -best[1]
    q, r = divmod(players, k)
    return tuple([q + 1] * r + [q] * (k - r))


def met(rounds: Iterable[Sequence[Sequence[str]]]) -> Counter[Pair]:
    """How often each two players sat at one table in ``rounds`` (tables of names)."""
    count: Counter[Pair] = Counter()
    for tables in rounds:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    count[pair(a, b)] += 1
    return count


REPEAT = 3
"""What a pair that met before costs beyond the square of its meetings: new faces first."""


def _cost(table: Sequence[str], seen: Mapping[Pair, int]) -> int:
    """Repeat meetings at one table: each pair that met before costs :data:`REPEAT` plus
    the square of how often it met."""
    total = 0
    for i, a in enumerate(table):
        for b in table[i + 1:]:
            n = seen.get(pair(a, b), 0)
            total += n * n + REPEAT if n else 0
    return total


def draw(players: Sequence[str], seen: Mapping[Pair, int], sizes: Sequence[int], seed: int,
         restarts: int = 6) -> list[list[str]]:
    """The tables of a round: ``players`` seated at tables of ``sizes`` so that as few as
    possible meet again (the cost of each pair at one table that met before, the smallest
    found by swaps from ``restarts`` random starts), and each table's seat order drawn
    afresh. The same arguments give the same tables."""
    if sum(sizes) != len(players):
        raise DrawError(f"table sizes {list(sizes)} seat {sum(sizes)}, not {len(players)}")
    if len(set(players)) != len(players):
        raise DrawError("a player is listed twice")
    rng = random.Random(f"toepen-draw:{seed}")
    best: list[list[str]] | None = None
    best_cost = math.inf
    for _ in range(max(1, restarts)):
        order = list(players)
        rng.shuffle(order)
        tables: list[list[str]] = []
        at = 0
        for s in sizes:
            tables.append(order[at:at + s])
            at += s
        cost = _improve(tables, seen)
        if cost < best_cost:
            best, best_cost = [list(t) for t in tables], cost
        if cost == 0:
            break
    assert best is not None
    for table in best:
        rng.shuffle(table)
    return best


def _improve(tables: list[list[str]], seen: Mapping[Pair, int]) -> int:
    """Swap players between tables while a swap lowers the cost; the cost left."""
    costs = [_cost(t, seen) for t in tables]
    improved = True
    while improved:
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, len(tables)):
                for x in range(len(tables[i])):
                    for y in range(len(tables[j])):
                        a, b = tables[i][x], tables[j][y]
                        tables[i][x], tables[j][y] = b, a
                        ci, cj = _cost(tables[i], seen), _cost(tables[j], seen)
                        if ci + cj < costs[i] + costs[j]:
                            costs[i], costs[j] = ci, cj
                            improved = True
                        else:
                            tables[i][x], tables[j][y] = a, b
    return sum(costs)


def spread(rounds: Sequence[Sequence[Sequence[str]]]) -> tuple[float, float]:
    """How well ``rounds`` of tables spread opponents: (the mean over players of distinct
    opponents met, the mean of the most each could have met: every seat beside them a
    new face, at most everyone else)."""
    everyone = {p for tables in rounds for t in tables for p in t}
    opponents: dict[str, set[str]] = {p: set() for p in everyone}
    possible: Counter[str] = Counter()
    for tables in rounds:
        for t in tables:
            for p in t:
                opponents[p].update(q for q in t if q != p)
                possible[p] += len(t) - 1
    if not everyone:
        return 0.0, 0.0
    n = len(everyone)
    distinct = sum(len(o) for o in opponents.values()) / n
    best = sum(min(n - 1, possible[p]) for p in everyone) / n
    return distinct, best


@dataclass(frozen=True)
class Scheme:
    """Points per finishing place. ``points[i]`` for place ``i + 1`` (places past the
    end score 0); ``points`` empty means *beaten*: one point per player finishing below."""

    name: str
    points: tuple[int, ...] = ()

    def score(self, place: int, size: int) -> int:
        """Points for ``place`` (1 = the winner) at a table of ``size``."""
        if not self.points:
            return size - place
        return self.points[place - 1] if place <= len(self.points) else 0

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "points": list(self.points)}

    @classmethod
    def from_json(cls, data: object) -> Scheme:
        """A scheme by name (``"ladder"``) or ``{"name": ..., "points": [...]}``, checked."""
        if isinstance(data, str):
            if data not in SCHEMES:
                raise ValueError(f"scheme: unknown {data!r} (one of {', '.join(SCHEMES)}, "
                                 "or points per place)")
            return SCHEMES[data]
        if not isinstance(data, dict):
            raise ValueError("scheme: a scheme name or {name, points}")
        name, points = data.get("name", "custom"), data.get("points", [])
        if not isinstance(name, str) or not 1 <= len(name) <= 40:
            raise ValueError("scheme: name must be text of 1 to 40 characters")
        if name in SCHEMES and not points:
            return SCHEMES[name]
        if (not isinstance(points, list) or not 1 <= len(points) <= MAX_TABLE
                or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 1000
                           for p in points)):
            raise ValueError("scheme: points must be 1 to 8 whole numbers from 0 to 1000")
        if any(a < b for a, b in zip(points, points[1:], strict=False)):
            raise ValueError("scheme: a place may not score more than the place above it")
        return cls(name, tuple(points))


SCHEMES = {
    "beaten": Scheme("beaten"),
    "ladder": Scheme("ladder", (10, 7, 5, 3, 2, 1, 0, 0)),
    "winner": Scheme("winner", (1,)),
}
"""The schemes a club chooses from (or its own points per place)."""

TIE_BREAKS = ("points", "wins", "opponents")
"""Standings order: most points, then most tables won, then most points of the opponents
met (summed per meeting); players equal on all three share the place (listed by name)."""


@dataclass(frozen=True)
class Row:
    """One line of the standings."""

    place: int
    player: str
    points: int
    wins: int
    opponents: int
    played: int


def standings(rounds: Sequence[Round], scheme: Scheme,
              players: Iterable[str] = ()) -> list[Row]:
    """The standings after ``rounds`` (each table's finishing order, winner first) under
    ``scheme``, ordered by :data:`TIE_BREAKS`. ``players`` adds those who have not
    played yet (a late arrival, 0 points)."""
    points: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    everyone = dict.fromkeys(players)
    for tables in rounds:
        for order in tables:
            for place, p in enumerate(order, 1):
                everyone.setdefault(p)
                points[p] += scheme.score(place, len(order))
                played[p] += 1
                if place == 1:
                    wins[p] += 1
    opp: Counter[str] = Counter()
    for tables in rounds:
        for order in tables:
            for p in order:
                opp[p] += sum(points[q] for q in order if q != p)
    key = {p: (points[p], wins[p], opp[p]) for p in everyone}
    ordered = sorted(everyone, key=lambda p: (tuple(-v for v in key[p]), p.casefold(), p))
    rows: list[Row] = []
    for i, p in enumerate(ordered):
        place = rows[-1].place if rows and key[rows[-1].player] == key[p] else i + 1
        rows.append(Row(place, p, points[p], wins[p], opp[p], played[p]))
    return rows
