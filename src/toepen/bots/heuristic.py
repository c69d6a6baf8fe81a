"""``heuristic``: sound human play from the tips of the rule books, in well under 1 ms.

The bot reasons only about its own view. Everything turns on one estimate: the
chance that a card kept to the end takes the 4th trick. A card wins the last trick
when it is led and no opponent holds a higher card of its suit, or when its suit is
led and it beats what is played. From the cards not yet seen (not held, not played,
not shown in an exchanged-away discard) and from the voids the table has shown, the
bot estimates for each unseen card how likely an opponent holds it, and from that:

* **tricks**: each legal card is scored by what it leaves for the end. With
  ``last_trick: loses`` the bot sheds its tens and high cards early and keeps a low
  card of a suit others still hold; with ``wins`` it sheds low cards and keeps its
  best card, and it tries to win the 3rd trick (to lead the 4th) only when the card
  it keeps would then be safe (``loses``) or a master (``wins``).
* **knocking**: it knocks when its chance of paying is well below the table's
  average (a strong hand, or a last card that cannot take the trick), and bluffs a
  knock on the first trick at a measured rate: 7% of middling hands under
  ``loses``, 45% under ``wins``, where a knock makes every weak hand fold at once
  (rates chosen by duplicate matches against itself and against ``random``). It
  answers a knock by comparing the fold price (the stake it accepted) with the
  expected price of staying, reading the knock as strength; it counter-knocks only
  with a very strong hand, and never raises the stake past 6.

The raw estimates are turned into probabilities by a logistic calibration fitted on
self-play (see ``_CALIBRATION``), so that "below average" means what it says at
every table size.
* **armoede and exchange**: it claims or exchanges when the hand is worse than an
  average one by more than the expected cost of being caught. Under ``loses`` a
  genuine armoede hand (no 7 to ten) is a *good* hand, so it keeps it; under
  ``wins`` such a hand cannot take the last trick, so it claims or exchanges it.
  A bad hand with high cards is bluffed away at a small rate.
* **challenges**: rarely, only when the odds say the claim is false: the claimer
  whistled (tells), or the low cards the bot sees make a genuine armoede unlikely,
  weighed by how much the bot wants the redeal.
"""

from __future__ import annotations

import random
from math import comb, exp, log

from ..cards import HIGH_CARDS_MASK, RANK_MASKS, SEVEN, SUIT_MASKS
from ..engine.actions import CHALLENGE, CLAIM, EXCHANGE, FOLD, KNOCK, PASS, STAY, Action
from ..engine.declare import laundry_word
from ..engine.phase import Phase
from ..seeds import derive_seed
from ..view import View

_FULL = (1 << 32) - 1
_LOW_MASK = _FULL & ~HIGH_CARDS_MASK  # aces, kings, queens, jacks
_HOUSE_PHASES = (Phase.BLIND, Phase.BLIND_ANSWER, Phase.KANS, Phase.LAUNDRY,
                 Phase.LAUNDRY_CHALLENGE)

# Tunables (chosen by duplicate matches against ``random`` and by card sense).
KNOCK_STRONG = 0.45
"""Knock when the chance of paying is below this fraction of the table average."""
COUNTER_STRONG = 0.3
"""Counter-knock when below this fraction of the average."""
BLUFF_KNOCK = 0.07
"""How often a middling hand knocks on the first trick anyway (``loses``)."""
BLUFF_KNOCK_WINS = 0.45
"""The same under ``wins``, where a knock makes the weak hands fold at once."""
BLUFF_CLAIM = 0.1
"""How often a very bad hand claims armoede (or exchanges) without being genuine."""
CHALLENGE_BELOW = 0.2
"""Challenge when the estimated chance of a genuine claim is below this."""
ASSUMED_BLUFF = 0.1
"""How often the bot assumes an opponent claims with a hand that is not genuine."""
MAX_KNOCK_STAKE = 6
"""The bot never raises the stake past this."""

