"""The sheet refuses what the rules forbid, with a reason, and changes nothing; undo
restores every earlier state exactly; records round-trip and bad ones are refused."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toepen.engine import REFUSAL_CODES
from toepen.record import RecordError, replay
from toepen.rules import Rules
from toepen.tally import (
    ENTRY_VERBS,
    SHEET_REFUSAL_CODES,
    Entry,
    IllegalEntry,
    Sheet,
    english,
    entries_from_events,
)

from .helpers import play_session


def sheet(preset: str = "rulebook", n: int = 4, *entries: str, **options: Any) -> Sheet:
    s = Sheet.new(preset, [f"P{i}" for i in range(n)], **options)
    for e in entries:
        s.add(e)
    return s


def refused(s: Sheet, entry: str) -> tuple[str, dict[str, object]]:
    """Enter a forbidden entry: the refusal's code and params; the sheet must not change."""
    before = json.dumps(s.to_json(), sort_keys=True)
    with pytest.raises(IllegalEntry) as info:
        s.add(entry)
    r = info.value.refusal
    assert s.refusal(entry) == r
    assert json.dumps(s.to_json(), sort_keys=True) == before, f"{entry!r} changed the sheet"
    assert r.code in REFUSAL_CODES + SHEET_REFUSAL_CODES
    assert str(info.value) == english(r) and english(r)
    return r.code, dict(r.params)


def test_knock_limits_are_the_engines() -> None:
    # gezinstoepen: the stake is capped at 2
    s = sheet("gezinstoepen", 3, "1 knock", "2 stay", "0 stay")
    assert refused(s, "2 knock") == ("knock_stake_capped", {"seat": 2, "max_stake": 2})
    # no two knocks in a row by the same player, also after the answers
    assert refused(s, "1 knock")[0] == "knock_own_latest"
    # no-knock: nobody may knock at all
    assert refused(sheet("no-knock"), "0 knock")[0] == "knock_stake_capped"
    # rulebook: lives below the stake
    s = sheet("rulebook", 3, "0 knock", "1 stay", "2 stay", "0 last", lives=2)
    # seat 0 has 0 lives... it is out; the others go on at lives 2
    assert s.eliminated == [0]
    s.add("1 knock")
    s.add("2 knock")
    assert refused(s, "1 knock") == ("knock_lives_below_stake",
                                     {"seat": 1, "lives": 2, "stake": 3})
    # classic: the new stake may not exceed the lives
    s = sheet("classic", 3, "1 knock", "2 knock", "0 stay", "1 stay", lives=3)
    assert refused(s, "0 knock") == (
        "knock_exceeds_lives", {"seat": 0, "new_stake": 4, "lives": 3})


def test_answers_come_in_turn_and_only_after_a_knock() -> None:
    s = sheet("rulebook", 4)
    assert refused(s, "1 fold") == ("not_now", {"seat": 1, "action": "fold", "phase": "play"})
    s.add("1 knock")
    assert s.turn == 2
    assert refused(s, "3 stay") == ("not_your_turn", {"seat": 3, "turn": 2})
    assert refused(s, "1 stay")[0] == "not_your_turn"
    assert refused(s, "0 last") == ("not_now", {"seat": 0, "action": "play", "phase": "answer"})
    s.add("2 fold")
    assert refused(s, "2 knock") == ("folded", {"seat": 2})
    assert refused(s, "2 last") == ("folded", {"seat": 2})
    assert refused(s, "9 stay") == ("no_such_seat", {"seat": 9, "players": 4})
    assert refused(s, "3 toep")[0] == "bad_action"
    assert refused(s, "three stay")[0] == "bad_action"
    assert refused(s, "3 challenge")[0] == "bad_action"
    assert refused(s, "3 stay now")[0] == "bad_action"


