"""A hint's reason is worded from the figures the hint was chosen by (issue 36; issue 22,
point 4): the expected lives of the action and of the next best, in lives, in five
languages; a forced move is no hint."""

from __future__ import annotations

import random
import re

import pytest

from toepen.bots import make_bot
from toepen.bots.escalation import Escalation, load_escalation
from toepen.bots.expert import ExpertBot
from toepen.bots.reasons import REASON_IDS, TIE, cents, forced, lives, next_best, reason
from toepen.cards import card_str
from toepen.engine import Action, Game
from toepen.i18n import LANGUAGES, Translator, catalog
from toepen.narration import Cards, Message
from toepen.review import evaluate
from toepen.rules import Rules
from toepen.view import View, observe

CARD_CODE = re.compile(r"\b[TJQKA987][cdhs]\b")
NAMES = ("Ann", "Bas", "Cor", "Dirk", "Eva", "Fem")


def positions(preset: str, seeds: range, **options: object) -> list[View]:
    """Views of the seat to act along random sessions."""
    out: list[View] = []
    for seed in seeds:
        rules = Rules.preset(preset, **options)
        rng = random.Random(seed)
        game = Game.new(rules, rng.choice(rules.table_sizes), seed=seed)
        while game.winner is None:
            out.append(observe(game, game.turn))
            game.apply(game.turn, rng.choice(game.legal(game.turn)))
    return out


def _sample(views: list[View], k: int, seed: int) -> list[View]:
    decided = [v for v in views if len(v.legal) > 1]
    return random.Random(seed).sample(decided, min(k, len(decided)))


@pytest.mark.parametrize("preset", ["rulebook", "classic", "kroeg-huisregels"])
def test_every_hint_reason_is_worded_from_its_figures(preset: str) -> None:
    """The hint's action and its reason come from one evaluation; every figure in the
    reason is one of its values (lives lost, two decimals) or their difference as
    shown, and the words follow the figures (better, about even, for the others)."""
    said: set[str] = set()
    for view in _sample(positions(preset, range(6)), 40, 1):
        ev = evaluate(view, samples=4)
        m = reason(view, ev.choice, ev.values)
        said.add(m.id)
        assert m.id in REASON_IDS, m
        other = next_best(ev.values, ev.choice)
        mine, theirs = cents(ev.values[ev.choice]), cents(ev.values[other])
        assert m.params["lose"] == lives(mine) and m.params["other_lose"] == lives(theirs)
        tie = round(100 * TIE)
        if m.id == "hint.reason.better":
            assert theirs - mine > tie and m.params["gain"] == lives(theirs - mine)
        elif m.id == "hint.reason.even":
            assert abs(theirs - mine) <= tie
        else:
            assert m.id == "hint.reason.others" and mine - theirs > tie
    assert "hint.reason.better" in said


def test_a_forced_move_is_never_a_hint() -> None:
    """One legal action: the reason says there is nothing to decide
    (``hint.reason.forced``), whatever the action or its values."""
    seen = 0
    for view in positions("rulebook", range(3)):
        if len(view.legal) != 1:
            assert forced(view) is None
            continue
        only = view.legal[0]
        m = reason(view, only, {only: -0.5})
        assert m == forced(view) and m.id == "hint.reason.forced"
        seen += 1
    assert seen > 5


