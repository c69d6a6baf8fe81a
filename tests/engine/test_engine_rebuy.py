"""Pot toepen (rules.md, "Pot toepen"; docs/rules.md P1-P6): buying back in (``rebuy``)
and the pot (``pot``), under every preset they combine with, the refusals where they do
not, records with buy-ins, and sessions of every bot that end with one winner and a pot
that adds up."""

from __future__ import annotations

import random

import pytest

from toepen.bots.base import make_bot
from toepen.engine import PASS, STAY, EventKind, Game, Phase
from toepen.engine.settle import pot_balances
from toepen.match import play_game
from toepen.record import replay, to_record
from toepen.rules import Rules, RulesError
from toepen.view import View, observe

ELIMINATION = [p for p in Rules.preset_names() if Rules.preset(p).session == "elimination"]
"""Every preset rebuy combines with as it is; ``classic`` with ``session: elimination``."""


def _until_rebuy(game: Game, rng: random.Random, buy: bool | None = None) -> bool:
    """Play random actions until the rebuy round (True) or the end (False); with ``buy``
    set, every rebuy round on the way is answered so."""
    steps = 0
    while not game.is_over:
        if game.phase is Phase.REBUY:
            if buy is None:
                return True
            game.apply(game.turn, STAY if buy else PASS)
            continue
        game.apply(game.turn, rng.choice(game.legal_actions()))
        steps += 1
        assert steps < 100_000
    return False


def _first_rebuy(rules: Rules, n: int = 4) -> Game:
    for seed in range(200):
        g = Game.new(rules, n, seed=seed)
        if _until_rebuy(g, random.Random(seed)):
            return g
    raise AssertionError("no rebuy round in 200 sessions")


def test_rebuy_and_pot_are_refused_in_a_rubber_session() -> None:
    with pytest.raises(RulesError, match="^option rebuy: needs session elimination"):
        Rules.preset("classic", rebuy="once")
    with pytest.raises(RulesError, match="^option pot: needs session elimination"):
        Rules.preset("classic", pot=1)
    assert Rules.preset("classic", session="elimination", rebuy="any", pot=1).rebuys is None


@pytest.mark.parametrize(("options", "message"), [
    ({"rebuy": "twice"}, "option rebuy: must be one of off, once, any, not 'twice'"),
    ({"pot": -1}, "option pot: must be a number from 0 to 1000 with at most two decimals"),
    ({"pot": 0.125}, "option pot: must be a number from 0 to 1000"),
    ({"pot": 1001}, "option pot: must be a number from 0 to 1000"),
    ({"pot": True}, "option pot: must be a number"),
    ({"pot": "1"}, "option pot: must be a number"),
    ({"pot": float("nan")}, "option pot: must be a number"),
    ({"pot_unit": "euros"}, "option pot_unit: must be a sign of at most 4 printable"),
    ({"pot_unit": "\x1b"}, "option pot_unit: must be a sign"),
])
def test_bad_pot_options_are_refused_naming_the_option(options: dict[str, object],
                                                       message: str) -> None:
    with pytest.raises(RulesError, match=f"^{message}".replace("(", r"\(").replace(")", r"\)")):
        Rules.preset("rulebook", **options)


def test_the_pot_is_kept_in_cents_and_travels_in_records() -> None:
    r = Rules.preset("rulebook", rebuy="once", pot=0.5, pot_unit="EUR")
    assert r.pot_cents == 50 and r.rebuys == 1
    assert r.to_json() == {"preset": "rulebook", "rebuy": "once", "pot": 0.5, "pot_unit": "EUR"}
    assert Rules.from_json(r.to_json()) == r
    assert Rules.preset("rulebook", pot=2.0).pot == 2 and isinstance(Rules.preset(
        "rulebook", pot=2.0).pot, int)


def test_no_rebuy_round_without_the_option() -> None:
    for seed in range(20):
        g = Game.new(Rules.preset("rulebook", lives=2), 4, seed=seed)
        assert not _until_rebuy(g, random.Random(seed))
        assert list(g.rebuys) == [0, 0, 0, 0] and g.pot == 0


@pytest.mark.parametrize("preset", [*ELIMINATION, "classic"])
def test_a_buy_in_comes_back_with_the_fewest_lives_still_in(preset: str) -> None:
    extra = {"session": "elimination"} if preset == "classic" else {}
    rules = Rules.preset(preset, lives=3, rebuy="once", pot=1, **extra)
    n = {"gezinstoepen": 3, "teams": 6}.get(preset, 4)  # teams of 4: one pair out ends it
    g = _first_rebuy(rules, n)
    seat = g.turn
    assert not g.in_session >> seat & 1 and g.legal(seat) == (STAY, PASS)
    assert g.to_act == (seat,)
    in_now = [s for s in range(n) if g.in_session >> s & 1]
    fewest = min(g.lives(s) for s in in_now)
    assert g.rebuy_lives == fewest
    view = observe(g, seat)
    assert view.phase == Phase.REBUY and view.legal == (STAY, PASS)
    assert view.rebuy_lives == fewest and view.pot == 100 * n
    assert View.from_json(view.to_json()) == view
    # refusals: another verb, another seat
    assert g.refusal(seat, "knock").code == "not_now"
    assert g.refusal(seat, "play Th").code == "card_not_now"
    assert g.refusal(in_now[0], "stay").code == "not_your_turn"
    events = g.apply(seat, STAY)
    assert events[0].kind is EventKind.REBUY and events[0].value == fewest
    side = [s for s in range(n) if g.team_of[s] == g.team_of[seat]]
    for s in side:  # a pair buys back in together
        assert g.in_session >> s & 1 and g.rebuys[s] == 1 and s not in g.eliminated
    assert g.lives(seat) == fewest
    assert g.pot == 100 * (n + len(side))


