"""rules.md steps 1-5: dealer, deal, tells, armoede, exchange; with explicit decks."""

from __future__ import annotations

import pytest

from toepen.engine import EventKind, IllegalAction, Phase

from .helpers import (
    deck_for,
    finish_hand,
    game,
    hand_str,
    ids,
    kinds,
    legal,
    of_kind,
    play,
    rules,
)

E = EventKind
PLAIN = rules("rulebook", armoede=False)
ORDERED = [
    "Th", "9h", "8h", "7h", "Ah", "Kh", "Qh", "Jh", "Tc", "9c", "8c", "7c", "Ac", "Kc", "Qc", "Jc",
    "Td", "9d", "8d", "7d", "Ad", "Kd", "Qd", "Jd", "Ts", "9s", "8s", "7s", "As", "Ks", "Qs", "Js",
]


# -- step 2: the deal ------------------------------------------------------------------


def test_deal_from_the_top_one_card_at_a_time_clockwise_from_dealers_left() -> None:
    g = game(PLAIN, 4, ORDERED, dealer=0)
    # Seat 1 (left of dealer 0) gets cards 1, 5, 9, 13 of the deck; seat 0 the 4th, 8th...
    assert hand_str(g, 1) == "Tc Ac Th Ah"
    assert hand_str(g, 2) == "9c Kc 9h Kh"
    assert hand_str(g, 3) == "8c Qc 8h Qh"
    assert hand_str(g, 0) == "7c Jc 7h Jh"
    assert g.stock_size == 16 and g.stock()[:4] == list(ids("Td 9d 8d 7d"))
    g2 = game(PLAIN, 4, ORDERED, dealer=2)
    assert hand_str(g2, 3) == "Tc Ac Th Ah"
    assert hand_str(g2, 2) == "7c Jc 7h Jh"


def test_deal_events_are_private_hands_in_deal_order() -> None:
    g = game(PLAIN, 3, ORDERED, dealer=1)
    hands = of_kind(g.opening_events(omniscient=True), E.HAND)
    assert [e.seat for e in hands] == [2, 0, 1]
    assert all(e.private and len(e.cards) == 4 for e in hands)
    assert g.opening_events(omniscient=True)[0] == (E.DEAL, 1, 1, (), "", False)
    assert g.turn == 2 and g.phase is Phase.PLAY  # left of the dealer leads


def test_helper_deck_matches_the_deal_order() -> None:
    d = deck_for(5, 3, {4: "Th 9h 8h 7h", 1: "Jc Qc Kc Ac"})
    g = game(PLAIN, 5, d, dealer=3)
    assert hand_str(g, 4) == "Th 9h 8h 7h"
    assert hand_str(g, 1) == "Ac Kc Qc Jc"


def test_eliminated_player_is_skipped_by_the_next_deal_and_the_dealer_rotates_past() -> None:
    r = rules("rulebook", armoede=False, lives=2)
    d1 = deck_for(4, 0, {1: "Th 9h 8h 7h", 2: "Ah Kh Qh Jh"})
    # Next hand: dealer rotates to seat 1; seat 2 is out, so 3 gets the first card.
    d2 = ORDERED
    g = game(r, 4, d1, d2, dealer=0)
    play(g, "1 knock", "2 stay", "3 fold", "0 fold")
    assert g.lives_by_seat() == [1, 2, 2, 1]
    play(g, "1 play 7h", "2 play Jh")
    # Seat 1 won trick 1 (7h beats Jh) and leads again.
    assert g.trick_winners == [1] and g.turn == 1
    ev = play(g, "1 play 8h", "2 play Kh", "1 play 9h", "2 play Ah", "1 play Th", "2 play Qh")
    # Seat 1 took the 4th trick with Th: it pays the stake 2 and is eliminated.
    assert of_kind(ev, E.HAND_RESULT)[0][:3] == (E.HAND_RESULT, 1, 2)
    assert of_kind(ev, E.LIVES)[-1][:4] == (E.LIVES, 1, 2, ())
    assert g.eliminated == [1]
    assert g.dealer == 2  # rotates from 0 to the next player still in the session
    assert g.hand_no == 2
    # Dealer 2: the deal goes 3, 0, 2 (seat 1 is skipped).
    assert hand_str(g, 3) == "9c Th 7h Qh" and hand_str(g, 0) == "8c 9h Ah Jh"
    assert hand_str(g, 2) == "Tc 7c 8h Kh" and g.hand_mask(1) == 0
    assert g.turn == 3


