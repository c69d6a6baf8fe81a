"""The bot protocol: legal decisions everywhere, blindness to hidden cards, seeding, registry."""

from __future__ import annotations

import ast
import gc
import inspect
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from toepen.bots.base import (
    BOTS,
    BUILTIN,
    DEFAULT,
    DEFAULT_WORD,
    EXTERNAL,
    EXTERNAL_FALLBACK,
    LAST_RESORT,
    RESERVED,
    Bot,
    bot_names,
    bot_spec,
    check_bot_name,
    fallback_chain,
    level_names,
    make_bot,
)
from toepen.bots.external import DEFAULT_FALLBACK
from toepen.cli.play_cmd import play_cmd
from toepen.engine import Game, Phase
from toepen.engine.actions import Action
from toepen.match import hand_over, play_game
from toepen.rules import Rules
from toepen.server.protocol import Refused
from toepen.server.site.accounts import security
from toepen.server.tables import external_bots as server_external
from toepen.tui.session import PlaySession
from toepen.view import View, observe

FAST_BOTS = ["random", "heuristic"]


def positions(preset: str, players: int, games: int, seed: int) -> list[tuple[Game, int]]:
    """Snapshots of random games of a preset: (game clone, seat to act)."""
    out: list[tuple[Game, int]] = []
    rules = Rules.preset(preset)
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        game = Game(rules, players, seed=seed * 1000 + g, dealer=g % players)
        steps = 0
        while game.turn >= 0 and steps < 400:
            out.append((game.clone(), game.turn))
            game.apply(game.turn, rng.choice(game.legal_actions()))
            steps += 1
    return out


@pytest.mark.parametrize("name", FAST_BOTS)
def test_bots_only_return_legal_actions_in_every_preset_and_table_size(name: str) -> None:
    asked = 0
    phases: set[str] = set()
    for preset in Rules.preset_names():
        for players in Rules.preset(preset).allowed_table_sizes():
            bot = make_bot(name, seed=players)
            for game, seat in positions(preset, players, games=2, seed=players):
                view = observe(game, seat)
                act = bot.act(view)
                assert act in view.legal, (preset, players, view.phase, act, view.legal)
                assert type(act) is Action
                phases.add(view.phase)
                asked += 1
    assert asked > 5000
    assert phases >= {"claim", "claim_challenge", "exchange", "exchange_challenge", "answer",
                      "play"}


SEARCH_BOTS = [n for n in bot_names() if n not in FAST_BOTS]
"""The other registered bots (``pimc``, ``expert``): checked on fewer positions, with a
small time budget so that they stay fast."""


@pytest.mark.parametrize("name", SEARCH_BOTS)
def test_searching_bots_return_legal_actions_and_never_see_a_hidden_card(name: str) -> None:
    asked = 0
    for preset, players in (("rulebook", 4), ("classic", 3), ("teams", 4), ("rulebook", 2)):
        bot = make_bot(name, seed=1, time_budget=0.005)
        cases = positions(preset, players, games=1, seed=2)
        for game, seat in cases[::4][:40]:
            view = observe(game, seat)
            act = bot.act(view)
            assert act in view.legal, (name, preset, view.phase, act, view.legal)
            asked += 1
    assert asked > 60
    rng = random.Random(9)
    factory = lambda seed: make_bot(name, seed=seed, time_budget=0.005)  # noqa: E731
    cases = positions("rulebook", 4, games=1, seed=3)[::3][:30]
    assert all(blind(factory, game, seat, seed=i, rng=rng)
               for i, (game, seat) in enumerate(cases))


@pytest.mark.parametrize("name", FAST_BOTS)
def test_bots_play_whole_sessions_through_the_driver(name: str) -> None:
    for preset in ("rulebook", "classic", "teams", "kroegtoepen"):
        game = Game(Rules.preset(preset, lives=4), 4, seed=11)
        play_game(game, [make_bot(name, seed=s) for s in range(4)], max_actions=200_000)
        assert game.is_over and game.winner is not None


# -- blindness: poisoning the hidden part of the game ----------------------------------------


def poison(game: Game, seat: int, rng: random.Random) -> bool:
    """Reshuffle, in place, every card ``seat`` may not see: others' hands and the stock.

    Cards shown by a challenge stay where they are (they are public). Returns True if
    anything moved.
    """
    shown = 0
    for _, mask, _ in game.revealed:
        shown |= mask
    hands = game.hand_masks()
    stock = game.stock()
    places: list[tuple[str, int]] = []
    pool: list[int] = []
    for s in range(game.n):
        if s == seat:
            continue
        for c in range(32):
            if hands[s] >> c & 1 and not shown >> c & 1:
                places.append(("hand", s))
                pool.append(c)
    stock_slots = [i for i, c in enumerate(stock) if not shown >> c & 1]
    for i in stock_slots:
        places.append(("stock", i))
        pool.append(stock[i])
    before = list(pool)
    rng.shuffle(pool)
    if pool == before:
        return False
    new_hands = [h if s == seat else h & shown for s, h in enumerate(hands)]
    for (kind, where), card in zip(places, pool, strict=True):
        if kind == "hand":
            new_hands[where] |= 1 << card
        else:
            stock[where] = card
    game.replace_hidden(new_hands, stock)
    return True


