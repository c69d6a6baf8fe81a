"""``pimc``: Perfect Information Monte Carlo from the view alone.

For each decision the bot samples deals of the hidden cards that agree with
everything public (:class:`Knowledge`), solves the card play of each sampled deal
exactly (:mod:`toepen.bots.solver`, paranoid convention) and takes the action with
the least expected loss of lives, where

* a card is worth ``stake * P(the root side misses its goal)`` over the samples;
* ``fold`` costs the stake last accepted, at once;
* ``stay`` is the solved outcome at the new stake; ``knock`` the solved outcome at
  the raised stake after the opponents' answers, which the bot models with a
  threshold rule: an opponent folds when the cheap :func:`strength` of its sampled
  hand is below :data:`FOLD_BELOW` (``expert`` replaces this by its learned policy);
* armoede claims, challenges and exchanges compare the current hand's solved value
  with a fresh hand's (an average hand) and the one-life penalties, by expected value.

The objective is the bot's own expected lives lost; ``OTHERS_WEIGHT`` of the
opponents' expected loss breaks what it leaves open (a knock when the bot is safe,
an exchange challenge that costs it nothing on average).

>>> from toepen.engine import Game
>>> from toepen.view import observe
>>> g = Game.new("no-knock", 4, seed=5)
>>> bot = PimcBot(seed=1, samples=4)
>>> bot.act(observe(g, g.turn)) in g.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb, exp, isfinite, log

from ..cards import FULL_MASK, HIGH_CARDS_MASK, RANK_MASKS, SEVEN, TEN
from ..engine.actions import (
    ACTIONS,
    CHALLENGE,
    CLAIM,
    EXCHANGE,
    FOLD,
    KNOCK,
    PASS,
    STAY,
    Action,
)
from ..engine.declare import laundry_word, three_of_a_kind
from ..engine.phase import Phase
from ..narration import Message, action_message
from ..seeds import derive_seed
from ..view import View
from .knowledge import (
    Knowledge,
    Observed,
    low_hand_chance,
    next_to_play,
    observed_decisions,
    opening_stake,
    pick_cards,
    side_of,
    strength,
)
from .solver import Solver, representatives

__all__ = [
    "PimcBot", "Knowledge", "strength", "World", "observed_decisions", "threshold_likelihood",
    "next_to_play", "side_of",
]

FOLD_BELOW = 0.22
"""pimc's model of an opponent answering a knock: fold when :func:`strength` < this."""
KNOCK_ABOVE = 0.5
"""pimc's reading of an opponent's knock: its hand's strength is likely at least this."""
FOLD_ABOVE = 0.35
"""pimc's reading of an opponent's fold: its hand's strength was likely below this."""
CANDIDATES = 3
"""Candidate deals drawn per deal solved, when observed decisions weight them."""
OTHERS_WEIGHT = 0.1
"""Weight of the opponents' mean expected loss in the bot's utility (a tie-breaker)."""
MAX_NODES = 3000
"""Node budget of one solve at up to 4 players (a third at 5-6, a fifth at 7-8); a world
beyond it is valued by :func:`strength` instead."""
CLAIM_BLUFF_RATE = 0.15
"""pimc's prior: how often a hand that is not genuine armoede is claimed anyway."""
EXCHANGE_DIRTY_RATE = 0.1
"""pimc's prior: how often a hand holding a 7, 8, 9 or ten is exchanged anyway."""
CHALLENGE_RATE = 0.5
"""pimc's prior: the chance a bluffed claim or a dirty exchange is challenged."""


@dataclass(slots=True)
class World:
    """One sampled deal of the hidden cards with its weight."""

    hands: list[int]
    weight: float = 1.0


def threshold_likelihood(action: str, st: float) -> float:
    """pimc's reading of one decision made with a hand of strength ``st``.

    >>> threshold_likelihood("knock", 0.9), threshold_likelihood("knock", 0.1)
    (0.8, 0.2)
    >>> threshold_likelihood("play", 0.1)
    1.0
    """
    if action == "knock":
        ok = st >= KNOCK_ABOVE
    elif action == "stay":
        ok = st >= FOLD_BELOW
    elif action == "fold":
        ok = st < FOLD_ABOVE
    else:
        return 1.0
    return 0.8 if ok else 0.2


