"""expert: legal, seeded, blind to hidden cards; policy file, training and inference."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toepen.bots import make_bot
from toepen.bots.expert import MARGIN, ExpertBot
from toepen.bots.pimc import Knowledge, PimcBot, observed_decisions, strength
from toepen.bots.policy import FORMAT, KIND_ACTIONS, Policy, load_policy
from toepen.cli import app
from toepen.engine import Game
from toepen.engine.actions import EXCHANGE, KNOCK, PASS
from toepen.rules import Rules
from toepen.tools.train import train
from toepen.view import observe

from .helpers import PRESETS
from .helpers import random_positions as _positions


@pytest.mark.parametrize("preset", PRESETS)
def test_expert_returns_legal_actions_in_random_positions(preset: str) -> None:
    sizes = Rules.preset(preset).allowed_table_sizes()
    for players in sorted({sizes[0], sizes[-1]}):
        for i, game in enumerate(_positions(preset, players, seed=players * 5 + 1, count=5)):
            action = ExpertBot(seed=i, samples=3).act(observe(game, game.turn))
            assert action in game.legal_actions()


def test_expert_plays_a_session_legally() -> None:
    game = Game.new(Rules.preset("rulebook", lives=3), 4, seed=2)
    bots = [ExpertBot(seed=s, samples=2) for s in range(4)]
    steps = 0
    while not game.is_over and steps < 300:
        seat = game.turn
        game.apply(seat, bots[seat].act(observe(game, seat)))
        steps += 1
    game.check_invariants()


def test_same_seed_same_decisions_and_make_bot() -> None:
    for game in _positions("classic", 4, seed=8, count=6):
        view = observe(game, game.turn)
        assert make_bot("expert", seed=4).act(view) == ExpertBot(seed=4).act(view)


def test_decisions_do_not_depend_on_hidden_cards() -> None:
    rng = random.Random(6)
    checked = 0
    for game in _positions("rulebook", 4, seed=33, count=8):
        seat = game.turn
        view = observe(game, seat)
        before = ExpertBot(seed=3, samples=5).act(view)
        poisoned = game.clone()
        # Redistribute every hidden card: other hands and the stock, keeping hand sizes
        # and suits (no public void contradicted).
        hands = poisoned.hand_masks()
        others = [s for s in range(4) if s != seat and hands[s]]
        cards = [c for s in others for c in range(32) if hands[s] >> c & 1]
        rng.shuffle(cards)
        by_suit: dict[int, list[int]] = {}
        for c in cards:
            by_suit.setdefault(c >> 3, []).append(c)
        for s in others:
            hands[s] = sum(1 << by_suit[c >> 3].pop()
                           for c in range(32) if game.hand_mask(s) >> c & 1)
        stock = poisoned.stock()
        rng.shuffle(stock)
        poisoned.replace_hidden(hands, stock)
        assert observe(poisoned, seat) == view
        assert ExpertBot(seed=3, samples=5).act(observe(poisoned, seat)) == before
        checked += 1
    assert checked >= 5


def test_shipped_policy_loads_and_is_a_distribution() -> None:
    policy = load_policy()
    assert policy.iterations >= 1000
    modes = {k.split("|")[0] for k in policy.tables}
    kinds = {k.split("|")[1] for k in policy.tables}
    assert modes == {"L", "W"} and kinds == set(KIND_ACTIONS)
    for key, table in policy.tables.items():
        assert set(table) == set(KIND_ACTIONS[key.split("|")[1]])
        assert abs(sum(table.values()) - 1) < 0.01
    data = json.loads(
        (Path(__import__("toepen").__file__).parent / "bots/data/expert_policy.json").read_text()
    )
    assert data["format"] == FORMAT


def test_policy_refuses_bad_documents() -> None:
    with pytest.raises(ValueError, match="toepen-expert-policy/1"):
        Policy.from_json({"format": "other"})
    with pytest.raises(ValueError, match="bad probability 'jump'"):
        Policy.from_json({"format": FORMAT, "tables": {"L|knock|0|1|2": {"jump": 1.0}}})
    with pytest.raises(ValueError, match="bad entry"):
        Policy.from_json({"format": FORMAT, "tables": {"L|dance|0": {}}})


def test_training_is_seeded_and_learns_something() -> None:
    a = train(iterations=40, seed=5)
    b = train(iterations=40, seed=5)
    assert a.tables == b.tables and a.tables
    with pytest.raises(ValueError, match="iterations"):
        train(iterations=0)


def test_train_command_writes_a_valid_file(tmp_path: Path) -> None:
    out = tmp_path / "policy.json"
    result = CliRunner().invoke(app, ["train", "expert", "--iterations", "12", "--seed", "3",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    policy = load_policy(out)
    assert policy.iterations == 12 and policy.seed == 3 and policy.tables
    bot = ExpertBot(seed=1, samples=2, policy=out)
    game = Game.new("rulebook", 4, seed=1)
    assert bot.act(observe(game, game.turn)) in game.legal_actions()
    bad = CliRunner().invoke(app, ["train", "expert", "--iterations", "2", "--out",
                                   str(tmp_path / "missing" / "p.json")])
    assert bad.exit_code != 0 and "no directory" in bad.output
    assert not (tmp_path / "missing").exists()


def _knocked_position(seed: int) -> tuple[Game, int] | None:
    """A rulebook game where seat 1 knocked on its first card and seat 2 must answer."""
    game = Game.new("rulebook", 3, seed=seed)
    while game.phase.name == "CLAIM" or game.phase.name == "CLAIM_CHALLENGE":
        game.apply(game.turn, game.legal_actions()[-1])  # pass
    if game.turn != 1 or KNOCK not in game.legal_actions():
        return None
    game.apply(1, KNOCK)
    return game, 1


def test_inference_reads_a_knock_as_strength() -> None:
    """Sampled hands of a player who knocked are stronger than uniform ones."""
    gains = []
    for seed in range(40):
        found = _knocked_position(seed)
        if found is None:
            continue
        game, knocker = found
        view = observe(game, game.turn)
        know = Knowledge.from_view(view)
        gone = view.gone_mask
        rng = random.Random(seed)
        uniform = [strength(know.sample(rng)[knocker], gone, False) for _ in range(60)]
        bot = ExpertBot(seed=seed)
        weighted = [strength(w.hands[knocker], gone, False)
                    for w in bot.worlds(view, know, random.Random(seed), 60)]
        gains.append(sum(weighted) / 60 - sum(uniform) / 60)
        obs = observed_decisions(view)
        assert (knocker, "knock", "knock") == obs[-1][:3]
    assert len(gains) >= 5
    assert sum(gains) / len(gains) > 0.03
    # pimc reads it too (threshold model), in the same direction.
    game, knocker = next(f for f in map(_knocked_position, range(40)) if f is not None)
    view = observe(game, game.turn)
    know = Knowledge.from_view(view)
    ws = PimcBot(seed=1).worlds(view, know, random.Random(1), 200)
    rng = random.Random(2)
    gone = view.gone_mask
    assert sum(strength(w.hands[knocker], gone, False) for w in ws) > sum(
        strength(know.sample(rng)[knocker], gone, False) for _ in range(200))


def test_expert_explains_its_choice_from_the_options_it_weighed() -> None:
    from toepen.bots import make_bot
    from toepen.engine import Game
    from toepen.narration import action_message
    from toepen.view import observe

    game = Game.new("rulebook", 4, seed=3)
    explained = 0
    while game.turn >= 0 and explained < 6:
        view = observe(game, game.turn)
        bot = make_bot("expert", seed=1)
        act = bot.act(view)
        text = bot.explain(view, act)  # type: ignore[attr-defined]
        if len(view.legal) > 1:  # a message: the move chosen, the next best, the counts
            assert text is not None and text.id == "hint.reason.sampled", text
            assert text.params["action"] == action_message(act)
            assert text.params["other"] != text.params["action"]
            assert text.params["k"] >= 2 and text.params["n"] >= 1
            explained += 1
        # an explanation is only given for the decision the bot just made
        assert bot.explain(observe(game, game.turn), act) == text  # type: ignore[attr-defined]
        game.apply(game.turn, act)
        if game.turn >= 0:
            later = observe(game, game.turn)
            assert bot.explain(later, act) is None  # type: ignore[attr-defined]
    assert explained == 6


def test_a_close_kans_decision_is_taken_by_value_not_by_the_policy() -> None:
    """The policy has frequencies for knocks, answers and claims only: a kans op toep
    draw within the policy's margin of keeping the hand was a KeyError (the arena's
    fallback played instead, measured under kroeg-huisregels); it is the better value."""
    game = Game.new("rulebook", 4, seed=1)
    view = observe(game, game.turn)
    bot = ExpertBot(seed=1)
    rng = random.Random(0)
    assert bot.choose(view, "kans", {PASS: -0.5, EXCHANGE: -0.5 - MARGIN / 2}, rng) is PASS
    assert bot.choose(view, "kans", {PASS: -0.5 - MARGIN / 2, EXCHANGE: -0.5}, rng) is EXCHANGE
