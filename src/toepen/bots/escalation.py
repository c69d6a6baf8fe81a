"""What a bet costs beyond its one-shot value: ``expert``'s escalation table.

``pimc`` and ``expert`` value a betting decision (knock or play on; stay, fold or
counter-knock) as if the hand were then played out at the stake it leaves, with no
knock after it. Under ``rulebook`` hands turn into knock wars: after a stay the knocker
and the others knock again, and each later answer costs the accepted stake or risks a
higher one. The one-shot value misses that, for every action but a fold (a fold's cost
is exact: the stake accepted, paid at once). Measured in ``expert``'s self-play at 4
players (``rulebook``, 200 hands), a stay at stake 2 was valued at 0.57 lives lost and
cost 2.30; a fold cost its 1.00.

The table holds, per context, how many lives a chosen action cost on average beyond its
one-shot value: the seat's lives lost in the hand minus the value ``expert`` gave the
action when it chose it (:attr:`~toepen.bots.pimc.PimcBot.last_values`). ``expert``
adds that to each action's one-shot loss before it compares them, so a stay that the
one-shot value calls cheaper than a fold by less than the knock war to come is folded.
Keys: ``MODE|PLAYERS|KIND|STAKE|ACTION`` (``MODE`` ``L`` or ``W``; ``PLAYERS`` the
table size; ``KIND`` ``knock`` (before a card: knock or play), ``knock-lead`` or
``knock-follow`` (the same, the trick empty or not: :data:`POSITIONS`) or ``answer``
(stay, fold, knock), or one of the other kinds of :data:`ACTIONS`; ``STAKE`` the stake
of the decision, 4 and more together), each ``[times, sum of the extra lives]``. A
context seen fewer than :data:`MIN_COUNT` times is not measured, and a decision with an
action not measured is valued one-shot, as before (so
is every decision at a table size never measured).

The table ships as ``toepen/bots/data/expert_escalation.json``;
:mod:`toepen.tools.escalation` measures it (``toepen train escalation``).

>>> t = Escalation({"L|4|answer|2|stay": [40, 68.0], "L|4|answer|3|stay": [3, 9.0]})
>>> t.extra("L", 4, "answer", 2, "stay"), t.extra("L", 4, "answer", 3, "stay")
(1.7, None)
>>> t.extra("L", 5, "answer", 2, "stay"), t.extra("L", 4, "answer", 2, "fold")
(None, 0.0)
>>> t.escalate("L", 4, "answer", 2, {"stay": -0.5, "fold": -1.0})
{'stay': -2.2, 'fold': -1.0}
>>> t.escalate("L", 4, "answer", 2, {"stay": -0.5, "fold": -1.0, "knock": 0.0})
{'stay': -0.5, 'fold': -1.0, 'knock': 0.0}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .datafile import entries, load_data_json, save_json

__all__ = ["FORMAT", "ACTIONS", "POSITIONS", "BETS", "SHARED", "HAND_AFTER", "Escalation",
           "escalation_key", "load_escalation", "MIN_COUNT"]

FORMAT = "toepen-expert-escalation/1"
ACTIONS: dict[str, tuple[str, ...]] = {
    "knock": ("knock", "play"),
    "answer": ("stay", "fold", "knock"),
    "play": ("play",),
    "claim": ("claim", "pass"),
    "exchange": ("exchange", "pass"),
    "knock-lead": ("knock", "play"),
    "knock-follow": ("knock", "play"),
    "play-lead": ("play",),
    "play-follow": ("play",),
}
"""Kinds of decision and their actions: the bets (``knock``: knock or a card, before a
card; ``answer``), and the decisions whose one-shot value misses the knocks to come as
well (``play``: a card where no knock is allowed; ``claim``: armoede; ``exchange``)."""
POSITIONS = ("lead", "follow")
"""The card decisions (``knock``, ``play``) split by the seat's place in the trick:
``KIND-lead`` (the trick empty) and ``KIND-follow``. Where such a context is measured it
is used instead of the kind's own: a card at stake 2 after a knock was stayed, at 2
players ``rulebook``, cost 0.34 lives less than its one-shot value when it followed
with a knock allowed (the follower, who has seen the lead, may still knock; the knocker
then mostly folds), and 0.59 lives more when it led with no knock allowed (the same
option, the other's), 3000 hands (issue 36). These contexts were set from the
calibration (:mod:`toepen.tools.calibrate`); ``toepen train escalation`` measures and
steps the kinds' own contexts only."""
BETS = ("knock", "answer")
"""The kinds whose actions are bets (the measure explores them)."""
SHARED = ("claim", "exchange")
"""Declarations escalated action by action: an action not measured is valued one-shot
while the measured ones are escalated (passing on armoede is measured hundreds of times
a table, a claim rarely; played out, a claim's one-shot value was right: +0.06 lives,
49 claims, 4 players rulebook, while a pass cost 0.36 more than its one-shot value).
``expert`` no longer values these kinds so: the calibration since (issue 36) found a
claim dearer than its one-shot value too (by 0.42 lives, 17 claims, 4 players rulebook,
expert-v3's table), and an action without a measure is now charged the knock war of an
average hand (:data:`HAND_AFTER`)."""
HAND_AFTER = ("claim", "exchange", "challenge", "kans", "laundry")
"""Declarations before the tricks: whatever is chosen, a hand is then played at the
opening stake (the kept one, the exchanged one or a redeal's fresh one), and its knock
war costs what an average hand's costs beyond its one-shot value
(:meth:`Escalation.hand_extra`); an action measured on its own (a pass, an exchange)
takes its own measure."""
MAX_STAKE_KEY = 4
"""Stakes of 4 and more share one context."""
MIN_COUNT = 30
"""A context seen fewer times than this counts as 0 extra lives."""


def escalation_key(mode: str, players: int, kind: str, stake: int, action: str) -> str:
    """The table key of one decision.

    >>> escalation_key("L", 4, "answer", 7, "stay")
    'L|4|answer|4|stay'
    """
    return f"{mode}|{players}|{kind}|{min(max(stake, 1), MAX_STAKE_KEY)}|{action}"


@dataclass
class Escalation:
    """Counts and sums of the extra lives by context; see the module documentation."""

    counts: dict[str, list[float]] = field(default_factory=dict)
    """``escalation_key`` -> ``[times, sum of extra lives]``."""
    hands: int = 0
    seed: int = 0
    explore: float = 0.0
    """The share of betting decisions taken at random (and counted) when measuring."""

    def extra(self, mode: str, players: int, kind: str, stake: int, action: str
              ) -> float | None:
        """Mean extra lives of the context; None when it was seen fewer than
        ``MIN_COUNT`` times (a fold: always 0.0, nothing comes after it)."""
        if action == "fold":
            return 0.0
        got = self.counts.get(escalation_key(mode, players, kind, stake, action))
        if got is None or got[0] < MIN_COUNT:
            return None
        return got[1] / got[0]

    def escalate(self, mode: str, players: int, kind: str, stake: int,
                 values: dict[str, float]) -> dict[str, float]:
        """``values`` (by action name: expected change of lives) less each action's extra
        lives; unchanged unless every action of the decision was measured (an action
        never chosen in self-play has no measure, and leaving it one-shot while its
        rivals are escalated would favour it for want of data), except in the
        :data:`SHARED` kinds (an action not measured is valued one-shot).

        >>> Escalation({"L|4|claim|1|pass": [40, 20.0]}).escalate(
        ...     "L", 4, "claim", 1, {"pass": -0.3, "claim": -0.2})
        {'pass': -0.8, 'claim': -0.2}
        """
        extras = {a: self.extra(mode, players, kind, stake, a) for a in values}
        if kind in SHARED:
            extras = {a: 0.0 if x is None else x for a, x in extras.items()}
        if any(x is None for x in extras.values()):
            return dict(values)
        return {a: v - (extras[a] or 0.0) for a, v in values.items()}

    def escalate_at(self, mode: str, players: int, kind: str, position: str, stake: int,
                    values: dict[str, float]) -> dict[str, float]:
        """:meth:`escalate` by the context of ``kind`` at ``position`` (one of
        :data:`POSITIONS`) where every action of it is measured, else by ``kind``'s.

        >>> t = Escalation({"L|2|knock|2|knock": [40, 0.0], "L|2|knock|2|play": [40, 0.0],
        ...                 "L|2|knock-follow|2|knock": [40, -40.0],
        ...                 "L|2|knock-follow|2|play": [40, -20.0]})
        >>> t.escalate_at("L", 2, "knock", "follow", 2, {"knock": -2.0, "play": -1.0})
        {'knock': -1.0, 'play': -0.5}
        >>> t.escalate_at("L", 2, "knock", "lead", 2, {"knock": -2.0, "play": -1.0})
        {'knock': -2.0, 'play': -1.0}
        """
        refined = f"{kind}-{position}"
        if refined in ACTIONS and all(
                self.extra(mode, players, refined, stake, a) is not None for a in values):
            return self.escalate(mode, players, refined, stake, values)
        return self.escalate(mode, players, kind, stake, values)

    def hand_extra(self, mode: str, players: int) -> float:
        """What the knock war of an average hand costs beyond its one-shot value: the
        measured extra of a pass in the round before the tricks (armoede's claims, or
        the exchange), where the hand passed on is any hand; 0.0 where neither is
        measured. A redeal's fresh hand costs this on top of its one-shot value too:
        valued without it, a claim of armoede looked like an escape from the knock war
        that the hand kept pays (4 players, ``rulebook``: passes and claims valued 0.81
        lives too kindly, issue 36).

        >>> Escalation({"L|4|claim|1|pass": [40, 20.0]}).hand_extra("L", 4)
        0.5
        >>> Escalation().hand_extra("W", 4)
        0.0
        """
        for kind in ("claim", "exchange"):
            got = self.extra(mode, players, kind, 1, "pass")
            if got is not None:
                return got
        return 0.0

    def add(self, other: Escalation) -> None:
        """Add ``other``'s counts to these."""
        for k, (n, s) in other.counts.items():
            mine = self.counts.setdefault(k, [0, 0.0])
            mine[0] += n
            mine[1] += s
        self.hands += other.hands

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "hands": self.hands,
            "seed": self.seed,
            "explore": self.explore,
            "min_count": MIN_COUNT,
            "counts": {k: [int(v[0]), round(v[1], 4)] for k, v in sorted(self.counts.items())},
        }

    @classmethod
    def from_json(cls, data: Any) -> Escalation:
        """A table from its JSON form (ValueError naming what is wrong)."""
        counts = entries(data, FORMAT, "counts", "escalation")
        out: dict[str, list[float]] = {}
        for key, pair in counts.items():
            parts = str(key).split("|")
            if (len(parts) != 5 or parts[0] not in ("L", "W") or not parts[1].isdigit()
                    or parts[2] not in ACTIONS or not parts[3].isdigit()
                    or parts[4] not in ACTIONS[parts[2]]):
                raise ValueError(f"escalation: bad key {key!r}")
            if (not isinstance(pair, list) or len(pair) != 2
                    or not isinstance(pair[0], int) or pair[0] < 0
                    or isinstance(pair[1], bool) or not isinstance(pair[1], int | float)):
                raise ValueError(f"escalation: {key!r} needs a count >= 0 and a sum")
            out[key] = [pair[0], float(pair[1])]
        return cls(out, int(data.get("hands", 0)), int(data.get("seed", 0)),
                   float(data.get("explore", 0.0)))

    def save(self, path: Path) -> None:
        save_json(self.to_json(), path)


def load_escalation(path: Path | None = None) -> Escalation:
    """The shipped table (``toepen/bots/data/expert_escalation.json``) or one from ``path``."""
    return Escalation.from_json(load_data_json("expert_escalation.json", path))