def test_declarations_follow_the_round() -> None:
    s = sheet("rulebook", 4)  # dealer 0: the claim round is 1, 2, 3, 0
    s.add("2 claim")
    assert refused(s, "3 claim") == ("not_now", {"seat": 3, "action": "claim",
                                                 "phase": "claim_challenge"})
    assert refused(s, "2 challenge false") == ("sheet_not_opponent", {"seat": 2, "target": 2})
    assert refused(s, "3 challenge clean")[0] == "sheet_bad_outcome"
    assert refused(s, "1 unchallenged")[0] == "not_now"
    assert refused(s, "1 knock")[0] == "not_now"
    s.add("3 challenge false")  # the claim was false: 2 pays, the round goes on after 2
    assert s.lives == [10, 10, 9, 10]
    assert refused(s, "1 claim") == ("sheet_passed", {"seat": 1, "declaration": "armoede"})
    assert refused(s, "2 claim") == ("sheet_declared", {"seat": 2, "declaration": "armoede"})
    s.add("0 claim")
    s.add("0 unchallenged")  # a redeal: claims stay used, the round starts again
    assert s.phase == "claim" and s.hand_no == 1
    assert refused(s, "0 claim")[0] == "sheet_declared"
    s.add("1 claim")
    s.add("2 challenge genuine")  # 2 challenged a poor hand: 2 pays, redeal
    assert s.lives == [10, 10, 8, 10]
    s.add("1 knock")  # play has begun: no more claims
    assert refused(s, "3 claim") == ("not_now", {"seat": 3, "action": "claim",
                                                 "phase": "answer"})
    # teams: a partner is no opponent
    t = sheet("teams", 4, "1 claim")
    assert refused(t, "3 challenge false") == ("sheet_not_opponent", {"seat": 3, "target": 1})
    # classic at 7: the stock holds one exchange only
    c = sheet("classic", 7, "1 exchange", "2 challenge caught")
    assert refused(c, "3 exchange") == ("sheet_stock_short", {"seat": 3})
    # the exchange is not armoede
    assert refused(c, "3 claim")[0] == "not_now"
    assert refused(sheet("rulebook"), "1 exchange")[0] == "not_now"


def test_pelt_opens_at_two_and_the_answers_follow() -> None:
    s = sheet("classic", 3, "1 knock", "2 stay", "0 stay", "2 last", lives=3)
    # last trick wins: 0 and 1 pay 2; 0 and 1 have one life: the first from the
    # dealer's left is on pelt (the dealer is now 2, the taker)
    assert s.lives == [1, 1, 3] and s.dealer == 2
    s.add("1 stay")  # the first fact of play closes the exchange round: pelt
    assert [e.kind.value for _, e in s.events()][-3:] == ["deal", "pelt", "stay"]
    assert s.stake == 2 and s.turn == 2
    assert refused(s, "0 knock")[0] == "not_your_turn"


def test_the_session_over_refuses_everything_and_undo_reopens_it() -> None:
    s = sheet("rulebook", 2, "0 knock", "1 stay", "0 last", lives=2)
    assert s.is_over and s.winner == 1
    assert refused(s, "1 knock") == ("session_over", {"seat": 1, "action": "knock"})
    assert s.legal_entries() == []
    s.undo()
    assert not s.is_over and s.phase == "play" and s.stake == 2


def test_undo_restores_every_state_exactly() -> None:
    rules = Rules.preset("classic", lives=3)
    played = play_session(rules, 4, seed=3)
    entries = entries_from_events(played.events)
    s = Sheet(rules, played.game.players, dealer=played.game.first_dealer)
    states = [json.dumps(s.to_json(), sort_keys=True)]
    for entry in entries:
        s.add(entry)
        states.append(json.dumps(s.to_json(), sort_keys=True))
    assert s.is_over
    for entry in reversed(entries):
        assert str(s.undo()) == entry
        states.pop()
        assert json.dumps(s.to_json(), sort_keys=True) == states[-1]
    assert s.entries == ()
    with pytest.raises(IllegalEntry) as info:
        s.undo()
    assert info.value.refusal.code == "sheet_nothing_to_undo"
    assert str(info.value) == "there is nothing to undo"


@pytest.mark.parametrize(("preset", "n", "lives"), [("rulebook", 4, 3), ("classic", 4, 2),
                                                    ("teams", 4, 3), ("gezinstoepen", 3, 2),
                                                    ("kroeg-huisregels", 4, 3)])
def test_every_refused_entry_changes_nothing_and_legal_ones_are_listed(
    preset: str, n: int, lives: int
) -> None:
    """Along a whole session, every possible entry is either listed as legal (and taken)
    or refused with a known code, leaving the sheet as it was."""
    rules = Rules.preset(preset, lives=lives)
    played = play_session(rules, n, seed=1)
    s = Sheet(rules, played.game.players, dealer=played.game.first_dealer)
    words = ["genuine", "false", "caught", "clean", "maybe", "witte_was", "vuile_was"]
    with_word = {"challenge": words, "shown": words, "four": ["9", "t", "x"],
                 "kans": ["miss", "j", "x"], "last": ["", "Jh"]}
    for entry in entries_from_events(played.events, rules):
        legal = {str(e) for e in s.legal_entries()}
        assert entry in legal
        before = json.dumps(s.to_json(), sort_keys=True)
        for seat in range(-1, n + 1):
            for verb in ENTRY_VERBS:
                for text in ([f"{seat} {verb} {w}".strip() for w in with_word[verb]]
                             if verb in with_word else [f"{seat} {verb}"]):
                    r = s.refusal(text)
                    assert (r is None) == (text in legal), text
                    if r is not None:
                        assert r.code in REFUSAL_CODES + SHEET_REFUSAL_CODES
                        assert english(r)
        assert json.dumps(s.to_json(), sort_keys=True) == before
        s.add(entry)
    assert s.is_over and s.winner == played.game.winner


