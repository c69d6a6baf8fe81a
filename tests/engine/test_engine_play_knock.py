"""rules.md steps 6-9 and knocking: pelt, tricks, knocks, folds, settlement, dealer."""

from __future__ import annotations

import pytest

from toepen.engine import EventKind, IllegalAction, Phase

from .helpers import deck_for, finish_hand, game, ids, kinds, legal, of_kind, play, rules

E = EventKind
PLAIN = rules("rulebook", armoede=False, lives=5)
# Dealer 0: seat 1 leads.
HANDS = {1: "9h Ac 8s Jd", 2: "Th Kc 7s Qd", 3: "Kh Jc As 9d", 0: "Jh Qc Ks 8d"}
VOID2 = {1: "9h Ac 8s Jd", 2: "Tc Kc 7s Qd", 3: "Kh Jc As 9d", 0: "Jh Qc Ks 8d"}


# -- step 7: tricks --------------------------------------------------------------------


def test_follow_suit_when_able_and_the_highest_card_of_the_led_suit_wins() -> None:
    g = game(PLAIN, 4, deck_for(4, 0, HANDS), dealer=0)
    assert g.phase is Phase.PLAY and g.turn == 1
    assert legal(g) == ["knock", "play Ac", "play Jd", "play 9h", "play 8s"]
    play(g, "1 play 9h")
    assert legal(g) == ["knock", "play Th"]
    with pytest.raises(IllegalAction, match=r"^seat 2 must follow suit \(holds hearts\)$"):
        g.apply(2, "play Kc")
    with pytest.raises(IllegalAction, match=r"^seat 2 does not hold 9c$"):
        g.apply(2, "play 9c")
    ev = play(g, "2 play Th", "3 play Kh", "0 play Jh")
    assert of_kind(ev, E.TRICK)[0][:3] == (E.TRICK, 2, 1)
    assert g.turn == 2 and g.leader == 2 and g.trick == []


def test_a_void_player_plays_any_card_and_an_off_suit_ten_does_not_win() -> None:
    g = game(PLAIN, 4, deck_for(4, 0, VOID2), dealer=0)
    play(g, "1 play 9h")
    assert legal(g) == ["knock", "play Tc", "play Kc", "play Qd", "play 7s"]
    ev = play(g, "2 play Tc", "3 play Kh", "0 play Jh")
    assert of_kind(ev, E.TRICK)[0].seat == 1  # 9h: highest heart; Tc is off-suit
    assert g.turn == 1


def test_knocking_only_on_ones_turn() -> None:
    g = game(PLAIN, 4, deck_for(4, 0, HANDS), dealer=0)
    with pytest.raises(IllegalAction, match=r"seat 2 is not to act \(awaiting seat 1\)"):
        g.apply(2, "knock")
    play(g, "1 play 9h")
    ev = play(g, "2 knock")
    assert ev == [(E.KNOCK, 2, 2, (), "", False)]
    assert g.phase is Phase.ANSWER and g.turn == 3 and g.stake == 2


# -- knocking --------------------------------------------------------------------------


