"""Measuring ``expert``'s escalation table in self-play (``toepen train escalation``).

The table and how it is used are in :mod:`toepen.bots.escalation`. Here it is measured:
``expert`` (with an empty escalation table, so it values every bet one-shot) plays
whole hands against itself; at each betting decision the value it gave the action taken
is kept, and when the hand is over each such decision adds the seat's lives lost in the
hand minus that value to its context.

With ``explore`` > 0 a betting decision is, with that chance, taken at random among the
actions the bot weighed, and only those random ones are counted: every action is then
measured (also one the bot almost never chooses, such as playing on without a knock
before the first card under ``classic``), and none is measured only where the bot
preferred it (where its value was, by the luck of its samples, at its most flattering).

>>> t = measure(hands=1, seed=1, presets=("rulebook",), players=(3,), jobs=1)
>>> t.hands, all(k.startswith("L|3|") for k in t.counts)
(1, True)
>>> e = measure(hands=1, seed=1, presets=("rulebook",), players=(3,), jobs=1, explore=1.0)
>>> sum(n for n, _ in e.counts.values()) > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..bots.escalation import BETS, Escalation, escalation_key
from ..bots.expert import ExpertBot
from ..engine.actions import PASS, Action
from ..engine.phase import Phase
from ..engine.state import Game
from ..match import hand_over
from ..rules import Rules
from ..seeds import derive_seed
from ..view import View, observe
from .reads import bet_decision, map_hands

__all__ = ["measure", "betting_decision"]


def betting_decision(view: View, act: Action) -> tuple[str, str] | None:
    """The context of a decision the table measures (:data:`~toepen.bots.escalation.ACTIONS`):
    :func:`~toepen.tools.reads.bet_decision` on the seat's own turn (a knock out of turn
    is not a bet the bot values one-shot), a card where no knock is allowed (``play``),
    an armoede claim or an exchange; else None."""
    if view.phase == Phase.PLAY and not (view.to_act and view.to_act[0] == view.seat):
        return None
    bet = bet_decision(view, act)
    if bet is not None:
        return bet
    if view.phase == Phase.PLAY:
        return "play", "play"
    if view.phase in (Phase.CLAIM, Phase.EXCHANGE):
        kind = str(view.phase)
        return kind, "pass" if act is PASS else kind
    return None


def _measure_hand(args: tuple[str, int, int, int, float, Escalation | None]
                  ) -> dict[str, list[float]]:
    preset, players, seed, index, explore, table = args
    rules = Rules.preset(preset)
    mode = "W" if rules.last_trick_wins else "L"
    game = Game(rules, players, seed=seed, dealer=index % players)
    bots = [ExpertBot(seed=derive_seed("escalation bot", seed, s, bits=32),
                      escalation=table or Escalation()) for s in range(players)]
    stop = hand_over(game)
    coin = random.Random(derive_seed("escalation explore", seed, bits=32))
    before = list(game.lives_lost)
    seen: list[tuple[int, str, float]] = []
    while game.turn >= 0 and not stop(game):
        seat = game.turn
        view = observe(game, seat)
        bot = bots[seat]
        act = bot.act(view)
        what = betting_decision(view, act)
        if what is not None and act in bot.last_values and len(view.legal) > 1:
            if explore > 0 and what[0] in BETS:
                if coin.random() >= explore:
                    game.apply(seat, act)
                    continue
                act = coin.choice(sorted(bot.last_utility))  # the bet's candidates
                what = betting_decision(view, act)
                assert what is not None
            seen.append((seat, escalation_key(mode, players, what[0], view.stake, what[1]),
                         bot.last_values[act]))
        game.apply(seat, act)
    lost = [a - b for a, b in zip(game.lives_lost, before, strict=True)]
    counts: dict[str, list[float]] = {}
    for seat, key, value in seen:
        c = counts.setdefault(key, [0, 0.0])
        c[0] += 1
        c[1] += lost[seat] + value  # value: expected change of lives (negative: lost)
    return counts


def measure(
    hands: int = 300,
    seed: int = 0,
    presets: Sequence[str] = ("rulebook", "classic"),
    players: Sequence[int] = (4,),
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    explore: float = 0.0,
    table: Escalation | None = None,
) -> Escalation:
    """Play ``hands`` self-play hands of ``expert`` per preset and table size and sum the
    extra lives of its betting decisions (with ``explore`` > 0: of that share of them,
    taken at random; see the module documentation). ``table``: the escalation table the
    players use (default none: every decision valued one-shot); a context it holds is
    then measured beyond it.

    Deterministic for given arguments (whatever ``jobs``): each hand has its own seed.
    """
    if not 0.0 <= explore <= 1.0:
        raise ValueError(f"explore {explore}: a chance from 0 to 1")
    tasks = [(p, n, derive_seed("escalation", seed, p, n, i, bits=32) & 0x7FFF_FFFF, i,
              explore, table) for p in presets for n in players for i in range(hands)]
    total = Escalation(hands=0, seed=seed, explore=explore)
    for counts in map_hands(_measure_hand, tasks, jobs, chunksize=2):
        total.add(Escalation(counts, hands=1))
        if progress is not None:
            progress(1)
    return total
