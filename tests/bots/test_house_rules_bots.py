"""Every bot plays every house rule legally; the search bots know what each rule does
(unseen cards are not read, open hands are known, laundered and kans hands are not tied
to their tells, blind decisions are not read as knocks with cards)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from toepen.bots import make_bot
from toepen.bots.expert import ExpertBot
from toepen.bots.knowledge import Knowledge, observed_decisions
from toepen.bots.pimc import PimcBot
from toepen.engine import FOLD, PASS, Game, Phase
from toepen.engine.deck import deck_for
from toepen.match import play_game
from toepen.rules import Rules
from toepen.view import observe

HOUSE_PHASES = {Phase.BLIND, Phase.BLIND_ANSWER, Phase.KANS, Phase.LAUNDRY,
                Phase.LAUNDRY_CHALLENGE}
COMBOS: list[tuple[str, dict[str, Any], int]] = [
    ("kroeg-huisregels", {"laundry_caught": "plays_open", "lives": 4}, 4),
    ("kroeg-huisregels", {"laundry_check": "first", "edge": "plays_dead", "lives": 3}, 3),
    ("rulebook", {"armoede": False, "blind_knock": True, "double_knock": True,
                  "dealer": "highest_loser", "lives": 4}, 4),
    ("classic", {"exchange": False, "witte_was": True, "jack_last_trick": "others_pay_more",
                 "four_of_a_kind": True, "three_of_a_kind_draw": True, "lives": 4}, 5),
    ("teams", {"witte_was": True, "vuile_was": True, "laundry_check": "each",
               "edge": "no_fold", "lives": 3}, 4),
]


def _positions(rules: Rules, n: int, seed: int, count: int) -> list[Game]:
    """Random decision points, every one in a house rule's phase and some others."""
    rng = random.Random(seed)
    out: list[Game] = []
    game = Game(rules, n, seed=seed)
    while len(out) < count:
        if game.is_over:
            seed += 1
            game = Game(rules, n, seed=seed)
        if game.phase in HOUSE_PHASES or rng.random() < 0.15:
            out.append(game.clone())
        game.apply(game.turn, rng.choice(game.legal_actions()))
    return out


@pytest.mark.parametrize(("preset", "options", "n"), COMBOS)
def test_every_bot_decides_legally_in_house_rule_positions(
    preset: str, options: dict[str, Any], n: int
) -> None:
    rules = Rules.preset(preset, **options)
    bots = [make_bot("random", seed=1), make_bot("heuristic", seed=1),
            PimcBot(seed=1, samples=3), ExpertBot(seed=1, samples=3)]
    positions = _positions(rules, n, seed=n * 11, count=14)
    assert any(g.phase in HOUSE_PHASES for g in positions)
    for game in positions:
        view = observe(game, game.turn)
        for bot in bots:
            assert bot.act(view) in game.legal_actions(), (bot.name, game.phase)


def test_search_bots_play_whole_house_rule_sessions() -> None:
    rules = Rules.preset("kroeg-huisregels", lives=2, laundry_caught="plays_open")
    for name in ("pimc", "expert"):
        game = Game(rules, 3, seed=7)
        cls = PimcBot if name == "pimc" else ExpertBot
        play_game(game, [cls(seed=s, samples=2) for s in range(3)], max_actions=600)
        assert game.is_over
        game.check_invariants()


def test_blind_decisions_read_no_card() -> None:
    rules = Rules.preset("rulebook", armoede=False, blind_knock=True, lives=3)
    for seed in range(6):
        game = Game(rules, 4, seed=seed)
        view = observe(game, game.turn)
        assert view.phase is Phase.BLIND and view.hand == ()
        other = Game(rules, 4, seed=seed + 100)  # other cards, the same public facts
        assert observe(other, other.turn) == view or other.turn != game.turn
        for name in ("heuristic", "pimc", "expert"):
            assert make_bot(name, seed=3).act(view) is PASS
        game.apply(game.turn, game.legal_actions()[0])  # a blind knock
        seat = game.turn
        answer = observe(game, seat)
        assert answer.phase is Phase.BLIND_ANSWER and answer.hand == ()
        # At four players under loses an unseen hand pays 3/4 on average: stay at 3.
        assert PimcBot(seed=1).act(answer) == make_bot("heuristic").act(answer)


