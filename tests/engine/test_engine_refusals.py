"""Refusals: one structured reason per illegal action, its English the exception's text."""

from __future__ import annotations

import json
import random

import pytest

from toepen.engine import (
    ACTIONS,
    NUM_ACTIONS,
    REFUSAL_CODES,
    Action,
    Game,
    IllegalAction,
    Phase,
    Refusal,
)
from toepen.rules import PRESETS, Rules

from .helpers import deck_for, game, play, rules

HANDS = {1: "9h Ac 8s Jd", 2: "Th Kc 7s Qd", 3: "Kh Jc As 9d", 0: "Jh Qc Ks 8d"}


def test_phase_is_a_str_enum_with_the_views_words() -> None:
    assert [str(p) for p in Phase] == [
        "deal", "blind", "blind_answer", "claim", "claim_challenge", "exchange",
        "exchange_challenge", "kans", "laundry", "laundry_challenge", "rebuy", "answer", "play",
        "over",
    ]
    assert Phase.PLAY == "play" and f"{Phase.ANSWER}" == "answer"


def test_every_illegal_action_has_one_refusal_that_is_the_exceptions_text() -> None:
    seen: set[str] = set()
    for name in sorted(PRESETS):
        for n in (2, 4, 7):
            preset = Rules.preset(name)
            if n not in preset.allowed_table_sizes():
                continue
            g = Game(preset, n, seed=n * 31)
            pick = random.Random(n)
            for step in range(5000):
                legal = g.legal_actions()
                seats = range(-1, n + 1) if step % 9 == 0 or g.turn < 0 else (g.turn,)
                for seat in seats:
                    for a in range(NUM_ACTIONS):
                        act = ACTIONS[a]
                        r = g.refusal(seat, act)
                        if seat == g.turn and act in legal:
                            assert r is None
                            continue
                        assert r is not None and r.code in REFUSAL_CODES
                        assert json.loads(json.dumps(r.to_json())) == r.to_json()
                        assert r.english() == g.explain(seat, act)
                        seen.add(r.code)
                        with pytest.raises(IllegalAction) as info:
                            g.apply(seat, act)
                        assert info.value.refusal == r and str(info.value) == r.english()
                if g.turn < 0:
                    break
                g.apply(g.turn, pick.choice(legal))
            for seat in range(n):
                r = g.refusal(seat, "knock")
                assert r is None or r.code in REFUSAL_CODES
    # Every code of the play is reached somewhere in these sessions.
    assert seen >= {
        "no_such_seat", "out_of_session", "folded", "not_your_turn", "knock_own_latest",
        "knock_lives_below_stake", "not_now", "card_not_now",
        "card_not_held", "must_follow_suit", "session_over",
    }, sorted(set(REFUSAL_CODES) - seen)


def test_an_equal_action_built_elsewhere_is_refused_as_itself() -> None:
    g = game(rules("rulebook", armoede=False), 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock", "2 stay", "3 stay", "0 stay")
    knock = Action(32)
    assert knock == ACTIONS[32] and knock is not ACTIONS[32]
    assert g.explain(1, knock) == "seat 1 may not knock (made the latest knock)"


def test_refusals_of_garbage_and_of_a_missing_deck() -> None:
    g = game(rules("rulebook"), 4, deck_for(4, 0, HANDS), dealer=0)
    dance = Refusal("bad_action", {"seat": 1, "error": "unknown verb 'dance'"})
    assert g.refusal(1, "dance") == dance
    assert g.refusal(None, "pass") == Refusal("not_a_seat", {"seat": "None"})  # type: ignore[arg-type]
    assert g.refusal(1, "pass") is None
    play(g, "1 pass", "2 pass", "3 pass", "0 pass")
    with pytest.raises(IllegalAction) as info:
        g.deal(deck_for(4, 0, HANDS))
    assert info.value.refusal.to_json() == {"code": "no_deal_awaited", "params": {"phase": "play"}}
    waiting = Game(rules("rulebook"), 4)
    assert waiting.refusal(1, "pass") == Refusal("deal_awaited", {"seat": 1, "action": "pass"})


def test_knock_refusals_carry_their_numbers() -> None:
    g = game(rules("rulebook", armoede=False, max_stake=2), 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock", "2 stay", "3 stay", "0 stay", "1 play 9h")
    assert g.refusal(1, "knock") == Refusal("not_your_turn", {"seat": 1, "turn": 2})
    r = g.refusal(2, "knock")
    assert r == Refusal("knock_stake_capped", {"seat": 2, "max_stake": 2})
    assert r.english() == "seat 2 may not knock (stake is capped at 2)"


def test_must_follow_suit_names_the_card_and_the_suit_letter() -> None:
    g = game(rules("rulebook", armoede=False), 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 play 9h")
    r = g.refusal(2, "play Kc")
    assert r is not None and r.to_json() == {
        "code": "must_follow_suit", "params": {"seat": 2, "card": "Kc", "suit": "h"},
    }
    assert r.english() == "seat 2 must follow suit (holds hearts)"
