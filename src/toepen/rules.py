"""Rules: frozen, validated options and the named presets of ``rules.md``.

A preset is a name for a set of options; options combine with any preset.

>>> r = Rules.preset("classic", lives=15)
>>> r.last_trick, r.lives, r.session
('wins', 15, 'rubber')
>>> Rules.preset("rulebook", lives=0)
Traceback (most recent call last):
...
toepen.rules.RulesError: option lives: must be an integer from 1 to 99, not 0
>>> Rules.preset("rulebook", lives=10**18)
Traceback (most recent call last):
...
toepen.rules.RulesError: option lives: must be an integer from 1 to 99, not 1000000000000000000
>>> Rules.preset("teams").check_table(5)
Traceback (most recent call last):
...
toepen.rules.RulesError: option teams: needs 4 or 6 players, not 5
>>> Rules.preset("gezinstoepen").check_table(6)
Traceback (most recent call last):
...
toepen.rules.RulesError: option table_sizes: gezinstoepen is played by 3 or 4 players, not 6
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .cards import JACK, TEN


class RulesError(ValueError):
    """An option or a combination of options that cannot work."""


CHOICES: dict[str, tuple[str, ...]] = {
    "last_trick": ("loses", "wins"),
    "dealer": ("rotate", "last_trick_winner", "highest_loser"),
    "knock_limit": ("lives_at_least_stake", "lives_cover_new_stake", "none"),
    "tells": ("off", "tens", "tens_and_jacks"),
    "session": ("elimination", "rubber"),
    "count": ("lives_down", "points_up"),
    "edge": ("normal", "no_fold", "plays_dead"),
    "jack_last_trick": ("off", "others_pay_more", "winner_gains"),
    "laundry_check": ("first", "each"),
    "laundry_caught": ("pays", "plays_open"),
    "rebuy": ("off", "once", "any"),
}
"""The values each text option takes (clients build their menus from this)."""
_BOOLS = (
    "first_player_may_knock_early", "armoede", "exchange", "pelt", "teams", "beer_tally",
    "double_knock", "four_of_a_kind", "three_of_a_kind_draw", "witte_was", "vuile_was",
    "blind_knock", "knock_anytime",
)
HOUSE_RULES: tuple[str, ...] = (
    "count", "double_knock", "edge", "jack_last_trick", "four_of_a_kind",
    "four_of_a_kind_penalty", "three_of_a_kind_draw", "witte_was", "vuile_was",
    "laundry_check", "laundry_caught", "blind_knock", "knock_anytime",
)
"""The house rules (docs/rules.md, "House rules"): options beyond the rule documents,
each off (or as the documents play) by default."""
POT_RULES: tuple[str, ...] = ("rebuy", "pot", "pot_unit")
"""Pot toepen (docs/rules.md, "Pot toepen"): buying back in and the pot, off by default,
with every preset whose session is ``elimination``."""
POT_MAX = 1000
"""The highest stake ``pot`` takes (a pub's pot, not a bank's)."""
POT_UNIT_MAX = 4
"""The most characters of ``pot_unit`` (``€``, ``EUR``, ``kr``, ``pts``)."""
SUGGESTED_MAX_STAKE = 4
"""The stake cap most Toepen programs and pubs use: what the lobby suggests for
``max_stake`` (the rules' own default stays uncapped)."""

ALL_TABLE_SIZES: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8)

BOUNDS: dict[str, tuple[int, int]] = {
    "lives": (1, 99),
    "max_stake": (1, 99),
    "rubbers": (1, 99),
    "four_of_a_kind_penalty": (1, 99),
}
"""The lowest and highest value of every numeric option (``max_stake`` and ``rubbers``
may also be null). 99 lives is an evening of several hundred hands; more would only make
a table whose game never ends (docs/rules.md, "Bounds")."""

