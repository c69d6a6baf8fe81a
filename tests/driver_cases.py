"""The tables of the one-driver tests: every preset, and every option value of every
house rule and rule option on the first preset that allows it, each also under
``knock_anytime`` (where the knock windows are offered); and the three venues' drivers
playing one table: the arena's (:func:`toepen.match.play_game`), the terminal's
(:class:`toepen.tui.session.PlaySession`) and (in ``tests/server``) the server's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toepen.bots import make_bot
from toepen.engine import KNOCK, Action, Game
from toepen.match import Incident, ask, asked, play_game, seat_seed, view_for
from toepen.rules import CHOICES, Rules, RulesError

QUICK = {"lives": 2}
"""Short sessions (the cases are many)."""
HANDS = 30
"""The arena and the terminal stop after this many hands (an open-ended rubber session
never ends; the server's table goes on, and its first actions are compared)."""


@dataclass(frozen=True)
class Case:
    label: str
    preset: str
    options: dict[str, Any]
    size: int

    @property
    def rules(self) -> Rules:
        return Rules.preset(self.preset, **self.options)


def _values(name: str, default: Any) -> list[Any]:
    if name in CHOICES:
        return [v for v in CHOICES[name] if v != default]
    if isinstance(default, bool):
        return [not default]
    if name == "max_stake":
        return [3] if default is None else [None]
    if name == "rubbers":
        return [None, 1]
    if name == "four_of_a_kind_penalty":
        return [1]
    return []  # lives (every case sets it), table_sizes (a size is chosen per case)


PREFER = {"rubbers": "classic", "jack_last_trick": "classic", "laundry_check": "kroeg-huisregels",
          "laundry_caught": "kroeg-huisregels", "four_of_a_kind_penalty": "kroeg-huisregels"}
"""Options that matter only beside another: the preset where they do."""
SIZES = (4, 3, 5, 6, 2, 7, 8)


def _case(label: str, preset: str, options: dict[str, Any], index: int = 0) -> Case | None:
    # lives kept short where the preset takes them; the rule options some others refuse
    # (armoede, pelt) off where that is what it takes
    for extra in (QUICK, {**QUICK, "armoede": False, "pelt": False}):
        opts = {**extra, **options}
        try:
            rules = Rules.preset(preset, **opts)
        except (RulesError, TypeError):
            continue
        for size in SIZES[index % len(SIZES):] + SIZES[:index % len(SIZES)]:
            try:
                rules.check_table(size)
            except (RulesError, ValueError):
                continue
            return Case(label, preset, opts, size)
    return None


def cases() -> list[Case]:
    """Every preset, then every option value on the first preset that takes it; each
    with and without ``knock_anytime``."""
    out: list[Case] = []
    base = Rules()
    for preset in Rules.preset_names():
        for anytime in (False, True):
            extra = {"knock_anytime": True} if anytime else {}
            c = _case(f"{preset}{' +anytime' if anytime else ''}", preset, extra, len(out))
            if c is not None:
                out.append(c)
    for name in Rules.option_names():
        for value in _values(name, getattr(base, name)):
            for anytime in (False, True):
                if name == "knock_anytime" and anytime:
                    continue
                extra = {"knock_anytime": True} if anytime else {}
                first = PREFER.get(name, "rulebook")
                for preset in (first, *(p for p in Rules.preset_names() if p != first)):
                    c = _case(f"{name}={value}{' +anytime' if anytime else ''}", preset,
                              {name: value, **extra}, len(out))
                    if c is not None:
                        out.append(c)
                        break
    return out


LINEUPS = (("heuristic", "random", "heuristic", "random", "random", "heuristic", "random",
            "heuristic"),
           ("random", "heuristic", "random", "heuristic", "heuristic", "random", "heuristic",
            "random"))
"""The bots of a case (by seat, cut to its size), alternating by case."""


def lineup(index: int, size: int) -> list[str]:
    return list(LINEUPS[index % 2][:size])


def names(size: int) -> list[str]:
    return [f"P{s}" for s in range(size)]


def arena_actions(case: Case, bots: list[str], seed: int, dealer: int,
                  report: list[Incident] | None = None) -> list[tuple[int, Action]]:
    """The table in the arena's driver: :func:`toepen.match.play_game`, each bot built
    once for the game with its seat's seed."""
    game = Game(case.rules, tuple(names(case.size)), seed=seed, dealer=dealer)
    seeds = [seat_seed(seed, s) for s in range(case.size)]
    play_game(game, [make_bot(b, seed=seeds[s]) for s, b in enumerate(bots)], seeds=seeds,
              report=None if report is None else report.append,
              stop=lambda g: g.hand_no > HANDS)
    return list(game.actions)


def terminal_actions(case: Case, bots: list[str], seed: int, dealer: int,
                     report: list[Incident] | None = None) -> list[tuple[int, Action]]:
    """The table in the terminal's driver (:class:`PlaySession`: ``asked``, ``ask_bot``,
    ``answer``, as the app calls them). Seat 0 is the person, played here as their
    bot would: they may knock out of turn whenever they like, so they do where that bot
    would, at their place in the windows' order."""
    from toepen.tui.session import PlaySession

    game = Game(case.rules, tuple(names(case.size)), seed=seed, dealer=dealer)
    session = PlaySession(game, 0, ["", *bots[1:]], None)
    person = make_bot(bots[0], seed=session.bot_seed(0))
    while not game.is_over and game.hand_no <= HANDS:
        seat, window = asked(game, session.passed)  # the order the person knocks in
        if seat == 0:
            act = ask(person, view_for(game, 0, window), session.bot_seed(0),
                      None if report is None else report.append)
            if window and act is not KNOCK:
                session.passed.add(0)  # the person lets the window go by
            else:
                session.apply(0, act)
            continue
        assert session.asked() == (seat, window)  # the terminal's own choice of who
        session.answer(seat, window, session.ask_bot(seat, window))
    if report is not None:
        report.extend(session.incidents)
    return list(game.actions)
