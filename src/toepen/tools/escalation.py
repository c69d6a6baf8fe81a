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
Measuring for a damped step (``one_shot``, ``--damping``) one decision a hand at most is
taken at random, and only the decisions from it on are counted: what is measured is
then played on by expert alone, as the review's values are (a random bet later in the
hand would lengthen the knock war it measures).

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

from ..bots.escalation import BETS, MIN_COUNT, Escalation, escalation_key
from ..bots.expert import ExpertBot
from ..engine.actions import PASS, Action
from ..engine.phase import Phase
from ..engine.state import Game
from ..match import hand_over
from ..rules import Rules
from ..seeds import derive_seed
from ..view import View, observe
from .reads import bet_decision, map_hands

__all__ = ["measure", "betting_decision", "damped"]


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


def _measure_hand(args: tuple[str, int, int, int, float, Escalation | None, bool]
                  ) -> dict[str, list[float]]:
    preset, players, seed, index, explore, table, one_shot = args
    rules = Rules.preset(preset)
    mode = "W" if rules.last_trick_wins else "L"
    game = Game(rules, players, seed=seed, dealer=index % players)
    bots = [ExpertBot(seed=derive_seed("escalation bot", seed, s, bits=32),
                      escalation=table or Escalation()) for s in range(players)]
    stop = hand_over(game)
    coin = random.Random(derive_seed("escalation explore", seed, bits=32))
    before = list(game.lives_lost)
    seen: list[tuple[int, str, float]] = []
    explored = False
    while game.turn >= 0 and not stop(game):
        seat = game.turn
        view = observe(game, seat)
        bot = bots[seat]
        act = bot.act(view)
        what = betting_decision(view, act)
        if what is not None and act in bot.last_values and len(view.legal) > 1:
            if explore > 0 and what[0] in BETS:
                if (one_shot and explored) or coin.random() >= explore:
                    game.apply(seat, act)
                    continue
                act = coin.choice(sorted(bot.last_utility))  # the bet's candidates
                what = betting_decision(view, act)
                assert what is not None
                if one_shot:  # once a hand: the rest of it is expert's own play
                    explored = True
                    seen.clear()  # what came before played on into this random bet
            value = bot.last_one_shot[act] if one_shot else bot.last_values[act]
            seen.append((seat, escalation_key(mode, players, what[0], view.stake, what[1]),
                         value))
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
    one_shot: bool = False,
) -> Escalation:
    """Play ``hands`` self-play hands of ``expert`` per preset and table size and sum the
    extra lives of its betting decisions (with ``explore`` > 0: of that share of them,
    taken at random; see the module documentation). ``table``: the escalation table the
    players use (default none: every decision valued one-shot); a context it holds is
    then measured beyond it (with ``one_shot``: beyond the one-shot value all the same,
    the whole extra of the players' knock wars; what :func:`damped` needs).

    Deterministic for given arguments (whatever ``jobs``): each hand has its own seed.
    """
    if not 0.0 <= explore <= 1.0:
        raise ValueError(f"explore {explore}: a chance from 0 to 1")
    tasks = [(p, n, derive_seed("escalation", seed, p, n, i, bits=32) & 0x7FFF_FFFF, i,
              explore, table, one_shot) for p in presets for n in players for i in range(hands)]
    total = Escalation(hands=0, seed=seed, explore=explore)
    for counts in map_hands(_measure_hand, tasks, jobs, chunksize=2):
        total.add(Escalation(counts, hands=1))
        if progress is not None:
            progress(1)
    return total


STEP_MIN = 10
"""A context measured fewer times than this in one step keeps its entry."""


def damped(base: Escalation, measured: Escalation, damping: float,
           kinds: Sequence[str] | None = None) -> Escalation:
    """One damped step towards the table's fixed point: ``measured`` holds the extra
    lives beyond the one-shot value (``measure(..., table=base, one_shot=True)``) of
    players using ``base``; each measured context's extra becomes ``(1 - damping)`` times
    the extra ``base`` applies (0 where it applies none: a context seen fewer than
    ``MIN_COUNT`` times) plus ``damping`` times the measured one; its count is both
    counts together. A context measured fewer than :data:`STEP_MIN` times keeps its
    ``base`` entry (too noisy to step on); ``kinds``: only contexts of these kinds are
    stepped (default all). The fixed point (measured = applied) is a table that prices
    every decision at what it costs when the players use it; a full step (``damping`` 1)
    can overshoot (the players' knock wars change with the table), so it is approached
    by a share of the way at a time.

    >>> b = Escalation({"L|4|answer|2|stay": [40, 80.0], "L|2|answer|2|stay": [3, 9.0]})
    >>> m = Escalation({"L|4|answer|2|stay": [40, 40.0], "L|2|answer|2|stay": [40, 80.0],
    ...                 "L|2|knock|1|play": [9, 9.0]})
    >>> d = damped(b, m, 0.5)
    >>> d.counts["L|4|answer|2|stay"], d.counts["L|2|answer|2|stay"]
    ([80, 120.0], [43, 43.0])
    >>> "L|2|knock|1|play" in d.counts
    False
    """
    if not 0.0 < damping <= 1.0:
        raise ValueError(f"damping {damping}: a share above 0, at most 1")
    out = {k: list(v) for k, v in base.counts.items()}
    for key, (n, total) in measured.counts.items():
        if n < STEP_MIN or (kinds is not None and key.split("|")[2] not in kinds):
            continue
        old = base.counts.get(key)
        applied = old[1] / old[0] if old is not None and old[0] >= MIN_COUNT else 0.0
        count = n + (old[0] if old is not None else 0)
        extra = (1 - damping) * applied + damping * total / n
        out[key] = [count, extra * count]
    return Escalation(out, base.hands + measured.hands, base.seed, base.explore)
