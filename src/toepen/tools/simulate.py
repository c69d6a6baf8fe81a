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

from ..engine import FOLD, KNOCK, EventKind, Game, Phase
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
    EventKind.KANS: "kans draws",
    EventKind.LAUNDRY: "laundry claims",
    EventKind.FOUR_OF_A_KIND: "four of a kind",
    EventKind.JACK: "last tricks won with a jack",
    EventKind.LIFE_BACK: "lives won back",
}
HOUSE_COUNTS: tuple[tuple[str, str], ...] = (
    ("dealer", "deals by the highest loser"),
    ("double_knock", "double knocks"),
    ("edge", "folds refused on the edge"),
    ("edge", "payments capped (plays dead)"),
    ("jack_last_trick", "last tricks won with a jack"),
    ("jack_last_trick", "lives won back"),
    ("four_of_a_kind", "four of a kind"),
    ("three_of_a_kind_draw", "kans draws"),
    ("laundry", "laundry claims"),
    ("laundry", "laundry checks"),
    ("laundry_caught", "hands played open"),
    ("blind_knock", "blind knocks"),
    ("knock_anytime", "knocks out of turn"),
)
"""How often each house rule fired: (the rule, the count), shown when the rule is on."""


@dataclass
class SimulationStats:
    """What happened over a number of random sessions."""

    preset: str
    players: int
    sessions: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    actions: int = 0
    wins: Counter[int] = field(default_factory=Counter)
    house: tuple[str, ...] = ()
    """The house rules on (their counts are shown): names of :data:`HOUSE_COUNTS`."""

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
        for rule, name in HOUSE_COUNTS:
            if rule in self.house:
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
    house = house_rules_on(rules)
    if house:
        _house_session(game, rng, counts)
        return game, counts
    while game.turn >= 0:
        for e in game.apply(game.turn, choice(game.legal_actions())):
            name = counted.get(e.kind)
            if name is not None:
                counts[name] += 1
    return game, counts


def house_rules_on(rules: Rules) -> tuple[str, ...]:
    """The rules of :data:`HOUSE_COUNTS` that ``rules`` play (``laundry``: either was)."""
    base = Rules()
    on = []
    for rule, _ in HOUSE_COUNTS:
        if rule == "laundry":
            value = rules.laundry
        elif rule == "dealer":
            value = rules.dealer == "highest_loser"
        else:
            value = getattr(rules, rule) != getattr(base, rule)
        if value and rule not in on:
            on.append(rule)
    return tuple(on)


def _house_session(game: Game, rng: random.Random, counts: Counter[str]) -> None:
    """A random session under house rules, counting how often each fired."""
    rules = game.rules
    counted = _COUNTED
    last_knocker = -1
    stake = 1
    paid_fold = 0
    while game.turn >= 0:
        legal = game.legal_actions()
        if rules.edge == "no_fold" and game.phase in (Phase.ANSWER, Phase.BLIND_ANSWER) \
                and FOLD not in legal:
            counts["folds refused on the edge"] += 1
        phase = game.phase
        dealer = game.dealer
        seat, act = game.turn, rng.choice(legal)
        knockers = game.knockers()
        if knockers and rng.random() < 0.15:  # knock_anytime: a random knock out of turn
            seat, act = rng.choice(knockers), KNOCK
            counts["knocks out of turn"] += 1
        for e in game.apply(seat, act):
            kind = e.kind
            name = counted.get(kind)
            if name is not None:
                counts[name] += 1
            if kind is EventKind.KNOCK:
                if e.detail == "blind":
                    counts["blind knocks"] += 1
                elif e.seat == last_knocker:
                    counts["double knocks"] += 1
                last_knocker, stake = e.seat, e.value
            elif kind is EventKind.PELT:
                last_knocker, stake = e.seat, e.value
            elif kind in (EventKind.DEAL, EventKind.REDEAL):
                if kind is EventKind.DEAL and rules.dealer == "highest_loser" \
                        and e.seat != (dealer + 1) % game.n:
                    counts["deals by the highest loser"] += 1
                last_knocker, stake = -1, 1
            elif kind is EventKind.CHALLENGE and phase is Phase.LAUNDRY_CHALLENGE:
                counts["laundry checks"] += 1
            elif kind is EventKind.REVEAL and e.detail == "open":
                counts["hands played open"] += 1
            elif kind is EventKind.FOLD:
                paid_fold = e.value
            elif kind is EventKind.LIVES and rules.edge == "plays_dead":
                full = {"fold": paid_fold, "stake": stake,
                        "four_of_a_kind": rules.four_of_a_kind_penalty}.get(e.detail, 1)
                if e.value < full:
                    counts["payments capped (plays dead)"] += 1


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
    stats = SimulationStats(rules.name, players, house=house_rules_on(rules))
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
