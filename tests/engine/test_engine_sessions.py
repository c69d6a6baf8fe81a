"""Elimination, sessions, rubbers, Toepkoning, teams, variants and Rules validation."""

from __future__ import annotations

from typing import Any

import pytest

from toepen.engine import EventKind, Game, IllegalAction, Phase
from toepen.record import summary
from toepen.rules import Rules, RulesError

from .helpers import deck_for, finish_hand, game, kinds, legal, of_kind, play, rules

E = EventKind
HIGH1 = {1: "Th 9h 8h 7h", 0: "Ah Kh Qh Jh"}  # seat 1 takes every trick
HANDS = {1: "9h Ac 8s Jd", 2: "Th Kc 7s Qd", 3: "Kh Jc As 9d", 0: "Jh Qc Ks 8d"}


# -- elimination and the session winner ----------------------------------------------------


def test_heads_up_last_trick_taker_is_eliminated_and_the_other_wins() -> None:
    g = game(rules("rulebook", armoede=False, lives=1), 2, deck_for(2, 0, HIGH1), dealer=0)
    ev = finish_hand(g)
    assert kinds(ev)[-4:] == ["hand_result", "lives", "eliminated", "session_result"]
    assert of_kind(ev, E.ELIMINATED)[0].seat == 1
    assert g.winner == 0 and g.phase is Phase.OVER and g.turn == -1 and g.legal_actions() == ()
    assert g.eliminated == [1] and g.lives_by_seat() == [1, 0]
    with pytest.raises(IllegalAction, match="the session is over"):
        g.apply(0, "play Ah")


def test_a_fold_that_puts_the_last_but_one_out_still_ends_the_hand_with_its_result() -> None:
    g = game(rules("rulebook", armoede=False, lives=1), 2, deck_for(2, 0, HIGH1), dealer=0)
    ev = play(g, "1 knock", "0 fold")
    assert kinds(ev) == ["knock", "fold", "lives", "eliminated", "hand_result",
                         "session_result"]
    assert of_kind(ev, E.HAND_RESULT)[0][:5] == (E.HAND_RESULT, 1, 2, (), "folded")
    assert g.winner == 1 and g.hands_played == 1 and list(g.hands_won) == [0, 1]


def test_a_lost_challenge_that_ends_the_session_ends_the_hand_with_its_result() -> None:
    g = game(rules("rulebook", lives=1), 2, deck_for(2, 0, {1: "Th Kc Qc Jc"}), dealer=0)
    ev = play(g, "1 claim", "0 challenge")
    assert kinds(ev)[-5:] == ["claim_result", "lives", "eliminated", "hand_result",
                              "session_result"]
    assert of_kind(ev, E.HAND_RESULT)[0][:5] == (E.HAND_RESULT, 0, 1, (), "last_left")
    assert g.winner == 0 and g.hands_played == 1


def test_a_false_claimer_on_his_last_life_leaves_the_hand_at_once() -> None:
    g = game(rules("rulebook", lives=1), 3, deck_for(3, 0, {1: "Th Kc Qc Jc"}), dealer=0)
    ev = play(g, "1 claim", "2 challenge")
    assert kinds(ev)[-2:] == ["lives", "eliminated"]
    assert g.hand_mask(1) == 0 and g.eliminated == [1] and g.phase is Phase.CLAIM and g.turn == 2
    play(g, "2 pass", "0 pass")
    assert g.phase is Phase.PLAY and g.turn == 2  # seat 1 is out: seat 2 leads
    g.check_invariants()


def test_a_challenger_eliminated_by_a_genuine_claim_is_not_dealt_in_the_redeal() -> None:
    d1 = deck_for(3, 0, {1: "Ac Kc Qc Jc"})
    g = game(rules("rulebook", lives=1), 3, d1, deck_for(3, 0, {}, in_session=[0, 1]), dealer=0)
    ev = play(g, "1 claim", "2 challenge")
    assert of_kind(ev, E.ELIMINATED)[0].seat == 2 and of_kind(ev, E.REDEAL)
    assert g.hand_mask(2) == 0 and bin(g.hand_mask(0)).count("1") == 4
    assert g.turn == 0  # seat 1 has claimed; seat 2 is out
    assert g.stock_size == 24


def test_wins_settlement_can_eliminate_several_but_the_last_trick_taker_survives() -> None:
    r = rules("rulebook", armoede=False, lives=1, last_trick="wins")
    g = game(r, 3, deck_for(3, 0, {1: "Th 9h 8h 7h", 2: "Ah Kh Qh Jh"}), dealer=0)
    ev = finish_hand(g)
    assert [e.seat for e in of_kind(ev, E.ELIMINATED)] == [2, 0]
    assert g.winner == 1 and not of_kind(ev, E.SUDDEN_DEATH)


