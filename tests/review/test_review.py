"""The review of a game (issue 26, point 3): every decision of a seat valued from what
that seat knew, the biggest mistakes first, with reasons in five languages."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from toepen.bots import make_bot
from toepen.bots.reasons import lives
from toepen.bots.solver import Solver
from toepen.cards import card_str, parse_card
from toepen.engine import Action, Game
from toepen.engine.deck import deck_for
from toepen.i18n import LANGUAGES, Translator
from toepen.match import hand_over, play_game
from toepen.narration import Message
from toepen.record import replay, to_record
from toepen.review import FORMAT, REASON_IDS, Review, ReviewError, points, review
from toepen.rules import Rules
from toepen.view import observe

CARD_CODE = re.compile(r"\b[TJQKA987][cdhs]\b")


def _session(seed: int, players: int = 4, preset: str = "rulebook",
             stop_after_hand: bool = False) -> dict[str, Any]:
    g = Game.new(preset, players, seed=seed)
    play_game(g, [make_bot("heuristic", seed=s) for s in range(players)],
              stop=hand_over(g) if stop_after_hand else None)
    return to_record(g)


# -- no peeking ---------------------------------------------------------------------------


def _unseen_swap(rec: dict[str, Any], seat: int, upto: int) -> dict[str, Any] | None:
    """``rec`` with two cards of two other seats' first hands swapped (same suit, so every
    action stays legal), neither played nor shown in the first ``upto`` actions; cut there."""
    game = replay({**rec, "actions": rec["actions"][:upto]})
    if game.hand_no != 1:
        return None
    view = observe(game, None)
    if view.claimed or view.revealed:
        return None  # a claim shows cards
    hands = game.hand_masks()  # the cards still held: none of them played yet
    others = [s for s in range(game.n) if s != seat]
    for a in others:
        for b in others:
            if a >= b:
                continue
            for ca in range(32):
                for cb in range(32):
                    if (hands[a] >> ca & 1 and hands[b] >> cb & 1 and ca >> 3 == cb >> 3
                            ):
                        deck = list(rec["decks"][0])
                        i, j = deck.index(card_str(ca)), deck.index(card_str(cb))
                        deck[i], deck[j] = deck[j], deck[i]
                        other = copy.deepcopy(rec)
                        other["decks"][0] = deck
                        other["actions"] = rec["actions"][:upto]
                        other.pop("places", None)
                        return other
    return None


def test_a_decision_is_reviewed_alike_when_the_seat_saw_the_same() -> None:
    """Two records whose views for seat 0 agree up to a decision (they differ in cards of
    two other hands that seat 0 never saw by then) give that decision the same review;
    the all-cards mode, which reads every hand, tells them apart."""
    rec = _session(31)
    seat = 0
    pts, _, _ = points(rec, seat)
    # the last card-play decision of seat 0 in the first hand with cards still unseen
    first = [p for p in pts if p.view.hand_no == 1 and str(p.view.phase) == "play"]
    assert first, "seat 0 made no decision of the card play in the first hand"
    checked = 0
    for p in reversed(first):
        other = _unseen_swap(rec, seat, p.index)
        if other is None:
            continue
        cut = {**rec, "actions": rec["actions"][:p.index]}
        cut.pop("places", None)
        ga, gb = replay({**cut, "actions": []}), replay({**other, "actions": []})
        assert ga.hand_masks() != gb.hand_masks()  # the deals differ...
        for move in cut["actions"]:
            assert observe(ga, seat) == observe(gb, seat)  # ...but not for seat 0
            s, _, rest = move.partition(" ")
            ga.apply(int(s), Action.parse(rest))
            gb.apply(int(s), Action.parse(rest))
        ra = review(cut, seat, samples=6, seed=3)
        rb = review(other, seat, samples=6, seed=3)
        assert [d.to_json() for d in ra.decisions] == [d.to_json() for d in rb.decisions]
        assert ra.decisions[-1].index == p.index
        oa = review(cut, seat, samples=6, seed=3, all_cards=True)
        ob = review(other, seat, samples=6, seed=3, all_cards=True)
        if [d.values for d in oa.decisions] != [d.values for d in ob.decisions]:
            checked += 1
            break
    assert checked, "no swap that the all-cards mode can tell apart"


# -- a bad card play in a solved position --------------------------------------------------


def _endgame(y: str) -> dict[str, Any]:
    """Two players, ``last_trick: loses``, no knocking. Seat 1 takes tricks 1 and 2 and leads 9h in
    the third; seat 0 holds Th and 8h. Playing Th takes the trick and then the last one
    with 8h (no higher heart is left): the hand is lost in every deal. 8h keeps it."""
    rules = Rules.preset("no-knock", armoede=False)
    deck = deck_for(2, 1, {0: "Th 8h Jc Qs", 1: f"9h {y} Ac Ks"})
    g = Game(rules, ("Ann", "Bas"), decks=[[parse_card(c) for c in deck]], dealer=1)
    for move in ("0 play Jc", "1 play Ac", "1 play Ks", "0 play Qs", "1 play 9h", "0 play Th"):
        s, _, rest = move.partition(" ")
        g.apply(int(s), Action.parse(rest))
    return to_record(g)


def test_a_bad_card_in_a_solved_position_costs_the_solvers_loss() -> None:
    rec = _endgame("7d")
    for all_cards in (False, True):
        r = review(rec, 0, samples=8, seed=1, all_cards=all_cards)
        worst = next(d for d in r.mistakes() if d.index == 6)  # flagged as a mistake
        assert str(worst.choice) == "play Th"
        assert str(worst.best) == "play 8h"
        # Th: the exact solver says the hand is lost in every deal the seat allows
        assert worst.values[worst.choice] == -1.0 == -worst.stake
        assert worst.reason.id == "review.reason.play"
        assert worst.reason.params["lose"] == lives(100)  # a whole life, in lives
    # with every hand open the position is solved outright: 8h wins, Th loses
    game = replay({**rec, "actions": rec["actions"][:5]})
    solver = Solver(2, 0b01, want_last=False)
    hands = game.hand_masks()
    moves = solver.move_values(hands, game.leader, list(game.trick), 0,
                               [parse_card("Th"), parse_card("8h")], game.trick[0][1] >> 3)
    assert moves == [False, True]
    exact = review(rec, 0, all_cards=True).decisions[-1]
    assert exact.cost == 1.0  # the solver's loss: a whole life at stake 1
    assert exact.values[exact.best] == 0.0
    seat_only = review(rec, 0, samples=8, seed=1).decisions[-1]
    assert 0 < seat_only.cost <= 1.0  # 8h loses only when Bas still holds a heart


# -- the review's shape ---------------------------------------------------------------------


def test_a_whole_session_review_is_consistent() -> None:
    rec = _session(5, players=3)
    r = review(rec, 2, samples=4, seed=0)
    assert r.decisions and r.lives[0] == (0, Rules.preset("rulebook").lives)
    assert r.lives[-1][0] <= len(rec["actions"])
    game = replay(rec)
    assert r.lives[-1][1] == game.lives(2)
    for d in r.decisions:
        legal = set(d.values)
        assert d.choice in legal and d.best in legal
        assert d.cost == pytest.approx(d.values[d.best] - d.values[d.choice])
        assert d.cost >= 0 and all(v <= 1e-9 for v in d.values.values())
        assert rec["actions"][d.index - 1].startswith("2 ")
    costs = [d.cost for d in r.mistakes()]
    assert costs == sorted(costs, reverse=True) and all(c > 0 for c in costs)
    data = json.loads(json.dumps(r.to_json()))
    assert data["format"] == FORMAT and data["mode"] == "seat" and data["seat"] == 2
    assert len(data["decisions"]) == len(r.decisions)
    assert data["mistakes"] == [d.index for d in r.mistakes()]
    # seeded: the same review again
    assert review(rec, 2, samples=4, seed=0).to_json() == r.to_json()


def test_bad_input_is_refused_by_name() -> None:
    rec = _session(2, players=3, stop_after_hand=True)
    with pytest.raises(ReviewError, match="seat: must be a seat from 0 to 2, not 3"):
        review(rec, 3)
    with pytest.raises(ReviewError, match="format"):
        review({**rec, "format": "pgn"}, 0)
    bad = {**rec, "actions": [*rec["actions"][:2], "1 play Th"]}
    with pytest.raises(ReviewError, match="action 3"):
        review(bad, 0)


# -- five languages -------------------------------------------------------------------------


def _reasons() -> dict[str, Message]:
    found: dict[str, Message] = {}
    for seed in range(6):
        r: Review = review(_session(seed, players=3), seed % 3, samples=3, seed=0)
        for d in r.mistakes():
            found.setdefault(d.reason.id, d.reason)
    return found


def test_reviews_in_five_languages() -> None:
    found = _reasons()
    assert {"review.reason.play", "review.reason.knock"} <= set(found)
    names = ("Ann", "Bas", "Cor")
    for lang in LANGUAGES:
        t = Translator(lang, strict=True)
        en = Translator("en", strict=True)
        for ident in REASON_IDS:
            assert t.has(ident), f"{lang} lacks {ident}"
        for msg in found.values():
            text = msg.render(t, names)
            assert "{" not in text and not CARD_CODE.search(text), text
            if lang != "en":
                assert text != msg.render(en, names)


# -- the terminal ---------------------------------------------------------------------------


def test_toepen_review_command(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from toepen.cli import app
    from toepen.record import save

    path = tmp_path / "game.json"
    save(_endgame("7d"), path)
    runner = CliRunner()
    got = runner.invoke(app, ["review", str(path), "--seat", "0", "--json", "--samples", "4"])
    assert got.exit_code == 0, got.output
    data = json.loads(got.stdout)
    assert data["format"] == FORMAT and 6 in data["mistakes"]
    plot = tmp_path / "lives.png"
    for lang, word in (("de", "Analyse von Ann"), ("it", "Analisi di Ann")):
        got = runner.invoke(app, ["review", str(path), "--samples", "4", "--lang", lang,
                                  "--plot", str(plot)])
        assert got.exit_code == 0, got.output
        assert word in got.stdout
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = runner.invoke(app, ["review", str(path), "--seat", "5"])
    assert bad.exit_code == 2 and "seat: must be a seat from 0 to 1, not 5" in bad.stderr
    refused = runner.invoke(app, ["review", str(path), "--plot", str(tmp_path / "x.gif")])
    assert refused.exit_code == 2 and ".png or .svg" in refused.output


def test_every_kind_of_decision_is_reviewed() -> None:
    """Every phase a seat decides in (the house rules' blind round, kans, laundry and their
    challenges; classic's exchange; knock windows out of turn) gets a value for every
    legal action."""
    phases: set[str] = set()
    windows = 0
    for preset, opts, seeds in (
            ("kroeg-huisregels", {"blind_knock": True}, range(1, 2)),
            ("classic", {"knock_anytime": True}, range(2))):
        for seed in seeds:
            g = Game.new(Rules.preset(preset, **opts), 4, seed=seed)
            play_game(g, [make_bot("random", seed=s) for s in range(4)])
            rec = to_record(g)
            for seat in range(4):
                r = review(rec, seat, samples=2)
                for d in r.decisions:
                    assert d.choice in d.values and d.best in d.values
                phases |= {d.phase for d in r.decisions}
                windows += sum(d.window for d in r.decisions)
    assert {"blind", "blind_answer", "claim", "claim_challenge", "kans", "laundry",
            "laundry_challenge", "exchange", "answer", "play"} <= phases, phases
    assert windows > 0


def test_the_buy_ins_of_pot_toepen_are_not_reviewed() -> None:
    """Pot toepen (issue 39): a record with buy-ins is reviewed; its rebuy decisions, a
    matter of money valued in stakes, are not among the decisions."""
    import random as _random

    from toepen.engine import STAY, Game, Phase
    from toepen.record import to_record
    from toepen.review import points
    from toepen.rules import Rules

    for seed in range(30):
        game = Game.new(Rules.preset("rulebook", lives=2, rebuy="any", pot=1), 3, seed=seed)
        rng = _random.Random(seed)
        asked = []
        while not game.is_over:
            if game.phase is Phase.REBUY:
                asked.append((len(game.actions) + 1, game.turn))
                game.apply(game.turn, STAY if len(asked) < 3 else rng.choice(game.legal_actions()))
                continue
            game.apply(game.turn, rng.choice(game.legal_actions()))
        if asked:
            break
    assert asked
    index, seat = asked[0]
    found, lives, end = points(to_record(game), seat)
    assert found and all(p.view.phase != "rebuy" for p in found)
    assert index not in {p.index for p in found}
    assert end.actions == game.actions
