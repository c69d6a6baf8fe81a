"""Bounds of a hand: the highest stake, the most decisions, the most lives a seat can lose.

Algorithms that need a finite game (OpenSpiel's ``max_game_length``, a fixed-size
history tensor) read them from here.

>>> stake_cap(Rules.preset("rulebook", lives=3)), stake_cap(Rules.preset("classic", lives=3))
(4, 3)
>>> stake_cap(Rules.preset("kroegtoepen")) is None
True
>>> hand_decision_bound(Rules.preset("no-knock"), 2)
17
"""

from __future__ import annotations

from ..rules import Rules

__all__ = ["stake_cap", "hand_decision_bound", "hand_loss_bound"]


def stake_cap(rules: Rules) -> int | None:
    """The highest stake a hand can reach under ``rules`` (None: unbounded)."""
    caps: list[int] = []
    if rules.max_stake is not None:
        caps.append(rules.max_stake)
    # A pool never exceeds ``lives`` (sudden death and rubbers reset it to 1 or ``lives``).
    if rules.knock_limit == "lives_at_least_stake":
        caps.append(rules.lives + 1)  # may knock while lives >= stake: up to lives + 1
    elif rules.knock_limit == "lives_cover_new_stake":
        caps.append(max(rules.lives, 1))  # the new stake may not exceed the knocker's lives
    if not caps:
        return None
    cap = min(caps)
    return max(cap, 2) if rules.pelt else cap


def hand_decision_bound(rules: Rules, players: int, stake: int | None = None) -> int:
    """The most decisions one hand (redeals included) can take at a table of ``players``.

    ``stake`` is the highest stake (default :func:`stake_cap`; required when that is
    unbounded).
    """
    n = players
    cap = stake if stake is not None else stake_cap(rules)
    if cap is None:
        raise ValueError("stake: these rules have no stake cap; give one")
    total = 4 * n  # card plays
    if rules.armoede:
        # Every deal asks each player at most once; every redeal needs a claim, and each
        # player claims at most once a hand: at most n + 1 deals; n - 1 challenge decisions
        # per claim.
        total += (n + 1) * n + n * (n - 1)
    if rules.exchange:
        total += n + n * (n - 1)
    # (cap - 1) knocks, and at most cap rounds of n - 1 answers (pelt opens one round).
    total += (cap - 1) + cap * (n - 1)
    if rules.knock_anytime:
        # Before each decision of the play (a card or a knock, at most 4n + cap - 1) the
        # others are offered a knock out of turn: at most n - 1 passes (a knock is counted).
        total += (n - 1) * (4 * n + cap - 1)
    return total


def hand_loss_bound(rules: Rules, players: int, stake: int | None = None) -> int:
    """The most lives one seat (or pair) can lose in one hand: challenges plus the stake."""
    cap = stake if stake is not None else stake_cap(rules)
    if cap is None:
        raise ValueError("stake: these rules have no stake cap; give one")
    n = players
    challenges = 0
    if rules.armoede or rules.exchange:
        # Each claim or exchange is settled by at most one challenge: a seat pays at most
        # once per claim/exchange by someone else, and once for its own.
        challenges = n
    # A pair's two partners may each fold and pay the stake they accepted.
    return cap * (2 if rules.teams else 1) + challenges