def test_break_tie_sudden_death_between_players_eliminated_in_the_same_hand() -> None:
    """rules.md: everyone left eliminated in one hand: most lives before it wins; tie:
    sudden death. Every payment is made by one side at a time and the session ends as
    soon as one side is left (the ``wins`` settlement never charges the last-trick
    taker), so play cannot reach this; the tie-break is driven directly."""
    g = game(rules("rulebook", armoede=False, lives=3), 3, deck_for(3, 0, {}), dealer=0)
    # As if seat 0 went out in an earlier hand, and seats 1 and 2 (3 lives each before
    # this hand) both dropped out in this one.
    g._pools = [-1, -1, 0]
    g._in_session = 0
    g._eliminated = [0, 1, 2]
    g._lives_before = [-1, 3, 3]
    g._ev = []
    g._break_tie()
    assert g.sudden_death and g.in_session == 0b110 and g.pools[1:] == [1, 1]
    assert g.eliminated == [0] and g.phase is Phase.DEAL
    assert g._ev[-1][:3] == (E.SUDDEN_DEATH, -1, 0b110)
    # One most-lives player wins outright.
    g2 = game(rules("rulebook", armoede=False, lives=3), 3, deck_for(3, 0, {}), dealer=0)
    g2._pools = [-1, -1, -2]
    g2._in_session = 0
    g2._eliminated = [0, 1, 2]
    g2._lives_before = [-1, 3, 2]
    g2._break_tie()
    assert g2.winner == 1 and g2.phase is Phase.OVER


# -- rubbers, drinks, Toepkoning -------------------------------------------------------------

RUBBER = rules("rulebook", session="rubber", lives=1)


def test_a_player_at_zero_who_has_not_folded_plays_the_hand_out_then_the_rubber_ends() -> None:
    g = game(RUBBER, 3, deck_for(3, 0, {1: "Th Kc Qc Jc"}), deck_for(3, 1, {}), dealer=0)
    play(g, "1 claim", "2 challenge")
    assert g.lives_by_seat() == [1, 0, 1] and g.eliminated == [] and g.active == 0b111
    play(g, "2 pass", "0 pass")
    assert g.turn == 1 and "knock" not in legal(g)  # 0 lives: below the stake
    ev = finish_hand(g)
    rubber = of_kind(ev, E.RUBBER)
    assert len(rubber) == 1 and rubber[0].value == 1
    broke = {s for s, lives in enumerate([1, 0, 1]) if lives <= 0}
    last = of_kind(ev, E.HAND_RESULT)[0].seat
    broke.add(last)
    assert {e.seat for e in of_kind(ev, E.DRINKS)} == broke
    assert g.drinks == [1 if s in broke else 0 for s in range(3)]
    assert g.lives_by_seat() == [1, 1, 1] and g.rubber_no == 2 and g.hand_no == 2
    assert g.winner is None and g.phase is Phase.CLAIM


def test_the_rubbers_count_ends_the_session() -> None:
    r = rules("rulebook", session="rubber", lives=1, rubbers=1, armoede=False)
    g = game(r, 2, deck_for(2, 0, HIGH1), dealer=0)
    ev = finish_hand(g)
    assert kinds(ev)[-1] == "session_result"
    assert g.winner == 0 and g.drinks == [0, 1] and g.rubbers_won == [1, 0]
    assert g.phase is Phase.OVER


def test_toepkoning_after_three_rubbers_won_in_a_row_and_drinks_tally() -> None:
    r = rules("rulebook", session="rubber", lives=1, rubbers=3, armoede=False)
    decks = [deck_for(2, d, HIGH1) for d in (0, 1, 0)]
    g = game(r, 2, *decks, dealer=0)
    events = []
    for _ in range(3):
        events += finish_hand(g)
    assert [e.value for e in of_kind(events, E.RUBBER)] == [1, 2, 3]
    assert [e.seat for e in of_kind(events, E.RUBBER)] == [0, 0, 0]
    assert [(e.seat, e.value) for e in of_kind(events, E.DRINKS)] == [(1, 1), (1, 2), (1, 3)]
    assert [(e.seat, e.value) for e in of_kind(events, E.TOEPKONING)] == [(0, 3)]
    assert g.toepkoning == [0] and g.rubbers_won == [3, 0] and g.drinks == [0, 3]
    assert g.winner == 0 and g.phase is Phase.OVER
    assert summary(g)["drinks"] == [0, 3] and summary(g)["rubber"] == 3


# -- teams -------------------------------------------------------------------------------------

TEAMS = rules("teams", armoede=False)