def state_of(obj: Any, depth: int = 0) -> Any:
    """A comparable snapshot of everything a bot stores (attributes, recursively)."""
    if depth > 6:
        return repr(type(obj))
    if isinstance(obj, random.Random):
        return ("Random", obj.getstate())
    if isinstance(obj, np.random.Generator):
        return ("Generator", repr(obj.bit_generator.state))
    if isinstance(obj, (int, float, str, bytes, bool, type(None))):
        return obj
    if isinstance(obj, (list, tuple)):
        return tuple(state_of(x, depth + 1) for x in obj)
    if isinstance(obj, (set, frozenset)):
        return tuple(sorted(repr(state_of(x, depth + 1)) for x in obj))
    if isinstance(obj, dict):
        return tuple(sorted((repr(k), state_of(v, depth + 1)) for k, v in obj.items()))
    if callable(obj) and not hasattr(obj, "__dict__"):
        return repr(type(obj))
    fields: dict[str, Any] = {}
    for name in getattr(obj, "__dict__", {}):
        fields[name] = getattr(obj, name)
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name):
                fields[name] = getattr(obj, name)
    return (type(obj).__name__, tuple(sorted((k, state_of(v, depth + 1))
                                             for k, v in fields.items())))


def blind(factory: Any, game: Game, seat: int, seed: int, rng: random.Random) -> bool:
    """True if the bot decides the same, and stores the same, after poisoning the game.

    The bot under test is built fresh for each run (same seed) and asked with the
    seat's view; between the runs the hidden cards of the *same* Game object are
    reshuffled, so a bot that reached the Game by any route would see other cards.
    """
    view = observe(game, seat)
    first = factory(seed)
    act1 = first.act(view)
    state1 = state_of(first)
    del first
    if not poison(game, seat, rng):
        return True
    view2 = observe(game, seat)
    assert view2 == view, "poisoning changed what the seat may see"
    second = factory(seed)
    act2 = second.act(view2)
    return act1 == act2 and state1 == state_of(second)


class PeekingBot:
    """A cheat for the test of the test: it finds the live Game and reads the hands."""

    name = "peeking"

    def __init__(self, seed: int | None = None, time_budget: float | None = None) -> None:
        self.seen = 0

    def act(self, view: View) -> Action:
        for obj in gc.get_objects():
            if isinstance(obj, Game) and len(obj.actions) == view.action_count \
                    and obj.turn == view.seat:
                self.seen = sum(obj.hand_masks()) + sum(obj.stock())
        return view.legal[self.seen % len(view.legal)]


def blind_fraction(factory: Any, preset: str, players: int, games: int,
                   limit: int | None = None) -> float:
    rng = random.Random(5)
    cases = positions(preset, players, games, seed=3)[:limit]
    results = [blind(factory, game, seat, seed=i, rng=rng) for i, (game, seat) in enumerate(cases)]
    return sum(results) / len(results)


def test_the_poisoning_test_catches_a_bot_that_reads_the_game() -> None:
    assert blind_fraction(PeekingBot, "rulebook", 4, games=1, limit=25) < 0.8


@pytest.mark.parametrize("name", FAST_BOTS)
@pytest.mark.parametrize("preset,players", [("rulebook", 4), ("classic", 4), ("teams", 6),
                                            ("kroegtoepen", 3), ("rulebook", 2)])
def test_bots_never_see_a_hidden_card(name: str, preset: str, players: int) -> None:
    assert blind_fraction(lambda seed: make_bot(name, seed=seed), preset, players, games=2) == 1.0


def test_a_view_holds_no_card_of_another_seat() -> None:
    for game, seat in positions("classic", 4, games=2, seed=8):
        view = observe(game, seat)
        mine = {c for c in range(32) if game.hand_mask(seat) >> c & 1}
        assert set(view.hand) == mine
        text = repr(view.to_json())
        public = {c for _, c in view.played} | {c for _, cs, _ in view.revealed for c in cs}
        for other in range(game.n):
            if other == seat:
                continue
            for c in range(32):
                if game.hand_mask(other) >> c & 1 and c not in public:
                    assert c not in view.hand
                    from toepen.cards import card_str

                    assert f"'{card_str(c)}'" not in text


# -- seeding ----------------------------------------------------------------------------------


