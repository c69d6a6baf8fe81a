"""Measuring ``expert``'s reading table in self-play (``toepen train reads``).

The table and how it is read are in :mod:`toepen.bots.reads`. Here it is measured:
in self-play of a search bot (``pimc`` by default), at every decision about the
stake, the card-play solve of the *true* position from the deciding player's side
says whether that player reaches its goal whatever the others do; the actions are
counted by that outcome.

>>> r = measure(hands=2, seed=1, presets=("rulebook",), jobs=1)
>>> r.hands, all(len(v) == 2 for v in r.counts.values())
(2, True)
>>> 0.0 < r.ratio("L", "knock", 1, "knock") <= RATIO_MAX
True
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

from ..bots import make_bot
from ..bots.knowledge import next_to_play, side_of
from ..bots.reads import RATIO_MAX, Reads, read_key
from ..bots.solver import Solver
from ..engine.actions import FOLD, KNOCK, STAY, Action
from ..engine.phase import Phase
from ..engine.state import Game
from ..match import hand_over
from ..rules import Rules
from ..seeds import derive_seed
from ..view import View, observe

__all__ = ["measure", "bet_decision", "map_hands", "MAX_NODES", "RATIO_MAX"]

T = TypeVar("T")
R = TypeVar("R")

MAX_NODES = 50_000
"""Node budget of one truth solve while measuring (a solve over it is not counted)."""


def bet_decision(view: View, act: Action) -> tuple[str, str] | None:
    """(kind, action name) of a decision about the stake, None for any other: ``answer``
    (stay, fold, knock) or ``knock`` (knock or play, before a card)."""
    if view.phase == Phase.ANSWER:
        name = "knock" if act is KNOCK else "stay" if act is STAY else "fold" if act is FOLD \
            else None
        return None if name is None else ("answer", name)
    if view.phase == Phase.PLAY and KNOCK in view.legal:
        return "knock", "knock" if act is KNOCK else "play"
    return None


def _measure_hand(args: tuple[str, int, int, str, int]) -> dict[str, list[int]]:
    preset, players, seed, bot, index = args
    rules = Rules.preset(preset)
    mode = "W" if rules.last_trick_wins else "L"
    game = Game(rules, players, seed=seed, dealer=index % players)
    bots = [make_bot(bot, seed=derive_seed("reads bot", seed, s, bits=32)) for s in range(players)]
    stop = hand_over(game)
    counts: dict[str, list[int]] = {}
    while game.turn >= 0 and not stop(game):
        seat = game.turn
        view = observe(game, seat)
        act = bots[seat].act(view)
        what = bet_decision(view, act)
        if what is not None:
            hands = [h if view.active[t] else 0 for t, h in enumerate(game.hand_masks())]
            leader, trick = next_to_play(view)
            led = view.led_suit if (view.trick or view.led_suit >= 0) else -1
            solver = Solver(players, side_of(view, seat), mode == "W", MAX_NODES)
            reached = solver.try_solve(hands, leader, trick, led)
            if reached is not None:
                counts.setdefault(read_key(mode, what[0], view.stake, what[1]), [0, 0])[
                    int(reached)] += 1
        game.apply(seat, act)
    return counts


def measure(
    hands: int = 400,
    seed: int = 0,
    presets: Sequence[str] = ("rulebook", "classic"),
    players: int = 4,
    bot: str = "pimc",
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Reads:
    """Play ``hands`` self-play hands of ``bot`` per preset and count its stake decisions.

    Deterministic for given arguments (whatever ``jobs``): each hand has its own seed.
    """
    tasks = [(p, players, derive_seed("reads", seed, p, i, bits=32) & 0x7FFF_FFFF, bot, i)
             for p in presets for i in range(hands)]
    total = Reads(hands=0, seed=seed, bot=bot)
    for counts in map_hands(_measure_hand, tasks, jobs, chunksize=4):
        total.add(Reads(counts, hands=1))
        if progress is not None:
            progress(1)
    return total


def map_hands(fn: Callable[[T], R], tasks: Sequence[T], jobs: int | None,
              chunksize: int = 1) -> Iterator[R]:
    """``fn`` of each task, in order: in this process (``jobs`` 1) or in ``jobs`` worker
    processes (None: all cores). The self-play measures use it, so their results do not
    depend on ``jobs``."""
    workers = max(1, jobs if jobs is not None else (os.cpu_count() or 1))
    if workers == 1:
        yield from map(fn, tasks)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(fn, tasks, chunksize=chunksize)