def test_records_round_trip_and_bad_ones_name_the_fault() -> None:
    s = sheet("classic", 4, "2 exchange", "3 challenge caught", "1 knock", lives=3,
              meta={"place": "De Gouden Leeuw"})
    doc = s.to_record()
    assert doc["kind"] == "sheet" and "decks" not in doc and "actions" not in doc
    assert doc["entries"] == ["2 exchange", "3 challenge caught", "1 knock"]
    again = Sheet.from_record(json.loads(json.dumps(doc)))
    assert again.to_json() == s.to_json() and again.meta == {"place": "De Gouden Leeuw"}
    with pytest.raises(RecordError, match="kind: a score sheet"):
        replay(doc)
    bad = [
        ({**doc, "format": "pgn"}, "format:"),
        ({**doc, "kind": "game"}, "kind: this is the record of a game, not a score sheet"),
        ({**doc, "kind": "tourney"}, "kind: must be 'sheet'"),
        ({**doc, "rules": {"preset": "classic", "lives": 0}}, "rules: option lives"),
        ({**doc, "players": ["A"]}, "players:"),
        ({**doc, "dealer": 7}, "dealer:"),
        ({**doc, "display": "stars"}, "display:"),
        ({**doc, "entries": "1 knock"}, "entries:"),
        ({**doc, "entries": ["1 knock", "1 knock"]}, r"entry 2: seat 1 is not to act"),
        ({**doc, "entries": ["1 toep"]}, "entry 1: seat 1: unknown verb"),
        ({**doc, "meta": []}, "meta:"),
    ]
    for record, message in bad:
        with pytest.raises(RecordError, match=message):
            Sheet.from_record(record)


def test_entries_parse_and_print_one_way() -> None:
    assert Entry.parse("2 Challenge FALSE") == Entry(2, "challenge", "false")
    assert str(Entry(0, "last")) == "0 last"
    assert str(Entry.parse(" 3  knock ")) == "3 knock"


def test_standings_elimination_and_rubbers() -> None:
    s = sheet("rulebook", 3, "0 knock", "1 fold", "2 stay", "0 last", lives=2)
    # 1 paid 1 folding; 0 paid the stake 2 and is out
    assert s.eliminated == [0]
    places = [(p.place, p.seat, p.lives) for p in s.standings()]
    assert places == [(1, 2, 2), (2, 1, 1), (3, 0, 0)]
    r = sheet("classic", 3, "0 knock", "1 stay", "2 stay", "0 last", lives=2)
    # last trick wins: 1 and 2 pay 2: the rubber ends, both owe a round of drinks
    assert r.drinks == [0, 1, 1] and r.rubbers_won == [1, 0, 0] and r.rubber_no == 2
    assert [p.seat for p in r.standings()] == [0, 1, 2]
    assert r.lives == [2, 2, 2]


def test_the_machine_shadows_no_field_of_the_engine() -> None:
    """The sheet's machine is a mixin over the engine's GameCore: a method of its own
    with the name of an engine field would hide that field."""
    import inspect

    from toepen.engine.core import GameCore
    from toepen.tally import _Machine  # noqa: PLC2701 - the test reads the machine's shape

    own = {name for name, _ in inspect.getmembers(_Machine) if name in _Machine.__dict__}
    assert not own & set(GameCore.__slots__)


def test_a_copy_is_independent() -> None:
    s = sheet("classic", 4, "1 knock", lives=3)
    twin = s.copy()
    twin.add("2 stay")
    assert len(s.entries) == 1 and len(twin.entries) == 2
    assert s.turn == 2 and twin.turn == 3
    s.undo()
    assert twin.to_json()["entries"] == ["1 knock", "2 stay"]


def test_the_sheets_rank_letters_are_the_cards_own() -> None:
    """The browser's rank letters (``rank.letter.<r>`` in the catalogs) are cards.LOCAL_RANKS,
    the one home of localised ranks, in every language: two copies may not drift apart."""
    from toepen.cards import LOCAL_RANKS, RANKS
    from toepen.i18n import LANGUAGES, catalog

    for lang in LANGUAGES:
        messages = catalog(lang)
        for rank, letter in zip(RANKS, LOCAL_RANKS[lang], strict=True):
            assert messages[f"rank.letter.{rank.lower()}"] == letter, (lang, rank)
