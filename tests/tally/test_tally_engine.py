"""A sheet entered from only the public facts agrees with the engine, life for life.

Bots play whole sessions through the engine; the sheet is fed only what a spectator was
told (``toepen.tally.entries_from_events`` reads public events only), one entry at a time,
and must give the same events (lives, eliminations, rubbers, drinks, Toepkoning, the
winner), hand by hand, and the same final state.
"""

from __future__ import annotations

from typing import Any

import pytest

from toepen.engine import Event, EventKind, Game, deck_for, parse_move, redact
from toepen.rules import Rules
from toepen.tally import Sheet, entries_from_events

from .helpers import Played, play_session, sheet_events, sheet_of

CASES: list[tuple[str, dict[str, Any], int, range]] = [
    # (preset, options, players, seeds)
    ("rulebook", {"lives": 4}, 4, range(6)),
    ("rulebook", {"lives": 3}, 3, range(3)),
    ("classic", {"lives": 3}, 4, range(5)),
    ("classic", {"lives": 2, "rubbers": 4}, 5, range(2)),
    ("gezinstoepen", {}, 3, range(3)),
    ("kroegtoepen", {"lives": 4}, 4, range(3)),
    ("teams", {"lives": 4}, 4, range(4)),
    ("teams", {"lives": 3}, 6, range(2)),
    ("no-knock", {"lives": 3}, 4, range(2)),
    # common house rules from the rule documents' options
    ("rulebook", {"lives": 5, "knock_limit": "lives_cover_new_stake", "pelt": True}, 4, range(3)),
    ("classic", {"lives": 3, "session": "elimination", "tells": "tens_and_jacks"}, 4, range(3)),
    ("rulebook", {"lives": 5, "max_stake": 4, "dealer": "last_trick_winner",
                  "last_trick": "wins"}, 5, range(3)),
    ("classic", {"lives": 3, "exchange": False, "armoede": True, "rubbers": 2}, 3, range(3)),
    ("kroegtoepen", {"lives": 4, "teams": True, "table_sizes": [4, 6]}, 4, range(2)),
    ("rulebook", {"lives": 3, "armoede": False}, 2, range(3)),
    # bots that bet like people: longer hands, more knocks, Toepkoning in long rubber sessions
    ("rulebook", {"lives": 6, "bot": "heuristic"}, 4, range(3)),
    ("classic", {"lives": 2, "rubbers": 6, "bot": "heuristic"}, 3, range(4)),
    ("teams", {"lives": 5, "bot": "heuristic"}, 4, range(2)),
    # the house rules (docs/rules.md "House rules"), alone and together
    # seed 13: a witte was (the random bots' games since their seeding per decision)
    ("kroeg-huisregels", {"lives": 4}, 4, (*range(6), 13)),
    ("rulebook", {"lives": 3, "double_knock": True, "edge": "no_fold",
                  "dealer": "highest_loser"}, 4, range(4)),
    # seed 5: a jack takes the last trick and the others pay more
    ("classic", {"lives": 3, "jack_last_trick": "others_pay_more", "edge": "plays_dead"},
     4, (*range(4), 5)),
    # seed 16: a jack takes the last trick and wins a life back (rare with random bots)
    ("classic", {"lives": 3, "jack_last_trick": "winner_gains", "count": "points_up"}, 3,
     (0, 1, 2, 3, 16)),
    ("rulebook", {"lives": 4, "four_of_a_kind": True, "three_of_a_kind_draw": True,
                  "four_of_a_kind_penalty": 2}, 4, range(8)),
    ("rulebook", {"lives": 3, "witte_was": True, "vuile_was": True, "laundry_check": "each",
                  "laundry_caught": "plays_open"}, 4, range(4)),
    ("rulebook", {"lives": 3, "witte_was": True, "laundry_check": "first"}, 5, range(4)),
    ("rulebook", {"lives": 4, "armoede": False, "blind_knock": True}, 4, range(4)),
]