# The raw estimates below rank hands well but are not probabilities: they ignore the
# order in which cards must be played. A logistic calibration per mode and number of
# cards left, ``take = sigmoid(a + b * logit(raw) + c * ln(players in the hand))``, was
# fitted on 76,800 decisions of heuristic self-play (no knocking; 2, 3, 4 and 6
# players; 800 hands each), and matches the observed rate of taking the last trick
# within 0.02 at every table size.
_CALIBRATION: dict[bool, tuple[tuple[float, float, float], ...]] = {
    False: ((-1.501, 1.548, 1.017), (-0.228, 0.562, -0.299), (-0.732, 0.86, 0.785),
            (-0.856, 1.106, 1.626)),
    True: ((0.023, 1.044, -1.322), (-1.136, 0.818, -0.167), (-1.34, 1.105, 0.479),
           (-0.851, 1.182, 0.437)),
}


def calibrated(raw: float, cards: int, players: int, wins: bool) -> float:
    """The calibrated chance of taking the last trick from a raw estimate.

    >>> round(calibrated(0.25, 4, 4, False), 2) < round(calibrated(0.5, 4, 4, False), 2)
    True
    """
    a, b, c = _CALIBRATION[wins][min(max(cards, 1), 4) - 1]
    raw = min(max(raw, 0.01), 0.99)
    z = a + b * log(raw / (1.0 - raw)) + c * log(max(players, 2))
    return 1.0 / (1.0 + exp(-z))


class _Table:
    """Per-decision estimates of where the unseen cards are (computed once per act)."""

    __slots__ = ("hold", "opp_cards", "m", "lead_p")

    def __init__(self, view: View, me: int) -> None:
        hand = view.hand_mask
        # Exchanged-away discards shown by a challenge are out of play.
        seen = hand | view.played_mask | view.discarded_mask
        known: dict[int, float] = {}
        for seat, cards in view.false_claims:
            if seat != me and view.active[seat]:  # no redeal: the claimer still holds them
                for c in cards:
                    known[c] = 1.0
        unseen = _FULL & ~seen
        n_unseen = unseen.bit_count()
        opps = [s for s in range(len(view.active)) if s != me and view.active[s]]
        opp_cards = sum(view.hand_sizes[s] for s in opps)
        self.opp_cards = opp_cards
        self.m = len(opps) + 1
        # Probability that an opponent holds each unseen card, suit by suit: cards of a
        # suit can only sit with the opponents not void in it (or in the stock).
        hold = [0.0] * 32
        for suit in range(4):
            void_cards = sum(view.hand_sizes[s] for s in opps if suit in view.voids[s])
            holders = opp_cards - void_cards
            pool = n_unseen - void_cards
            p = holders / pool if pool > 0 and holders > 0 else 0.0
            p = min(p, 1.0)
            m = unseen & SUIT_MASKS[suit]
            while m:
                low = m & -m
                c = low.bit_length() - 1
                hold[c] = known.get(c, p)
                m ^= low
        self.hold = hold
        self.lead_p = 1.0 / self.m

    def master_p(self, card: int, scale: float = 1.0) -> float:
        """Chance that no opponent holds a higher card of ``card``'s suit."""
        hold = self.hold
        p = 1.0
        for h in range(card & ~7, card):
            q = hold[h]
            if q:
                p *= 1.0 - q * scale
        return p

    def suit_lead_p(self, suit: int) -> float:
        """Chance that the last trick, led by someone else, is led in ``suit``."""
        if self.opp_cards <= 0:
            return 0.0
        base = suit * 8
        return min(1.0, sum(self.hold[base:base + 8]) / self.opp_cards)

    def win_last(self, card: int, lead: float) -> float:
        """Chance that ``card``, kept to the end, takes the 4th trick."""
        master = self.master_p(card)
        return master * (lead + (1.0 - lead) * self.suit_lead_p(card >> 3))

    def keep_take(self, cards: tuple[int, ...], wins: bool) -> float:
        """Chance of taking the 4th trick with these cards still to play (two or more).

        The bot will try to keep the card best for its mode to the end; the cards played
        before it that are sure to win their trick (masters: tens, and what the played
        tens promote) put it on lead for the last trick.
        """
        masters = [self.master_p(c) for c in cards]
        k = len(cards)
        probs = []
        for i, c in enumerate(cards):
            forced = (sum(masters) - masters[i]) / (k - 1)
            lead = self.lead_p + (1.0 - self.lead_p) * 0.8 * forced * forced
            probs.append(self.win_last(c, lead))
        probs.sort()
        mean = sum(probs) / k
        return 0.7 * probs[-1] + 0.3 * mean if wins else 0.7 * probs[0] + 0.3 * mean