def test_teams_share_a_pool_and_the_knock_limit_reads_it() -> None:
    g = game(TEAMS.replace(lives=2), 4, deck_for(4, 3, {}), dealer=3)
    assert g.team_of == (0, 1, 0, 1) and g.partner(0) == 2
    play(g, "0 knock", "1 fold")
    assert g.lives_by_seat() == [2, 1, 2, 1] and g.lives_lost[1] == 1 and g.lives_lost[3] == 0
    play(g, "2 stay")
    assert legal(g) == ["stay", "fold"]  # seat 3 lost nothing, but its pair's pool is 1
    with pytest.raises(IllegalAction, match=r"seat 3 may not knock \(lives 1 below stake 2\)"):
        g.apply(3, "knock")


@pytest.mark.parametrize(("folder", "out", "winner"), [(1, [1, 3], 0), (2, [0, 2], 1)])
def test_a_pair_is_out_when_its_pool_is_empty_and_the_lower_seat_wins(
    folder: int, out: list[int], winner: int
) -> None:
    g = game(TEAMS.replace(lives=1), 4, deck_for(4, 3, {}), dealer=3)
    moves = ["0 knock"] + [f"{s} {'fold' if s == folder else 'stay'}" for s in (1, 2)]
    ev = play(g, *moves[: 1 + folder])
    assert sorted(e.seat for e in of_kind(ev, E.ELIMINATED)) == out
    assert g.winner == winner and g.phase is Phase.OVER


