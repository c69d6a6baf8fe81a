"""The derived public facts on View and Rules agree with the game (bots read them)."""

from __future__ import annotations

import pytest

from toepen.cards import HIGH_CARDS_MASK, JACK, TEN
from toepen.engine import Phase
from toepen.engine.actions import CLAIM, EXCHANGE
from toepen.rules import Rules
from toepen.view import observe

from .helpers import PRESETS, random_positions


@pytest.mark.parametrize("preset", PRESETS)
def test_view_facts_agree_with_the_game(preset: str) -> None:
    players = 4 if preset != "gezinstoepen" else 3
    for game in random_positions(preset, players, seed=17, count=40):
        seat = game.turn
        view = observe(game, seat)
        assert view.hand_mask == game.hand_mask(seat)
        assert view.played_mask == sum(1 << c for _, c, _ in game.plays)
        assert view.played_mask_of(seat) == sum(1 << c for s, c, _ in game.plays if s == seat)
        assert view.gone_mask & view.hand_mask == 0
        phase = game.phase
        if phase in (Phase.ANSWER, Phase.BLIND_ANSWER):
            assert view.target == game.last_knocker >= 0
        elif phase in (Phase.CLAIM_CHALLENGE, Phase.EXCHANGE_CHALLENGE, Phase.LAUNDRY_CHALLENGE):
            verb = CLAIM if phase is Phase.CLAIM_CHALLENGE else EXCHANGE
            latest = [s for s, a in view.hand_actions if a is verb][-1]
            assert view.target == game.target == latest
        else:
            assert view.target == -1
        for _, cards in view.false_claims:
            assert sum(1 << c for c in cards) & HIGH_CARDS_MASK
        if phase is Phase.PLAY and not game.plays:  # the first trick's leader is to lead
            assert view.first_leader == game.leader == seat
        assert 0 <= view.deal_start <= len(view.hand_actions)
        json = view.to_json()
        assert json["target"] == view.target and json["deal_start"] == view.deal_start
        assert json["pelt_opener"] == view.pelt_opener


def test_rules_derived_facts() -> None:
    classic, rulebook = Rules.preset("classic"), Rules.preset("rulebook")
    assert classic.last_trick_wins and not classic.last_trick_loses
    assert rulebook.last_trick_loses and not rulebook.last_trick_wins
    assert classic.tell_ranks == (TEN,) and rulebook.tell_ranks == ()
    assert rulebook.replace(tells="tens_and_jacks").tell_ranks == (TEN, JACK)


def test_the_pelt_opener_opens_at_stake_two() -> None:
    from toepen.engine import Game

    for dealer in range(4):
        game = Game(Rules.preset("classic", lives=1, exchange=False), 4, seed=5, dealer=dealer)
        assert game.phase is Phase.ANSWER and game.stake == 2
        view = observe(game, game.turn)
        assert view.pelt_opener == (dealer + 1) % 4 == view.first_leader == view.target
        assert observe(game, None).pelt_opener == view.pelt_opener
