"""Bot levels: each level the one bot of it in the registry, ordered by strength, in words."""

from __future__ import annotations

import random

from toepen.bots.base import (
    LEVELS,
    STANDIN_LEVEL,
    bot_spec,
    check_bot_name,
    level,
    level_names,
    level_of,
    make_bot,
    resolve_name,
    standin_level,
)
from toepen.bots.noisy import NoisyHeuristicBot
from toepen.engine import Game, Phase
from toepen.i18n import LANGUAGES, Translator
from toepen.match import window_view
from toepen.rules import Rules
from toepen.tools.arena import run_match
from toepen.view import observe


def views(preset: str, games: int, seed: int) -> list:
    out = []
    for g in range(games):
        rng = random.Random(seed + g)
        game = Game(Rules.preset(preset), 4, seed=seed + g)
        while game.turn >= 0 and len(out) < 400 * (g + 1):
            out.append(observe(game, game.turn))
            game.apply(game.turn, rng.choice(game.legal_actions()))
    return out


def test_each_level_is_one_registered_bot_weakest_first() -> None:
    assert level_names() == ["beginner", "casual", "good", "strong", "expert"]
    bots = [lv.bot for lv in LEVELS]
    assert len(set(bots)) == len(bots), "one bot per level"
    strengths = []
    for lv in LEVELS:
        spec = bot_spec(lv.bot)
        assert spec is not None and spec.name == lv.bot, lv
        assert level(lv.name) == lv and level_of(lv.bot) == lv and level_of(lv.name) == lv
        assert resolve_name(lv.name) == lv.bot and bot_spec(lv.name) == spec
        check_bot_name(lv.name)
        strengths.append(spec.strength)
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)
    assert level(STANDIN_LEVEL) is not None
    # the old names keep working, and a bot outside the levels has none
    assert resolve_name("heuristic") == "heuristic" and level_of("random") is None
    assert level_of("cmd:python bot.py") is None


def test_a_level_plays_exactly_as_its_bot() -> None:
    cases = views("rulebook", 2, 40)
    for lv in LEVELS[:3]:  # the search bots' levels resolve the same way, more slowly
        by_level, by_bot = make_bot(lv.name, seed=9), make_bot(lv.bot, seed=9)
        assert type(by_level) is type(by_bot)
        assert [by_level.act(v) for v in cases] == [by_bot.act(v) for v in cases]
    assert type(make_bot("strong", seed=1)) is type(make_bot("pimc", seed=1))


def test_the_noisy_levels_are_seeded_and_noisy_at_their_rate() -> None:
    cases = [v for v in views("classic", 3, 7) if len(v.legal) > 1]
    plain = make_bot("heuristic", seed=3)
    for name, low, high in (("beginner", 0.4, 0.8), ("casual", 0.1, 0.4)):
        a, b = make_bot(name, seed=3), make_bot(name, seed=3)
        assert isinstance(a, NoisyHeuristicBot)
        acts = [a.act(v) for v in cases]
        assert acts == [b.act(v) for v in cases], "the same seed, the same decisions"
        assert acts != [make_bot(name, seed=4).act(v) for v in cases]
        assert all(x in v.legal for x, v in zip(acts, cases, strict=True))
        differ = sum(x != plain.act(v) for x, v in zip(acts, cases, strict=True)) / len(cases)
        assert low < differ < high, (name, differ)


def test_the_noisy_levels_pass_a_knock_window() -> None:
    rules = Rules.preset("rulebook", knock_anytime=True)
    windows = 0
    for seed in range(30):
        game = Game(rules, 4, seed=seed)
        rng = random.Random(seed)
        while game.turn >= 0 and game.phase is not Phase.PLAY:
            game.apply(game.turn, rng.choice(game.legal_actions()))
        for seat in game.knockers():
            view = window_view(game, seat)
            windows += 1
            for name in ("beginner", "casual"):
                assert make_bot(name, seed=seed).act(view) == make_bot("heuristic",
                                                                       seed=seed).act(view)
    assert windows > 10


def test_the_levels_are_ordered_by_strength_in_duplicate_matches() -> None:
    # The full round robin is in docs/bots.md; here the cheap end of the ladder, 4 players.
    rules = Rules.preset("rulebook")
    for weaker, stronger in (("beginner", "good"), ("casual", "good")):
        diff = run_match(weaker, stronger, rules, players=4, deals=120, seed=3, jobs=1,
                         sessions=0).row(weaker).diff
        assert diff.low > 0, (weaker, stronger, diff)


def test_every_level_has_a_name_and_a_line_in_every_language() -> None:
    for lang in LANGUAGES:
        t = Translator(lang)
        names = set()
        for lv in LEVELS:
            name, about = t(f"level.{lv.name}"), t(f"level.{lv.name}.about")
            assert name and name != f"level.{lv.name}", (lang, lv)
            assert about and about != f"level.{lv.name}.about" and len(about) < 120
            names.add(name)
            if lang != "en":
                assert about != Translator("en")(f"level.{lv.name}.about"), (lang, lv)
        assert len(names) == len(LEVELS), lang


def test_the_stand_in_plays_at_the_level_of_the_tables_bots() -> None:
    assert standin_level([]).name == STANDIN_LEVEL == "good"
    assert standin_level(["random", "cmd:x"]).name == "good"
    assert standin_level(["beginner", "beginner", "expert"]).name == "beginner"
    assert standin_level(["casual", "pimc"]).name == "strong"  # of as many, the stronger
    assert standin_level(["expert", "strong", "heuristic", "expert"]).name == "expert"