# -- step 3: tells ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tells", "hands", "expected"),
    [
        ("tens", {1: "Tc Td Th 9s"}, [(1, 3, "tens")]),
        ("tens", {2: "Tc Td Th Ts"}, [(2, 4, "tens")]),
        ("tens", {2: "Jc Jd Jh Js"}, []),
        ("tens_and_jacks", {3: "Jc Jd Jh 9s", 0: "Tc Td Th Ts"}, [(3, 3, "jacks"), (0, 4, "tens")]),
        ("off", {1: "Tc Td Th Ts", 2: "Jc Jd Jh Js"}, []),
        ("tens", {1: "Tc Td 9h 9s"}, []),
    ],
)
def test_tells_are_announced_publicly_after_the_deal(
    tells: str, hands: dict[int, str], expected: list[tuple[int, int, str]]
) -> None:
    g = game(rules("rulebook", armoede=False, tells=tells), 4, deck_for(4, 0, hands))
    got = [(e.seat, e.value, e.detail) for e in of_kind(g.opening_events(omniscient=True), E.TELL)]
    assert got == expected
    assert all(not e.private for e in of_kind(g.opening_events(omniscient=True), E.TELL))
    assert [(s, k) for s, k, _ in g.tells] == [(s, k) for s, k, _ in expected]


def test_classic_tells_tens_on_every_deal() -> None:
    g = game(rules("classic"), 4, deck_for(4, 0, {3: "Tc Td Th Ac"}))
    opening = g.opening_events(omniscient=True)
    assert [(e.seat, e.value) for e in of_kind(opening, E.TELL)] == [(3, 3)]


# -- step 4: armoede -------------------------------------------------------------------

POOR = "Ac Kc Qc Jc"  # no 7, 8, 9 or ten: genuine armoede
RICH = "Ah Kh Qh 7c"


def test_claim_round_starts_left_of_the_dealer_and_offers_claim_or_pass() -> None:
    g = game(rules("rulebook"), 4, ORDERED, dealer=2)
    assert g.phase is Phase.CLAIM and g.turn == 3 and legal(g) == ["claim", "pass"]
    with pytest.raises(IllegalAction, match=r"seat 3 may not knock now \(armoede: claim or pass\)"):
        g.apply(3, "knock")
    with pytest.raises(IllegalAction, match="seat 0 is not to act"):
        g.apply(0, "pass")
    play(g, "3 pass", "0 pass", "1 pass", "2 pass")
    assert g.phase is Phase.PLAY and g.turn == 3


def test_genuine_claim_challenged_costs_the_challenger_and_redeals_by_the_same_dealer() -> None:
    d1 = deck_for(4, 0, {1: POOR})
    d2 = ORDERED
    g = game(rules("rulebook", lives=3), 4, d1, d2, dealer=0)
    ev = play(g, "1 claim")
    assert kinds(ev) == ["claim"] and g.phase is Phase.CLAIM_CHALLENGE and g.turn == 2
    assert legal(g) == ["challenge", "pass"]
    ev = play(g, "2 pass", "3 challenge")
    assert kinds(ev)[:5] == ["pass", "challenge", "reveal", "claim_result", "lives"]
    assert of_kind(ev, E.REVEAL)[0].cards == ids("Ac Kc Qc Jc")
    assert of_kind(ev, E.CLAIM_RESULT)[0].detail == "genuine"
    assert of_kind(ev, E.LIVES)[0][:5] == (E.LIVES, 3, 1, (), "armoede")
    redeal = of_kind(ev, E.REDEAL)
    assert len(redeal) == 1 and redeal[0].seat == 0 and redeal[0].value == 1
    assert g.lives_by_seat() == [3, 3, 3, 2] and g.dealer == 0 and g.hand_no == 1
    assert hand_str(g, 1) == "Tc Ac Th Ah"  # the second deck, dealt the same way
    # The claim round starts again left of the dealer; seat 1 has claimed and is skipped.
    assert g.phase is Phase.CLAIM and g.turn == 2
    assert len(g.dealt_decks()) == 2