def test_teams_a_pair_pays_once_at_settlement() -> None:
    g = game(TEAMS.replace(lives=5, last_trick="wins"), 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock", "2 stay", "3 stay", "0 stay")
    ev = finish_hand(g)
    last = of_kind(ev, E.HAND_RESULT)[0].seat
    pays = of_kind(ev, E.LIVES)
    assert len(pays) == 1 and pays[0].value == 2 and g.team_of[pays[0].seat] != g.team_of[last]
    lives = g.lives_by_seat()
    assert lives[last] == 5 and sorted(lives) == [3, 3, 5, 5]


def test_teams_hand_ends_when_one_pair_is_left_and_six_seat_partners() -> None:
    g = game(TEAMS.replace(lives=5), 4, deck_for(4, 0, HANDS), deck_for(4, 1, {}), dealer=0)
    ev = play(g, "1 knock", "2 fold", "3 stay", "0 fold")
    res = of_kind(ev, E.HAND_RESULT)[0]
    assert res.detail == "folded" and g.team_of[res.seat] == 1
    assert g.hand_no == 2
    g6 = Game(rules("teams"), 6, seed=1)
    assert g6.team_of == (0, 1, 2, 0, 1, 2) and g6.partner(4) == 1 and len(g6.pools) == 3


# -- variants --------------------------------------------------------------------------------


def test_kroegtoepen_counts_a_round_of_beer_per_life_lost() -> None:
    r = rules("kroegtoepen", armoede=False)
    g = game(r, 4, deck_for(4, 0, HANDS), dealer=0)
    play(g, "1 knock", "2 knock", "3 fold", "0 stay", "1 stay")
    ev = finish_hand(g)
    assert g.beers == g.lives_lost and sum(g.beers) == 10 * 4 - sum(g.lives_by_seat())
    assert g.beers[3] == 1 and sum(g.beers) == 1 + 3
    assert summary(g)["beers"] == g.beers
    assert of_kind(ev, E.HAND_RESULT)


def test_gezinstoepen_caps_the_stake_at_two_with_five_lives_for_three_or_four() -> None:
    r = rules("gezinstoepen", armoede=False)
    assert r.lives == 5 and r.allowed_table_sizes() == (3, 4)
    g = game(r, 3, deck_for(3, 0, {}), dealer=0)
    assert g.lives_by_seat() == [5, 5, 5]
    play(g, "1 knock")
    assert legal(g) == ["stay", "fold"]
    with pytest.raises(IllegalAction, match=r"stake is capped at 2"):
        g.apply(2, "knock")
    with pytest.raises(RulesError, match="gezinstoepen is played by 3 or 4 players, not 6"):
        Game(rules("gezinstoepen"), 6, seed=1)


def test_no_knock_never_offers_a_knock() -> None:
    g = game(rules("no-knock", armoede=False), 4, deck_for(4, 0, HANDS), dealer=0)
    with pytest.raises(IllegalAction, match=r"seat 1 may not knock \(stake is capped at 1\)"):
        g.apply(1, "knock")
    while g.hand_no == 1:
        assert "knock" not in legal(g)
        play(g, f"{g.turn} {legal(g)[0]}")
    assert g.lives_by_seat().count(9) == 1


# -- Rules validation --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "options", "message"),
    [
        ("rulebook", {"lives": 0}, "option lives: must be an integer from 1 to 99, not 0"),
        ("rulebook", {"lives": "10"}, "option lives: must be an integer from 1 to 99, not '10'"),
        ("rulebook", {"lives": True}, "option lives: must be an integer from 1 to 99, not True"),
        ("rulebook", {"colour": "red"}, "option colour: unknown option"),
        ("poker", {}, "option preset: unknown preset 'poker'"),
        ("rulebook", {"last_trick": "maybe"}, "option last_trick: must be one of loses, wins"),
        ("rulebook", {"dealer": "youngest"}, "option dealer: must be one of rotate"),
        ("rulebook", {"knock_limit": 3}, "option knock_limit: must be one of"),
        ("rulebook", {"tells": "aces"}, "option tells: must be one of off, tens, tens_and_jacks"),
        ("rulebook", {"session": "forever"}, "option session: must be one of elimination"),
        ("rulebook", {"armoede": "yes"}, "option armoede: must be true or false"),
        ("rulebook", {"pelt": 1}, "option pelt: must be true or false"),
        ("rulebook", {"max_stake": 0},
         "option max_stake: must be null or an integer from 1 to 99, not 0"),
        ("rulebook", {"rubbers": 0},
         "option rubbers: must be null or an integer from 1 to 99, not 0"),
        ("rulebook", {"exchange": True}, "option exchange: cannot be combined with armoede"),
        ("classic", {"max_stake": 1}, "option pelt: opens the hand at stake 2, but max_stake is 1"),
        ("rulebook", {"table_sizes": [1, 2]}, "option table_sizes: must be a list of player"),
        ("teams", {"table_sizes": [3, 5]}, "option teams: needs 4 or 6 players"),
    ],
)
def test_rules_validation_names_the_option(
    preset: str, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        Rules.preset(preset, **options)


@pytest.mark.parametrize(
    ("preset", "players", "message"),
    [
        ("teams", 5, "option teams: needs 4 or 6 players, not 5"),
        ("teams", 8, "option teams: needs 4 or 6 players, not 8"),
        ("gezinstoepen", 6, "option table_sizes: gezinstoepen is played by 3 or 4 players, not 6"),
        ("rulebook", 9, "option table_sizes: rulebook is played by 2 to 8 players, not 9"),
        ("rulebook", 1, "option table_sizes: rulebook is played by 2 to 8 players, not 1"),
    ],
)
def test_table_sizes_are_checked(preset: str, players: int, message: str) -> None:
    with pytest.raises(RulesError, match="^" + message + "$"):
        Rules.preset(preset).check_table(players)
    with pytest.raises(RulesError, match="^" + message + "$"):
        Game(Rules.preset(preset), players, seed=1)


def test_presets_match_the_table_of_rules_md() -> None:
    classic = Rules.preset("classic")
    assert (classic.last_trick, classic.dealer, classic.knock_limit) == (
        "wins", "last_trick_winner", "lives_cover_new_stake"
    )
    assert (classic.armoede, classic.exchange, classic.pelt, classic.tells, classic.session) == (
        False, True, True, "tens", "rubber"
    )
    rb = Rules.preset("rulebook")
    assert (rb.lives, rb.last_trick, rb.dealer, rb.knock_limit, rb.max_stake) == (
        10, "loses", "rotate", "lives_at_least_stake", None
    )
    assert (rb.first_player_may_knock_early, rb.armoede, rb.exchange, rb.tells, rb.pelt) == (
        True, True, False, "off", False
    )
    assert (rb.session, rb.teams) == ("elimination", False)
    assert Rules.preset("kroegtoepen").knock_limit == "none"
    assert Rules.preset("no-knock").max_stake == 1
    assert Rules.preset("teams").allowed_table_sizes() == (4, 6)
    combo = Rules.preset("classic", lives=15)
    assert combo.to_json() == {"preset": "classic", "lives": 15}
    assert Rules.from_json(combo.to_json()) == combo
    assert Rules.from_json("rulebook") == rb
    with pytest.raises(RulesError, match="option lives"):
        Rules.from_json({"preset": "classic", "lives": -3})


def test_replace_takes_table_sizes_as_a_list_like_preset_does() -> None:
    assert Rules.preset("rulebook").replace(table_sizes=[3, 4]).table_sizes == (3, 4)
    assert Rules.preset("rulebook", table_sizes=[3, 4]).allowed_table_sizes() == (3, 4)
    with pytest.raises(RulesError, match="^option colour: unknown option$"):
        Rules.preset("rulebook").replace(colour="red")
    with pytest.raises(RulesError, match="^option lives: must be an integer from 1 to 99, not -2$"):
        Rules.preset("rulebook").replace(lives=-2)