def decisions(name: str, seed: int, disturb: bool) -> list[Action]:
    views = [observe(g, s) for g, s in positions("rulebook", 4, games=2, seed=21)]
    views += [observe(g, s) for g, s in positions("classic", 4, games=2, seed=22)]
    bot = make_bot(name, seed=seed)
    out = []
    for i, v in enumerate(views):
        if disturb:  # a bot must use only its own generator
            random.seed(i)
            np.random.seed(i)
        out.append(bot.act(v))
    return out


@pytest.mark.parametrize("name", FAST_BOTS)
def test_same_seed_same_decisions_whatever_the_global_generators_do(name: str) -> None:
    assert decisions(name, 7, disturb=False) == decisions(name, 7, disturb=True)


def test_the_random_bot_depends_on_its_seed() -> None:
    assert decisions("random", 7, False) != decisions("random", 8, False)


# -- registry and driver ----------------------------------------------------------------------


def test_registry_names() -> None:
    assert {"random", "heuristic", "pimc", "expert"} <= set(bot_names())
    assert isinstance(make_bot("heuristic", seed=1), Bot)
    assert "heuristic" in BOTS
    with pytest.raises(ValueError, match="unknown bot 'nonsense'"):
        make_bot("nonsense")
    with pytest.raises(ValueError, match="needs a command"):
        check_bot_name("cmd:  ")
    check_bot_name("cmd:python whatever.py")  # checked without starting anything


SRC = Path(__file__).resolve().parents[2] / "src" / "toepen"
VENUES = ("server", "tui", "cli/play_cmd.py", "match.py", "rl", "tools/arena")
"""Where bots are named for players: none of them spells a built-in bot's name itself."""


def test_the_registry_is_the_one_list_of_bot_names_and_defaults() -> None:
    names = {s.name for s in BUILTIN}
    assert set(bot_names()) >= names and bot_spec(DEFAULT) is not None
    assert fallback_chain(DEFAULT)[-1] == LAST_RESORT and bot_spec(LAST_RESORT).fallback is None
    # the accounts and the operator's external bots are refused exactly the registry's names
    assert set(security.BOTS) == {*RESERVED, "bot"}
    assert set(RESERVED) == {*names, *level_names(), DEFAULT_WORD}
    assert set(server_external.RESERVED) == set(RESERVED)
    for name in RESERVED:
        with pytest.raises(Refused, match="name of a bot"):
            security.check_username(name.capitalize() + "7")
    # the defaults of the terminal and its command are the registry's
    assert inspect.signature(PlaySession.new).parameters["bots"].default == (DEFAULT,)
    assert inspect.signature(play_cmd).parameters["bots"].default == DEFAULT
    # ... and no venue spells a built-in name in its code (docstrings aside)
    spelled = []
    files = [p for v in VENUES for p in ([SRC / v] if v.endswith(".py")
                                         else sorted((SRC / v).rglob("*.py")))]
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef
                              | ast.ClassDef) and n.body and isinstance(n.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and node.value in names
                    and id(node) not in docs):
                spelled.append(f"{path.relative_to(SRC)}:{node.lineno}: {node.value!r}")
    assert not spelled, spelled


def test_the_external_bots_fallback_is_the_registrys() -> None:
    assert EXTERNAL.fallback == EXTERNAL_FALLBACK == DEFAULT_FALLBACK.name
    bot = make_bot("cmd:python whatever.py", seed=1)
    assert bot.fallback_name == EXTERNAL_FALLBACK  # type: ignore[attr-defined]


class IllegalBot:
    name = "illegal"

    def act(self, view: View) -> Action:
        return Action.parse("knock") if Action.parse("knock") not in view.legal else \
            Action.parse("pass")


def test_the_driver_plays_the_fallback_for_an_illegal_answer_and_reports_it() -> None:
    from toepen.match import Incident

    game = Game(Rules.preset("rulebook", lives=2), 4, seed=3)
    seen: list[Incident] = []
    play_game(game, [IllegalBot()] * 4, seeds=[1, 2, 3, 4], report=seen.append)
    assert game.is_over  # every decision was the fallback's, each one legal
    assert len(seen) == len(game.actions) and {i.kind for i in seen} == {"illegal"}
    assert {i.fallback for i in seen} == {"random"} and "not one of" in seen[0].detail
    assert [(i.seat, i.action) for i in seen] == list(game.actions)
    again = Game(Rules.preset("rulebook", lives=2), 4, seed=3)
    play_game(again, [IllegalBot()] * 4, seeds=[1, 2, 3, 4])
    assert list(again.actions) == list(game.actions)  # the fallback is seeded: the same game again


def test_hand_over_stops_at_the_end_of_the_hand() -> None:
    game = Game(Rules.preset("classic"), 4, seed=4)
    play_game(game, [make_bot("random", seed=s) for s in range(4)], stop=hand_over(game))
    assert game.hand_no == 2 and game.phase is not Phase.OVER
    assert sum(game.lives_lost) >= 1
    with pytest.raises(ValueError, match="3 bots for a table of 4"):
        play_game(game, [make_bot("random")] * 3)
