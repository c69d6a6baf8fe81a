"""Settling up an evening of pot toepen: who pays whom, in the fewest transfers.

Each finished session with a pot gives every player a balance in cents, what they won
less what they put in (:func:`toepen.engine.settle.pot_balances`); over the sessions of
one score sheet, club evening or tournament the balances are added per player
(:func:`evening`) and settled by :func:`transfers` (rules.md, "Pot toepen": the fewest
transfers, at most players - 1, ties broken by seat order). Pure: nothing is paid
through toepen, it keeps the tally.

The fewest transfers: players whose balance is 0 pay nothing; the others split into the
most groups that each sum to zero, and a group of k players settles in k - 1 transfers,
so the fewest is (players with a balance) - (groups). The groups are found exactly by a
search over subsets (``2**k`` sums) for up to :data:`EXACT_LIMIT` players with a balance;
above that the largest debtor pays the largest creditor, still at most players - 1.

>>> [str(t) for t in transfers({"Ann": 300, "Bas": -100, "Cor": -200, "Dirk": 0})]
['Bas pays Ann 100', 'Cor pays Ann 200']
>>> [str(t) for t in transfers({"Ann": 50, "Bas": -50, "Cor": 70, "Dirk": -70})]
['Bas pays Ann 50', 'Dirk pays Cor 70']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["EXACT_LIMIT", "Transfer", "evening", "transfers"]

EXACT_LIMIT = 14
"""Up to this many players with a balance the fewest transfers are found exactly."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` pays ``payee`` ``cents``."""

    payer: str
    payee: str
    cents: int

    def __str__(self) -> str:
        return f"{self.payer} pays {self.payee} {self.cents}"

    def to_json(self) -> dict[str, object]:
        return {"payer": self.payer, "payee": self.payee, "cents": self.cents}


def evening(sessions: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Each player's balance over the sessions (each: player -> cents), in the order
    the players first appear; ValueError when a session's balances do not sum to zero.

    >>> evening([{"Ann": 100, "Bas": -100}, {"Bas": 50, "Cor": -50}])
    {'Ann': 100, 'Bas': -50, 'Cor': -50}
    """
    total: dict[str, int] = {}
    for i, session in enumerate(sessions, 1):
        if sum(session.values()) != 0:
            raise ValueError(f"session {i}: the balances sum to {sum(session.values())}, not 0")
        for name, cents in session.items():
            total[name] = total.get(name, 0) + cents
    return total


def transfers(balances: Mapping[str, int]) -> list[Transfer]:
    """The fewest transfers that settle ``balances`` (player -> cents, positive: is owed;
    the mapping's order is the seat order that breaks ties). ValueError when they do
    not sum to zero."""
    if sum(balances.values()) != 0:
        raise ValueError(f"the balances sum to {sum(balances.values())}, not 0")
    names = [name for name, cents in balances.items() if cents]
    amounts = [balances[name] for name in names]
    if len(names) > EXACT_LIMIT:
        return _greedy(names, amounts)
    out: list[Transfer] = []
    for group in _groups(amounts):
        out += _chain([names[i] for i in group], [amounts[i] for i in group])
    return out


def _groups(amounts: list[int]) -> list[list[int]]:
    """The indices split into the most groups that each sum to zero, each group in seat
    order, the groups by their first seat."""
    k = len(amounts)
    full = (1 << k) - 1
    sums = [0] * (1 << k)
    for mask in range(1, 1 << k):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]
    best = [0] * (1 << k)  # the most zero-sum groups a mask splits into
    for mask in range(1, 1 << k):
        top = 0
        m = mask
        while m:
            low = m & -m
            m ^= low
            top = max(top, best[mask ^ low])
        best[mask] = top + (sums[mask] == 0)
    # Walk back: remove one index at a time keeping the count; a zero sum closes a group.
    order: list[int] = []
    mask = full
    while mask:
        m = mask
        while m:  # the lowest index that keeps the most groups
            low = m & -m
            m ^= low
            if best[mask ^ low] + (sums[mask] == 0) == best[mask]:
                order.append(low.bit_length() - 1)
                mask ^= low
                break
    groups: list[list[int]] = []
    current: list[int] = []
    running = 0
    for i in reversed(order):  # prefixes of this order that sum to zero end the groups
        current.append(i)
        running += amounts[i]
        if running == 0:
            groups.append(sorted(current))
            current = []
    return sorted(groups)


def _chain(names: list[str], amounts: list[int]) -> list[Transfer]:
    """A zero-sum group settled in (its size - 1) transfers or fewer: debtors in seat
    order pay creditors in seat order."""
    debtors = [(n, -a) for n, a in zip(names, amounts, strict=True) if a < 0]
    creditors = [(n, a) for n, a in zip(names, amounts, strict=True) if a > 0]
    owes = [a for _, a in debtors]
    owed = [a for _, a in creditors]
    out: list[Transfer] = []
    i = j = 0
    while i < len(debtors) and j < len(creditors):
        pay = min(owes[i], owed[j])
        out.append(Transfer(debtors[i][0], creditors[j][0], pay))
        owes[i] -= pay
        owed[j] -= pay
        if owes[i] == 0:
            i += 1
        if owed[j] == 0:
            j += 1
    return out


def _greedy(names: list[str], amounts: list[int]) -> list[Transfer]:
    """Many players: the largest debtor pays the largest creditor (ties by seat),
    each transfer settling one of them at least."""
    left = dict(zip(names, amounts, strict=True))
    seat = {n: i for i, n in enumerate(names)}
    out: list[Transfer] = []
    while any(left.values()):
        payer = min((n for n in left if left[n] < 0), key=lambda n: (left[n], seat[n]))
        payee = max((n for n in left if left[n] > 0), key=lambda n: (left[n], -seat[n]))
        pay = min(-left[payer], left[payee])
        out.append(Transfer(payer, payee, pay))
        left[payer] += pay
        left[payee] -= pay
    return out
