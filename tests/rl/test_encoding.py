"""The observation encoding: each block says what it should, from the observer's seat."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from toepen.engine import Game, Phase, parse_move
from toepen.rl.encoding import HistoryEncoder, ObservationEncoder, action_mask
from toepen.rules import Rules
from toepen.view import observe


def _scripted() -> Game:
    # Deck in id order, dealer 0: seat 1 holds Tc Ac Td Ad, seat 2 9c Kc 9d Kd,
    # seat 3 8c Qc 8d Qd, seat 0 7c Jc 7d Jd.
    game = Game(Rules.preset("rulebook"), 4, decks=[list(range(32))], dealer=0)
    for move in ["1 pass", "2 pass", "3 pass", "0 pass", "1 knock", "2 stay", "3 fold",
                 "0 stay", "1 play Tc", "2 play 9c", "0 play 7c", "1 play Td", "2 play 9d"]:
        game.apply(*parse_move(move))
    return game


def test_blocks_from_the_observers_seat() -> None:
    game = _scripted()
    enc = ObservationEncoder(4)
    x = enc.encode(observe(game, 2))
    s = enc.slices

    def block(name: str) -> np.ndarray:
        return x[s[name]]

    # Relative seats for observer 2: seat 2 -> 0, 3 -> 1, 0 -> 2, 1 -> 3.
    assert np.flatnonzero(block("hand")).tolist() == [5, 13]  # Kc Kd left
    played = block("played").reshape(4, 32)
    assert np.flatnonzero(played[3]).tolist() == [0, 8]  # seat 1: Tc, Td
    assert np.flatnonzero(played[0]).tolist() == [1, 9]  # seat 2 (me): 9c, 9d
    assert np.flatnonzero(played[2]).tolist() == [3]  # seat 0: 7c
    assert not played[1].any()  # seat 3 folded before playing
    assert np.flatnonzero(block("trick")).tolist() == [8, 9]
    assert block("led_suit").tolist() == [0, 1, 0, 0]
    assert block("phase")[list(Phase).index(Phase.PLAY)] == 1 and block("phase").sum() == 1
    assert block("to_act").tolist() == [0, 0, 1, 0]  # seat 0
    assert block("dealer").tolist() == [0, 0, 1, 0]
    assert block("last_knocker").tolist() == [0, 0, 0, 1]
    assert block("active").tolist() == [1, 0, 1, 1]
    assert block("stake").tolist() == [2]
    assert block("accepted").tolist() == [2, 1, 2, 2]
    assert block("knocks").tolist() == [0, 0, 0, 1]
    assert block("lives").tolist() == [10, 9, 10, 10]
    assert block("tricks_won").tolist() == [0, 0, 0, 0.25]
    assert block("trick_no").tolist() == [0.25]
    assert not block("voids").any() and not block("revealed").any()
    # Seat 0 must follow diamonds (7d or Jd; Jc is out) or knock: the mask says so.
    assert np.flatnonzero(action_mask(observe(game, 0))).tolist() == [11, 15, 32]


def test_history_block_rows() -> None:
    game = _scripted()
    hist = HistoryEncoder(4, 20)
    rows = hist.encode(observe(game, 2)).reshape(20, 4 + 39)
    assert rows[:13].sum() == 26 and not rows[13:].any()
    first, knock = rows[0], rows[4]
    assert first[3] == 1 and first[4 + 38] == 1  # seat 1 (relative 3) passes
    assert knock[3] == 1 and knock[4 + 32] == 1  # seat 1 knocks
    short = HistoryEncoder(4, 2).encode(observe(game, 2)).reshape(2, 43)
    assert short[1][0] == 1 and short[1][4 + 9] == 1  # the last row: I played 9d


def test_bounds_and_refusals() -> None:
    enc = ObservationEncoder(3)
    low, high = enc.bounds()
    assert low.shape == high.shape == (enc.size,)
    assert high[enc.slices["hand"]].max() == 1 and np.isinf(high[enc.slices["stake"]]).all()
    assert np.isneginf(low[enc.slices["lives"]]).all()
    game = Game.new("rulebook", 3, seed=1)
    with pytest.raises(ValueError, match="spectator"):
        enc.encode(observe(game, None))
    with pytest.raises(ValueError, match="a table of 3, not 4"):
        ObservationEncoder(4).encode(observe(game, 0))
    with pytest.raises(ValueError, match="players"):
        ObservationEncoder(9)


def test_import_toepen_needs_no_rl_packages() -> None:
    code = (
        "import sys, toepen, toepen.rl, toepen.rl.limits\n"
        "bad = [m for m in ('pettingzoo', 'pyspiel', 'gymnasium', 'open_spiel')"
        " if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
