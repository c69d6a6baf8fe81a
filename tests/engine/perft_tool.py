"""Perft for Toepen: count legal action sequences (python-chess style), by brute force."""

from __future__ import annotations

from collections.abc import Callable

from toepen.engine import Game


def perft(game: Game, depth: int) -> int:
    """Number of legal action sequences of exactly ``depth`` decisions from ``game``."""
    if depth == 0:
        return 1
    total = 0
    for act in game.legal_actions():
        child = game.clone()
        child.apply(child.turn, act)
        total += perft(child, depth - 1)
    return total


def perft_until(game: Game, done: Callable[[Game], bool]) -> int:
    """Number of legal action sequences from ``game`` to the first state where ``done``
    holds (or nobody is to act)."""
    if done(game) or game.turn < 0:
        return 1
    total = 0
    for act in game.legal_actions():
        child = game.clone()
        child.apply(child.turn, act)
        total += perft_until(child, done)
    return total


def first_trick_over(start_hand: int) -> Callable[[Game], bool]:
    """Done once the first trick of the hand is complete or the hand has ended."""
    return lambda g: g.hand_no != start_hand or g.trick_no >= 1 or g.is_over