def test_counter_knock_starts_a_new_round_including_stayers_and_the_first_knocker() -> None:
    g = game(PLAIN, 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock")
    assert (g.phase, g.turn, g.stake, legal(g)) == (Phase.ANSWER, 2, 2, ["knock", "stay", "fold"])
    play(g, "2 stay")
    assert g.turn == 3
    ev = play(g, "3 knock")
    assert ev[0][:3] == (E.KNOCK, 3, 3) and g.stake == 3
    order = []
    for _ in range(3):
        order.append(g.turn)
        play(g, f"{g.turn} stay")
    assert order == [0, 1, 2]
    assert g.accepted == [3, 3, 3, 3]
    assert g.phase is Phase.PLAY and g.turn == 1  # the player whose turn it was plays


def test_stay_and_fold_pay_the_last_accepted_stake() -> None:
    g = game(PLAIN, 4, deck_for(4, 0, HANDS), dealer=0)
    ev = play(g, "1 knock", "2 stay", "3 knock", "0 fold", "1 stay", "2 fold")
    folds = [(e.seat, e.value) for e in of_kind(ev, E.FOLD)]
    assert folds == [(0, 1), (2, 2)]
    assert [(e.seat, e.value, e.detail) for e in of_kind(ev, E.LIVES)] == [
        (0, 1, "fold"), (2, 2, "fold")
    ]
    assert g.lives_by_seat() == [4, 5, 3, 5]
    assert g.hand_mask(0) == 0 and g.hand_mask(2) == 0  # their cards leave play
    assert g.phase is Phase.PLAY and g.turn == 1
    g.check_invariants()


def test_no_two_knocks_in_a_row_by_one_player() -> None:
    g = game(PLAIN, 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock", "2 stay", "3 stay", "0 stay")
    assert g.turn == 1 and "knock" not in legal(g)
    with pytest.raises(IllegalAction, match=r"seat 1 may not knock \(made the latest knock\)"):
        g.apply(1, "knock")
    play(g, "1 play 9h", "2 knock")
    assert legal(g) == ["knock", "stay", "fold"]  # seat 3 answers
    play(g, "3 stay", "0 stay")
    assert legal(g) == ["knock", "stay", "fold"]  # seat 1 may knock again after seat 2's knock
    play(g, "1 knock")
    assert g.turn == 2 and legal(g) == ["knock", "stay", "fold"]


def test_knock_limit_lives_at_least_stake() -> None:
    g = game(rules("rulebook", armoede=False, lives=1), 4, deck_for(4, 0, HANDS), dealer=0)
    assert "knock" in legal(g)  # 1 life, stake 1
    play(g, "1 knock")
    assert legal(g) == ["stay", "fold"]
    with pytest.raises(IllegalAction, match=r"^seat 2 may not knock \(lives 1 below stake 2\)$"):
        g.apply(2, "knock")


def test_knock_limit_lives_cover_new_stake() -> None:
    r2 = rules("rulebook", armoede=False, lives=2, knock_limit="lives_cover_new_stake")
    g = game(r2, 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock")  # to 2: covered by 2 lives
    assert legal(g) == ["stay", "fold"]
    with pytest.raises(IllegalAction, match=r"seat 2 may not knock \(new stake 3 exceeds lives 2"):
        g.apply(2, "knock")
    r1 = rules("rulebook", armoede=False, lives=1, knock_limit="lives_cover_new_stake")
    g1 = game(r1, 4, deck_for(4, 0, HANDS), dealer=0)
    assert "knock" not in legal(g1)  # one life never knocks
    with pytest.raises(IllegalAction, match=r"new stake 2 exceeds lives 1"):
        g1.apply(1, "knock")


@pytest.mark.parametrize("preset", ["rulebook", "kroegtoepen"])
def test_knock_limit_none_allows_unlimited_counter_knocks(preset: str) -> None:
    r = rules(preset, armoede=False, lives=1, knock_limit="none")
    g = game(r, 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock", "2 knock", "3 knock", "0 knock", "1 knock", "2 knock")
    assert g.stake == 7 and g.turn == 3 and legal(g) == ["knock", "stay", "fold"]


def test_max_stake_caps_the_knocks() -> None:
    g = game(rules("rulebook", armoede=False, max_stake=3), 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock", "2 knock")
    assert g.stake == 3 and g.turn == 3 and legal(g) == ["stay", "fold"]
    with pytest.raises(IllegalAction, match=r"seat 3 may not knock \(stake is capped at 3\)"):
        g.apply(3, "knock")


def test_first_player_may_not_knock_early_when_the_house_rule_is_off() -> None:
    r = rules("rulebook", armoede=False, first_player_may_knock_early=False)
    g = game(r, 4, deck_for(4, 0, HANDS), dealer=0)
    assert g.turn == 1 and "knock" not in legal(g)
    with pytest.raises(IllegalAction, match="the first player may not knock before the first card"):
        g.apply(1, "knock")
    play(g, "1 play 9h")
    assert "knock" in legal(g)
    play(g, "2 knock")
    assert g.turn == 3
    play(g, "3 stay", "0 stay")
    assert legal(g) == ["knock", "stay", "fold"]  # the leader may counter-knock after the card
    # The default (true) lets the leader knock at once.
    assert "knock" in legal(game(PLAIN, 4, deck_for(4, 0, HANDS), dealer=0))


# -- folding and the trick in progress ---------------------------------------------------


def test_a_folded_players_card_leaves_the_trick_and_the_best_active_card_wins() -> None:
    g = game(PLAIN, 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 play 9h", "2 play Th", "3 knock", "0 stay", "1 stay")
    ev = play(g, "2 fold")
    assert ev[0][:3] == (E.FOLD, 2, 1)
    assert g.trick == [(1, ids("9h")[0])]
    assert g.out_mask() >> ids("Th")[0] & 1
    assert g.phase is Phase.PLAY and g.turn == 3 and g.led == 2
    ev = play(g, "3 play Kh", "0 play Jh")
    assert of_kind(ev, E.TRICK)[0].seat == 1  # 9h, the best heart left among active players
    g.check_invariants()


def test_the_suit_led_stays_when_the_leaders_card_leaves_the_trick() -> None:
    g = game(PLAIN, 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 play 9h", "2 knock", "3 stay", "0 stay", "1 fold")
    assert g.trick == [] and g.turn == 2
    # Hearts were led and stay led: seat 2 holds Th and must follow.
    assert legal(g) == ["play Th"]
    with pytest.raises(IllegalAction, match=r"seat 2 must follow suit \(holds hearts\)"):
        g.apply(2, "play Kc")
    ev = play(g, "2 play Th", "3 play Kh", "0 play Jh")
    assert of_kind(ev, E.TRICK)[0].seat == 2
    g.check_invariants()


def test_trick_goes_to_the_first_played_active_card_when_no_active_card_followed() -> None:
    hands = {1: "9h 8h 7h Ah", 2: "Tc Kc 7s Qd", 3: "Jc 9c As 9d", 0: "Qc Ks 8d Td"}
    g = game(PLAIN, 4, deck_for(4, 0, hands), dealer=0)
    play(g, "1 play 9h", "2 play 7s", "3 play 9c", "0 knock", "1 fold", "2 stay", "3 stay")
    assert g.turn == 0
    assert legal(g) == ["play Qc", "play Td", "play 8d", "play Ks"]  # no hearts: any card
    ev = play(g, "0 play Td")
    assert of_kind(ev, E.TRICK)[0].seat == 2  # 7s was played first among active players
    assert g.turn == 2


def test_a_folded_player_due_to_lead_hands_the_lead_to_the_next_active_on_the_left() -> None:
    g = game(PLAIN, 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock", "2 knock", "3 stay", "0 stay")
    ev = play(g, "1 fold")
    assert ev[0][:3] == (E.FOLD, 1, 2)  # had accepted 2 by knocking
    assert g.phase is Phase.PLAY and g.turn == 2 and g.leader == 2 and g.trick == []
    assert "knock" not in legal(g)  # seat 2 made the latest knock


def test_the_player_whose_turn_it_was_folds_and_the_next_active_plays() -> None:
    g = game(PLAIN, 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 play 9h", "2 knock", "3 knock", "0 stay", "1 stay", "2 fold")
    assert g.phase is Phase.PLAY and g.turn == 3


# -- settlement, all fold, dealer ----------------------------------------------------------


def test_settlement_loses_the_last_trick_taker_pays_the_stake() -> None:
    g = game(PLAIN, 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock", "2 stay", "3 stay", "0 fold")
    ev = finish_hand(g)
    res = of_kind(ev, E.HAND_RESULT)[0]
    assert (res.value, res.detail) == (2, "loses")
    lives = of_kind(ev, E.LIVES)
    assert [(e.seat, e.value, e.detail) for e in lives] == [(res.seat, 2, "stake")]
    assert g.lives_by_seat()[res.seat] == 3 and g.lives_by_seat()[0] == 4


def test_settlement_wins_every_other_active_player_pays_the_stake() -> None:
    r = rules("rulebook", armoede=False, lives=5, last_trick="wins")
    g = game(r, 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock", "2 stay", "3 stay", "0 fold")
    ev = finish_hand(g)
    res = of_kind(ev, E.HAND_RESULT)[0]
    payers = sorted(e.seat for e in of_kind(ev, E.LIVES))
    assert payers == sorted({1, 2, 3} - {res.seat})
    assert all(e.value == 2 for e in of_kind(ev, E.LIVES))
    lives = g.lives_by_seat()
    assert lives[0] == 4 and lives[res.seat] == 5  # seat 0 paid only its fold


@pytest.mark.parametrize(("dealer_rule", "next_dealer"), [("rotate", 1), ("last_trick_winner", 2)])
def test_all_but_one_fold_ends_the_hand_at_once_and_that_player_pays_nothing(
    dealer_rule: str, next_dealer: int
) -> None:
    r = rules("rulebook", armoede=False, lives=5, dealer=dealer_rule)
    g = game(r, 4, deck_for(4, 0, HANDS), deck_for(4, next_dealer, {}), dealer=0)
    ev = play(g, "1 knock", "2 knock", "3 fold", "0 fold", "1 fold")
    assert of_kind(ev, E.HAND_RESULT)[0][:5] == (E.HAND_RESULT, 2, 3, (), "folded")
    assert [e.seat for e in of_kind(ev, E.LIVES)] == [3, 0, 1]
    assert g.lives_by_seat() == [4, 3, 5, 4]
    assert g.hand_no == 2 and g.dealer == next_dealer
    assert g.turn == (next_dealer + 1) % 4


def test_dealer_last_trick_winner_deals_next() -> None:
    r = rules("rulebook", armoede=False, lives=5, dealer="last_trick_winner")
    g = game(r, 4, deck_for(4, 0, HANDS), deck_for(4, 0, {}), deck_for(4, 0, {}), dealer=0)
    ev = finish_hand(g)
    last = of_kind(ev, E.HAND_RESULT)[0].seat
    assert g.dealer == last and g.turn == (last + 1) % 4
    g2 = game(PLAIN, 4, deck_for(4, 0, HANDS), deck_for(4, 1, {}), dealer=0)
    finish_hand(g2)
    assert g2.dealer == 1


# -- pelt --------------------------------------------------------------------------------


def test_pelt_two_players_on_one_life_the_first_from_the_dealers_left_leads() -> None:
    # Classic, lives 2: seats 3 and 0 lose a life each by challenging a clean exchange.
    d = deck_for(4, 0, {2: "Ac Kc Qc Jc", 3: "Ad Kd Qd Jd"})
    g = game(rules("classic", lives=2), 4, d, dealer=0)
    play(g, "1 pass", "2 exchange", "3 challenge")
    play(g, "3 exchange", "0 challenge")
    assert g.lives_by_seat() == [1, 2, 2, 1]
    ev = play(g, "0 pass")
    assert of_kind(ev, E.PELT) == [(E.PELT, 3, 2, (), "", False)]
    assert g.stake == 2 and g.phase is Phase.ANSWER and g.turn == 0
    assert legal(g) == ["stay", "fold"]  # one life: no raise to 3
    ev = play(g, "0 fold")
    assert ev[0][:3] == (E.FOLD, 0, 1)  # pays the base stake 1
    play(g, "1 stay", "2 stay")
    assert g.phase is Phase.PLAY and g.turn == 3 and g.leader == 3
    assert "knock" not in legal(g)  # the pelt player counts as the latest knocker


def test_pelt_counter_knock_and_the_pelt_player_pays_two_when_folding() -> None:
    r = rules("rulebook", pelt=True, lives=2)
    g = game(r, 4, deck_for(4, 0, {2: "Th Kc Qc Jc"}), dealer=0)
    play(g, "1 pass", "2 claim", "3 challenge")  # a false claim: seat 2 drops to 1 life
    ev = play(g, "3 pass", "0 pass")
    assert of_kind(ev, E.PELT)[0].seat == 2 and g.turn == 3
    play(g, "3 knock")
    assert g.stake == 3 and g.turn == 0
    ev = play(g, "0 stay", "1 stay", "2 fold")
    assert of_kind(ev, E.FOLD)[0][:3] == (E.FOLD, 2, 2)
    assert g.lives_by_seat()[2] == -1 and g.eliminated == [2]
    assert g.turn == 3  # the pelt leader folded: the next active player on the left leads


def test_no_pelt_without_the_option() -> None:
    g = game(rules("rulebook", lives=2), 4, deck_for(4, 0, {2: "Th Kc Qc Jc"}), dealer=0)
    ev = play(g, "1 pass", "2 claim", "3 challenge", "3 pass", "0 pass")
    assert not of_kind(ev, E.PELT) and g.phase is Phase.PLAY and g.turn == 1 and g.stake == 1
    assert kinds(ev)[-1] == "pass"
