"""Property tests over random games of every preset and every allowed table size."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toepen.cards import FULL_MASK, parse_card
from toepen.engine import (
    CHALLENGE,
    CLAIM,
    EXCHANGE,
    FOLD,
    KNOCK,
    NUM_ACTIONS,
    PASS,
    STAY,
    Event,
    EventKind,
    Game,
    IllegalAction,
    Phase,
    redact,
)
from toepen.record import replay, to_record
from toepen.rules import HOUSE_RULES, Rules, RulesError
from toepen.view import observe

from .helpers import snapshot

E = EventKind
CONFIGS = [
    (name, n) for name in Rules.preset_names() for n in Rules.preset(name).allowed_table_sizes()
    if not any(getattr(Rules.preset(name), h) != getattr(Rules(), h) for h in HOUSE_RULES)
]  # the house rules' presets are checked by test_engine_house_rules.py
EXTRAS: list[dict[str, Any]] = [
    {},
    {"tells": "tens_and_jacks"},
    {"first_player_may_knock_early": False},
    {"last_trick": "wins"},
    {"dealer": "last_trick_winner"},
    {"pelt": True},
    {"max_stake": 3},
    {"armoede": False, "exchange": True},
    {"knock_limit": "lives_cover_new_stake"},
    {"session": "rubber", "rubbers": 2},
    {"session": "elimination"},
    {"knock_limit": "none"},
]
MAX_STEPS = 400


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int]:
    name, n = draw(st.sampled_from(CONFIGS))
    extra = dict(draw(st.sampled_from(EXTRAS)))
    extra["lives"] = draw(st.integers(1, 4))
    try:
        rules = Rules.preset(name, **extra)
    except RulesError:
        assume(False)
        raise
    return rules, n


FAST = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def test_every_preset_and_size_is_covered() -> None:
    assert len(CONFIGS) == 7 * 4 + 2 + 2  # rulebook, classic, kroeg, no-knock: 2..8
    assert ("teams", 6) in CONFIGS and ("gezinstoepen", 3) in CONFIGS


def _visible(game: Game, seat: int | None) -> set[int]:
    """Cards ``seat`` may know: its hand, cards played this deal, hands shown by challenges."""
    seen = {c for _, c, _ in game.plays}
    for _, mask, _ in game.revealed:
        seen |= {c for c in range(32) if mask >> c & 1}
    if seat is not None:
        seen |= {c for c in range(32) if game.hand_mask(seat) >> c & 1}
    return seen


def _card_tokens(data: Any) -> set[int]:
    """Every card named anywhere in a JSON value (tokens of its strings)."""
    out: set[int] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            out |= _card_tokens(k) | _card_tokens(v)
    elif isinstance(data, list | tuple):
        for v in data:
            out |= _card_tokens(v)
    elif isinstance(data, str):
        for token in data.split():
            if len(token) in (2, 3) and token[-1] in "cdhs" and token[:-1] in (
                "T", "9", "8", "7", "A", "K", "Q", "J", "10"
            ):
                out.add(parse_card(token))
    return out


def _check_views(game: Game, events: list[Event]) -> None:
    for seat in [*range(game.n), None]:
        view = observe(game, seat)
        named = _card_tokens(view.to_json())
        leaked = named - _visible(game, seat)
        assert not leaked, f"seat {seat} sees {sorted(leaked)}"
        if seat is not None:
            assert set(view.hand) == {c for c in range(32) if game.hand_mask(seat) >> c & 1}
            assert view.legal == game.legal(seat)
        for e in redact(events, seat):
            if e.cards:
                assert e.kind in (E.PLAY, E.REVEAL) or e.seat == seat, (seat, e)


class _Model:
    """What rules.md says decides the legal actions, tricks and payments, rebuilt from
    the public events only (and checked against them as they come)."""

    def __init__(self, game: Game) -> None:
        self.team_of = game.team_of
        self.rules = game.rules
        self.reset()

    def reset(self) -> None:
        self.led: int | None = None
        self.any_played = False
        self.last_knocker = -1
        self.stake = 1
        self.trick: list[tuple[int, int]] = []
        self.accepted: dict[int, int] = {}
        self.active: set[int] = set()
        self.last_trick = -1

    def see(self, events: list[Event]) -> None:
        payers: list[tuple[int, int]] = []
        settled: Event | None = None
        stake, active = 0, set()
        challenger = target = -1
        high = False
        payer = -1
        for e in events:
            if e.kind in (E.DEAL, E.REDEAL):
                self.reset()
            elif e.kind is E.HAND:
                self.active.add(e.seat)
                self.accepted[e.seat] = 1
            elif e.kind in (E.KNOCK, E.PELT):
                self.stake, self.last_knocker = e.value, e.seat
                self.accepted[e.seat] = e.value
            elif e.kind is E.STAY:
                assert e.value == self.stake
                self.accepted[e.seat] = e.value
            elif e.kind is E.FOLD:
                assert e.value == self.accepted[e.seat], "a fold pays the last accepted stake"
                self._leave(e.seat)
            elif e.kind is E.ELIMINATED:
                self._leave(e.seat)
            elif e.kind is E.PLAY:
                self.any_played = True
                if self.led is None:
                    self.led = e.cards[0] // 8
                self.trick.append((e.seat, e.cards[0]))
            elif e.kind is E.TRICK:
                followed = [(c, s) for s, c in self.trick if c // 8 == self.led]
                want = min(followed)[1] if followed else self.trick[0][0]
                assert e.seat == want, f"trick to {e.seat}, rules.md says {want}"
                self.led, self.trick, self.last_trick = None, [], e.seat
            elif e.kind is E.HAND_RESULT:
                assert e.value == self.stake
                if e.detail in ("folded", "last_left"):  # the one side left in the hand
                    assert {self.team_of[s] for s in self.active} == {self.team_of[e.seat]}
                else:
                    assert e.seat == self.last_trick
                    settled = e
                    stake, active = self.stake, set(self.active)
            elif e.kind is E.LIVES and e.detail == "stake":
                payers.append((e.seat, e.value))
            elif e.kind is E.CHALLENGE:
                challenger, target = e.seat, e.value
            elif e.kind is E.REVEAL:
                assert e.seat == target
                high = any(c % 8 < 4 for c in e.cards)  # a 7, 8, 9 or ten
            elif e.kind is E.CLAIM_RESULT and e.detail != "unchallenged":
                assert e.detail == ("false" if high else "genuine")
                payer = target if high else challenger
            elif e.kind is E.EXCHANGE_RESULT and e.detail != "unchallenged":
                assert e.detail == ("caught" if high else "clean")
                payer = target if high else challenger
            elif e.kind is E.LIVES and e.detail in ("armoede", "exchange"):
                assert (e.seat, e.value) == (payer, 1), "a challenge costs the loser 1"
        if settled is not None:
            last = settled.seat
            if self.rules.last_trick == "loses":
                want = [(last, stake)]
            else:
                n = len(self.team_of)
                want, teams = [], {self.team_of[last]}
                for s in ((last + i) % n for i in range(1, n)):
                    if s in active and self.team_of[s] not in teams:
                        teams.add(self.team_of[s])
                        want.append((s, stake))
            assert payers == want, f"settlement {payers}, rules.md says {want}"

    def _leave(self, seat: int) -> None:
        self.active.discard(seat)
        self.trick = [(s, c) for s, c in self.trick if s != seat]

    def legal(self, game: Game, pools: list[int]) -> set[int]:
        """The legal actions of the seat to act, straight from rules.md."""
        rules, seat, phase = game.rules, game.turn, game.phase
        if phase is Phase.CLAIM:
            return {CLAIM, PASS}
        if phase is Phase.EXCHANGE:
            return {EXCHANGE, PASS}
        if phase in (Phase.CLAIM_CHALLENGE, Phase.EXCHANGE_CHALLENGE):
            return {CHALLENGE, PASS}
        lives = pools[game.team_of[seat]]
        new = self.stake + 1
        may = seat != self.last_knocker and (rules.max_stake is None or new <= rules.max_stake)
        if rules.knock_limit == "lives_at_least_stake":
            may = may and lives >= self.stake
        elif rules.knock_limit == "lives_cover_new_stake":
            may = may and new <= lives
        if not rules.first_player_may_knock_early and not self.any_played:
            may = may and seat != game.leader
        knock = {KNOCK} if may else set()
        if phase is Phase.ANSWER:
            return {STAY, FOLD} | knock
        assert phase is Phase.PLAY
        hand = [c for c in range(32) if game.hand_mask(seat) >> c & 1]
        follow = [c for c in hand if self.led is not None and c // 8 == self.led]
        return set(follow or hand) | knock


def _play_checked(rules: Rules, n: int, seed: int, choice_seed: int) -> Game:
    game = Game(rules, n, seed=seed, dealer=seed % n)
    pick = random.Random(choice_seed)
    expected = list(game.pools)
    lost = [0] * n
    model = _Model(game)
    model.see(game.opening_events(omniscient=True))
    _check_views(game, game.opening_events(omniscient=True))
    for _ in range(MAX_STEPS):
        if game.turn < 0:
            break
        acts = game.legal_actions()
        assert acts, "a seat to act has a legal action"
        assert len(set(acts)) == len(acts)
        assert set(acts) == model.legal(game, expected), (game.phase, game.turn)
        events = game.apply(game.turn, pick.choice(acts))
        model.see(events)
        for e in events:
            if e.kind is E.LIVES:
                assert e.value > 0
                expected[game.team_of[e.seat]] -= e.value
                lost[e.seat] += e.value
            elif e.kind is E.RUBBER:
                expected = [rules.lives] * len(expected)
        assert game.pools == expected
        assert game.lives_lost == lost
        if rules.beer_tally:
            assert game.beers == lost
        if rules.session == "elimination":
            for s in range(n):
                assert bool(game.in_session >> s & 1) == (game.lives(s) > 0) or game.is_over
        else:  # rubbers: nobody leaves the session
            assert game.in_session == (1 << n) - 1 and game.eliminated == []
        game.check_invariants()
        if game.phase is not Phase.DEAL:
            assert game.card_accounting() == FULL_MASK
        _check_views(game, events)
    if game.is_over:
        assert game.winner is not None and game.legal_actions() == ()
    return game


@FAST
@given(tables(), st.integers(0, 2**32), st.integers(0, 2**32))
def test_random_games_account_for_cards_lives_and_hidden_information(
    table: tuple[Rules, int], seed: int, choice_seed: int
) -> None:
    rules, n = table
    _play_checked(rules, n, seed, choice_seed)


@pytest.mark.parametrize(("name", "n"), CONFIGS)
def test_every_preset_and_size_plays_a_checked_game(name: str, n: int) -> None:
    game = _play_checked(Rules.preset(name, lives=2), n, seed=n * 101, choice_seed=n)
    assert game.actions


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.integers(0, 2**32), st.randoms(use_true_random=False))
def test_illegal_actions_are_refused_and_change_nothing(
    table: tuple[Rules, int], seed: int, rnd: random.Random
) -> None:
    rules, n = table
    game = Game(rules, n, seed=seed)
    for step in range(150):
        if game.turn < 0:
            break
        legal = game.legal_actions()
        if game.phase in (Phase.PLAY, Phase.ANSWER) and KNOCK not in legal:
            # The fast legal-action path and the explaining path agree on knocking.
            assert re.fullmatch(rf"seat {game.turn} may not knock \(.+\)",
                                game.explain(game.turn, KNOCK))
        if step % 3 == 0:
            before = snapshot(game)
            tries: list[tuple[Any, Any]] = []
            illegal = [a for a in range(NUM_ACTIONS) if a not in legal]
            if illegal:
                tries.append((game.turn, rnd.choice(illegal)))
            others = [s for s in range(n) if s != game.turn]
            tries.append((rnd.choice(others), rnd.choice(legal)))
            tries.append((rnd.choice([n, -1, 99]), rnd.choice(legal)))
            tries.append((game.turn, rnd.choice([NUM_ACTIONS, -1, "jump", "play", None, 2.5])))
            for seat, act in tries:
                with pytest.raises(IllegalAction) as info:
                    game.apply(seat, act)
                assert str(info.value)
                assert snapshot(game) == before, (seat, act)
        game.apply(game.turn, rnd.choice(legal))


def _session(rules: Rules, n: int, seed: int, choice_seed: int, disturb: bool) -> Game:
    game = Game(rules, n, seed=seed)
    pick = random.Random(choice_seed)
    for i in range(MAX_STEPS):
        if game.turn < 0:
            break
        if disturb:
            random.seed(i * 7919 + 13)
            random.random()
        game.apply(game.turn, pick.choice(game.legal_actions()))
    return game


@settings(max_examples=25, deadline=None)
@given(tables(), st.integers(0, 2**32), st.integers(0, 2**32))
def test_the_same_seed_gives_the_same_game_whatever_the_global_random_does(
    table: tuple[Rules, int], seed: int, choice_seed: int
) -> None:
    rules, n = table
    a = _session(rules, n, seed, choice_seed, disturb=False)
    b = _session(rules, n, seed, choice_seed, disturb=True)
    assert a.actions == b.actions and a.dealt_decks() == b.dealt_decks()
    assert snapshot(a) == snapshot(b)


@settings(max_examples=30, deadline=None)
@given(tables(), st.integers(0, 2**32), st.integers(0, 2**32), st.integers(0, MAX_STEPS))
def test_records_in_both_forms_replay_to_the_identical_state(
    table: tuple[Rules, int], seed: int, choice_seed: int, stop: int
) -> None:
    rules, n = table
    game = Game(rules, n, seed=seed, dealer=seed % n)
    pick = random.Random(choice_seed)
    for _ in range(stop):
        if game.turn < 0:
            break
        game.apply(game.turn, pick.choice(game.legal_actions()))
    want = snapshot(game)
    by_seed = replay(to_record(game, use_seed=True))
    assert snapshot(by_seed) == want
    by_decks = replay(to_record(game))
    got = snapshot(by_decks)
    assert got.pop("_seed") is None and want.pop("_seed") == seed
    assert got == want
    # The clone is independent and identical.
    clone = game.clone()
    assert snapshot(clone) == snapshot(game) | {"_seed": seed}
    if clone.turn >= 0:
        clone.apply(clone.turn, clone.legal_actions()[0])
        assert snapshot(game) == want | {"_seed": seed}


def test_the_leak_detector_catches_a_leak() -> None:
    game = Game(Rules.preset("classic"), 4, seed=5)
    data = observe(game, 0).to_json()
    assert not _card_tokens(data) - _visible(game, 0)
    other = [c for c in range(32) if game.hand_mask(2) >> c & 1]
    data["note"] = f"seat 2 holds {' '.join(str(c) for c in other)}"  # ids: not names
    assert not _card_tokens(data) - _visible(game, 0)
    from toepen.cards import card_str

    data["hand_actions"].append(f"2 play {card_str(other[0])}")
    assert _card_tokens(data) - _visible(game, 0) == {other[0]}
    spectator = observe(game, None).to_json()
    assert spectator["hand"] == [] and not _card_tokens(spectator)
