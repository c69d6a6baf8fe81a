"""A sheet entered from only the public facts agrees with the engine, life for life.

Bots play whole sessions through the engine; the sheet is fed only what a spectator was
told (``toepen.tally.entries_from_events`` reads public events only), one entry at a time,
and must give the same events (lives, eliminations, rubbers, drinks, Toepkoning, the
winner), hand by hand, and the same final state.
"""

from __future__ import annotations

import pytest

from toepen.engine import EventKind
from toepen.rules import Rules
from toepen.tally import Sheet, entries_from_events

from .helpers import play_session, sheet_events

CASES = [
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
    } <= seen, seen


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
        entries = entries_from_events(played.events)
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