def test_false_claim_exposed_costs_the_claimer_no_redeal_and_the_round_goes_on() -> None:
    g = game(rules("rulebook", lives=3), 4, deck_for(4, 0, {2: RICH}), dealer=0)
    ev = play(g, "1 pass", "2 claim", "3 challenge")
    assert of_kind(ev, E.CLAIM_RESULT)[0].detail == "false"
    assert of_kind(ev, E.LIVES)[0][:3] == (E.LIVES, 2, 1)
    assert not of_kind(ev, E.REDEAL) and len(g.dealt_decks()) == 1
    assert hand_str(g, 2) == "7c Ah Kh Qh"  # same hand, now public
    assert g.revealed == [(2, g.hand_mask(2), "armoede")]
    assert g.phase is Phase.CLAIM and g.turn == 3  # the claim round goes on after 2
    play(g, "3 pass", "0 pass")
    assert g.phase is Phase.PLAY and g.turn == 1


def test_unchallenged_claim_redeals_and_each_player_claims_once_per_hand() -> None:
    g = game(rules("rulebook", lives=3), 4, ORDERED, ORDERED, ORDERED, dealer=0)
    ev = play(g, "1 claim", "2 pass", "3 pass", "0 pass")
    assert of_kind(ev, E.CLAIM_RESULT)[0].detail == "unchallenged"
    assert of_kind(ev, E.REDEAL) and not of_kind(ev, E.LIVES)
    assert g.turn == 2  # seat 1 already claimed: skipped, not asked
    ev = play(g, "2 claim", "3 pass", "0 pass", "1 pass")
    assert of_kind(ev, E.REDEAL) and g.turn == 3
    ev = play(g, "3 pass", "0 pass")
    assert g.phase is Phase.PLAY and g.turn == 1
    # A new hand: everyone may claim again.
    g2 = game(rules("rulebook", lives=3), 4, ORDERED, ORDERED, ORDERED, dealer=0)
    play(g2, "1 pass", "2 pass", "3 pass", "0 pass")
    finish_hand(g2)
    assert g2.hand_no == 2 and g2.dealer == 1 and g2.turn == 2
    play(g2, "2 claim", "3 pass", "0 pass", "1 pass")
    assert g2.turn == 3  # seat 2 skipped in the redeal of hand 2
    play(g2, "3 pass", "0 pass", "1 claim")
    assert g2.phase is Phase.CLAIM_CHALLENGE


def test_every_player_claiming_bounds_the_redeals() -> None:
    decks = [ORDERED] * 5
    g = game(rules("rulebook"), 3, *decks, dealer=0)
    play(g, "1 claim", "2 pass", "0 pass")
    play(g, "2 claim", "0 pass", "1 pass")
    play(g, "0 claim", "1 pass", "2 pass")
    # Everyone has claimed: after the third redeal nobody is asked; play starts.
    assert g.phase is Phase.PLAY and len(g.dealt_decks()) == 4 and g.turn == 1


def test_a_redeal_without_a_deck_waits_for_one() -> None:
    g = game(rules("rulebook"), 4, ORDERED, dealer=0)
    play(g, "1 claim", "2 pass", "3 pass", "0 pass")
    assert g.phase is Phase.DEAL and g.to_act == () and g.legal_actions() == ()
    with pytest.raises(IllegalAction, match="a new deal awaits a deck"):
        g.apply(2, "pass")
    ev = g.deal(ORDERED)
    assert ev[0][:3] == (E.REDEAL, 0, 1)
    assert g.phase is Phase.CLAIM and g.turn == 2