TELL_RANKS: dict[str, tuple[int, ...]] = {"off": (), "tens": (TEN,), "tens_and_jacks": (TEN, JACK)}
"""The ranks announced (3 or 4 of them held after the deal) by each ``tells`` option."""
TELL_WORDS: dict[int, str] = {TEN: "tens", JACK: "jacks"}
"""The word of each told rank, as events and views name it."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of ``rules.md``, plus three that the contract leaves to the table.

    ``rubbers`` (rubber sessions: how many rubbers a session runs, ``None`` for
    open-ended), ``beer_tally`` (kroegtoepen: every life lost is a round of beer) and
    ``table_sizes`` (the player counts a preset is played by).
    """

    name: str = "rulebook"
    """The preset these options started from."""
    lives: int = 10
    last_trick: str = "loses"
    dealer: str = "rotate"
    knock_limit: str = "lives_at_least_stake"
    max_stake: int | None = None
    first_player_may_knock_early: bool = True
    armoede: bool = True
    exchange: bool = False
    tells: str = "off"
    pelt: bool = False
    session: str = "elimination"
    teams: bool = False
    rubbers: int | None = 3
    beer_tally: bool = False
    table_sizes: tuple[int, ...] = ALL_TABLE_SIZES
    # -- house rules (docs/rules.md, "House rules") --
    count: str = "lives_down"
    """The score sheet counts lives down, or penalty points up to ``lives`` (display)."""
    double_knock: bool = False
    """Dubbel toep: the latest knocker may knock again while nobody has knocked since."""
    edge: str = "normal"
    """Op scherp: a player whom paying the accepted stake would put out may not fold
    (``no_fold``), or plays dead, never paying more than the lives left (``plays_dead``)."""
    jack_last_trick: str = "off"
    """Winnen met boer (``last_trick: wins``): the last trick taken with a jack makes
    each payer pay 1 more, or gives the winner a life back."""
    four_of_a_kind: bool = False
    """Vier gelijke (poeptoep): four of a rank dealt wins the hand at once."""
    four_of_a_kind_penalty: int = 3
    """What four of a kind costs every other side."""
    three_of_a_kind_draw: bool = False
    """Kans op toep: three of a rank dealt may draw one card for the fourth."""
    witte_was: bool = False
    """Witte was: four of J, Q, K, A may be exchanged for four stock cards (bluffable)."""
    vuile_was: bool = False
    """Vuile was: three of J, Q, K, A and a 7 may be exchanged likewise."""
    laundry_check: str = "first"
    """Who checks a laundry claim: the first challenger, or each other player."""
    laundry_caught: str = "pays"
    """A caught laundry bluffer pays, or pays and plays the new hand face up."""
    blind_knock: bool = False
    """Blind toep: right after the deal, before the cards are seen, knock to stake 3."""
    knock_anytime: bool = False
    """During the tricks any player who may knock may do so, not only the one to play."""
    # -- pot toepen (docs/rules.md, "Pot toepen") --
    rebuy: str = "off"
    """Inkopen: a player who goes out may buy back in before the next deal (``once`` per
    session, or ``any`` number of times), with the fewest lives of those still in."""
    pot: float = 0
    """Each player's stake into the pot, at the start and at each buy-in (0: no pot); a
    number with at most two decimals, from 0 to :data:`POT_MAX`."""
    pot_unit: str = "€"
    """The pot's currency sign, shown as given (at most :data:`POT_UNIT_MAX` characters)."""

    def __post_init__(self) -> None:
        self._validate()
        if isinstance(self.pot, float) and self.pot.is_integer():
            object.__setattr__(self, "pot", int(self.pot))  # 2.0 is written 2

    # -- construction -------------------------------------------------------------

    @staticmethod
    def preset_names() -> tuple[str, ...]:
        """Names of the presets, the default first."""
        return tuple(PRESETS)

    @staticmethod
    def option_names() -> tuple[str, ...]:
        """Names of the options a preset can be combined with."""
        return tuple(f.name for f in dataclasses.fields(Rules) if f.name != "name")

    @classmethod
    def preset(cls, name: str = "rulebook", **options: Any) -> Rules:
        """The rules of a named preset, with options changed."""
        if name not in PRESETS:
            raise RulesError(
                f"option preset: unknown preset {name!r} (one of {', '.join(PRESETS)})"
            )
        base = dict(PRESETS[name])
        for key in options:
            if key not in cls.option_names():
                raise RulesError(f"option {key}: unknown option")
        base.update(options)
        if "table_sizes" in base and isinstance(base["table_sizes"], list):
            base["table_sizes"] = tuple(base["table_sizes"])
        return cls(name=name, **base)

    @classmethod
    def from_json(cls, data: Any) -> Rules:
        """Rules from a record's ``rules`` field: a preset name or ``{"preset": ..., ...}``."""
        if isinstance(data, str):
            return cls.preset(data)
        if not isinstance(data, dict):
            raise RulesError("option rules: must be a preset name or an object")
        options = dict(data)
        name = options.pop("preset", "rulebook")
        if not isinstance(name, str):
            raise RulesError("option preset: must be a preset name")
        return cls.preset(name, **options)

    def to_json(self) -> str | dict[str, Any]:
        """The shortest record form: the preset name, plus the options that differ from it."""
        cached = _JSON.get(self)
        if cached is None:
            cached = _JSON[self] = self._to_json()
        if isinstance(cached, str):
            return cached
        return {k: list(v) if isinstance(v, list) else v for k, v in cached.items()}

    def _to_json(self) -> str | dict[str, Any]:
        base = Rules.preset(self.name)
        diff: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name != "name" and value != getattr(base, f.name):
                diff[f.name] = list(value) if isinstance(value, tuple) else value
        if not diff:
            return self.name
        return {"preset": self.name, **diff}

    def replace(self, **options: Any) -> Rules:
        """A copy with options changed (validated)."""
        for key in options:
            if key not in Rules.option_names():
                raise RulesError(f"option {key}: unknown option")
        if isinstance(options.get("table_sizes"), list):
            options["table_sizes"] = tuple(options["table_sizes"])
        return dataclasses.replace(self, **options)

    # -- derived facts: read these instead of comparing option strings -------------

    @property
    def last_trick_wins(self) -> bool:
        """``last_trick: wins``: the hand's goal is to take the last trick."""
        return self.last_trick == "wins"

    @property
    def last_trick_loses(self) -> bool:
        """``last_trick: loses``: the hand's goal is not to take the last trick."""
        return self.last_trick == "loses"

    @property
    def tell_ranks(self) -> tuple[int, ...]:
        """The ranks (:data:`~toepen.cards.TEN`, :data:`~toepen.cards.JACK`) announced
        when 3 or 4 of them are dealt to one hand; empty with ``tells: off``."""
        return TELL_RANKS[self.tells]

    @property
    def laundry(self) -> bool:
        """Witte or vuile was is played (the laundry declaration round)."""
        return self.witte_was or self.vuile_was

    @property
    def pot_cents(self) -> int:
        """The stake ``pot`` in hundredths (cents): the pot is counted in whole cents."""
        return round(self.pot * 100)

    @property
    def rebuys(self) -> int | None:
        """How many times one player may buy back in: 0 (``off``), 1 (``once``) or
        None (``any``: no limit)."""
        return {"off": 0, "once": 1}.get(self.rebuy)

    def sheet_value(self, lives: int) -> int:
        """What the score sheet shows for ``lives`` left: the lives (``count:
        lives_down``) or the penalty points taken so far (``points_up``)."""
        return lives if self.count == "lives_down" else self.lives - lives

    # -- validation ---------------------------------------------------------------

    def _validate(self) -> None:
        if self.name not in PRESETS:
            raise RulesError(f"option preset: unknown preset {self.name!r}")
        _check_number("lives", self.lives)
        for name, choices in CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RulesError(
                    f"option {name}: must be one of {', '.join(choices)}, not {_shown(value)}"
                )
        for name in _BOOLS:
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"option {name}: must be true or false")
        _check_number("max_stake", self.max_stake, nullable=True)
        _check_number("rubbers", self.rubbers, nullable=True)
        if self.armoede and self.exchange:
            raise RulesError(
                "option exchange: cannot be combined with armoede (exchange replaces it)"
            )
        if self.pelt and self.max_stake == 1:
            raise RulesError("option pelt: opens the hand at stake 2, but max_stake is 1")
        self._validate_house_rules()
        self._validate_pot()
        sizes = self.table_sizes
        if (
            not isinstance(sizes, tuple)
            or not sizes
            or any(not _is_int(n) or n not in ALL_TABLE_SIZES for n in sizes)
        ):
            raise RulesError("option table_sizes: must be a list of player counts from 2 to 8")
        if self.teams and not any(n in (4, 6) for n in sizes):
            raise RulesError("option teams: needs 4 or 6 players")

    def _validate_house_rules(self) -> None:
        _check_number("four_of_a_kind_penalty", self.four_of_a_kind_penalty)
        if self.three_of_a_kind_draw and not self.four_of_a_kind:
            raise RulesError(
                "option three_of_a_kind_draw: needs four_of_a_kind (the draw is for the fourth)"
            )
        if self.laundry and self.exchange:
            which = "witte_was" if self.witte_was else "vuile_was"
            raise RulesError(
                f"option {which}: cannot be combined with exchange (both swap the whole hand)"
            )
        if self.jack_last_trick != "off" and self.last_trick != "wins":
            raise RulesError(
                "option jack_last_trick: needs last_trick wins (under loses the taker pays)"
            )
        # blind_knock combines with armoede and pelt (docs/rules.md, H6)
        if self.blind_knock and self.max_stake is not None and self.max_stake < 3:
            raise RulesError(
                f"option blind_knock: raises the stake to 3, but max_stake is {self.max_stake}"
            )

    def _validate_pot(self) -> None:
        pot = self.pot
        if (
            not isinstance(pot, (int, float)) or isinstance(pot, bool)
            or not (0 <= pot <= POT_MAX) or abs(pot * 100 - round(pot * 100)) > 1e-6
        ):
            raise RulesError(
                f"option pot: must be a number from 0 to {POT_MAX} with at most two decimals, "
                f"not {_shown(pot)}"
            )
        unit = self.pot_unit
        if not isinstance(unit, str) or len(unit) > POT_UNIT_MAX or not unit.isprintable():
            raise RulesError(
                f"option pot_unit: must be a sign of at most {POT_UNIT_MAX} printable "
                f"characters, not {_shown(unit)}"
            )
        if self.session != "elimination":
            if self.rebuy != "off":
                raise RulesError(
                    "option rebuy: needs session elimination (nobody goes out of a rubber "
                    "session)"
                )
            if pot:
                raise RulesError(
                    "option pot: needs session elimination (the last one in takes the pot)"
                )

    def check_table(self, players: int) -> None:
        """Refuse a table size these rules cannot be played by."""
        if self.teams and players not in (4, 6):
            raise RulesError(f"option teams: needs 4 or 6 players, not {players}")
        if players not in self.table_sizes:
            sizes = self.table_sizes
            if len(sizes) == 2:
                allowed = f"{sizes[0]} or {sizes[1]}"
            elif list(sizes) == list(range(sizes[0], sizes[-1] + 1)):
                allowed = f"{sizes[0]} to {sizes[-1]}"
            else:
                allowed = ", ".join(map(str, sizes))
            raise RulesError(
                f"option table_sizes: {self.name} is played by {allowed} players, not {players}"
            )

    def allowed_table_sizes(self) -> tuple[int, ...]:
        """Every player count these rules can be played by."""
        return tuple(n for n in self.table_sizes if not self.teams or n in (4, 6))

    def summary(self) -> str:
        """A one-line human summary of the options."""
        parts = [f"{self.name}", f"lives {self.lives}", f"last trick {self.last_trick}"]
        parts.append(f"dealer {self.dealer}")
        parts.append(f"knock limit {self.knock_limit}")
        if self.max_stake is not None:
            parts.append(f"max stake {self.max_stake}")
        for flag in ("armoede", "exchange", "pelt", "teams", "beer_tally"):
            if getattr(self, flag):
                parts.append(flag)
        if self.tells != "off":
            parts.append(f"tells {self.tells}")
        parts.append(f"session {self.session}")
        if self.session == "rubber":
            parts.append(f"rubbers {self.rubbers or 'open'}")
        base = Rules()
        for name in HOUSE_RULES:
            value = getattr(self, name)
            if value != getattr(base, name):
                parts.append(name if value is True else f"{name} {value}")
        if self.rebuy != "off":
            parts.append(f"rebuy {self.rebuy}")
        if self.pot:
            parts.append(f"pot {self.pot} {self.pot_unit}".rstrip())
        return ", ".join(parts)


