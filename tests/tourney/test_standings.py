"""Standings: points per place under each scheme, the stated tie-breaks, and a tournament
over several rounds with drop-outs and late arrivals (refusals change nothing)."""

from __future__ import annotations

import copy

import pytest

from toepen.rules import Rules
from toepen.server.site.clubs.tournament import ClubRefused, Tournament, check_rules
from toepen.tourney import SCHEMES, TIE_BREAKS, Scheme, standings


def test_schemes_score_places() -> None:
    assert [SCHEMES["beaten"].score(p, 4) for p in range(1, 5)] == [3, 2, 1, 0]
    assert [SCHEMES["beaten"].score(p, 3) for p in range(1, 4)] == [2, 1, 0]
    assert [SCHEMES["ladder"].score(p, 5) for p in range(1, 6)] == [10, 7, 5, 3, 2]
    assert [SCHEMES["winner"].score(p, 4) for p in range(1, 5)] == [1, 0, 0, 0]
    own = Scheme.from_json({"name": "ons", "points": [3, 1]})
    assert own.score(1, 4) == 3 and own.score(3, 4) == 0
    assert Scheme.from_json("ladder") is SCHEMES["ladder"]
    for bad, why in (("nope", "unknown"), ({"points": [1, 2]}, "place above"),
                     ({"points": []}, "1 to 8"), ({"points": [1.5]}, "whole"),
                     ({"points": [True]}, "whole"), (7, "scheme name")):
        with pytest.raises(ValueError, match=why):
            Scheme.from_json(bad)


def test_tie_breaks_points_then_wins_then_opponents_then_shared() -> None:
    assert TIE_BREAKS == ("points", "wins", "opponents")
    s = SCHEMES["beaten"]
    rounds = [
        [("A", "B", "C", "D"), ("E", "F", "G")],
        [("B", "E", "A", "F"), ("C", "D", "G")],
    ]
    rows = {r.player: r for r in standings(rounds, s)}
    # A: 3 + 1 = 4, B: 2 + 3 = 5, E: 2 + 2 = 4, C: 1 + 2 = 3, D: 0 + 1 = 1, F: 1 + 0, G: 0 + 0
    assert (rows["B"].points, rows["A"].points, rows["E"].points) == (5, 4, 4)
    assert rows["B"].place == 1
    # A and E: 4 points and one win each; opponents' points decide
    assert rows["A"].wins == rows["E"].wins == 1
    assert rows["A"].opponents == (5 + 3 + 1) + (5 + 4 + 1)  # B C D, then B E F
    assert rows["E"].opponents == (1 + 0) + (5 + 4 + 1)  # F G, then B A F
    assert rows["A"].place == 2 and rows["E"].place == 3
    # equal on all three: the same place, listed by name
    twins = standings([[("X", "Y", "Z")], [("Y", "X", "Z")]], s, ["W"])
    assert [(r.place, r.player) for r in twins] == [(1, "X"), (1, "Y"), (3, "Z"), (4, "W")]


def doc() -> Tournament:
    return Tournament.new(Rules.preset("rulebook"), "huis", SCHEMES["beaten"], seed=11)


def unchanged(t: Tournament, f: object, why: str) -> None:
    before = copy.deepcopy(t.state)
    with pytest.raises(ClubRefused) as e:
        f()  # type: ignore[operator]
    assert e.value.why == why and e.value.said["id"] == f"web.club.error.{why}"
    assert t.state == before


def test_rounds_with_drop_outs_and_late_arrivals() -> None:
    t = doc()
    for n in ("Ann", "Bas", "Cor", "Dirk", "Els", "Fien"):
        t.register(n)
    unchanged(t, lambda: t.register("ann"), "name_taken")
    r1 = t.draw("cards")
    assert sorted(len(x["seats"]) for x in r1["tables"]) == [3, 3]
    unchanged(t, lambda: t.draw("cards"), "round_open")
    unchanged(t, lambda: t.enter(1, 1, ["Nobody"], "organiser"), "order")
    unchanged(t, lambda: t.enter(1, 3, [], "organiser"), "no_table")
    unchanged(t, lambda: t.enter(2, 1, [], "organiser"), "no_table")
    seated = r1["tables"][0]["seats"][0]
    unchanged(t, lambda: t.drop(seated), "plays_now")
    unchanged(t, lambda: t.finish(), "round_open")
    for i, table in enumerate(r1["tables"], 1):
        t.enter(1, i, [s.upper() for s in table["seats"]], "organiser")
    assert t.rounds[0]["tables"][0]["result"] == r1["tables"][0]["seats"]  # names as drawn
    # Ann leaves, Gijs and Hanna arrive late
    t.drop("Ann")
    unchanged(t, lambda: t.drop("Ann"), "already_dropped")
    unchanged(t, lambda: t.drop("Zed"), "unknown_player")
    t.register("Gijs")
    t.register("Hanna")
    r2 = t.draw("cards")
    names = {s for x in r2["tables"] for s in x["seats"]}
    assert "Ann" not in names and {"Gijs", "Hanna"} <= names and len(names) == 7
    for i, table in enumerate(r2["tables"], 1):
        t.enter(2, i, list(reversed(table["seats"])), "organiser")
    rows = {r.player: r for r in t.standings()}
    assert rows["Ann"].played == 1 and rows["Gijs"].played == 1 and rows["Bas"].played == 2
    assert [p for p in t.players if p["name"] == "Gijs"][0]["from_round"] == 2
    # Ann comes back for round 3
    t.register("Ann")
    r3 = t.draw("cards")
    assert "Ann" in {s for x in r3["tables"] for s in x["seats"]}
    public = t.public()
    assert public["rounds"][2]["complete"] is False and "seed" not in public
    for i, table in enumerate(r3["tables"], 1):
        t.enter(3, i, table["seats"], "organiser")
    t.finish()
    unchanged(t, lambda: t.draw("cards"), "finished")
    unchanged(t, lambda: t.register("Ivo"), "finished")


def test_too_few_players_and_rules_that_cannot_seat_a_tournament() -> None:
    t = doc()
    t.register("Ann")
    t.register("Bas")
    unchanged(t, lambda: t.draw("cards"), "draw")
    unchanged(t, lambda: t.draw("poker"), "mode")
    gezin = Tournament.new(check_rules("gezinstoepen", {}), "gezin", SCHEMES["winner"], 1)
    for n in "ABCDE":
        gezin.register(n)
    unchanged(gezin, lambda: gezin.draw("cards"), "draw")  # 5 at tables of 3 or 4: no
    gezin.register("F")
    assert sorted(len(x["seats"]) for x in gezin.draw("cards")["tables"]) == [3, 3]
    for preset, options, why in (("teams", {}, "teams"), ("nope", {}, "rules"),
                                 ("rulebook", {"lives": "x"}, "rules"),
                                 ("rulebook", {"table_sizes": [2]}, "rules")):
        with pytest.raises(ClubRefused) as e:
            check_rules(preset, options)
        assert e.value.why == why
