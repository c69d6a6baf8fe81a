"""One finishing order (issue 22): every consumer of places gives the engine's.

Random sessions of every preset and table size (teams, rubbers and open-ended rubbers
included, and sessions stopped before their end) are played by random bots; then the
engine's ``game.places()``, every seat's ``View.places`` (and its JSON), the record and
``toepen replay --json``, the narration's standings (what the browser and the terminal
show), the terminal's reason for the winner, the accounts' places (ratings), the club's
finishing order (club and tournament standings), the arena's places and the score sheet
kept from the same game's public events must all give the same order. The order itself
is checked against the documented rule (docs/rules.md: the order out; D16 for rubbers).
The browser's standings and score sheet are checked in ``tests/web/test_places_browser.py``.
"""

from __future__ import annotations

import dataclasses

import pytest

from toepen.bots import make_bot
from toepen.engine import Game
from toepen.engine.settle import Place
from toepen.i18n import Translator
from toepen.match import play_game
from toepen.narration import Message, Seat, Seats, standings
from toepen.record import replay, summary, to_record
from toepen.rules import PRESETS, Rules
from toepen.server.site.accounts.results import places as account_places
from toepen.server.site.clubs.routes import finishing_order
from toepen.server.tables.master import history
from toepen.tally import Sheet, entries_from_events
from toepen.tools.arena.schedule import play_session
from toepen.tui.narrate import session_winner_reason
from toepen.view import observe

STOP_AFTER = 14
"""Hands after which an open-ended (or long) session is stopped and ranked as it stands."""


def cases() -> list[tuple[str, int, dict[str, object]]]:
    out: list[tuple[str, int, dict[str, object]]] = []
    for name in PRESETS:
        base = Rules.preset(name)
        for n in base.table_sizes:
            options: dict[str, object] = {"lives": 2}
            if base.session == "rubber":
                options["rubbers"] = 2
            out.append((name, n, options))
    # rubbers with an elimination preset's table, teams with rubbers, open-ended rubbers
    out += [("classic", 3, {"lives": 2, "rubbers": None}),
            ("classic", 5, {"lives": 3, "rubbers": None}),
            ("teams", 4, {"lives": 2, "session": "rubber", "rubbers": 2}),
            ("teams", 6, {"lives": 2, "session": "rubber", "rubbers": None}),
            ("rulebook", 4, {"lives": 2, "session": "rubber", "rubbers": 3}),
            ("kroeg-huisregels", 5, {"lives": 3, "count": "points_up"}),
            ("classic", 4, {"lives": 2, "rubbers": 2, "edge": "plays_dead"})]
    return out


def side_name(p: Place) -> Seat | Seats:
    return Seat(p.seat) if len(p.seats) == 1 else Seats(p.seats)


def documented_order(game: Game) -> list[tuple[int, ...]]:
    """The order docs/rules.md gives, worked out here from the game's own figures."""
    n, team = game.n, game.team_of
    sides: dict[int, tuple[int, ...]] = {}
    for s in range(n):
        sides.setdefault(team[s], ())
        sides[team[s]] += (s,)
    if game.rules.session == "rubber":  # D16 (and, while playing, lives in the rubber)
        def key(t: int) -> tuple[int, ...]:
            low = sides[t][0]
            return (game.drinks[low], -game.rubbers_won[low], -game.pools[t], low)
        return [sides[t] for t in sorted(sides, key=key)]
    gone = [team[s] for s in game.eliminated]
    last_out = {t: max(i for i, x in enumerate(gone) if x == t) for t in set(gone)}
    still = [t for t in sides if t not in last_out]
    if game.winner is not None:
        assert still == [team[game.winner]]
    still.sort(key=lambda t: (-game.pools[t], sides[t][0]))
    out = sorted(last_out, key=lambda t: -last_out[t])  # the last one out first
    return [sides[t] for t in still + out]


@pytest.mark.parametrize(("preset", "n", "options"), cases(),
                         ids=lambda x: str(x) if not isinstance(x, dict) else
                         ",".join(f"{k}={v}" for k, v in x.items()))
