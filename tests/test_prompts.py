"""The prompt of each decision names exactly the moves the engine allows (issue 22, point 4).

``narration.turn_prompt`` is the one prompt every client shows (the server sends it with
each ``state``, the terminal renders it): answering a knock it offers "stay or fold" when
knocking again is not legal and "stay" alone when folding is not either.
"""

from __future__ import annotations

import random

import pytest

from toepen.engine import Game
from toepen.i18n import LANGUAGES, Translator, catalog
from toepen.narration import PROMPT_VERBS, decision_verbs, turn_prompt
from toepen.rules import PRESETS, Rules
from toepen.view import observe

CASES: list[tuple[str, dict[str, object]]] = [
    *((name, {}) for name in PRESETS),
    ("rulebook", {"lives": 3, "edge": "no_fold"}),
    ("rulebook", {"lives": 4, "max_stake": 3}),
    ("rulebook", {"blind_knock": True, "armoede": False, "edge": "no_fold", "lives": 4}),
    ("rulebook", {"knock_anytime": True, "lives": 4}),
    ("classic", {"knock_anytime": True, "edge": "no_fold", "rubbers": 1}),
    ("kroeg-huisregels", {"lives": 5}),
]


def decisions(preset: str, options: dict[str, object], seed: int):  # type: ignore[no-untyped-def]
    """Every (seat, view) that has a decision, in a random session of these rules."""
    rules = Rules.preset(preset, **options)
    rng = random.Random(seed)
    game = Game.new(rules, rng.choice(rules.table_sizes), seed=seed)
    while game.winner is None:
        for seat in game.to_act:
            yield seat, observe(game, seat)
        seat = game.turn
        game.apply(seat, rng.choice(game.legal(seat)))


@pytest.mark.parametrize(("preset", "options"), CASES)
def test_the_prompt_names_exactly_the_legal_moves(preset: str,
                                                  options: dict[str, object]) -> None:
    kinds: set[tuple[str, frozenset[str]]] = set()
    for seed in range(12):
        for _seat, view in decisions(preset, options, seed):
            say = turn_prompt(view)
            legal = decision_verbs(view.legal)
            assert say.id in PROMPT_VERBS, (say, view.phase, sorted(legal))
            assert PROMPT_VERBS[say.id] == legal, (say.id, view.phase, sorted(legal))
            kinds.add((str(view.phase), legal))
    assert len(kinds) >= 3, kinds


def test_answering_a_knock_offers_only_what_is_legal() -> None:
    """The three answers the engine gives: all three, no knock again, stay alone."""
    seen: dict[frozenset[str], str] = {}
    for seed in range(40):
        for _seat, view in decisions("rulebook", {"lives": 3, "edge": "no_fold"}, seed):
            if view.phase == "answer":
                seen[decision_verbs(view.legal)] = turn_prompt(view).id
    assert seen[frozenset({"stay", "fold", "knock"})] == "phase.answer"
    assert seen[frozenset({"stay", "fold"})] == "phase.answer.stay_fold"
    assert seen[frozenset({"stay"})] == "phase.answer.stay"
    offer = {k: v.split(":", 1)[1] for k, v in catalog("en").items() if k in PROMPT_VERBS
             and k.startswith("phase.answer")}  # what follows "{name} knocked:"
    assert "knock" in offer["phase.answer"]
    assert "knock" not in offer["phase.answer.stay_fold"]
    assert "knock" not in offer["phase.answer.stay"] and "or fold" not in offer["phase.answer.stay"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_prompt_is_in_every_language(lang: str) -> None:
    t = Translator(lang, strict=True)
    english = Translator("en", strict=True)
    for ident in PROMPT_VERBS:
        text = t(ident, name="Bas")
        assert text and (lang == "en" or text != english(ident, name="Bas")), (lang, ident)