def _ids() -> list[str]:
    return [f"{p}-{n}p-" + ",".join(f"{k}={v}" for k, v in o.items()) for p, o, n, _ in CASES]


def test_the_games_cover_what_a_sheet_must_settle() -> None:
    """The sessions above are not trivial: every kind of payment and result occurs."""
    seen: set[str] = set()
    for preset, options, players, seeds in CASES:
        options = dict(options)
        bot = str(options.pop("bot", "random"))
        rules = Rules.preset(preset, **options)
        for seed in seeds:
            for e in sheet_events(play_session(rules, players, seed, bot).events):
                seen.add(e.kind.value + (f":{e.detail}" if e.detail else ""))
    assert {
        "pelt", "redeal", "rubber", "drinks", "toepkoning", "eliminated", "session_result",
        "claim_result:false", "claim_result:genuine", "claim_result:unchallenged",
        "exchange_result:caught", "exchange_result:clean", "exchange_result:unchallenged",
        "hand_result:folded", "hand_result:loses", "hand_result:wins", "lives:fold",
        "lives:stake", "lives:armoede", "lives:exchange", "knock", "stay", "fold",
        "knock:blind", "laundry", "laundry_result:caught", "laundry_result:witte_was",
        "lives:laundry", "jack:others_pay_more", "jack:winner_gains", "life_back:jack",
    } <= seen, seen


def _same(game: Game) -> Sheet:
    """The sheet of a game played so far (by explicit moves) and the engine agree."""
    played = Played(game, redact(game.opening_events(None), None) + _events[id(game)])
    sheet = sheet_of(played)
    assert [e for _, e in sheet.events()] == sheet_events(played.events)
    assert sheet.lives == game.lives_by_seat() and sheet.dealer == game.dealer
    assert sheet.hand_no == game.hand_no and sheet.stake == game.stake
    return sheet


_events: dict[int, list[Event]] = {}


def _play(game: Game, *moves: str) -> None:
    for move in moves:
        seat, act = parse_move(move)
        _events.setdefault(id(game), []).extend(redact(game.apply(seat, act), None))


def test_four_of_a_kind_and_kans_as_the_engine() -> None:
    rules = Rules.preset("rulebook", lives=6, four_of_a_kind=True, three_of_a_kind_draw=True)
    # seat 2 is dealt four nines: it wins the hand at once, the others pay 3, it deals
    deck = deck_for(4, 0, {2: "9c 9d 9h 9s"})
    game = Game(rules, 4, decks=[deck, deck_for(4, 2, {1: "Tc Td Th 7s"}, stock="Ts"),
                                 deck_for(4, 1, {})])
    _events[id(game)] = []
    sheet = _same(game)
    assert sheet.lives == [3, 3, 6, 3] and sheet.dealer == 2
    # hand 2: seat 1 holds three tens and draws the fourth (kans): the same again
    _play(game, "3 pass", "0 pass", "1 pass", "2 pass")  # the claim round
    assert game.phase == "kans"
    _play(game, "1 exchange")
    sheet = _same(game)
    assert str(sheet.entries[-1]) == "1 kans t" and sheet.lives == [0, 3, 3, 0]
    assert sheet.eliminated == [3, 0] == list(game.eliminated)
    # a four of a kind is refused once the hand has begun, and when the rule is off
    s = Sheet.new("rulebook", 3, four_of_a_kind=True)
    s.add("1 knock")
    assert s.refusal("2 four 9").code == "not_now"  # type: ignore[union-attr]
    assert Sheet.new("rulebook", 3).refusal("1 four 9").code == "not_now"  # type: ignore[union-attr]
    assert Sheet.new("rulebook", 3, four_of_a_kind=True).refusal(
        "1 four x").code == "bad_action"  # type: ignore[union-attr]