def test_a_blind_knock_opens_the_play_at_three_in_the_bots_reading() -> None:
    rules = Rules.preset("rulebook", armoede=False, blind_knock=True, lives=5)
    game = Game(rules, 3, seed=2)
    first = game.turn
    game.apply(first, game.legal_actions()[0])  # knock blind
    while game.phase is Phase.BLIND_ANSWER:
        game.apply(game.turn, game.legal_actions()[0])  # stay
    assert game.phase is Phase.PLAY and game.stake == 3
    assert game.turn == first == 1  # the blind knocker leads (left of dealer 0)
    game.apply(1, game.legal_actions()[-1])  # a card, not read: the latest knocker's
    game.apply(2, next(a for a in game.legal_actions() if a < 32))  # a card at stake 3
    obs = observed_decisions(observe(game, 0))
    assert [(o[0], o[1], o[2], o[4]) for o in obs] == [(2, "knock", "play", 3)]


def test_an_open_hand_is_known_and_a_laundered_hand_is_free_of_its_tells() -> None:
    rules = Rules.preset("rulebook", armoede=False, witte_was=True, tells="tens",
                         laundry_caught="plays_open")
    deck = deck_for(3, 0, {1: "Tc Td Th 7s", 2: "Ac Kd Qh Js", 0: "9c 9d 9h 9s"})
    game = Game(rules, 3, decks=[deck])
    assert [t[0] for t in game.tells] == [1]  # seat 1 whistles for three tens
    game.apply(1, game.legal_actions()[0])  # a bluffed laundry: exchanges
    game.apply(2, game.legal_actions()[0])  # checks: caught, plays open
    view = observe(game, 0)
    assert view.open_hands and 1 in view.laundered
    know = Knowledge.from_view(view)
    held = game.hand_mask(1)
    assert know.known[1] == held and know.exact[1] is None and know.caps[1] == []
    rng = random.Random(1)
    for _ in range(5):
        assert know.sample(rng)[1] == held


def test_no_fold_on_the_edge_is_respected_by_every_bot() -> None:
    rules = Rules.preset("rulebook", armoede=False, edge="no_fold", lives=1,
                         knock_limit="none")
    game = Game(rules, 3, seed=4)
    game.apply(game.turn, game.legal_actions()[0])  # the leader knocks
    view = observe(game, game.turn)
    assert FOLD not in view.legal
    for name in ("random", "heuristic", "pimc", "expert"):
        assert make_bot(name, seed=2).act(view) in view.legal


def test_bots_are_offered_a_knock_out_of_turn_and_answer_knock_or_pass() -> None:
    from toepen.engine import KNOCK
    from toepen.match import Incident, knock_window

    rules = Rules.preset("rulebook", knock_anytime=True, armoede=False, lives=4)
    windows = 0
    for seed in range(8):
        game = Game(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.hand_no < 3:
            for seat in game.knockers():
                for bot in (make_bot("random", seed=1), make_bot("heuristic"),
                            PimcBot(seed=1, samples=3), ExpertBot(seed=1, samples=3)):
                    seen: list[Incident] = []
                    knock_window(bot, game, seat, report=seen.append)
                    assert seen == [], seen  # knock or pass, never the fallback's
                windows += 1
            game.apply(game.turn, rng.choice(game.legal_actions()))
    assert windows > 20

    class Stubborn:
        name = "stubborn"

        def act(self, view: object) -> object:
            return KNOCK.__class__(0)  # a card, not knock or pass

    game = Game(rules, 4, seed=1)
    while not game.knockers():
        game.apply(game.turn, game.legal_actions()[-1])
    seen = []
    knock_window(Stubborn(), game, game.knockers()[0], seed=4,  # type: ignore[arg-type]
                 report=seen.append)
    assert [(i.kind, i.window, i.fallback) for i in seen] == [("illegal", True, "random")]
    assert seen[0].action in (KNOCK, KNOCK.__class__.parse("pass"))


def test_whole_sessions_with_knocks_at_any_moment() -> None:
    rules = Rules.preset("kroeg-huisregels", knock_anytime=True, lives=2)
    for bots in (["random"] * 4, ["heuristic", "pimc", "expert", "random"]):
        game = Game(rules, 4, seed=9)
        made = [PimcBot(seed=s, samples=2) if b == "pimc" else
                ExpertBot(seed=s, samples=2) if b == "expert" else make_bot(b, seed=s)
                for s, b in enumerate(bots)]
        play_game(game, made, max_actions=3000)
        assert game.is_over
        out_of_turn = [i for i, (s, a) in enumerate(game.actions) if str(a) == "knock"]
        assert out_of_turn or bots[0] != "random"
        game.check_invariants()
