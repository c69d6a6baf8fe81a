"""Bad input to ``Game.apply`` is refused with a reason and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from toepen.engine import ACTIONS, Action, EventKind, IllegalAction
from toepen.record import to_record

from .helpers import deck_for, game, legal, play, rules, snapshot

HANDS = {1: "9h Ac 8s Jd", 2: "Th Kc 7s Qd", 3: "Kh Jc As 9d", 0: "Jh Qc Ks 8d"}


def test_an_equal_but_not_interned_action_is_applied_as_itself() -> None:
    g = game(rules("rulebook", armoede=False), 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock")
    stay = Action(33)
    assert stay == ACTIONS[33] and stay is not ACTIONS[33]
    ev = g.apply(2, stay)
    assert ev[0].kind is EventKind.STAY and g.stake == 2 and g.turn == 3
    g2 = game(rules("rulebook"), 4, deck_for(4, 0, HANDS), dealer=0)
    ev = g2.apply(1, Action(35))  # claim
    assert ev[0].kind is EventKind.CLAIM


@pytest.mark.parametrize(
    ("seat", "act", "reason"),
    [
        (None, "pass", r"seat None is not a seat number"),
        ("1", "pass", r"seat '1' is not a seat number"),
        (9, "pass", r"no seat 9 at this table of 4"),
        (-1, "pass", r"no seat -1 at this table of 4"),
        (1, "dance", r"seat 1: unknown verb 'dance'"),
        (1, "play Xx", r"seat 1: unknown card 'Xx'"),
        (1, 99, r"seat 1: not an action: 99"),
        (1, None, r"seat 1: not an action: None"),
        (1, True, r"seat 1: not an action: True"),
        (1, "play", r"seat 1: 'play' needs one card"),
    ],
)
def test_garbage_is_refused_with_a_reason_and_changes_nothing(
    seat: Any, act: Any, reason: str
) -> None:
    g = game(rules("rulebook"), 4, deck_for(4, 0, HANDS), dealer=0)
    before = snapshot(g)
    with pytest.raises(IllegalAction, match=reason):
        g.apply(seat, act)
    assert snapshot(g) == before
    assert legal(g) == ["claim", "pass"]


def test_an_int_equal_seat_is_recorded_as_the_seat_number() -> None:
    g = game(rules("rulebook"), 4, deck_for(4, 0, HANDS), dealer=0)
    g.apply(1.0, "pass")
    assert to_record(g)["actions"] == ["1 pass"]


def test_a_clone_shares_no_list_with_its_original() -> None:
    from toepen.engine.core import GameCore

    g = game(rules("rulebook"), 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 pass", "2 pass")
    c = g.clone()
    never_changed_in_place = {"_deck", "_opening"}  # shared by design; "_ev" is new
    for name in GameCore.__slots__:
        value = getattr(g, name)
        if isinstance(value, list) and name not in never_changed_in_place | {"_ev"}:
            assert getattr(c, name) is not value and getattr(c, name) == value, name
