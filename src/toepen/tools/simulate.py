"""Random-play simulation: complete sessions between random legal players, with statistics.

>>> stats = simulate(Rules.preset("classic"), players=4, games=3, seed=1)
>>> stats.sessions, stats.hands > 0
(3, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.table import Table

from ..engine import EventKind, Game
from ..record import save, to_record
from ..rules import Rules
from ..seeds import derive_seed

_COUNTED = {
    EventKind.KNOCK: "knocks",
    EventKind.FOLD: "folds",
    EventKind.REDEAL: "redeals",
    EventKind.CLAIM: "armoede claims",
    EventKind.EXCHANGE: "exchanges",
    EventKind.CHALLENGE: "challenges",
    EventKind.PELT: "pelt hands",
    EventKind.SUDDEN_DEATH: "sudden deaths",
    EventKind.TELL: "tells",
    EventKind.ELIMINATED: "eliminations",
    EventKind.RUBBER: "rubbers",
    EventKind.DRINKS: "rounds of drinks",
    EventKind.TOEPKONING: "toepkoning titles",
    EventKind.HAND_RESULT: "hands",
}


@dataclass
class SimulationStats:
    """What happened over a number of random sessions."""

    preset: str
    players: int
    sessions: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    actions: int = 0
    wins: Counter[int] = field(default_factory=Counter)

    @property
    def hands(self) -> int:
        return self.counts["hands"]

    def per_hand(self, name: str) -> float:
        return self.counts[name] / self.hands if self.hands else 0.0

    def rows(self) -> list[tuple[str, str]]:
        """(statistic, value) rows for a summary table."""
        rows = [
            ("sessions", f"{self.sessions}"),
            ("hands per session", f"{self.hands / max(self.sessions, 1):.2f}"),
            ("actions per hand", f"{self.actions / max(self.hands, 1):.2f}"),
            ("knocks per hand", f"{self.per_hand('knocks'):.3f}"),
            ("folds per hand", f"{self.per_hand('folds'):.3f}"),
        ]
        for name in (
            "redeals", "armoede claims", "exchanges", "challenges", "pelt hands", "tells",
            "sudden deaths", "eliminations", "rubbers", "rounds of drinks", "toepkoning titles",
        ):
            rows.append((name, f"{self.counts[name]} ({self.per_hand(name):.3f} per hand)"))
        return rows

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON: the preset, the table size and every row's text."""
        return {"preset": self.preset, "players": self.players, **dict(self.rows())}

    def table(self) -> Table:
        """The summary as a terminal table."""
        out = Table(title=f"toepen simulate: {self.sessions} sessions, {self.preset}, "
                          f"{self.players} players")
        out.add_column("statistic")
        out.add_column("value", justify="right")
        for name, value in self.rows():
            out.add_row(name, value)
        return out


def play_random_session(
    rules: Rules, players: int, seed: int, dealer: int | None = None
) -> tuple[Game, Counter[str]]:
    """One complete session between random legal players; the game and its event counts."""
    rng = random.Random(derive_seed("simulate", seed))
    game = Game(rules, players, seed=seed, dealer=dealer if dealer is not None else seed % players)
    counts: Counter[str] = Counter(_COUNTED[e.kind] for e in game.opening_events(omniscient=True)
                                  if e.kind in _COUNTED)
    choice = rng.choice
    counted = _COUNTED
    while game.turn >= 0:
        for e in game.apply(game.turn, choice(game.legal_actions())):
            name = counted.get(e.kind)
            if name is not None:
                counts[name] += 1
    return game, counts


def simulate(
    rules: Rules,
    players: int,
    games: int,
    seed: int = 0,
    record_dir: Path | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationStats:
    """Play ``games`` random sessions (seeds ``seed``, ``seed + 1``, ...); collect statistics."""
    rules.check_table(players)
    stats = SimulationStats(rules.name, players)
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    for i in range(games):
        game, counts = play_random_session(rules, players, seed + i)
        stats.sessions += 1
        stats.counts.update(counts)
        stats.actions += len(game.actions)
        if game.winner is not None:
            stats.wins[game.winner] += 1
        if record_dir is not None:
            meta = {"event": "toepen simulate", "seed": seed + i}
            save(to_record(game, meta=meta), record_dir / f"session-{seed + i:06d}.json")
        if progress is not None:
            progress(1)
    return stats