def test_once_means_once_and_any_means_again() -> None:
    for rebuy, most in (("once", 1), ("any", 2)):
        rules = Rules.preset("rulebook", lives=4, rebuy=rebuy)
        seen = 0
        for seed in range(60):
            g = Game.new(rules, 4, seed=seed)
            _until_rebuy(g, random.Random(seed), buy=True)
            assert g.is_over
            assert rebuy == "any" or max(g.rebuys) <= 1
            seen = max(seen, max(g.rebuys))
        assert seen >= most, (rebuy, seen)


def test_a_pass_stays_out_and_the_session_goes_on() -> None:
    g = _first_rebuy(Rules.preset("rulebook", lives=3, rebuy="any"))
    seat = g.turn
    events = g.apply(seat, PASS)
    assert events[0].kind is EventKind.PASS and events[0].detail == "rebuy"
    assert not g.in_session >> seat & 1 and g.rebuys[seat] == 0
    assert g.phase is not Phase.REBUY or g.turn != seat


def test_no_buy_in_when_one_is_left() -> None:
    """The hand that leaves one player in ends the session: no rebuy round."""
    for seed in range(40):
        g = Game.new(Rules.preset("rulebook", lives=2, rebuy="any"), 2, seed=seed)
        assert not _until_rebuy(g, random.Random(seed))
        assert g.is_over and g.winner is not None


def test_a_record_with_buy_ins_replays_exactly() -> None:
    rules = Rules.preset("kroegtoepen", lives=3, rebuy="any", pot=0.25)
    found = 0
    for seed in range(30):
        g = Game.new(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.apply(g.turn, STAY if g.phase is Phase.REBUY and rng.random() < 0.7
                    else rng.choice(g.legal_actions()))
        found += sum(g.rebuys)
        doc = to_record(g)
        again = replay(doc)
        assert again.actions == g.actions and list(again.rebuys) == list(g.rebuys)
        assert again.places() == g.places() and again.pot == g.pot
        assert again.pot_balances() == g.pot_balances()
    assert found


def test_pot_balances_split_a_pairs_pot_and_sum_to_zero() -> None:
    assert pot_balances(100, (0, 2, 0), (0, 1, 2), 1) == (-100, 200, -100)
    assert pot_balances(25, (1, 0, 1, 0), (0, 1, 0, 1), 3) == (-50, 50, -50, 50)
    assert pot_balances(25, (1, 1, 1, 1), (0, 1, 0, 1), 2) == (50, -50, 50, -50)
    assert pot_balances(1, (0, 0, 0, 0, 0, 0), (0, 1, 2, 0, 1, 2), 4) == (-1, 2, -1, -1, 2, -1)
    # an odd cent of a pair's pot goes to its lower seat
    assert pot_balances(1, (0, 0, 1, 0, 0, 0), (0, 1, 2, 0, 1, 2), 4) == (-1, 3, -2, -1, 2, -1)
    with pytest.raises(ValueError, match="no winner"):
        pot_balances(1, (0, 0), (0, 1), None)


BOTS = ["random", "beginner", "casual", "heuristic", "pimc", "expert"]


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("preset", ["rulebook", "teams", "kroeg-huisregels"])
def test_sessions_of_every_bot_end_with_one_winner_and_a_pot_that_adds_up(
        bot: str, preset: str) -> None:
    slow = bot in ("pimc", "expert")
    rules = Rules.preset(preset, lives=2 if slow else 4, rebuy="any", pot=0.5)
    for seed in range(1 if slow else 4):
        n = 6 if preset == "teams" else 4
        g = Game.new(rules, n, seed=seed)
        play_game(g, [make_bot(bot, seed=seed * 10 + s) for s in range(n)])
        assert g.is_over and g.winner is not None
        assert sum(1 for p in g.places() if p.place == 1) == 1
        balances = g.pot_balances()
        assert sum(balances) == 0
        assert g.pot == 50 * (n + sum(g.rebuys))
        winners = [s for s in range(n) if g.team_of[s] == g.team_of[g.winner]]
        assert sum(balances[s] for s in winners) == g.pot - sum(
            50 * (1 + g.rebuys[s]) for s in winners)


def test_under_points_up_the_buy_in_takes_the_highest_score_still_in() -> None:
    """``count: points_up`` counts the same position the other way: the fewest lives still
    in is the highest score still in."""
    rules = Rules.preset("rulebook", lives=4, rebuy="any", count="points_up")
    g = _first_rebuy(rules)
    seat = g.turn
    scores = [rules.sheet_value(g.lives(s)) for s in range(4) if g.in_session >> s & 1]
    g.apply(seat, STAY)
    assert rules.sheet_value(g.lives(seat)) == max(scores)
