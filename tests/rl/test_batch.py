"""The batched environment against the engine: the same deals and actions, every
observation, mask, reward and ending compared (toepen.rl.batch)."""

from __future__ import annotations

import numpy as np
import pytest

from toepen.engine import Game
from toepen.engine.actions import ACTIONS
from toepen.engine.state import Phase
from toepen.rl import kernel
from toepen.rl.batch import ToepenBatch, UnsupportedRules, decks
from toepen.rl.encoding import ObservationEncoder, action_mask
from toepen.view import observe


def _engine_game(batch: ToepenBatch, g: int) -> Game:
    game = Game(batch.rules, batch.n, dealer=batch.first_dealer)
    _feed(batch, g, game)
    return game


def _feed(batch: ToepenBatch, g: int, game: Game) -> None:
    """Supply the engine the batch's decks whenever a deal waits for one."""
    while game.phase is Phase.DEAL:
        k = len(game.dealt_decks())
        game.deal([int(c) for c in decks(batch.keys[g : g + 1], [k])[0]])


BACKENDS = ["numpy"] + ([] if kernel.unavailable() else ["numba"])
"""The paths of the batch this installation has (numba: the ``fast`` extra, which the dev
group installs)."""


def make_batches(*args: object, **kwargs: object) -> tuple[ToepenBatch, ToepenBatch | None]:
    """The batch on the compiled path, and its twin on the NumPy path (None without numba)."""
    if kernel.unavailable():
        return ToepenBatch(*args, backend="numpy", **kwargs), None  # type: ignore[arg-type]
    fast = ToepenBatch(*args, backend="numba", **kwargs)  # type: ignore[arg-type]
    assert fast.backend == "numba"
    return fast, ToepenBatch(*args, backend="numpy", **kwargs)  # type: ignore[arg-type]


def assert_twins(a: ToepenBatch, b: ToepenBatch) -> None:
    """Every number of the two batches' state, the same."""
    np.testing.assert_array_equal(a._game, b._game)
    np.testing.assert_array_equal(a._per_seat, b._per_seat)
    np.testing.assert_array_equal(a.deck, b.deck)


def play_both(batch: ToepenBatch, steps: int, seed: int, partial: bool = False,
              twin: ToepenBatch | None = None) -> dict[str, int]:
    """Play ``steps`` random steps in the batch and in one engine per game, comparing
    everything; returns counts of what was seen. ``twin``: the same games on the other
    path of the batch, compared with it bit for bit (observations, masks, results, state)."""
    n, N = batch.n, batch.num_games
    enc = ObservationEncoder(n)
    rng = np.random.default_rng(seed)
    games = [_engine_game(batch, g) for g in range(N)]
    hand_nos = [game.hand_no for game in games]
    lost = [list(game.lives_lost) for game in games]
    seen = {"steps": 0, "hands": 0, "sessions": 0, "knocks": 0, "folds": 0, "claims": 0,
            "challenges": 0, "exchanges": 0}
    all_g = np.repeat(np.arange(N), n)
    all_s = np.tile(np.arange(n), N)
    for _ in range(steps):
        obs, masks = batch.encode(all_g, all_s)
        # observe() reads the state's rows as slices, encode() gathers them: the same
        seat_obs, seat_masks = batch.observe()
        if twin is not None:
            assert_twins(batch, twin)
            twin_obs, twin_masks = twin.encode(all_g, all_s)
            np.testing.assert_array_equal(obs, twin_obs)
            np.testing.assert_array_equal(masks, twin_masks)
            twin_obs, twin_masks = twin.observe()
            np.testing.assert_array_equal(seat_obs, twin_obs)
            np.testing.assert_array_equal(seat_masks, twin_masks)
        turn_rows = np.arange(N) * n + batch.turn
        np.testing.assert_array_equal(seat_obs, obs[turn_rows])
        np.testing.assert_array_equal(seat_masks, masks[turn_rows])
        for g, game in enumerate(games):
            assert int(batch.turn[g]) == game.turn, (g, str(game))
            for s in range(n):
                v = observe(game, s)
                i = g * n + s
                where = f"game {g} seat {s}\n{game}"
                np.testing.assert_array_equal(masks[i], action_mask(v), err_msg=where)
                np.testing.assert_array_equal(obs[i], enc.encode(v), err_msg=where)
        acts = batch.random_actions(rng)
        only = rng.random(N) < 0.5 if partial else np.ones(N, dtype=bool)
        res = batch.step(acts, only=only if partial else None)
        if twin is not None:
            twin_res = twin.step(acts, only=only if partial else None)
            for name in ("rewards", "hand_over", "done", "winner", "final_lives",
                         "final_in_session"):
                np.testing.assert_array_equal(getattr(res, name), getattr(twin_res, name),
                                              err_msg=name)
        seen["steps"] += int(only.sum())
        for g, game in enumerate(games):
            if not only[g]:
                assert not res.hand_over[g] and not res.done[g] and not res.rewards[g].any()
                continue
            a = ACTIONS[int(acts[g])]
            seen[{"knock": "knocks", "fold": "folds", "claim": "claims",
                  "challenge": "challenges", "exchange": "exchanges"}.get(str(a), "steps")] += (
                0 if str(a) not in ("knock", "fold", "claim", "challenge", "exchange") else 1)
            game.apply(game.turn, a)
            _feed(batch, g, game)
            over = game.is_over
            hand_over = over or game.hand_no != hand_nos[g]
            assert bool(res.hand_over[g]) == hand_over, (g, str(game))
            want = np.zeros(n, dtype=np.float32)
            if hand_over:
                seen["hands"] += 1
                want = -np.array([a - b for a, b in zip(game.lives_lost, lost[g], strict=True)],
                                 dtype=np.float32)
                lost[g] = list(game.lives_lost)
                hand_nos[g] = game.hand_no
            np.testing.assert_array_equal(res.rewards[g], want, err_msg=f"game {g}")
            done = over or (hand_over and batch.episode == "hand")
            assert bool(res.done[g]) == done, (g, str(game))
            if done:
                seen["sessions"] += 1
                assert int(res.winner[g]) == (game.winner if over else -1)
                if over:
                    assert list(res.final_lives[g]) == game.lives_by_seat()
                    assert int(res.final_in_session[g]) == game.in_session
                games[g] = _engine_game(batch, g)
                hand_nos[g] = games[g].hand_no
                lost[g] = [0] * n
    return seen