def test_a_bot_without_figures_gets_facts_not_figures() -> None:
    """A bot that gives no values (heuristic): its card's facts, or no figure at all."""
    for view in _sample(positions("rulebook", range(3)), 60, 2):
        bot = make_bot("heuristic", seed=1)
        act = bot.act(view)
        m = reason(view, act)
        if act.is_play:
            assert m.params["card"] == Cards((act.card,)) and act.card in view.hand
        else:
            assert m.id == "hint.reason.unvalued" and set(m.params) == {"action"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_speaks_each_language_in_lives(lang: str) -> None:
    """Rendered in each language: no card code, no placeholder left, not the English
    text, lives with the language's decimal mark, never a percent."""
    t = Translator(lang, strict=True)
    en = Translator("en", strict=True)
    mark = "." if lang == "en" else ","
    seen = 0
    for view in _sample(positions("classic", range(3)), 12, 3):
        ev = evaluate(view, samples=4)
        for act in view.legal:
            m = reason(view, act, ev.values)
            text = m.render(t, NAMES)
            assert not CARD_CODE.search(text), text  # cards in the language, never "Ac"
            assert "{" not in text and "%" not in text, text
            assert re.search(rf"\d{re.escape(mark)}\d\d\b", text), text
            if lang != "en":
                assert text != m.render(en, NAMES), (lang, m)
            seen += 1
    assert seen > 20
    texts = catalog(lang)
    for ident in REASON_IDS:
        assert "%" not in texts[ident], (lang, ident)
    assert lives(40).render(t, NAMES) == f"0{mark}40"
    assert lives(117).render(t, NAMES) == f"1{mark}17"


def test_the_expert_explains_itself_in_a_message() -> None:
    game = Game.new("rulebook", 4, seed=5)
    view = observe(game, game.turn)
    while len(view.legal) < 2:
        game.apply(game.turn, view.legal[0])
        view = observe(game, game.turn)
    bot = make_bot("expert", seed=1)
    act = bot.act(view)
    why = bot.explain(view, act)  # type: ignore[attr-defined]
    assert isinstance(why, Message) and why.id == "hint.reason.sampled"
    text = why.render(Translator("it", strict=True), game.players)
    assert "expected lives" not in text and not CARD_CODE.search(text), text
    assert card_str(0) not in text.split()


def test_knock_values_are_the_escalated_ones() -> None:
    """The hint's figures are the review's: a knock decision's values include the
    escalation table, as expert decides by (not the one-shot values)."""
    knock = Action.parse("knock")
    table = load_escalation()
    extra_knock = table.extra("L", 4, "knock", 1, "knock")
    extra_play = table.extra("L", 4, "knock", 1, "play")
    assert extra_knock is not None and extra_play is not None
    checked = 0
    for seed in range(6):
        game = Game.new("rulebook", 4, seed=seed)
        view = observe(game, game.turn)
        while not (view.phase == "play" and knock in view.legal):
            game.apply(game.turn, view.legal[-1])  # pass or play on
            view = observe(game, game.turn)
        ev = evaluate(view, samples=4, seed=2)
        flat = ExpertBot(seed=2, samples=4, escalation=Escalation()).evaluation(view)
        # the same samples, less the table's extra lives (L|4|knock|1: knock and play)
        assert ev.values[knock] == pytest.approx(min(0.0, flat.values[knock] - extra_knock))
        for a in view.legal:
            if a is not knock:
                assert ev.values[a] == pytest.approx(min(0.0, flat.values[a] - extra_play))
        checked += 1
    assert checked == 6



def test_the_buy_in_is_reasoned_in_words_not_in_lives() -> None:
    """Pot toepen (issue 39): expert values the rebuy round in stakes (the chip model of
    the pot: a side's chance is its share of the lives still in), so its hint says why in
    words; it stays out with one life to come back with, and buys in when the pot pays."""
    import random

    from toepen.bots.expert import ExpertBot
    from toepen.engine import PASS, STAY, Game, Phase
    from toepen.rules import Rules
    from toepen.view import observe

    seen = set()
    for start in (2, 3, 6, 10):
        for seed in range(40):
            game = Game.new(Rules.preset("rulebook", lives=start, rebuy="once", pot=1), 4,
                            seed=seed)
            rng = random.Random(seed)
            while not game.is_over and game.phase is not Phase.REBUY:
                game.apply(game.turn, rng.choice(game.legal_actions()))
            if game.phase is Phase.REBUY:
                break
        view = observe(game, game.turn)
        got = ExpertBot(seed=1).evaluation(view)
        assert set(got.values) == {STAY, PASS} and got.values[PASS] == 0.0
        assert got.choice is max(got.values, key=lambda a: got.values[a])
        if view.rebuy_lives < 2:
            assert got.choice is PASS
        said = reason(view, got.choice, got.values)
        assert said.id == f"hint.reason.rebuy.{got.choice}"
        seen.add(got.choice)
    assert seen == {STAY, PASS}