_JSON: dict[Rules, str | dict[str, Any]] = {}
"""to_json() by rules: every view carries the rules, so they are computed once."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: object, limit: int = 40) -> str:
    """``value`` as a refusal quotes it: short, whatever it is (an integer of thousands
    of digits cannot even be written out).

    >>> _shown(7), _shown("x" * 50)
    ('7', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...")
    >>> _shown(-10**50), _shown(10**5000)
    ('an integer of 51 digits', 'an integer of 5001 digits')
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**(limit - 1):
        digits = int(abs(value).bit_length() * 0.30102999566398120) + 1  # log10(2)
        if abs(value) < 10**(digits - 1):
            digits -= 1
        return f"an integer of {digits} digits"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _check_number(name: str, value: object, nullable: bool = False) -> None:
    """Refuse a numeric option outside :data:`BOUNDS`, naming it."""
    if nullable and value is None:
        return
    low, high = BOUNDS[name]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        what = f"null or an integer from {low} to {high}" if nullable else \
            f"an integer from {low} to {high}"
        raise RulesError(f"option {name}: must be {what}, not {_shown(value)}")


_RULEBOOK: dict[str, Any] = {}
PRESETS: dict[str, dict[str, Any]] = {
    "rulebook": _RULEBOOK,
    "classic": {
        "last_trick": "wins",
        "dealer": "last_trick_winner",
        "knock_limit": "lives_cover_new_stake",
        "armoede": False,
        "exchange": True,
        "pelt": True,
        "tells": "tens",
        "session": "rubber",
    },
    "gezinstoepen": {"lives": 5, "max_stake": 2, "table_sizes": (3, 4)},
    "kroegtoepen": {"knock_limit": "none", "beer_tally": True},
    "teams": {"teams": True, "table_sizes": (4, 6)},
    "no-knock": {"max_stake": 1},
    "kroeg-huisregels": {
        "max_stake": SUGGESTED_MAX_STAKE,
        "double_knock": True,
        "edge": "no_fold",
        "four_of_a_kind": True,
        "three_of_a_kind_draw": True,
        "witte_was": True,
        "vuile_was": True,
        "laundry_check": "each",
    },
}
"""Presets as option overrides of the rulebook defaults."""
