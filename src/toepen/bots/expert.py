"""``expert``: the default opponent: inference-weighted PIMC with a self-play policy.

On top of :class:`~toepen.bots.pimc.PimcBot`:

* **Inference.** Candidate deals of the hidden cards are drawn as pimc draws them
  (three per deal solved), each weighted by how likely the opponents' knocks, stays,
  folds, claims and passes of this deal were with the hands it gives them, under the
  self-play policy (:mod:`toepen.bots.policy`, trained by :mod:`toepen.tools.train`);
  the deals solved are drawn from the candidates by those weights. A player who
  knocked is thereby mostly given strong cards, but never only strong ones: the
  policy bluffs, and a floor on every likelihood keeps odd players from being ruled
  out.
* **Reading the betting through the solve.** Each opponent's knocks, stays, folds
  and plays-without-knocking of this deal also weigh a candidate deal by the
  reading table (:mod:`toepen.bots.reads`): when the exact solve of that deal from
  the opponent's own side says it misses its goal, the deal is multiplied by how
  much less often search players bet that way with such a position (a knock: about
  a twentieth), mixed with ``READ_BLUFF`` of a player who bets whatever it holds (so
  a knock makes such a deal about 4 times less likely, and a bluff can still be
  called). The product per opponent is kept within ``READ_CLIP``.
* **Bets priced with the knock war to come** (:mod:`toepen.bots.escalation`): a
  bet's one-shot value (the hand played out at the stake it leaves) less the lives
  such a bet cost beyond that value in self-play (the knocks after it), where every
  action of the decision was measured.
* **Its own knock, answer and claim decisions** follow those expected values
  when one action is clearly best; when several are within ``MARGIN`` lives of the
  best, it draws among them by the policy's frequencies, so close decisions bluff
  and call at the learned rates instead of always the same way.
* Opponents' answers to its knocks are modelled as pimc models them (their own
  solve, shrunk to the base rate; measured, that beat the self-play policy's fold
  rates as a model of real opponents), except that a player who has knocked in this
  hand is taken to stay.
* **Challenges** of an armoede claim use the policy's claim rates for genuine and
  for other hands (Bayes) instead of pimc's fixed prior.

The policy ships as ``toepen/bots/data/expert_policy.json`` and is rebuilt by
``toepen train expert``.

>>> from toepen.engine import Game
>>> from toepen.view import observe
>>> g = Game.new("rulebook", 4, seed=5)
>>> bot = ExpertBot(seed=1, samples=4)
>>> bot.act(observe(g, g.turn)) in g.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from math import log
from pathlib import Path
from typing import TypeVar

from ..cards import HIGH_CARDS_MASK
from ..engine.actions import CHALLENGE, CLAIM, EXCHANGE, FOLD, KNOCK, PASS, STAY, Action
from ..engine.phase import Phase
from ..view import View
from .escalation import ACTIONS as ESCALATED
from .escalation import HAND_AFTER, Escalation, load_escalation
from .knowledge import Knowledge, Observed, low_hand_chance, next_to_play, side_of, strength
from .pimc import PimcBot, World, threshold_likelihood
from .policy import CUTS, KIND_ACTIONS, Policy, bucket, decision_key, key_of, load_policy
from .reads import Reads, load_reads
from .solver import Solver

__all__ = ["BLIND_STAKE", "Evaluation", "ExpertBot", "MARGIN", "LIKELIHOOD_FLOOR"]

POLICY_SHARE = 0.5
"""Weight of the self-play policy in the opponent model (the rest: pimc's threshold reader)."""
MARGIN = 0.02
"""Lives: actions whose expected values are this close to the best are mixed by the policy."""
LIKELIHOOD_FLOOR = 0.05
"""No observed action makes a deal less likely than this factor."""
READ_BLUFF = 0.2
"""Share of bets read as made whatever the position: the table was measured on a bot
that never bluffs a knock, and a reader that believed it fully would fold to every bluff
(measured under rulebook against pimc: 0.2 keeps most of the gain of 0)."""
READ_IGNORE = (0.75, 1.35)
"""An opponent whose reading weight falls in this band is not read (it would cost a
solve per candidate deal for little: the solves are most of expert's thinking time)."""
BLIND_STAKE = 3
"""The stake a blind knock takes the hand to (docs/rules.md, "Blind knock")."""
READ_CLIP = (0.02, 50.0)
"""Bounds of the reading table's weight of one opponent (the product of its decisions)."""

T = TypeVar("T")
_NAMES = {KNOCK: "knock", STAY: "stay", FOLD: "fold", CLAIM: "claim", PASS: "pass",
          EXCHANGE: "exchange"}
_POLICY: Policy | None = None
_READS: Reads | None = None
_ESCALATION: Escalation | None = None


def _shipped_policy() -> Policy:
    global _POLICY
    if _POLICY is None:
        _POLICY = load_policy()
    return _POLICY


def _shipped_reads() -> Reads:
    global _READS
    if _READS is None:
        _READS = load_reads()
    return _READS


def _shipped_escalation() -> Escalation:
    global _ESCALATION
    if _ESCALATION is None:
        _ESCALATION = load_escalation()
    return _ESCALATION


def _table(given: T | Path | None, load: Callable[[Path], T], shipped: Callable[[], T]) -> T:
    """One of expert's tables: ``given`` itself, loaded from a path, or the shipped one."""
    if isinstance(given, Path):
        return load(given)
    return shipped() if given is None else given


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One decision valued (:meth:`ExpertBot.evaluation`): what the hint, the review
    and expert itself read."""

    values: dict[Action, float]
    """Every legal action: the seat's expected change of lives in the hand after it
    (negative: lost), the knock war to come included (the escalation table)."""
    best: Action
    """The action expert takes when it does not mix (the hint's, the review's best)."""
    near: tuple[Action, ...]
    """The actions within ``MARGIN`` that expert mixes among (just ``best`` if none)."""
    choice: Action
    """What expert chose this time (one of ``near``)."""


class ExpertBot(PimcBot):
    """PIMC with policy-weighted samples and policy-mixed knocks; see the module doc."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        time_budget: float | None = None,
        samples: int | None = None,
        policy: Policy | Path | None = None,
        reads: Reads | Path | None = None,
        escalation: Escalation | Path | None = None,
    ) -> None:
        super().__init__(seed=seed, time_budget=time_budget, samples=samples)
        self.policy = _table(policy, load_policy, _shipped_policy)
        self.reads = _table(reads, load_reads, _shipped_reads)
        self.escalation = _table(escalation, load_escalation, _shipped_escalation)
        self.last_near: tuple[Action, ...] = ()
        """The actions mixed among at the last decision (empty when it did not mix)."""
        self.last_one_shot: dict[Action, float] = {}
        """The last decision's values before the escalation table (what ``toepen train
        escalation --damping`` measures the knock war beyond)."""

    def samples_for(self, view: View) -> int:
        """pimc's count, half as many again; twice as many to answer a knock (where
        most lives are won or lost, and a decision costs fewer solves than a card)."""
        if self.samples is not None:
            return self.samples
        base = super().samples_for(view)
        return base * 2 if view.phase == Phase.ANSWER else base * 3 // 2

    def _mode(self, view: View) -> str:
        return "W" if view.rules.last_trick_wins else "L"

    def log_likelihood(self, view: View, obs: Sequence[Observed],
                       hands: Sequence[int]) -> float:
        """The log of how likely the observed decisions are with the opponents holding
        ``hands``.

        Each decision's likelihood is a mixture of two kinds of player: one who plays
        the self-play policy (balanced, bluffing) and pimc's plain reader (a knock
        means strength); weight ``POLICY_SHARE`` on the first.
        """
        return self._log_likelihood(view, obs, hands, self._policy_probs(view, obs))

    def _policy_probs(self, view: View, obs: Sequence[Observed]) -> list[list[float]]:
        """For each observed decision, the policy's probability of the action taken by
        ``genuine * 6 + bucket`` (what its key depends on, besides the decision's own
        context): looked up once per decision instead of once per candidate deal."""
        mode = self._mode(view)
        return [[self.policy.prob(key_of(mode, kind, tricks, stake, g, b), action)
                 for g in (0, 1) for b in range(len(CUTS) + 1)]
                for _seat, kind, action, tricks, stake, _later, _gone in obs]

    def _log_likelihood(self, view: View, obs: Sequence[Observed], hands: Sequence[int],
                        probs: Sequence[Sequence[float]]) -> float:
        want = view.rules.last_trick_wins
        w = 0.0
        for (seat, _kind, action, _tricks, _stake, later, gone), ps in zip(obs, probs,
                                                                          strict=True):
            held = hands[seat] | later
            if not held:
                continue  # a folded seat: its hand is not sampled
            st = strength(held, gone, want)
            genuine = 0 if held & HIGH_CARDS_MASK else 6
            plain = threshold_likelihood(action, st)
            mixed = POLICY_SHARE * ps[genuine + bucket(st)] + (1 - POLICY_SHARE) * plain
            w += log(max(LIKELIHOOD_FLOOR, mixed))
        return w

    def candidate_log_weights(self, view: View, know: Knowledge, obs: Sequence[Observed],
                              cands: Sequence[Sequence[int]]) -> list[float]:
        """:meth:`log_likelihood` of what was seen, plus the log of the reading table's
        weight of each opponent (its bets read through the solve of the candidate deal
        from its side)."""
        probs = self._policy_probs(view, obs)
        weights = [self._log_likelihood(view, obs, h, probs) for h in cands]
        mode = self._mode(view)
        factor: dict[int, float] = {}
        for seat, kind, action, _tricks, stake, _later, _before in obs:
            if know.side >> seat & 1:
                continue
            # The stake faced: an answer's counter-knock is recorded at the raised stake.
            faced = stake - 1 if kind == "answer" and action == "knock" else stake
            ratio = self.reads.ratio(mode, kind, faced, action)
            factor[seat] = factor.get(seat, 1.0) * (READ_BLUFF + (1 - READ_BLUFF) * ratio)
        lo, hi = READ_CLIP
        # Weak evidence (a few plays on, one stay) is not worth a solve per candidate.
        factor = {s: min(hi, max(lo, f)) for s, f in factor.items()
                  if not READ_IGNORE[0] <= f <= READ_IGNORE[1]}
        if factor:
            led = view.led_suit if (view.trick or view.led_suit >= 0) else -1
            solvers: list[tuple[float, Solver]] = [
                (f, self.side_solver(view, side_of(view, s))) for s, f in factor.items()
            ]
            for i, hands in enumerate(cands):
                leader, trick = next_to_play(view)
                for f, solver in solvers:
                    if solver.try_solve(hands, leader, trick, led) is False:
                        weights[i] += log(f)
        return weights

    def answer_folds(
        self, view: View, world: World, seats: Sequence[int], stake: int, rng: random.Random
    ) -> int:
        """pimc's model, except that a player who has knocked in this hand stays: it has
        shown a hand it values, and it answers a counter-knock by staying or knocking
        again far more often than by folding (measured at 6-player classic tables,
        where pimc's model made expert counter-knock into re-knocks)."""
        folds = super().answer_folds(view, world, seats, stake, rng)
        for seat, act in view.hand_actions[view.deal_start:]:
            if act is KNOCK:
                folds &= ~(1 << seat)
        return folds

    def act(self, view: View) -> Action:
        """pimc's machinery with expert's choice; the blind round valued too (pimc
        always passes there): :meth:`blind_values`."""
        self.last_near = ()
        if view.phase == Phase.BLIND and len(view.legal) > 1:
            return self.choose(view, "blind", self.blind_values(view), self.rng_for(view))
        return super().act(view)

    def blind_values(self, view: View) -> dict[Action, float]:
        """The blind round, cards unseen: every hand is an average one (``fresh_loss``).
        Passing plays for 1; a blind knock plays for :data:`BLIND_STAKE`, unless the
        others fold to it, as an expert answers when staying blind costs more than the
        1 a fold pays; then the hand is won."""
        fresh = self.fresh_loss(view)
        they_fold = BLIND_STAKE * fresh > 1
        values = {PASS: -fresh, KNOCK: 0.0 if they_fold else -BLIND_STAKE * fresh}
        return {a: values[a] for a in view.legal if a in values}

    def evaluation(self, view: View) -> Evaluation:
        """The one valuation of ``view``'s decision: every legal action's value (the
        seat's expected lives, the knock war to come included), the action taken when
        it does not mix, the actions it mixes among, and its choice this time.

        Raises ValueError for a view with fewer than two legal actions (nothing to
        decide)."""
        if len(view.legal) < 2:
            raise ValueError("a decision needs two legal actions or more")
        choice = self.act(view)
        values = self.values_for(view)
        if values is None or set(values) != set(view.legal):
            raise ValueError(f"not every legal action of {view.phase} was valued")
        utility = self.last_utility
        best = max(utility, key=lambda a: (utility[a], -list(utility).index(a)))
        return Evaluation(values, best, self.last_near or (best,), choice)

    def choose(
        self, view: View, kind: str, values: dict[Action, float], rng: random.Random,
        others: Mapping[Action, float] | None = None, among: Sequence[Action] | None = None,
    ) -> Action:
        """The best action by expected value, a bet's one-shot value less the knock war
        to come (the escalation table); among those within ``MARGIN`` of the best, one
        drawn by the policy's frequencies (the learned bluffs and calls)."""
        assert view.seat is not None
        self.last_one_shot = dict(values)
        if kind in ESCALATED or kind in HAND_AFTER:
            values = self.escalated(view, kind, values)
        utility = self.note(view, values, others, among)
        top = max(utility.values())
        near = [a for a, u in utility.items() if u >= top - MARGIN]
        self.last_near = tuple(near) if len(near) > 1 and kind in KIND_ACTIONS else ()
        if len(near) == 1 or kind not in KIND_ACTIONS:
            # One clear best, or a decision the policy has no frequencies for (kans).
            return max(near, key=lambda a: (utility[a], -near.index(a)))
        tricks = sum(1 for s, _ in view.played if s == view.seat)
        key = decision_key(self._mode(view), kind, tricks, view.stake, view.hand_mask,
                           view.gone_mask)
        prior = self.policy.probs(key, [_NAMES.get(a, "play") for a in near])
        x = rng.random()
        for a, p in zip(near, prior, strict=True):
            x -= p
            if x <= 0:
                return a
        return near[-1]

    def escalated(self, view: View, kind: str, values: dict[Action, float]
                  ) -> dict[Action, float]:
        """Each bet's one-shot value less its extra lives in the escalation table (what
        the knocks after it cost in self-play, beyond the one-shot value), never above
        0 (a hand takes lives, it never gives them). Every card counts as ``play``; a
        card decision takes the context of its place in the trick where that is measured
        (:meth:`~toepen.bots.escalation.Escalation.escalate_at`).
        A declaration before the tricks (:data:`~toepen.bots.escalation.HAND_AFTER`)
        leaves a hand to be played whatever is chosen: an action without a measure of
        its own is charged the knock war of an average hand
        (:meth:`~toepen.bots.escalation.Escalation.hand_extra`)."""
        mode, players = self._mode(view), len(view.players)
        if kind in HAND_AFTER:
            war = self.escalation.hand_extra(mode, players)
            extra = {a: self.escalation.extra(mode, players, kind, view.stake, _NAMES[a])
                     if kind in ESCALATED and a in _NAMES else None for a in values}
            return {a: min(0.0, v - (war if extra[a] is None else extra[a] or 0.0))
                    for a, v in values.items()}
        names = {a: _NAMES.get(a, "play") for a in values}
        zero = dict.fromkeys(names.values(), 0.0)
        if kind in ("knock", "play") and view.phase == Phase.PLAY:
            position = "follow" if view.trick else "lead"
            shift = self.escalation.escalate_at(mode, players, kind, position, view.stake,
                                                zero)
        else:
            shift = self.escalation.escalate(mode, players, kind, view.stake, zero)
        if not any(shift.values()):
            return dict(values)
        return {a: min(0.0, v + shift[names[a]]) for a, v in values.items()}

    def _exchange_challenge(self, view: View, know: Knowledge, rng: random.Random) -> Action:
        """pimc's challenge, valued with the hand still to be played (an average one:
        the challenger's own hand plays the same either way), so that its values are
        the seat's expected lives in the hand, as every other decision's."""
        pc = self.discard_clean_chance(view, know)
        hand = self.fresh_loss(view)
        return self.choose(view, "challenge", {PASS: -hand, CHALLENGE: -(pc + hand)}, rng,
                           {CHALLENGE: 1 - pc})

    def _laundry_challenge(self, view: View, know: Knowledge, rng: random.Random) -> Action:
        """pimc's check of a laundry claim, with the hand still to be played (as
        :meth:`_exchange_challenge`)."""
        ph = self.laundry_honest_chance(view, know)
        hand = self.fresh_loss(view)
        return self.choose(view, "challenge", {PASS: -hand, CHALLENGE: -(ph + hand)}, rng,
                           {CHALLENGE: 1 - ph})

    def claim_genuine_chance(self, view: View, know: Knowledge, worlds: Sequence[World]) -> float:
        """P(genuine | claimed) by Bayes with the policy's claim rates."""
        claimer = view.target
        mode = self._mode(view)
        g0 = low_hand_chance(know.pool)
        p_gen = sum(self.policy.prob(f"{mode}|claim|1|{b}", "claim") for b in range(6)) / 6
        dirty = [w for w in worlds if w.hands[claimer] & HIGH_CARDS_MASK]
        gone = view.gone_mask
        p_bluff = (
            sum(self.policy.prob(decision_key(mode, "claim", 0, 1, w.hands[claimer], gone),
                                 "claim") for w in dirty) / len(dirty)
            if dirty else 0.1
        )
        num = g0 * max(p_gen, 1e-3)
        return num / (num + (1 - g0) * max(p_bluff, 1e-3))
