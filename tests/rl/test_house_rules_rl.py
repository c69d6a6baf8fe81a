"""PettingZoo and OpenSpiel under the house rules: their own checks still pass (turn order,
spaces, serialisation) with the new phases, and no observation shows an unseen card."""

from __future__ import annotations

import warnings

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

from toepen.rl.openspiel import SHORT_NAME
from toepen.rl.pettingzoo import env

HOUSE = [
    ("kroeg-huisregels", 4, {"lives": 3, "laundry_caught": "plays_open"}),
    ("rulebook", 3, {"lives": 3, "armoede": False, "blind_knock": True, "edge": "plays_dead",
                     "double_knock": True}),
    ("classic", 5, {"lives": 2, "exchange": False, "vuile_was": True, "laundry_check": "each",
                    "jack_last_trick": "winner_gains", "four_of_a_kind": True}),
]


@pytest.mark.parametrize(("preset", "players", "options"), HOUSE)
def test_pettingzoo_api_test_under_house_rules(
    preset: str, players: int, options: dict[str, object]
) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="reset: unknown option")
        api_test(env(preset, players, **options), num_cycles=200)


@pytest.mark.parametrize("options", [
    "blind_knock:true;armoede:false;double_knock:true;edge:no_fold",
    "witte_was:true;vuile_was:true;laundry_check:each;four_of_a_kind:true;"
    "three_of_a_kind_draw:true",
])
def test_openspiel_random_sim_test_under_house_rules(options: str) -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 4, "lives": 2, "options": options})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_blind_round_observation_holds_no_card() -> None:
    e = env("rulebook", 4, armoede=False, blind_knock=True)
    e.reset(seed=3)
    agent = e.agent_selection
    obs = e.observe(agent)
    inner = e.unwrapped
    assert inner.game is not None and inner.game.phase == "blind"
    hand = np.asarray(obs["observation"])[inner.encoder.slices["hand"]]
    assert not hand.any() and inner.game.hand_mask(int(agent.split("_")[-1]))


def test_knock_anytime_is_refused_by_name_where_its_windows_are_not_exposed() -> None:
    with pytest.raises(ValueError, match="knock_anytime: not offered by the PettingZoo"):
        env("rulebook", 4, knock_anytime=True)
    with pytest.raises(ValueError, match="knock_anytime is not offered by the OpenSpiel"):
        pyspiel.load_game(SHORT_NAME, {"players": 4, "options": "knock_anytime:true"})
