"""Hidden information through ``observe`` and ``redact``, on hand-built deals."""

from __future__ import annotations

import pytest

from toepen.cards import card_str
from toepen.engine import DeckError, EventKind, Game, redact
from toepen.view import observe

from .helpers import deck_for, game, ids, of_kind, play, rules

E = EventKind


def _names(cards: tuple[int, ...]) -> set[str]:
    return {card_str(c) for c in cards}


def test_each_seat_sees_its_own_hand_and_a_spectator_sees_none() -> None:
    g = game(rules("rulebook"), 4, deck_for(4, 0, {1: "Th 9h 8h 7h", 2: "Ac Kc Qc Jc"}))
    v1, v2, spec = observe(g, 1), observe(g, 2), observe(g, None)
    assert _names(v1.hand) == {"Th", "9h", "8h", "7h"} and v1.legal == g.legal(1)
    assert v2.legal == () and spec.hand == () and spec.legal == ()
    assert v1.hand_sizes == (4, 4, 4, 4)
    text = str(v2.to_json())
    assert not any(f"'{c}'" in text for c in ("Th", "9h", "8h", "7h"))
    for seat in (0, 2, 3, None):
        hands = of_kind(redact(g.opening_events(omniscient=True), seat), E.HAND)
        assert len(hands) == 4 and all(e.value == 4 for e in hands)
        assert all(e.cards == () for e in hands if e.seat != seat)
        assert all(len(e.cards) == 4 for e in hands if e.seat == seat)
    with pytest.raises(ValueError, match="no seat 4 at this table of 4"):
        observe(g, 4)


def test_an_unchallenged_exchange_hides_both_hands_from_the_others() -> None:
    r = rules("rulebook", armoede=False, exchange=True)
    g = game(r, 4, deck_for(4, 0, {1: "Th Ac Kc Qc"}, stock="9s 8s 7s As"))
    ev = play(g, "1 exchange", "2 pass", "3 pass", "0 pass")
    for seat in (0, 2, 3, None):
        named = str(observe(g, seat).to_json())
        for c in ("Th", "Ac", "Kc", "Qc", "9s", "8s", "7s", "As"):
            assert f"'{c}'" not in named, (seat, c)
        draw = of_kind(redact(ev, seat), E.DRAW)[0]
        assert draw.cards == () and draw.value == 4
    assert of_kind(redact(ev, 1), E.DRAW)[0].cards == ids("9s 8s 7s As")
    assert _names(observe(g, 1).hand) == {"9s", "8s", "7s", "As"}
    assert observe(g, 2).exchanged == (1,) and observe(g, 2).stock_size == 12


def test_a_challenged_hand_is_shown_to_everyone() -> None:
    g = game(rules("rulebook"), 4, deck_for(4, 0, {2: "Th Kc Qc Jc"}))
    play(g, "1 pass", "2 claim", "3 challenge")
    for seat in (0, 1, 3, None):
        revealed = observe(g, seat).to_json()["revealed"]
        assert revealed == [{"seat": 2, "cards": ["Kc", "Qc", "Jc", "Th"], "reason": "armoede"}]


def test_played_cards_and_voids_are_public() -> None:
    hands = {1: "9h Ac 8s Jd", 2: "Tc Kc 7s Qd", 3: "Kh Jc As 9d", 0: "Jh Qc Ks 8d"}
    g = game(rules("rulebook", armoede=False), 4, deck_for(4, 0, hands))
    play(g, "1 play 9h", "2 play Tc")
    v = observe(g, 0)
    assert v.trick == ((1, ids("9h")[0]), (2, ids("Tc")[0])) and v.led_suit == 2
    assert v.voids[2] == (2,) and v.voids[1] == ()


def test_the_game_constructor_refuses_bad_tables_and_decks() -> None:
    with pytest.raises(ValueError, match="dealer: must be a seat from 0 to 3, not 4"):
        Game(rules("rulebook"), 4, seed=1, dealer=4)
    with pytest.raises(DeckError, match=r"decks\[0\]: not the 32 cards \(31 cards; lacks Js\)"):
        Game(rules("rulebook"), 4, decks=[[card_str(c) for c in range(31)]])
    with pytest.raises(DeckError, match=r"decks\[1\]: unknown card 'Qx'"):
        Game(rules("rulebook"), 4, decks=[list(range(32)), ["Qx"] * 32])


def test_last_trick_winner_eliminated_the_next_player_in_the_session_deals() -> None:
    r = rules("rulebook", armoede=False, lives=1, dealer="last_trick_winner")
    d = deck_for(3, 0, {1: "Th 9h 8h 7h", 2: "Ah Kh Qh Jh"})
    g = game(r, 3, d, deck_for(3, 2, {}, in_session=[0, 2]), dealer=0)
    while g.hand_no == 1:
        play(g, f"{g.turn} {[str(a) for a in g.legal_actions() if a < 32][0]}")
    assert g.eliminated == [1] and g.dealer == 2 and g.turn == 0
