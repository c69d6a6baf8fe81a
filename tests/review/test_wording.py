"""The review's words (issue 36): costs in lives, never a percent of a life; a reason
claims only what its figures show; ties are not mistakes; in five languages."""

from __future__ import annotations

import random
import re

import pytest

from toepen.bots.expert import Evaluation
from toepen.bots.reasons import TIE, cents, lives
from toepen.engine import Action, Game
from toepen.i18n import LANGUAGES, Translator, catalog
from toepen.narration import Message
from toepen.review import REASON_IDS, Point, judge
from toepen.view import View, observe

NAMES = ("Ann", "Bas", "Cor", "Dirk")
KNOCK, FOLD, STAY = Action.parse("knock"), Action.parse("fold"), Action.parse("stay")


def _views() -> dict[str, View]:
    """A card decision with a knock allowed, and an answer to a knock (4 players)."""
    out: dict[str, View] = {}
    for seed in range(20):
        g = Game.new("rulebook", 4, seed=seed)
        while g.turn >= 0 and len(out) < 2:
            v = observe(g, g.turn)
            if v.phase == "play" and KNOCK in v.legal and "play" not in out:
                out["play"] = v
            if v.phase == "answer" and "answer" not in out:
                out["answer"] = v
            act = KNOCK if KNOCK in v.legal and v.phase == "play" else v.legal[0]
            if g.hand_no > 1:
                break
            g.apply(g.turn, act)
        if len(out) == 2:
            return out
    raise AssertionError("no knock decision and answer found")


VIEWS = _views()


def _judge(view: View, choice: Action, values: dict[Action, float]):  # type: ignore[no-untyped-def]
    order = list(values)
    best = max(values, key=lambda a: (values[a], -order.index(a)))
    point = Point(view.action_count + 1, view, choice, False, ())
    return judge(point, Evaluation(values, best, (best,), best), 48)


def _figures(text: str, mark: str) -> list[float]:
    return [float(x.replace(mark, ".")) for x in re.findall(rf"\d+{re.escape(mark)}\d\d", text)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_costs_are_lives_never_percent(lang: str) -> None:
    """Every review reason is in lives with two decimals, in the language's number form;
    no catalog text of a reason has a percent sign."""
    t = Translator(lang, strict=True)
    mark = "." if lang == "en" else ","
    texts = catalog(lang)
    for ident in REASON_IDS:
        assert "%" not in texts[ident], (lang, ident)
    view = VIEWS["answer"]
    d = _judge(view, STAY, {STAY: -2.6, FOLD: -1.0, KNOCK: -3.1})
    assert d.best is FOLD and d.cost == pytest.approx(1.6)
    text = d.reason.render(t, NAMES)
    assert "%" not in text and "{" not in text
    assert f"1{mark}60" in text and f"2{mark}60" in text, text  # the cost and the stay's loss


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_reason_claims_only_its_figures(lang: str) -> None:
    """Random values at a card-or-knock decision and at an answer: the reason's figures
    are the values shown (lives lost) and the cost is their difference; a mistake is
    called one only when the figures differ by more than a tie."""
    t = Translator(lang, strict=True)
    mark = "." if lang == "en" else ","
    rng = random.Random(7)
    for _ in range(200):
        view = VIEWS[rng.choice(("play", "answer"))]
        values = {a: -round(rng.uniform(0, 3), rng.choice((1, 2, 4))) for a in view.legal}
        if FOLD in values:
            values[FOLD] = -float(view.accepted[view.seat or 0])
        choice = rng.choice(list(view.legal))
        d = _judge(view, choice, values)
        text = d.reason.render(t, NAMES)
        shown = _figures(text, mark)
        lose = cents(values[choice]) / 100
        if d.best is choice:
            assert d.cost == 0.0 and d.reason.id in ("review.reason.best", "review.reason.tie")
            assert lose in shown, (text, values)
            continue
        best_lose = cents(values[d.best]) / 100
        assert d.cost > TIE and d.reason.id not in ("review.reason.best", "review.reason.tie")
        assert d.reason.params["cost"] == lives(cents(values[choice]) - cents(values[d.best]))
        assert round(lose - best_lose, 2) in shown, (text, values)  # the cost: their difference
        assert lose in shown or d.reason.id == "review.reason.fold", (text, values)
        assert best_lose in shown or d.reason.id == "review.reason.stay", (text, values)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ties_are_not_mistakes(lang: str) -> None:
    """Both values 0.00 (the case of the issue: "saves 300% of a life"), or within a tie:
    no cost, no mistake, and the reason says they are about even."""
    t = Translator(lang, strict=True)
    en = Translator("en", strict=True)
    view = VIEWS["play"]
    card = next(a for a in view.legal if a is not KNOCK)
    for mine, best in ((0.0, 0.0), (-0.40, -0.39), (-1.0, -1.0 + TIE)):
        d = _judge(view, card, {card: mine, KNOCK: best})
        assert d.best is card and d.cost == 0.0
        assert d.reason.id == "review.reason.tie"
        text = d.reason.render(t, NAMES)
        assert "%" not in text and "{" not in text
        if lang != "en":
            assert text != d.reason.render(en, NAMES)
    d = _judge(view, card, {card: -0.5, KNOCK: -0.1})  # beyond a tie: a mistake of 0.40
    assert d.best is KNOCK and d.cost == pytest.approx(0.4)
    assert d.reason.id == "review.reason.no_knock"
    assert d.reason.params["cost"] == lives(40) == Message("hint.lives",
                                                           {"whole": 0, "frac": "40"})