def relative_weights(logs: Sequence[float]) -> list[float]:
    """Weights proportional to ``exp(logs)``, the largest 1 (so they never all underflow
    to zero, however many decisions were read); all equal when no log is finite.

    >>> [round(w, 6) for w in relative_weights([-2000.0, -2000.0 + log(4)])]
    [0.25, 1.0]
    >>> relative_weights([float("-inf"), float("-inf")])
    [1.0, 1.0]
    """
    top = max(logs, default=0.0)
    if not isfinite(top):
        return [1.0] * len(logs)
    return [exp(x - top) for x in logs]


# -- the bot ---------------------------------------------------------------------------------


class PimcBot:
    """PIMC over exact paranoid solves; see the module documentation."""

    name = "pimc"
    others_weight = OTHERS_WEIGHT
    """Weight of the opponents' expected loss in this bot's utility (the review: 0)."""

    def __init__(
        self,
        seed: int | None = None,
        time_budget: float | None = None,
        samples: int | None = None,
    ) -> None:
        self.seed = 0 if seed is None else seed
        self.time_budget = time_budget
        self.samples = samples
        """Sampled deals per decision when given (else :meth:`samples_for` scales them)."""
        self._side_solvers: dict[int, Solver] = {}
        self.last_values: dict[Action, float] = {}
        """The seat's expected change of lives (negative: lost) after each legal action of
        the last decision: the one valuation (the hint's figures, the review's values)."""
        self.last_utility: dict[Action, float] = {}
        """What the last decision was chosen by: the candidate actions' values with
        ``others_weight`` of the opponents' expected loss (a tie-breaker)."""
        self._last_state = -1

    def note(self, view: View, values: Mapping[Action, float],
             others: Mapping[Action, float] | None = None,
             among: Sequence[Action] | None = None) -> dict[Action, float]:
        """Remember the values of ``view``'s actions (what :meth:`explain` and the
        review report) and return the utility the choice is made by: each candidate
        (``among``, else every valued action) plus ``others_weight`` of ``others`` (the
        opponents' expected loss after it)."""
        self.last_values = dict(values)
        cands = list(values) if among is None else list(among)
        extra = others or {}
        self.last_utility = {a: values[a] + self.others_weight * extra.get(a, 0.0)
                             for a in cands}
        self._last_state = view.action_count
        return dict(self.last_utility)

    def values_for(self, view: View) -> dict[Action, float] | None:
        """The values noted at ``view``'s decision (None if the last decision was
        another one, or one with a single legal action)."""
        if self._last_state != view.action_count or not self.last_values:
            return None
        return dict(self.last_values)

    def explain(self, view: View, act: Action) -> Message | None:
        """Why ``act``, as a message (``hint.reason.sampled``): of the options weighed at
        this decision it loses the fewest lives on average over the sampled deals, and
        the next best of them. None when ``act`` was not this decision's choice.

        A value is the expected change of the bot's lives (negative: lives lost), with a
        small credit for what the others lose (which only breaks near-ties); the message
        names the moves and counts, never a value in one language's number format.
        """
        if self._last_state != view.action_count or act not in self.last_values:
            return None
        ranked = sorted(self.last_values.items(), key=lambda kv: -kv[1])
        others = [a for a, _ in ranked if a != act]
        if not others:
            return Message("hint.reason.forced", {"action": action_message(act)})
        return Message("hint.reason.sampled", {
            "action": action_message(act), "other": action_message(others[0]),
            "k": len(ranked), "n": self.samples_for(view)})

    # -- plumbing ------------------------------------------------------------------------

    def samples_for(self, view: View) -> int:
        """Sampled deals per decision: ``samples`` if given, else scaled by table and budget."""
        if self.samples is not None:
            return self.samples
        active = sum(view.active)
        base = 48 if active <= 3 else 32 if active <= 4 else 12 if active <= 6 else 8
        if self.time_budget is not None:
            base = max(4, int(base * min(4.0, self.time_budget / 0.25)))
        return base

    def rng_for(self, view: View) -> random.Random:
        """A generator for one decision: the seed, the seat and the state number only
        (derived by :func:`toepen.seeds.derive_seed`, with the bot's name)."""
        seat = -1 if view.seat is None else view.seat
        return random.Random(derive_seed(self.name, self.seed, seat, view.action_count))

    def log_likelihood(self, view: View, obs: Sequence[Observed],
                       hands: Sequence[int]) -> float:
        """The log of how likely the observed decisions are with the opponents holding
        ``hands`` (in logs: a product of hundreds of factors, as a knocking war under
        ``knock_limit: none`` observes, would underflow to zero).

        pimc's threshold model: a knock is made with a hand of :func:`strength` at
        least ``KNOCK_ABOVE``, a stay with one at least ``FOLD_BELOW``, a fold with one
        below ``FOLD_ABOVE`` - each four times likelier than the opposite.
        """
        want = view.rules.last_trick_wins
        w = 0.0
        for seat, _kind, action, _tricks, _stake, later, gone in obs:
            held = hands[seat] | later
            if held:
                w += log(threshold_likelihood(action, strength(held, gone, want)))
        return w

    def worlds(self, view: View, know: Knowledge, rng: random.Random, k: int) -> list[World]:
        """``k`` deals drawn from ``CANDIDATES * k`` by :meth:`candidate_weights`.

        With no decision of an active opponent observed, ``k`` plain draws."""
        obs = [o for o in observed_decisions(view) if view.active[o[0]]]
        if not obs:
            return [World(know.sample(rng)) for _ in range(k)]
        cands = [know.sample(rng) for _ in range(CANDIDATES * k)]
        picked = rng.choices(range(len(cands)),
                             weights=relative_weights(self.candidate_log_weights(
                                 view, know, obs, cands)), k=k)
        return [World(list(cands[i])) for i in picked]

    def candidate_log_weights(self, view: View, know: Knowledge, obs: Sequence[Observed],
                              cands: Sequence[Sequence[int]]) -> list[float]:
        """The log weight of each candidate deal: :meth:`log_likelihood` of what was seen."""
        return [self.log_likelihood(view, obs, h) for h in cands]

    def side_solver(self, view: View, side: int) -> Solver:
        """The solver from ``side``'s point of view, one per side for the whole decision
        (its memo is shared by every deal solved from that side)."""
        solver = self._side_solvers.get(side)
        if solver is None:
            solver = Solver(len(view.players), side, view.rules.last_trick_wins,
                            self._budget(view))
            self._side_solvers[side] = solver
        return solver

    def answer_folds(
        self, view: View, world: World, seats: Sequence[int], stake: int, rng: random.Random
    ) -> int:
        """Mask of ``seats`` that fold to a knock to ``stake`` in ``world``.

        pimc's model: an opponent values staying by the same solve from its own side
        of the sampled deal, shrunk halfway to the table's base rate (it cannot see
        the deal), and folds when staying costs more than the stake it accepted. A
        solve over budget falls back to the threshold :data:`FOLD_BELOW` on strength.
        """
        want = view.rules.last_trick_wins
        gone = view.gone_mask
        m = max(2, sum(view.active))
        base = 1 / m if want else (m - 1) / m
        leader, trick = next_to_play(view)
        folds = 0
        for s in seats:
            solver = self.side_solver(view, side_of(view, s))
            r = solver.try_solve(world.hands, leader, trick, view.led_suit)
            if r is None:
                fold = strength(world.hands[s], gone, want) < FOLD_BELOW
            else:
                p = 0.5 * r + 0.5 * base
                fold = stake * (1 - p) > view.accepted[s]
            if fold:
                folds |= 1 << s
        return folds

    def choose(
        self, view: View, kind: str, values: dict[Action, float], rng: random.Random,
        others: Mapping[Action, float] | None = None, among: Sequence[Action] | None = None,
    ) -> Action:
        """The action to take: ``values`` (the seat's expected lives after each legal
        action) are noted; the best of ``among`` (default: all) by the utility of
        :meth:`note` (pimc: the best; ties by table order)."""
        utility = self.note(view, values, others, among)
        return max(utility, key=lambda a: (utility[a], -list(utility).index(a)))

    # -- acting --------------------------------------------------------------------------

    def act(self, view: View) -> Action:
        """The action of least expected loss (one of ``view.legal``)."""
        legal = view.legal
        if not legal:
            raise ValueError("act() called for a seat with no legal action")
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase == Phase.REBUY:
            return PimcBot.choose(self, view, "rebuy", self.rebuy_values(view),
                                  self.rng_for(view))
        if phase == Phase.BLIND:
            return PASS  # no sight of the cards: a blind knock risks 3 on a coin toss
        if phase == Phase.BLIND_ANSWER:
            # Unseen cards are an average hand: stay when that costs less than folding.
            u_blind = {STAY: -view.stake * self.fresh_loss(view),
                       FOLD: -float(view.accepted[view.seat or 0])}
            return PimcBot.choose(self, view, "blind_answer", u_blind, self.rng_for(view))
        rng = self.rng_for(view)
        know = Knowledge.from_view(view)
        self._side_solvers = {}
        phase = view.phase
        if phase == Phase.PLAY and view.to_act and view.to_act[0] != view.seat:
            return self._knock_window(view, know, rng)
        if phase == Phase.PLAY:
            return self._play(view, know, rng)
        if phase == Phase.ANSWER:
            return self._answer(view, know, rng)
        if phase == Phase.CLAIM:
            return self._claim(view, know, rng)
        if phase == Phase.CLAIM_CHALLENGE:
            return self._claim_challenge(view, know, rng)
        if phase == Phase.EXCHANGE:
            return self._exchange(view, know, rng)
        if phase == Phase.EXCHANGE_CHALLENGE:
            return self._exchange_challenge(view, know, rng)
        if phase == Phase.KANS:
            return self._kans(view, know, rng)
        if phase == Phase.LAUNDRY:
            return self._laundry(view, know, rng)
        if phase == Phase.LAUNDRY_CHALLENGE:
            return self._laundry_challenge(view, know, rng)
        return legal[0]  # pragma: no cover - no other phase has legal actions

    # -- evaluation ------------------------------------------------------------------------

    def _solver(self, view: View, know: Knowledge) -> Solver:
        return Solver(know.n, know.side, view.rules.last_trick_wins, self._budget(view))

    def _budget(self, view: View) -> int:
        m = sum(view.active)
        return MAX_NODES if m <= 4 else MAX_NODES // 3 if m <= 6 else MAX_NODES // 5

    def _fallback(self, view: View, know: Knowledge, hand: int) -> float:
        """Chance of success of a world whose solve ran over budget: the hand's strength."""
        return strength(hand, view.gone_mask, view.rules.last_trick_wins)

    def success(self, view: View, know: Knowledge, worlds: Sequence[World], folds: Sequence[int],
                solver: Solver) -> float:
        """Weighted chance the bot's side reaches its goal with everyone playing on.

        ``folds[i]``: seats that leave the hand in world ``i`` before play resumes.
        """
        total = 0.0
        weight = 0.0
        for w, f in zip(worlds, folds, strict=True):
            hands = [0 if f >> s & 1 else h for s, h in enumerate(w.hands)]
            leader, trick = next_to_play(view)
            trick = [(s, c) for s, c in trick if not f >> s & 1]
            led = view.led_suit if (view.trick or view.led_suit >= 0) else -1
            others = [s for s in range(know.n) if hands[s] and not (know.side >> s & 1)]
            ok: float
            if not others and not any(not (know.side >> s & 1) for s, _ in trick):
                ok = 1.0  # everyone else folded: the hand ends, nothing to pay
            else:
                r = solver.try_solve(hands, leader, trick, led)
                ok = self._fallback(view, know, hands[know.me]) if r is None else float(r)
            total += w.weight * ok
            weight += w.weight
        return total / weight if weight else 0.0

    def _play(self, view: View, know: Knowledge, rng: random.Random) -> Action:
        legal = view.legal
        cards = [a for a in legal if a < 32]
        worlds = self.worlds(view, know, rng, self.samples_for(view))
        solver = self._solver(view, know)
        scores, best = self._card_scores(view, know, worlds, [0] * len(worlds), solver, cards)
        stake = view.stake
        # Every legal card: an equivalent card shares its representative's value.
        rest = _others_in_play(view, know)
        p = {a: scores[_representative(a, cards, rest)] for a in cards}
        values: dict[Action, float] = {a: -stake * (1 - p[a]) for a in cards}
        if KNOCK not in legal:
            return self.choose(view, "play", values, rng, among=[best])
        # The opponents' loss weighs only the candidates (``among``): the best card's.
        others = {best: self._others_loss(view, stake, p[best], 0.0)}
        seats = [s for s in know.active if not know.side >> s & 1]
        folds = [self.answer_folds(view, w, seats, stake + 1, rng) for w in worlds]
        scores_k, _ = self._card_scores(view, know, worlds, folds, solver, cards)
        p1 = max(scores_k.values())
        fold_rate = _mean_folds(folds, len(seats), worlds)
        values[KNOCK] = -(stake + 1) * (1 - p1)
        others[KNOCK] = self._others_loss(view, stake + 1, p1, fold_rate)
        return self.choose(view, "knock", values, rng, others, among=[best, KNOCK])

    def _card_scores(
        self,
        view: View,
        know: Knowledge,
        worlds: Sequence[World],
        folds: Sequence[int],
        solver: Solver,
        cards: Sequence[Action],
    ) -> tuple[dict[Action, float], Action]:
        """Chance of success after each playable card; and the card to play."""
        me = know.me
        gone_elsewhere = view.played_mask
        for _, c in view.trick:
            gone_elsewhere &= ~(1 << c)
        legal_mask = 0
        for a in cards:
            legal_mask |= 1 << a
        reps = representatives(legal_mask, FULL_MASK & ~know.hand & ~gone_elsewhere)
        rep_cards = [c for c in range(32) if reps >> c & 1]
        totals = [0.0] * len(rep_cards)
        weight = 0.0
        for w, f in zip(worlds, folds, strict=True):
            hands = [0 if f >> s & 1 else h for s, h in enumerate(w.hands)]
            trick = [(s, c) for s, c in view.trick if view.active[s] and not f >> s & 1]
            led = view.led_suit if view.led_suit >= 0 and (trick or view.trick) else -1
            vals: list[bool | None]
            if not any(hands[s] for s in range(know.n) if not know.side >> s & 1) and not any(
                not know.side >> s & 1 for s, _ in trick
            ):
                vals = [True] * len(rep_cards)
            else:
                vals = solver.move_values(hands, view.leader, trick, me, rep_cards, led)
            for i, v in enumerate(vals):
                if v is None:
                    h = hands[me] & ~(1 << rep_cards[i])
                    totals[i] += w.weight * self._fallback(view, know, h)
                else:
                    totals[i] += w.weight * v
            weight += w.weight
        scores = {ACTIONS[c]: (totals[i] / weight if weight else 0.0)
                  for i, c in enumerate(rep_cards)}
        top = max(scores.values())
        tied = [a for a, v in scores.items() if v >= top - 1e-9]
        # Ties: shed the highest card under ``loses``, keep high cards under ``wins``.
        want = view.rules.last_trick_wins
        best = max(tied, key=lambda a: (a & 7, a)) if want else min(tied, key=lambda a: (a & 7, a))
        return scores, best

    def _others_loss(self, view: View, stake: int, p: float, fold_rate: float) -> float:
        """Opponents' mean expected loss when the bot's side succeeds with chance ``p``."""
        opps = max(1, sum(view.active) - 1)
        folded = fold_rate * (stake - 1)
        if view.rules.last_trick_loses:
            return folded + p * stake / opps
        return folded + stake * (p + (1 - p) * (opps - 1) / opps)

    def _answer(self, view: View, know: Knowledge, rng: random.Random) -> Action:
        legal = view.legal
        me = know.me
        n = know.n
        stake = view.stake
        worlds = self.worlds(view, know, rng, self.samples_for(view))
        solver = self._solver(view, know)
        # Seats still to answer this knock: after me, up to the knocker.
        later: list[int] = []
        s = (me + 1) % n
        while s != view.last_knocker and s != me:
            if view.active[s] and not know.side >> s & 1:
                later.append(s)
            s = (s + 1) % n
        folds = [self.answer_folds(view, w, later, stake, rng) for w in worlds]
        p_stay = self.success(view, know, worlds, folds, solver)
        opps = max(1, sum(view.active) - 1)
        fr = _mean_folds(folds, max(1, len(later)), worlds) * len(later) / opps
        u = {STAY: -stake * (1 - p_stay), FOLD: -float(view.accepted[me])}
        others = {STAY: self._others_loss(view, stake, p_stay, fr)}
        if KNOCK in legal:
            seats = [s for s in know.active if not know.side >> s & 1]
            folds_k = [self.answer_folds(view, w, seats, stake + 1, rng) for w in worlds]
            p_k = self.success(view, know, worlds, folds_k, solver)
            fr_k = _mean_folds(folds_k, max(1, len(seats)), worlds)
            u[KNOCK] = -(stake + 1) * (1 - p_k)
            others[KNOCK] = self._others_loss(view, stake + 1, p_k, fr_k)
        order = [a for a in (STAY, FOLD, KNOCK) if a in legal and a in u]
        return self.choose(view, "answer", {a: u[a] for a in order}, rng, others)

    # -- armoede and exchange -----------------------------------------------------------------

    def hand_loss(self, view: View, know: Knowledge, worlds: Sequence[World]) -> float:
        """Expected loss of playing the current hand out at the opening stake, no knocks."""
        stake = opening_stake(view)
        solver = self._solver(view, know)
        p = self.success(view, know, worlds, [0] * len(worlds), solver)
        return stake * (1 - p)

    def rebuy_values(self, view: View) -> dict[Action, float]:
        """The buy-in (``rebuy``) valued in stakes by the chip model of a winner-takes-all
        pot: a side's chance to be the last one in is its share of the lives still in.
        Staying out is worth 0; buying in, that chance of the pot after the buy-in less
        the stakes paid (one per seat of the side). A buy-in with a single life is
        never taken (it is gone at the first payment, and keeps an evening of
        ``rebuy: any`` from running on for ever)."""
        seat = view.seat or 0
        lives = view.rebuy_lives
        teams = view.teams or tuple(range(len(view.players)))
        pools = {teams[s]: view.lives[s] for s in range(len(view.players))
                 if view.in_session[s]}
        side = sum(1 for t in teams if t == teams[seat])
        chance = lives / (sum(pools.values()) + lives) if lives > 0 else 0.0
        stakes = len(view.players) + sum(view.rebuys) + side
        value = chance * stakes - side if lives >= 2 else -float(side)
        return {STAY: value, PASS: 0.0}

    def fresh_loss(self, view: View) -> float:
        """Expected loss of an average fresh hand at stake 1 (all symmetric)."""
        m = max(2, sum(view.active))
        return 1 / m if view.rules.last_trick_loses else (m - 1) / m

    def _claim(self, view: View, know: Knowledge, rng: random.Random) -> Action:
        worlds = self.worlds(view, know, rng, self.samples_for(view))
        cur = self.hand_loss(view, know, worlds)
        fresh = self.fresh_loss(view)
        q = self.challenge_chance(view)
        # Challenged or not, a genuine claim brings a fresh deal.
        genuine = not know.hand & HIGH_CARDS_MASK
        claim = fresh if genuine else q * (1 + cur) + (1 - q) * fresh
        return self.choose(view, "claim", {PASS: -cur, CLAIM: -claim}, rng)

    def challenge_chance(self, view: View) -> float:
        """The chance that a bluffed claim or a dirty exchange is challenged."""
        return CHALLENGE_RATE

    def claim_genuine_chance(self, view: View, know: Knowledge, worlds: Sequence[World]) -> float:
        """P(the pending armoede claim is genuine): sampled base rate and a bluff prior."""
        claimer = view.target
        total = sum(w.weight for w in worlds) or 1.0
        g0 = sum(w.weight for w in worlds if not w.hands[claimer] & HIGH_CARDS_MASK) / total
        g0 = max(g0, 1e-3)
        return g0 / (g0 + CLAIM_BLUFF_RATE * (1 - g0))

    def _claim_challenge(self, view: View, know: Knowledge, rng: random.Random) -> Action:
        worlds = self.worlds(view, know, rng, self.samples_for(view))
        pg = self.claim_genuine_chance(view, know, worlds)
        cur = self.hand_loss(view, know, worlds)
        fresh = self.fresh_loss(view)
        u_chal = -(pg * (1 + fresh) + (1 - pg) * cur)
        return self.choose(view, "challenge", {PASS: -fresh, CHALLENGE: u_chal}, rng,
                           {CHALLENGE: 1 - pg})

    def _exchange(self, view: View, know: Knowledge, rng: random.Random) -> Action:
        k = self.samples_for(view)
        worlds = self.worlds(view, know, rng, k)
        cur = self.hand_loss(view, know, worlds)
        # The new hand: 4 cards of those the sampled deal left in the stock.
        new_worlds: list[World] = []
        for w in worlds:
            rest = know.leftover(w.hands)
            drawn = pick_cards(rest, 4, rng)
            hands = list(w.hands)
            hands[know.me] = drawn if drawn is not None else know.hand
            new_worlds.append(World(hands, w.weight))
        new = self.hand_loss(view, know, new_worlds)
        penalty = self.challenge_chance(view) if know.hand & HIGH_CARDS_MASK else 0.0
        return self.choose(view, "exchange", {PASS: -cur, EXCHANGE: -(new + penalty)}, rng)

    def _knock_window(self, view: View, know: Knowledge, rng: random.Random) -> Action:
        """``knock_anytime``: knock out of turn when the solved outcome at the raised stake,
        after the opponents' modelled answers, loses less than letting the play go on."""
        worlds = self.worlds(view, know, rng, self.samples_for(view))
        solver = self._solver(view, know)
        stake = view.stake
        p0 = self.success(view, know, worlds, [0] * len(worlds), solver)
        seats = [s for s in know.active if not know.side >> s & 1]
        folds = [self.answer_folds(view, w, seats, stake + 1, rng) for w in worlds]
        p1 = self.success(view, know, worlds, folds, solver)
        fold_rate = _mean_folds(folds, max(1, len(seats)), worlds)
        values = {PASS: -stake * (1 - p0), KNOCK: -(stake + 1) * (1 - p1)}
        others = {PASS: self._others_loss(view, stake, p0, 0.0),
                  KNOCK: self._others_loss(view, stake + 1, p1, fold_rate)}
        # Out of turn: one-shot values, no escalation table measured, no mixing.
        return PimcBot.choose(self, view, "window", values, rng, others)

    # -- the house rules' declarations ---------------------------------------------------

    def _kans(self, view: View, know: Knowledge, rng: random.Random) -> Action:
        """Kans op toep: draw when the sampled draws (a fourth wins the hand at once, any
        other card replaces the odd one) lose less than keeping the hand."""
        worlds = self.worlds(view, know, rng, self.samples_for(view))
        cur = self.hand_loss(view, know, worlds)
        rmask = three_of_a_kind(know.hand)
        penalty = view.rules.four_of_a_kind_penalty
        four = 0.0
        drawn_worlds: list[World] = []
        for w in worlds:
            rest = know.leftover(w.hands)
            card = pick_cards(rest, 1, rng)
            if card is None:
                drawn_worlds.append(w)
                continue
            if card & rmask:
                four += w.weight
                continue
            hands = list(w.hands)
            hands[know.me] = know.hand & rmask | card
            drawn_worlds.append(World(hands, w.weight))
        total = sum(w.weight for w in worlds) or 1.0
        p_four = four / total
        rest_loss = self.hand_loss(view, know, drawn_worlds) if drawn_worlds else 0.0
        u_draw = -(1 - p_four) * rest_loss
        return self.choose(view, "kans", {PASS: -cur, EXCHANGE: u_draw}, rng,
                           {EXCHANGE: p_four * penalty})

    def _checkers(self, view: View) -> float:
        """How many opponents are expected to check a bluffed laundry claim."""
        q = self.challenge_chance(view)
        if view.rules.laundry_check == "each":
            return q * max(1, view.opponents_in_session(view.seat or 0))
        return q

    def _laundry(self, view: View, know: Knowledge, rng: random.Random) -> Action:
        """Witte or vuile was: like the exchange, a bluff paying 1 per expected checker
        (and playing face up when caught under ``plays_open``)."""
        worlds = self.worlds(view, know, rng, self.samples_for(view))
        cur = self.hand_loss(view, know, worlds)
        new_worlds: list[World] = []
        for w in worlds:
            drawn = pick_cards(know.leftover(w.hands), 4, rng)
            hands = list(w.hands)
            hands[know.me] = drawn if drawn is not None else know.hand
            new_worlds.append(World(hands, w.weight))
        new = self.hand_loss(view, know, new_worlds)
        honest = laundry_word(know.hand, view.rules) is not None
        penalty = 0.0
        if not honest:
            open_cost = 0.25 if view.rules.laundry_caught == "plays_open" else 0.0
            penalty = self._checkers(view) * (1 + open_cost)
        return self.choose(view, "laundry", {PASS: -cur, EXCHANGE: -(new + penalty)}, rng)

    def laundry_honest_chance(self, view: View, know: Knowledge) -> float:
        """P(the pending laundry claim was honest): the chance four unknown cards make a
        witte or vuile was, against pimc's bluff prior."""
        pool = know.pool
        size = pool.bit_count()
        if size < 4:
            return 1.0
        low = (pool & ~HIGH_CARDS_MASK).bit_count()
        sevens = (pool & RANK_MASKS[SEVEN]).bit_count()
        g0 = comb(low, 4) / comb(size, 4) if view.rules.witte_was else 0.0
        if view.rules.vuile_was:
            g0 += comb(low, 3) * sevens / comb(size, 4)
        g0 = max(g0, 1e-3)
        return g0 / (g0 + EXCHANGE_DIRTY_RATE * (1 - g0))

    def _laundry_challenge(self, view: View, know: Knowledge, rng: random.Random) -> Action:
        ph = self.laundry_honest_chance(view, know)
        return self.choose(view, "challenge", {PASS: 0.0, CHALLENGE: -ph}, rng,
                           {CHALLENGE: 1 - ph})

    def discard_clean_chance(self, view: View, know: Knowledge) -> float:
        """P(the pending exchanger's discarded hand held no 7, 8, 9 or ten)."""
        target = view.target
        for s, k, r in view.tells:
            if s == target and r == TEN and k >= 3:
                return 0.0
        g0 = max(low_hand_chance(know.pool), 1e-3)
        return g0 / (g0 + EXCHANGE_DIRTY_RATE * (1 - g0))

    def _exchange_challenge(self, view: View, know: Knowledge, rng: random.Random) -> Action:
        pc = self.discard_clean_chance(view, know)
        return self.choose(view, "challenge", {PASS: 0.0, CHALLENGE: -pc}, rng,
                           {CHALLENGE: 1 - pc})


def _others_in_play(view: View, know: Knowledge) -> int:
    """The cards still in play outside the seat's hand (as the solver's merging sees them)."""
    gone = view.played_mask
    for _, c in view.trick:
        gone &= ~(1 << c)
    return FULL_MASK & ~know.hand & ~gone


def _representative(card: Action, cards: Sequence[Action], others: int) -> Action:
    """The card the solver tries for ``card``: the highest of its run of equivalent cards
    (adjacent among the cards in play, no other player's card between)."""
    legal = 0
    for a in cards:
        legal |= 1 << int(a)
    c = int(card)
    rep = c
    b = c - 1
    while b >= (c & ~7):
        if others >> b & 1:
            break
        if legal >> b & 1:
            rep = b
        b -= 1
    for a in cards:
        if int(a) == rep:
            return a
    return card  # pragma: no cover - rep is one of the cards


def _mean_folds(folds: Sequence[int], seats: int, worlds: Sequence[World]) -> float:
    total = sum(w.weight for w in worlds) or 1.0
    return sum(w.weight * f.bit_count() for w, f in zip(worlds, folds, strict=True)) / (
        total * max(1, seats)
    )