def test_every_consumer_gives_the_engines_finishing_order(
        preset: str, n: int, options: dict[str, object]) -> None:
    rules = Rules.preset(preset, **options)  # type: ignore[arg-type]
    t = Translator("en", strict=True)
    for seed in range(3):
        game = Game(rules, n, seed=seed * 7919 + n, dealer=0)
        bots = [make_bot("random", seed=seed * 10 + s) for s in range(n)]
        play_game(game, bots, stop=lambda g: g.hand_no > STOP_AFTER)
        places = game.places()
        order = [p.seats for p in places]
        # the documented rule, and the engine's own winner
        assert order == documented_order(game), (seed, places)
        if game.winner is not None:
            assert game.winner in places[0].seats and places[0].place == 1
        assert [p.place for p in places] == list(range(1, len(places) + 1))
        # every view, every seat and a spectator, and the views' JSON
        for seat in [*range(n), None]:
            view = observe(game, seat)
            assert view.places == places
            assert [Place.from_json(p) for p in view.to_json()["places"]] == list(places)
        # the record (written when over, checked on replay) and replay --json
        rec = to_record(game)
        assert ("places" in rec) is game.is_over
        again = replay(rec)
        assert again.places() == places
        assert summary(again)["places"] == [p.to_json() for p in places]
        # narration's standings: what the terminal and the browser show, line by line
        lines = standings(places, rules, over=game.is_over)
        assert lines[0].id == ("standings.title" if game.is_over else "standings.title_now")
        assert [m.params["name"] for m in lines[1:]] == [side_name(p) for p in places]
        assert [m.params["place"] for m in lines[1:]] == [p.place for p in places]
        for m, p in zip(lines[1:], places, strict=True):
            figures = m.params["figures"]
            assert isinstance(figures, Message)
            if rules.session == "rubber":  # what decides: rounds owed, rubbers won
                assert figures.params["drinks"] == p.drinks
                assert figures.params["rubbers"] == p.rubbers_won
            elif p.out:  # the order out: the hand they went out in
                assert figures.params["hand"] == p.out_hand
            if rules.count == "points_up" and "lives" in p.to_json() and not (
                    rules.session == "rubber" and game.is_over) and not p.out:
                assert "lives" not in figures.params
                assert figures.params["points"] == rules.lives - p.lives
            text = m.render(t, game.players)
            assert text.startswith(f"{p.place}. ")
        # the terminal's reason for the winner names the first place
        reason = session_winner_reason(t, observe(game, 0))
        if game.is_over and rules.session == "rubber":
            assert reason is not None and game.players[places[0].seat] in reason
        # accounts (ratings) and the club's finishing order (club, tournament standings)
        by_seat = account_places(game)
        assert [by_seat[s] for p in places for s in p.seats] == [
            p.place for p in places for _ in p.seats]
        assert finishing_order(game) == [s for p in places for s in p.seats]
        # the arena: the same session played by its schedule
        arena = play_session(rules, [make_bot("random", seed=seed * 10 + s) for s in range(n)],
                             seed * 7919 + n, max_hands=STOP_AFTER)
        assert arena.finished is game.is_over and arena.hands == game.hand_no
        assert [arena.places[s] for p in places for s in p.seats] == [
            float(p.place) for p in places for _ in p.seats]
        # the score sheet kept from the public events of the same game
        sheet = Sheet.new(rules, game.players, dealer=0)
        for entry in entries_from_events(history(game), rules):
            sheet.add(entry)
        assert sheet.places() == places, (sheet.places(), places)
        assert [s.seat for s in sheet.standings()] == [s for p in places for s in p.seats]


def test_a_record_whose_places_the_actions_do_not_give_is_refused() -> None:
    from toepen.record import RecordError

    game = Game(Rules.preset("classic", lives=2, rubbers=1), 4, seed=3, dealer=0)
    play_game(game, [make_bot("random", seed=s) for s in range(4)])
    rec = to_record(game)
    assert replay(rec).places() == game.places()
    old = {k: v for k, v in rec.items() if k != "places"}  # a record before places loads
    assert replay(old).places() == game.places()
    swapped = [dict(p) for p in rec["places"]]
    swapped[0]["seats"], swapped[1]["seats"] = swapped[1]["seats"], swapped[0]["seats"]
    with pytest.raises(RecordError, match=r"^places: the record says 1: seat"):
        replay({**rec, "places": swapped})
    with pytest.raises(RecordError, match=r"^places\[0\]: by: must be one of"):
        replay({**rec, "places": [{**rec["places"][0], "by": "luck"}]})
    # a record cut short (a replay viewer's step) still loads: the places are its end's
    assert not replay({**rec, "actions": rec["actions"][:-1]}).is_over


def test_a_session_level_on_everything_goes_by_the_lower_seat() -> None:
    """D16's last tie-break, said in the line ("level with ...: the lower seat goes first")."""
    game = Game(Rules.preset("classic", lives=2, rubbers=None), 3, seed=1, dealer=0)
    places = game.places()  # nothing played: level on every figure
    assert [p.seats for p in places] == [(0,), (1,), (2,)]
    assert [p.by for p in places] == ["seat", "seat", ""]
    lines = standings(places, game.rules, over=False)
    assert lines[1].id == "standings.row_why"
    assert lines[1].params["why"] == Message("standings.why.seat", {"name": Seat(1)})
    view = dataclasses.replace(observe(game, None), drinks=(1, 0, 0), rubbers_won=(0, 0, 1))
    assert [p.seats for p in view.places] == [(2,), (1,), (0,)]
    assert [p.by for p in view.places] == ["rubbers", "drinks", ""]
