"""Self-play training of ``expert``'s knock, answer and claim policy.

The policy and its abstraction are in :mod:`toepen.bots.policy`. Training is regret
matching (CFR+ style, outcome values from rollouts) in self-play with the real
engine: a 4-player hand is dealt, everyone plays by the current policy (cards by a
quick rule), and at every policy decision each legal action is tried on a clone of
the game and rolled out to the end of the hand; the regret of the acting seat's
abstract decision grows by how much better each action did (in its own lives lost)
than the policy's mix. The average strategy over all iterations is the equilibrium
estimate that is shipped (``toepen/bots/data/expert_policy.json``) and rebuilt by
``toepen train expert``.

>>> p = train(iterations=3, seed=1)
>>> p.iterations, 0.0 <= p.prob("L|answer|0|2|0", "fold") <= 1.0
(3, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..bots.knowledge import strength
from ..bots.policy import KIND_ACTIONS, Policy, decision_key
from ..cards import mask_of
from ..engine.actions import CHALLENGE, CLAIM, EXCHANGE, FOLD, KNOCK, PASS, STAY, Action
from ..engine.state import Game, Phase
from ..rules import Rules

__all__ = ["train"]

_ACTION_OF = {"knock": KNOCK, "stay": STAY, "fold": FOLD, "claim": CLAIM, "pass": PASS}


# -- self-play --------------------------------------------------------------------------------


def _mode(rules: Rules) -> str:
    return "W" if rules.last_trick_wins else "L"


def _gone(game: Game) -> int:
    return mask_of(c for _, c, _ in game.plays)


def _quick_card(game: Game, seat: int, legal: Sequence[Action]) -> Action:
    """A fast card-play rule for training rollouts (duck under ``loses``, hoard under ``wins``)."""
    cards = [a for a in legal if a < 32]
    trick = game.trick
    wins = game.rules.last_trick_wins
    last = game.hand_mask(seat).bit_count() == 1
    if last or len(cards) == 1:
        return cards[0]
    if wins:
        # Keep the high cards for the last trick: play the lowest card (highest id rank).
        return max(cards, key=lambda c: (c & 7, c))
    if not trick:
        return max(cards, key=lambda c: (c & 7, c))  # lead low
    led = game.led
    following = [c for c in cards if c >> 3 == led]
    if following:
        best = min(c for _, c in trick if c >> 3 == led) if any(
            c >> 3 == led for _, c in trick) else 99
        ducks = [c for c in following if c > best]
        if ducks:
            return min(ducks)  # the highest card that still loses the trick
        return min(following)  # must win: win with the highest
    return min(cards, key=lambda c: (c & 7, c))  # discard the highest card


@dataclass
class _Regrets:
    regret: dict[str, list[float]] = field(default_factory=dict)
    total: dict[str, list[float]] = field(default_factory=dict)

    def strategy(self, key: str, n: int) -> list[float]:
        r = self.regret.get(key)
        if r is None:
            return [1.0 / n] * n
        pos = [max(0.0, x) for x in r]
        s = sum(pos)
        return [x / s for x in pos] if s > 0 else [1.0 / n] * n


def _abstract(game: Game, seat: int, legal: Sequence[Action]) -> tuple[str, str, list[str]] | None:
    """(key, kind, legal abstract actions) of a policy decision, None for other decisions."""
    phase = game.phase
    mode = _mode(game.rules)
    hand = game.hand_mask(seat)
    if phase is Phase.PLAY and KNOCK in legal:
        kind, acts = "knock", ["knock", "play"]
    elif phase is Phase.ANSWER:
        kind = "answer"
        acts = [a for a in ("stay", "fold", "knock") if _ACTION_OF[a] in legal]
    elif phase is Phase.CLAIM:
        kind, acts = "claim", ["claim", "pass"]
    else:
        return None
    tricks = sum(1 for s, _, _ in game.plays if s == seat)
    key = decision_key(mode, kind, tricks, game.stake, hand, _gone(game))
    return key, kind, acts


def _concrete(game: Game, seat: int, legal: Sequence[Action], act: str) -> Action:
    if act == "play":
        return _quick_card(game, seat, legal)
    return _ACTION_OF[act]


def _policy_action(
    game: Game, seat: int, reg: _Regrets, rng: random.Random
) -> Action:
    legal = game.legal_actions()
    ab = _abstract(game, seat, legal)
    if ab is not None:
        key, _, acts = ab
        strat = reg.strategy(key, len(KIND_ACTIONS[key.split("|")[1]]))
        kind_acts = KIND_ACTIONS[key.split("|")[1]]
        ps = [strat[kind_acts.index(a)] for a in acts]
        total = sum(ps)
        x = rng.random() * total
        for a, p in zip(acts, ps, strict=True):
            x -= p
            if x <= 0:
                return _concrete(game, seat, legal, a)
        return _concrete(game, seat, legal, acts[-1])
    phase = game.phase
    if phase is Phase.PLAY:
        return _quick_card(game, seat, legal)
    if phase is Phase.CLAIM_CHALLENGE or phase is Phase.EXCHANGE_CHALLENGE:
        return CHALLENGE if rng.random() < 0.1 else PASS
    if phase is Phase.EXCHANGE:
        weak = strength(game.hand_mask(seat), 0, True) < 0.35
        return EXCHANGE if weak else PASS
    return legal[0]


def _rollout(game: Game, reg: _Regrets, rng: random.Random, hand_no: int) -> None:
    while game.hand_no == hand_no and not game.is_over and game.turn >= 0:
        seat = game.turn
        game.apply(seat, _policy_action(game, seat, reg, rng))


def train(
    iterations: int = 6000,
    seed: int = 0,
    *,
    presets: Sequence[str] = ("rulebook", "classic"),
    players: Sequence[int] = (3, 4, 5, 6),
    progress: Callable[[int], None] | None = None,
) -> Policy:
    """Self-play regret matching over the abstraction; ``iterations`` hands in all.

    Each iteration deals a hand of a preset and table size (cycled), plays it by the
    current strategy and updates every policy decision met on the way from rollouts
    of each of its actions. ``progress`` is called with 1 after each hand.
    """
    if iterations < 1:
        raise ValueError(f"iterations: must be >= 1, not {iterations}")
    rng = random.Random(seed)
    reg = _Regrets()
    rule_sets = [Rules.preset(p) for p in presets]
    for it in range(iterations):
        rules = rule_sets[it % len(rule_sets)]
        n = players[(it // len(rule_sets)) % len(players)]
        lives = rng.choice((2, 3, 5, 10))
        game = Game.new(rules.replace(lives=lives), n, seed=rng.getrandbits(48),
                        dealer=rng.randrange(n))
        hand_no = game.hand_no
        while game.hand_no == hand_no and not game.is_over and game.turn >= 0:
            seat = game.turn
            legal = game.legal_actions()
            ab = _abstract(game, seat, legal)
            if ab is not None and len(ab[2]) > 1:
                key, kind, acts = ab
                kind_acts = KIND_ACTIONS[kind]
                strat = reg.strategy(key, len(kind_acts))
                values: dict[str, float] = {}
                for a in acts:
                    g = game.clone()
                    before = g.lives_lost[seat]
                    g.apply(seat, _concrete(g, seat, legal, a))
                    _rollout(g, reg, rng, hand_no)
                    values[a] = -(g.lives_lost[seat] - before)
                ps = [strat[kind_acts.index(a)] for a in acts]
                norm = sum(ps) or 1.0
                mix = sum(p / norm * values[a] for p, a in zip(ps, acts, strict=True))
                r = reg.regret.setdefault(key, [0.0] * len(kind_acts))
                t = reg.total.setdefault(key, [0.0] * len(kind_acts))
                for a in acts:
                    i = kind_acts.index(a)
                    r[i] = max(0.0, r[i] + values[a] - mix)  # regret matching+
                for i, p in enumerate(strat):
                    t[i] += p * (it + 1)  # linear averaging
            game.apply(seat, _policy_action(game, seat, reg, rng))
        if progress is not None:
            progress(1)
    tables: dict[str, dict[str, float]] = {}
    for key, t in reg.total.items():
        s = sum(t)
        kind_acts = KIND_ACTIONS[key.split("|")[1]]
        if s > 0:
            tables[key] = {a: t[i] / s for i, a in enumerate(kind_acts)}
    return Policy(tables, iterations, seed)