def test_teams_claims_are_challenged_by_opponents_only() -> None:
    g = game(rules("teams"), 4, deck_for(4, 0, {1: POOR}), ORDERED, dealer=0)
    play(g, "1 claim")
    assert g.turn == 2  # opponent on the claimer's left
    play(g, "2 pass")
    assert g.turn == 0  # partner 3 is skipped
    ev = play(g, "0 pass")
    assert of_kind(ev, E.CLAIM_RESULT)[0].detail == "unchallenged"


# -- step 5: exchange ------------------------------------------------------------------

EXCH = rules("rulebook", armoede=False, exchange=True, lives=3)


def test_exchange_draws_the_next_four_and_a_caught_exchanger_pays() -> None:
    d = deck_for(4, 0, {1: "Th Ac Kc Qc"}, stock="9s 8s 7s As 9d 8d 7d Ad")
    g = game(EXCH, 4, d, dealer=0)
    assert g.phase is Phase.EXCHANGE and g.turn == 1 and legal(g) == ["exchange", "pass"]
    ev = play(g, "1 exchange")
    assert kinds(ev) == ["exchange", "draw"]
    assert ev[1].private and ev[1].seat == 1
    assert hand_str(g, 1) == "9s 8s 7s As"
    assert g.phase is Phase.EXCHANGE_CHALLENGE and g.turn == 2
    ev = play(g, "2 challenge")
    assert of_kind(ev, E.REVEAL)[0].cards == ids("Ac Kc Qc Th")
    assert of_kind(ev, E.EXCHANGE_RESULT)[0].detail == "caught"
    assert of_kind(ev, E.LIVES)[0][:5] == (E.LIVES, 1, 1, (), "exchange")
    assert hand_str(g, 1) == "9s 8s 7s As"  # keeps the new hand
    assert g.phase is Phase.EXCHANGE and g.turn == 2
    g.check_invariants()


def test_clean_exchange_challenged_costs_the_challenger() -> None:
    d = deck_for(4, 0, {2: "Ac Kc Qc Jc"}, stock="9s 8s 7s As")
    g = game(EXCH, 4, d, dealer=0)
    ev = play(g, "1 pass", "2 exchange", "3 pass", "0 challenge")
    assert of_kind(ev, E.EXCHANGE_RESULT)[0].detail == "clean"
    assert of_kind(ev, E.LIVES)[0][:3] == (E.LIVES, 0, 1)
    assert g.lives_by_seat() == [2, 3, 3, 3]
    assert g.turn == 3 and g.phase is Phase.EXCHANGE
    ev = play(g, "3 exchange", "0 pass", "1 pass", "2 pass")
    assert of_kind(ev, E.EXCHANGE_RESULT)[0].detail == "unchallenged"
    assert of_kind(ev, E.REVEAL) == []
    play(g, "0 pass")
    assert g.phase is Phase.PLAY and g.turn == 1  # one round of offers, once per player
    g.check_invariants()


def test_exchange_only_while_the_stock_holds_four() -> None:
    g7 = game(EXCH, 7, ORDERED, dealer=0)  # 28 dealt, a stock of 4
    assert g7.turn == 1 and g7.phase is Phase.EXCHANGE
    play(g7, "1 pass", "2 exchange", *(f"{s} pass" for s in (3, 4, 5, 6, 0, 1)))
    # The stock is empty: seats 3..0 are skipped, not asked.
    assert g7.phase is Phase.PLAY and g7.turn == 1 and g7.stock_size == 0
    g8 = game(EXCH, 8, ORDERED, dealer=0)  # no stock at all: no exchange offered
    assert g8.phase is Phase.PLAY and g8.turn == 1
    assert not of_kind(g8.opening_events(omniscient=True), E.PASS)


def test_teams_exchange_is_challenged_by_opponents_only() -> None:
    r = rules("teams", armoede=False, exchange=True)
    g = game(r, 4, ORDERED, dealer=3)
    play(g, "0 exchange")
    assert g.turn == 1
    play(g, "1 pass")
    assert g.turn == 3  # partner 2 skipped
