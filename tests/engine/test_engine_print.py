"""``print(game)`` names a seat as the players see it (issue 38, point 20): the header
line says who is to act and who won by name, beside the seat number its rows start with
(seat 1 is "Player 2" in a game with the default names)."""

from __future__ import annotations

import random

from toepen.engine import Game


def played_out(seed: int) -> Game:
    game = Game.new("rulebook", 4, seed=seed)
    pick = random.Random(seed)
    while game.winner is None:
        game.apply(game.turn, pick.choice(list(game.legal_actions())))
    return game


def test_the_header_names_the_seat_to_act_by_its_player() -> None:
    game = Game.new("rulebook", ["Ann", "Bas", "Cor", "Dirk"], seed=11)
    header = str(game).splitlines()[1]
    assert header.endswith(f"{game.players[game.turn]} (seat {game.turn}) to act"), header
    row = str(game).splitlines()[2 + game.turn]
    assert row.split()[:2] == [str(game.turn), game.players[game.turn]], row


def test_the_winner_is_named_as_listed() -> None:
    for seed in range(3):
        game = played_out(seed)
        winner = game.winner
        assert winner is not None
        name = game.players[winner]
        assert name == f"Player {winner + 1}"  # the default names count from 1
        header = str(game).splitlines()[1]
        assert header.endswith(f"winner {name} (seat {winner})"), header
        assert "nobody to act" in header