@pytest.mark.parametrize(
    ("preset", "players", "options", "steps"),
    [
        ("rulebook", 4, {"lives": 2}, 160),
        ("rulebook", 2, {"lives": 3}, 200),
        ("rulebook", 8, {"lives": 2}, 70),
        ("classic", 4, {"lives": 2, "rubbers": 2}, 200),
        ("classic", 3, {"lives": 3, "rubbers": 1}, 150),
        ("rulebook", 5, {"lives": 2, "last_trick": "wins", "knock_limit": "none",
                         "max_stake": 5, "first_player_may_knock_early": False,
                         "dealer": "highest_loser", "tells": "tens_and_jacks"}, 150),
        ("classic", 6, {"lives": 2, "session": "elimination", "dealer": "rotate"}, 150),
        ("gezinstoepen", 4, {"lives": 2}, 100),
        ("kroegtoepen", 3, {"lives": 2, "armoede": False}, 100),
    ],
)
def test_batch_plays_the_engines_rules(preset: str, players: int, options: dict[str, object],
                                       steps: int) -> None:
    batch, twin = make_batches(preset, players, num_games=24, seed=players, **options)
    seen = play_both(batch, steps, seed=players, twin=twin)
    assert seen["sessions"] >= 10 and seen["knocks"] and seen["folds"]
    if batch.rules.armoede:
        assert seen["claims"] and seen["challenges"]
    if batch.rules.exchange:
        assert seen["exchanges"] and seen["challenges"]


def test_hand_episodes_match_the_engine() -> None:
    batch, twin = make_batches("rulebook", 4, num_games=48, seed=3, episode="hand")
    seen = play_both(batch, 80, seed=3, twin=twin)
    assert seen["sessions"] >= 100


def test_stepping_some_games_leaves_the_others_as_they_were() -> None:
    batch, twin = make_batches("rulebook", 4, num_games=24, seed=5, lives=2)
    seen = play_both(batch, 120, seed=5, partial=True, twin=twin)
    assert seen["sessions"] >= 20


def test_refuses_unsupported_rules_clearly() -> None:
    with pytest.raises(UnsupportedRules, match="option knock_anytime"):
        ToepenBatch("rulebook", 4, knock_anytime=True)
    with pytest.raises(UnsupportedRules, match="preset 'teams'"):
        ToepenBatch("teams", 4)
    with pytest.raises(ValueError, match="table_sizes"):
        ToepenBatch("gezinstoepen", 6)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_illegal_action_is_refused_and_changes_nothing(backend: str) -> None:
    batch = ToepenBatch("rulebook", 4, num_games=4, seed=1, backend=backend)
    before, _ = batch.observe()
    acts = np.full(4, 38)
    acts[2] = 0  # play a card during the armoede round
    with pytest.raises(ValueError, match=r"actions\[2\]: action 0 is not legal"):
        batch.step(acts)
    after, _ = batch.observe()
    np.testing.assert_array_equal(before, after)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("players", [3, 8])
def test_observe_matches_encode_across_chunks(players: int, backend: str) -> None:
    """More games than :meth:`ToepenBatch.observe` encodes at a time: every chunk of the
    fast path (the state read as slices) agrees with encode() of the same pairs."""
    from toepen.rl import batch as batch_module

    num_games = batch_module._CHUNK * 2 + 37
    batch = ToepenBatch("classic", players, num_games=num_games, seed=11, lives=2,
                        backend=backend)
    rng = np.random.default_rng(4)
    g = np.arange(num_games)
    for _ in range(40):
        obs, masks = batch.observe()
        want_obs, want_masks = batch.encode(g, batch.turn.copy())
        np.testing.assert_array_equal(obs, want_obs)
        np.testing.assert_array_equal(masks, want_masks)
        batch.step((masks * rng.random(masks.shape)).argmax(axis=1))