class HeuristicBot:
    """Rule-of-thumb play for both ``last_trick`` modes; seeded bluffs; no search."""

    name = "heuristic"
    knock_strong = KNOCK_STRONG
    counter_strong = COUNTER_STRONG
    bluff_knock = BLUFF_KNOCK
    bluff_knock_wins = BLUFF_KNOCK_WINS
    bluff_claim = BLUFF_CLAIM
    challenge_below = CHALLENGE_BELOW
    assumed_bluff = ASSUMED_BLUFF
    max_knock_stake = MAX_KNOCK_STAKE
    knock_respect = 1.0
    knock_respect_heads_up = 0.0
    """The same when only two players are in the hand: there a knock says little (a
    player on lead knocks to make the other fold), and respecting it loses lives."""
    """How much a knock raises the chance that we pay (loses: the knocker drops out of
    the pool of losers; wins: the knocker's chance to take the last trick grows)."""

    def __init__(self, seed: int | None = None, time_budget: float | None = None) -> None:
        self._seed = random.getrandbits(64) if seed is None else seed

    def _draw(self, view: View, what: str) -> float:
        """A number in [0, 1) for one bluff of one decision: a function of the seed and
        the view only (so a bot built per decision plays as one built per game)."""
        return random.Random(derive_seed("heuristic", self._seed, what, view.seat or 0,
                                         view.action_count)).random()

    # -- the decision ------------------------------------------------------------------

    def act(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        me = view.seat
        if me is None:
            raise ValueError("heuristic: a spectator's view has no decision")
        phase = view.phase
        if phase == Phase.PLAY and view.to_act and view.to_act[0] != me:
            return PASS  # a knock_anytime window: the heuristic knocks on its own turn only
        if phase == Phase.REBUY:  # buy back in with a third of the lives or more, at least 2
            return STAY if view.rebuy_lives >= max(2, -(-view.rules.lives // 3)) else PASS
        if phase in _HOUSE_PHASES:
            return self._house(view, me)
        if phase == Phase.CLAIM:
            return self._claim(view, me, CLAIM)
        if phase == Phase.EXCHANGE:
            return self._claim(view, me, EXCHANGE)
        if phase in (Phase.CLAIM_CHALLENGE, Phase.EXCHANGE_CHALLENGE):
            return self._challenge(view, me)
        table = _Table(view, me)
        if phase == Phase.ANSWER:
            return self._answer(view, me, table)
        return self._play(view, me, table)

    # -- estimates ---------------------------------------------------------------------

    def _p_pay(self, view: View, table: _Table, cards: tuple[int, ...]) -> float:
        """Chance of paying the stake at settlement with these cards still to play."""
        wins = view.rules.last_trick_wins
        if not cards:
            take = self._p_standing(view, table) if view.trick_no == 3 else 0.0
            take = calibrated(take, 1, table.m, wins)
            return 1.0 - take if wins else take
        leading = not view.trick and view.leader == view.seat
        if len(cards) == 1 and view.trick:
            take = self._p_trick(view, table, cards[0])
        elif len(cards) == 1:
            take = table.win_last(cards[0], 1.0 if leading else 0.0)
        else:
            take = table.keep_take(cards, wins)
        take = calibrated(take, len(cards), table.m, wins)
        return 1.0 - take if wins else take

    def _base_pay(self, view: View, table: _Table) -> float:
        """The table average of the chance to pay: 1/m (``loses``) or (m-1)/m (``wins``)."""
        m = max(table.m, 2)
        return (m - 1) / m if view.rules.last_trick_wins else 1.0 / m

    def _p_standing(self, view: View, table: _Table) -> float:
        """Chance that the card we already played to the trick in progress takes it."""
        mine = [c for s, c in view.trick if s == view.seat]
        if not mine:
            return 0.0
        card = mine[0]
        led = view.led_suit
        if card >> 3 != led:
            return 0.0
        if any(c >> 3 == led and c < card for _, c in view.trick):
            return 0.0
        played = {s for s, _ in view.trick}
        to_play = sum(1 for s, a in enumerate(view.active) if a and s not in played)
        if to_play == 0:
            return 1.0
        others = max(table.m - 1, 1)
        return table.master_p(card, to_play / others)

    def _p_trick(self, view: View, table: _Table, card: int) -> float:
        """Chance that playing ``card`` now takes the trick in progress."""
        trick = view.trick
        if not trick:
            return table.master_p(card)
        led = view.led_suit
        if card >> 3 != led:
            return 0.0
        best = min((c for _, c in trick if c >> 3 == led), default=99)
        if card > best:
            return 0.0
        # Players still to play in this trick, among the active ones.
        played = {s for s, _ in trick}
        to_play = sum(1 for s, a in enumerate(view.active)
                      if a and s != view.seat and s not in played)
        if to_play == 0:
            return 1.0
        others = table.m - 1
        return table.master_p(card, to_play / others if others else 1.0)

    # -- tricks ------------------------------------------------------------------------

    def _play(self, view: View, me: int, table: _Table) -> Action:
        legal = view.legal
        plays = [a for a in legal if a < 32]
        if KNOCK in legal and self._wants_knock(view, table):
            return KNOCK
        wins = view.rules.last_trick_wins
        if len(plays) == 1:
            return plays[0]
        hand = view.hand
        best: Action = plays[0]
        best_score = 2.0
        last_but_one = len(hand) == 2
        for a in plays:
            card = int(a)
            rest = tuple(c for c in hand if c != card)
            p_trick = self._p_trick(view, table, card)
            if last_but_one:
                keep = rest[0]
                lead_last = table.win_last(keep, 1.0)
                follow_last = table.win_last(keep, 0.0)
                take = p_trick * lead_last + (1.0 - p_trick) * follow_last
            else:
                take = table.keep_take(rest, wins)
            score = 1.0 - take if wins else take
            # Ties: under 'loses' shed the highest card, under 'wins' the lowest.
            score += (-(7 - (card & 7)) if not wins else -(card & 7)) * 1e-4
            if score < best_score:
                best_score = score
                best = a
        return best

    def _wants_knock(self, view: View, table: _Table) -> bool:
        if view.stake >= self.max_knock_stake:
            return False
        if view.lives[view.seat or 0] <= view.stake:  # paying the new stake would end us
            return False
        p = self._p_pay(view, table, view.hand)
        base = self._base_pay(view, table)
        if p <= base * self.knock_strong * (1.0 if view.stake == 1 else 0.7):
            return True
        # A bluff on the first trick, before anyone knocked, with a middling hand.
        return (
            view.trick_no == 0
            and view.stake == 1
            and p <= base * 1.3
            and self._draw(view, "knock") < (
                self.bluff_knock_wins if view.rules.last_trick_wins else self.bluff_knock)
        )

    # -- answering a knock -------------------------------------------------------------

    def _answer(self, view: View, me: int, table: _Table) -> Action:
        legal = view.legal
        p = self._p_pay(view, table, view.hand)
        base = self._base_pay(view, table)
        # A knock says the knocker is strong (a pelt opening says nothing).
        knocked = any(s == view.last_knocker and a is KNOCK for s, a in view.hand_actions)
        respect = self.knock_respect if table.m > 2 else self.knock_respect_heads_up
        if knocked and view.rules.last_trick_wins:
            p = 1.0 - (1.0 - p) * (1.0 - respect * 0.4)
        elif knocked:
            p = min(1.0, p * (1.0 + respect / max(table.m - 1, 1)))
        stake = view.stake
        fold_price = view.accepted[me]
        stay_price = p * stake
        lives = view.lives[me]
        if lives <= stake:  # staying and losing would eliminate us
            stay_price *= 1.3
        if (
            KNOCK in legal
            and stake < self.max_knock_stake
            and lives > stake + 1
            and p <= base * self.counter_strong
        ):
            return KNOCK
        return STAY if stay_price <= fold_price else FOLD

    # -- armoede and exchange ----------------------------------------------------------

    def _house(self, view: View, me: int) -> Action:
        """The house rules' decisions: blind knocks, kans, the laundry."""
        phase = view.phase
        m = max(2, sum(view.active))
        if phase == Phase.BLIND:
            return PASS  # a knock with no sight of the cards is a coin toss at stake 3
        if phase == Phase.BLIND_ANSWER:
            # Cards unseen: staying costs the table average at stake 3, folding 1 now.
            pay = (m - 1) / m if view.rules.last_trick_wins else 1 / m
            return STAY if view.stake * pay <= view.accepted[me] else FOLD
        if phase == Phase.KANS:
            return EXCHANGE  # a chance at four of a kind for the odd card
        if phase == Phase.LAUNDRY:
            genuine = laundry_word(view.hand_mask, view.rules) is not None
            return self._claim(view, me, EXCHANGE, genuine)
        return self._challenge(view, me)

    def _claim(self, view: View, me: int, verb: Action, genuine: bool | None = None) -> Action:
        if genuine is None:
            genuine = not view.hand_mask & HIGH_CARDS_MASK
        table = _Table(view, me)
        p = self._p_pay(view, table, view.hand)
        # An average hand, by the same estimate: the average of an unseen-like hand.
        avg = self._base_pay(view, table)
        worse = p - avg
        if genuine:
            # Nothing to fear from a challenge: claim whenever a new hand is better.
            return verb if worse > 0 else PASS
        # Bluff: a false claim costs a life when challenged, so only a hand far worse
        # than average (relative to the room the mode leaves) is bluffed away.
        if worse > 0.5 * min(avg, 1.0 - avg) and self._draw(view, "claim") < self.bluff_claim:
            return verb
        return PASS

    def _challenge(self, view: View, me: int) -> Action:
        target = view.target
        if target < 0:
            return PASS
        # Tells: a seat that whistled or stood for tens cannot have had armoede.
        if any(s == target and rank == 0 for s, _, rank in view.tells):
            return CHALLENGE
        seen = view.hand_mask | view.played_mask
        unseen = _FULL & ~seen
        # The claimer's (original) hand is 4 cards of the unseen ones.
        n_unseen = unseen.bit_count()
        n_low = (unseen & _LOW_MASK).bit_count()
        if n_unseen < 4:
            return PASS
        natural = comb(n_low, 4) / comb(n_unseen, 4)
        if view.phase == Phase.LAUNDRY_CHALLENGE:
            # The laundered hand was four of J, Q, K, A (witte) or three and a 7 (vuile).
            sevens = (unseen & RANK_MASKS[SEVEN]).bit_count()
            natural = (comb(n_low, 4) if view.rules.witte_was else 0) / comb(n_unseen, 4)
            if view.rules.vuile_was:
                natural += comb(n_low, 3) * sevens / comb(n_unseen, 4)
            natural = max(natural, 1e-6)
        bluff = self.assumed_bluff
        genuine = natural / (natural + (1.0 - natural) * bluff)
        threshold = self.challenge_below
        if view.phase == Phase.CLAIM_CHALLENGE:
            # An unchallenged claim means a redeal: welcome with a bad hand, not a good one.
            table = _Table(view, me)
            worse = self._p_pay(view, table, view.hand) - self._base_pay(view, table)
            threshold += -0.1 if worse > 0.1 else (0.05 if worse < -0.1 else 0.0)
        return CHALLENGE if genuine < threshold else PASS


def hand_strength(view: View) -> float:
    """The heuristic's chance of paying the stake with ``view``'s hand (for tools and tests).

    >>> from toepen.engine import Game
    >>> from toepen.view import observe
    >>> g = Game.new("rulebook", 4, seed=1)
    >>> 0.0 <= hand_strength(observe(g, 1)) <= 1.0
    True
    """
    if view.seat is None:
        raise ValueError("a spectator holds no hand")
    bot = HeuristicBot(seed=0)
    return bot._p_pay(view, _Table(view, view.seat), view.hand)


__all__ = ["HeuristicBot", "hand_strength"]
