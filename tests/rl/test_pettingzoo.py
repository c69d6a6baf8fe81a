"""The PettingZoo environment: PettingZoo's own checks, rewards, seeding, hidden cards, errors."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from toepen.bots.base import bot_names
from toepen.cards import card_str, cards_of, parse_card
from toepen.engine import Game
from toepen.record import to_record
from toepen.rl.encoding import ObservationEncoder
from toepen.rl.pettingzoo import ToepenEnv, env
from toepen.rl.policies import BotPolicy, play_episode
from toepen.rules import Rules

# Every preset at 3, 4 and 8 players where it allows the size. Presets that forbid a size
# (gezinstoepen: 3 or 4; teams: 4 or 6) are tested at the sizes they allow: teams also at 6.
TABLES = [
    (preset, n)
    for preset in Rules.preset_names()
    for n in (3, 4, 6, 8)
    if n in Rules.preset(preset).allowed_table_sizes() and (n != 6 or preset == "teams")
]


def test_tables_cover_every_preset() -> None:
    assert {p for p, _ in TABLES} == set(Rules.preset_names())
    assert ("gezinstoepen", 8) not in TABLES and ("teams", 3) not in TABLES
    assert ("teams", 6) in TABLES and ("rulebook", 8) in TABLES


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_pettingzoo_api_test(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        # api_test resets with options={"options": 1}; the environment warns it ignores it.
        warnings.filterwarnings("ignore", message="reset: unknown option")
        api_test(env(preset, players, lives=3), num_cycles=200)


@pytest.mark.parametrize(("preset", "players"), [("rulebook", 3), ("classic", 8), ("teams", 6)])
def test_pettingzoo_api_test_hand_episodes(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="reset: unknown option")
        api_test(env(preset, players, episode="hand"), num_cycles=200)


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_pettingzoo_seed_test(preset: str, players: int) -> None:
    seed_test(lambda: env(preset, players, lives=3), num_cycles=200)


def _trajectory(seed: int, disturb: bool) -> list[tuple[str, bytes, float, int]]:
    e = env("classic", 4, lives=3, rubbers=1)
    e.reset(seed=seed)
    pick = np.random.default_rng(99)
    out = []
    for agent in e.agent_iter():
        if disturb:  # the environment must not draw from the global generators
            random.seed(random.random())
            np.random.seed(int(np.random.randint(0, 2**31)))
        obs, reward, term, trunc, _ = e.last()
        action = None if term or trunc else int(pick.choice(np.flatnonzero(obs["action_mask"])))
        out.append((agent, obs["observation"].tobytes(), reward, -1 if action is None else action))
        e.step(action)
    return out


def test_seeding_ignores_the_global_random_generators() -> None:
    quiet = _trajectory(11, disturb=False)
    assert quiet == _trajectory(11, disturb=True)
    assert quiet != _trajectory(12, disturb=False)


def test_reset_without_seed_continues_the_seeded_sequence() -> None:
    a, b = env("rulebook", 4), env("rulebook", 4)
    a.reset(seed=3)
    b.reset(seed=3)
    a.reset()
    b.reset()
    assert a.unwrapped.game.dealt_decks() == b.unwrapped.game.dealt_decks()


def _random_session(e: object, seed: int) -> tuple[dict[str, float], list[str]]:
    pick = random.Random(seed)
    totals: dict[str, float] = {a: 0.0 for a in e.possible_agents}  # type: ignore[attr-defined]
    finished: list[str] = []
    e.reset(seed=seed)  # type: ignore[attr-defined]
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = e.last()  # type: ignore[attr-defined]
        totals[agent] += reward
        if term or trunc:
            finished.append(agent)
            e.step(None)  # type: ignore[attr-defined]
        else:
            e.step(pick.choice(np.flatnonzero(obs["action_mask"]).tolist()))  # type: ignore[attr-defined]
    return totals, finished


@pytest.mark.parametrize(("preset", "players"), [("rulebook", 4), ("classic", 3), ("teams", 4)])
def test_session_rewards_are_the_lives_lost(preset: str, players: int) -> None:
    e = env(preset, players, lives=3, rubbers=1)
    totals, finished = _random_session(e, seed=5)
    game = e.unwrapped.game
    assert game.is_over and not e.agents
    assert sorted(finished) == sorted(e.possible_agents)
    for seat, agent in enumerate(e.possible_agents):
        side = [s for s in range(players) if game.team_of[s] == game.team_of[seat]]
        assert totals[agent] == -sum(game.lives_lost[s] for s in side)
    assert any(t < 0 for t in totals.values())


def test_eliminated_agents_leave_when_their_hand_ends() -> None:
    e = env("rulebook", 4, lives=3)
    e.reset(seed=8)
    pick = random.Random(8)
    seen_elimination = False
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        game = e.unwrapped.game
        seat = e.unwrapped.agent_name_mapping[agent]
        if term:
            seen_elimination |= not game.is_over
            assert not game.in_session >> seat & 1 or game.is_over
            e.step(None)
            continue
        assert game.turn == seat
        e.step(pick.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert seen_elimination


def test_hand_episode_ends_after_one_hand_with_its_losses() -> None:
    e = env("rulebook", 4, episode="hand")
    totals, finished = _random_session(e, seed=2)
    game = e.unwrapped.game
    assert game.hand_no == 2 and not game.is_over
    assert sorted(finished) == sorted(e.possible_agents)
    lost = [10 - x for x in game.lives_by_seat()]
    assert [totals[a] for a in e.possible_agents] == [-float(x) for x in lost]
    assert sum(lost) >= 1


def test_truncation_after_max_moves() -> None:
    e = env("rulebook", 4, max_moves=5)
    e.reset(seed=1)
    steps = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            assert trunc and not term
            e.step(None)
        else:
            steps += 1
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert steps == 5


def test_observation_shows_own_cards_only() -> None:
    # Seat 1 (first to act, left of dealer 0) holds the same cards in both decks; the
    # other seats' hands differ. Seat 1's observation must be the same in both.
    def deck(other: list[int]) -> list[int]:
        mine = [parse_card(c) for c in ("Th", "9s", "Ac", "Jd")]
        rest = [c for c in range(32) if c not in mine and c not in other] + other
        # deal order 1, 2, 3, 0: seat 1 gets positions 0, 4, 8, 12.
        out: list[int] = []
        it = iter(rest)
        for pos in range(32):
            out.append(mine[pos // 4] if pos % 4 == 0 and pos < 16 else next(it))
        return out

    a = deck([])
    b = deck(a[1:4])  # the first cards of seats 2, 3 and 0 move to the end of the deck
    assert a != b
    observations = []
    for d in (a, b):
        e = env("rulebook", 4)
        e.reset(seed=0, options={"decks": [d]})
        assert e.agent_selection == "player_1"
        observations.append(e.observe("player_1"))
    assert np.array_equal(observations[0]["observation"], observations[1]["observation"])
    enc = ObservationEncoder(4)
    x = observations[0]["observation"]
    hand = set(np.flatnonzero(x[enc.slices["hand"]]).tolist())
    assert hand == {parse_card(c) for c in ("Th", "9s", "Ac", "Jd")}
    assert not x[enc.slices["played"]].any() and not x[enc.slices["revealed"]].any()
    other = env("rulebook", 4)
    other.reset(seed=0, options={"decks": [a]})
    their = other.observe("player_2")["observation"][enc.slices["hand"]]
    game = other.unwrapped.game
    assert set(np.flatnonzero(their).tolist()) == set(cards_of(game.hand_mask(2)))
    assert not other.observe("player_2")["action_mask"].any()  # not their turn


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    e = env("rulebook", 4)
    e.reset(seed=4)
    before = to_record(e.unwrapped.game)
    with pytest.raises(ValueError, match="may not knock"):
        e.step(32)
    with pytest.raises(ValueError, match="not an action id"):
        e.step(39)
    with pytest.raises(ValueError, match="action id"):
        e.step("pass")
    assert to_record(e.unwrapped.game) == before
    e.step(38)  # pass is legal


def test_bad_construction_names_the_problem() -> None:
    with pytest.raises(ValueError, match="unknown preset"):
        ToepenEnv("nope", 4)
    with pytest.raises(ValueError, match="table_sizes"):
        ToepenEnv("gezinstoepen", 8)
    with pytest.raises(ValueError, match="episode"):
        ToepenEnv("rulebook", 4, episode="rubber")
    with pytest.raises(ValueError, match="option lives"):
        ToepenEnv("rulebook", 4, lives=0)
    with pytest.raises(ValueError, match="dealer"):
        env("rulebook", 4).reset(options={"dealer": 9})
    with pytest.raises(ValueError, match="decks"):
        env("rulebook", 4).reset(options={"decks": [[0, 1, 2]]})
    with pytest.warns(UserWarning, match="unknown option 'colour'"):
        env("rulebook", 4).reset(options={"colour": "red"})


BOTS = [name for name in ("random", "heuristic") if name in bot_names()]


@pytest.mark.parametrize("name", BOTS)
def test_bot_policies_play_whole_sessions(name: str) -> None:
    e = env("rulebook", 4, lives=3)
    policies = {a: BotPolicy(name, seed=i) for i, a in enumerate(e.possible_agents)}
    totals = play_episode(e, policies, seed=21)
    game = e.unwrapped.game
    assert game.is_over
    assert totals == {a: -float(game.lives_lost[i]) for i, a in enumerate(e.possible_agents)}
    again = env("rulebook", 4, lives=3)
    assert play_episode(
        again, {a: BotPolicy(name, seed=i) for i, a in enumerate(e.possible_agents)}, seed=21
    ) == totals


def test_render_shows_no_hidden_card() -> None:
    e = env("rulebook", 4, render_mode="ansi")
    e.reset(seed=6)
    text = e.render()
    assert "hand 1" in text and "phase claim" in text
    game: Game = e.unwrapped.game
    for hand in game.hand_masks():
        for card in cards_of(hand):
            assert card_str(card) not in text
