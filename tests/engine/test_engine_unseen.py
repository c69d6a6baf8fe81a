"""``UnseenGame``: the engine's public hook for a game whose cards are not known."""

from __future__ import annotations

import pytest

from toepen.engine import CHALLENGE, CLAIM, EXCHANGE, KNOCK, PASS, EventKind, IllegalAction, Phase
from toepen.engine.unseen import UnseenGame
from toepen.rules import Rules


def test_a_kans_draw_makes_four_of_a_kind_only_when_the_table_says_so() -> None:
    rules = Rules.preset("rulebook", four_of_a_kind=True, three_of_a_kind_draw=True, lives=5)
    g = UnseenGame(rules, ["Ann", "Bas", "Cor"])
    assert g.cards_just_seen and [d.name for d in g.rounds] == ["armoede", "kans"]
    for seat in g.queue:  # nobody claims armoede
        g.apply(seat, PASS)
    assert g.declaration is not None and g.declaration.name == "kans" and g.turn == 1
    miss = g.clone()
    miss.tell(drawn_four=-1)
    kinds = [e.kind for e in miss.apply(1, EXCHANGE)]
    assert kinds == [EventKind.KANS] and miss.phase is Phase.KANS and miss.turn == 2
    assert miss.declared(miss.declaration) == 0b010 and miss.hand_no == 1
    g.tell(drawn_four=7)  # the drawn card made four aces
    events = g.apply(1, EXCHANGE)
    assert [e.kind for e in events][:2] == [EventKind.KANS, EventKind.FOUR_OF_A_KIND]
    paid = rules.four_of_a_kind_penalty  # by every other seat
    assert g.hand_no == 2 and g.lives_by_seat() == [5 - paid, 5, 5 - paid]
    assert miss.hand_no == 1, "the clone is independent of the game it was taken from"


def test_a_shown_hand_is_what_the_table_says_it_was() -> None:
    g = UnseenGame(Rules.preset("rulebook", lives=5), ["Ann", "Bas", "Cor"])
    g.apply(1, CLAIM)
    assert g.target == 1 and g.queue == (2, 0) and g.opponents(1) == 0b101
    bluff = g.clone()
    g.tell(shown="genuine")
    g.apply(2, CHALLENGE)  # an honest claim: the challenger pays
    assert g.lives_by_seat() == [5, 5, 4]
    bluff.tell(shown="false")
    bluff.apply(2, CHALLENGE)  # a bluff: the claimer pays
    assert bluff.lives_by_seat() == [5, 4, 5]


def test_the_table_says_who_plays_and_who_took_the_last_trick() -> None:
    g = UnseenGame(Rules.preset("rulebook", armoede=False, lives=5), ["Ann", "Bas", "Cor"])
    assert g.phase is Phase.PLAY and g.turn == 1
    with pytest.raises(IllegalAction) as refused:
        g.apply(0, KNOCK)
    assert refused.value.refusal.code == "not_your_turn"
    g.take_turn(0)  # the table knows it is Ann's card now
    g.apply(0, KNOCK)
    assert g.phase is Phase.ANSWER and g.queue == (1, 2)
    with pytest.raises(IllegalAction) as refused:  # an answer awaited: no trick is taken
        g.last_trick(2)
    assert refused.value.refusal.code == "not_now" and g.phase is Phase.ANSWER
    g.take_turn(2)  # outside the play it changes nothing
    assert g.turn == 1


def test_the_hook_shadows_no_field_of_the_engine() -> None:
    """A member of ``UnseenGame`` with the name of an engine field would hide that field."""
    import inspect

    from toepen.engine.core import GameCore

    own = {name for name, _ in inspect.getmembers(UnseenGame) if name in UnseenGame.__dict__}
    assert not own & set(GameCore.__slots__)
    assert set(UnseenGame.__slots__) == {"_shown", "_drawn_four", "_seen_at", "_deals"}