def test_laundry_checked_by_each_and_the_edge() -> None:
    rules = Rules.preset("rulebook", lives=3, armoede=False, witte_was=True,
                         laundry_check="each", edge="no_fold")
    s = Sheet.new(rules, 4)
    s.add("1 exchange")
    assert s.refusal("2 challenge caught").code == "not_now"  # type: ignore[union-attr]
    s.add("2 check")
    s.add("3 check")
    assert s.refusal("1 unchallenged").code == "not_now"  # type: ignore[union-attr]
    assert s.refusal("2 check").code == "sheet_declared"  # type: ignore[union-attr]
    assert s.refusal("1 shown vuile_was").code == "sheet_bad_outcome"  # type: ignore[union-attr]
    s.add("1 shown caught")  # a bluff: the claimer pays 1 for each checker
    assert s.lives == [3, 1, 3, 3]
    s.add("0 knock")
    # seat 1 accepted 1 and has 1 life left: on the edge it may not fold
    r = s.refusal("1 fold")
    assert r is not None and r.code == "fold_on_edge" and r.params["lives"] == 1
    s.add("1 stay")


def test_blind_knock_before_the_cards_are_seen() -> None:
    s = Sheet.new("rulebook", 4, lives=3, armoede=False, blind_knock=True)
    assert s.phase == "blind"
    s.add("2 blind")
    assert s.stake == 3 and s.turn == 3 and s.phase == "blind_answer"
    assert s.refusal("3 knock").code == "not_now"  # type: ignore[union-attr]
    s.add("3 fold")  # folding to a blind knock costs the 1 accepted
    s.add("0 stay")
    s.add("1 stay")
    assert s.phase == "play" and s.lives == [3, 3, 3, 2]
    assert s.refusal("1 blind").code == "not_now"  # type: ignore[union-attr]
    # a player with too few lives may not knock blind
    low = Sheet.new("rulebook", 2, lives=1, armoede=False, blind_knock=True)
    assert low.refusal("1 blind").code == "blind_knock_lives"  # type: ignore[union-attr]


@pytest.mark.parametrize(("preset", "options", "players", "seeds"), CASES, ids=_ids())
def test_a_sheet_of_the_public_facts_settles_as_the_engine(
    preset: str, options: dict[str, object], players: int, seeds: range
) -> None:
    options = dict(options)
    bot = str(options.pop("bot", "random"))
    rules = Rules.preset(preset, **options)
    for seed in seeds:
        played = play_session(rules, players, seed, bot)
        game = played.game
        assert game.is_over
        sheet = Sheet(rules, game.players, dealer=game.first_dealer)
        entries = entries_from_events(played.events, rules)
        for entry in entries:
            sheet.add(entry)
            # hand by hand, the sheet is where the engine was
        expected = sheet_events(played.events)
        got = [e for _, e in sheet.events()]
        assert got == expected, f"seed {seed}: the sheet's events differ from the engine's"
        assert sheet.is_over and sheet.winner == game.winner
        assert sheet.lives == game.lives_by_seat()
        assert sheet.eliminated == list(game.eliminated)
        assert sheet.drinks == list(game.drinks)
        assert sheet.beers == list(game.beers)
        assert sheet.rubbers_won == list(game.rubbers_won)
        assert sheet.toepkoning == list(game.toepkoning)
        assert sheet.lives_lost == list(game.lives_lost)
        assert sheet.hands_played == game.hands_played
        assert len(sheet.hands()) == game.hand_no
        # every hand's row: what each seat paid in it, from the engine's own events
        paid_by_hand: list[list[int]] = []
        for e in expected:
            if e.kind is EventKind.DEAL:
                paid_by_hand.append([0] * players)
            elif e.kind is EventKind.LIVES:
                paid_by_hand[-1][e.seat] += e.value
        assert [list(r.paid) for r in sheet.hands()] == paid_by_hand
        # the record of the sheet replays to the same sheet
        again = Sheet.from_record(sheet.to_record())
        assert again.to_json() == sheet.to_json()