@pytest.mark.parametrize("backend", BACKENDS)
def test_each_game_is_its_own_seed(backend: str) -> None:
    """A game's deals depend on its seed and index only, not on the batch size."""
    a = ToepenBatch("rulebook", 4, num_games=3, seed=9, backend=backend)
    b = ToepenBatch("rulebook", 4, num_games=8, seed=9, backend=backend)
    np.testing.assert_array_equal(a.hands, b.hands[:3])
    assert len({tuple(h) for h in b.hands.tolist()}) == 8


def test_bench_measures_the_batch_beside_the_aec_env_and_the_engine() -> None:
    from toepen.tools.bench import (
        AEC_NAME,
        BATCH_NAME,
        batch_over_aec,
        run_benchmarks,
        steps,
        table,
        to_json,
    )

    calls: list[int] = []
    ref, results = run_benchmarks(seconds=0.05, rounds=1, presets=("rulebook",), sizes=(4,),
                                  progress=calls.append, rl=True)
    by = {r.name: r for r in results}
    assert AEC_NAME in by and BATCH_NAME in by and "rulebook 4 players: legal actions + apply" in by
    assert sum(calls) == steps(1, ("rulebook",), (4,), rl=True) == len(results)
    speedup = batch_over_aec(results)
    assert speedup == by[BATCH_NAME].per_second / by[AEC_NAME].per_second
    assert to_json(ref, results)["batch_over_aec"] == speedup
    assert "batched env / AEC env" in str(table(ref, results).caption)


@pytest.mark.skipif(kernel.unavailable() is not None, reason="needs numba")
def test_both_paths_agree_on_many_games() -> None:
    """Thousands of games on the compiled and the NumPy path, stepped by the same random
    actions (every rule option the batch plays somewhere): the same state, bit for bit."""
    configs = [
        ("rulebook", 4, {}),
        ("classic", 6, {"lives": 2, "session": "elimination", "pelt": True}),
        ("gezinstoepen", 3, {"lives": 2, "tells": "tens_and_jacks"}),
        ("rulebook", 5, {"lives": 3, "last_trick": "wins", "dealer": "last_trick_winner",
                         "knock_limit": "lives_cover_new_stake"}),
        ("classic", 2, {"lives": 2, "rubbers": 3}),
    ]
    for preset, players, options in configs:
        a = ToepenBatch(preset, players, num_games=1000, seed=21, backend="numba", **options)
        b = ToepenBatch(preset, players, num_games=1000, seed=21, backend="numpy", **options)
        ended = 0
        for t in range(100):
            obs_a, mask_a = a.observe()
            obs_b, mask_b = b.observe()
            np.testing.assert_array_equal(obs_a, obs_b)
            np.testing.assert_array_equal(mask_a, mask_b)
            acts = a.random_actions(np.random.default_rng(t), mask_a)
            np.testing.assert_array_equal(acts, b.random_actions(np.random.default_rng(t),
                                                                 mask_b))
            ra, rb = a.step(acts), b.step(acts)
            for name in ("rewards", "hand_over", "done", "winner", "final_lives",
                         "final_in_session"):
                np.testing.assert_array_equal(getattr(ra, name), getattr(rb, name))
            assert_twins(a, b)
            ended += int(ra.done.sum())
        assert ended >= 100, (preset, players, ended)


def test_numba_outside_its_tested_range_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    monkeypatch.setitem(sys.modules, "numba", types.SimpleNamespace(__version__="0.70.1"))
    numba, why = kernel._load_numba()
    assert numba is None
    assert why == "numba 0.70.1 is outside the tested range 0.68 to below 0.69"
    monkeypatch.setitem(sys.modules, "numba", None)  # not installed
    assert kernel._load_numba() == (None, "numba is not installed (pip install 'toepen[fast]')")


def test_the_backend_is_chosen_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="backend: must be one of auto, numba, numpy, not 'gpu'"):
        ToepenBatch("rulebook", 4, num_games=2, backend="gpu")
    assert ToepenBatch("rulebook", 4, num_games=2, backend="numpy").backend == "numpy"
    monkeypatch.setattr(kernel, "_why", "numba is not installed (pip install 'toepen[fast]')")
    with pytest.raises(ValueError, match=r"backend 'numba': numba is not installed \(pip"):
        ToepenBatch("rulebook", 4, num_games=2, backend="numba")
    auto = ToepenBatch("rulebook", 4, num_games=2)  # falls back on NumPy
    assert auto.backend == "numpy" and auto.compile_seconds == 0.0
    auto.step(auto.random_actions(np.random.default_rng(0)))
