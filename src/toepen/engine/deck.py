"""Decks: the seeded shuffle, deck validation, and decks built to deal given hands.

A deck is a list of the 32 card ids, dealt from the front: four rounds of one card to
each seat in session clockwise from the dealer's left, then the stock.

>>> deck = deck_for(4, 0, {1: "Th 9h 8h 7h"})
>>> deck[0], deck[4], deck[8], deck[12]
('Th', '9h', '8h', '7h')
>>> len(check_deck(deck)), len(seeded_deck(3, 0))
(32, 32)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..cards import CardError, card_str, parse_card
from ..seeds import derive_seed

__all__ = ["DeckError", "check_deck", "deck_for", "seeded_deck", "shuffled_deck"]


class DeckError(ValueError):
    """A deck that is not the 32 cards."""


def seeded_deck(seed: int, index: int) -> list[int]:
    """Deck number ``index`` of a game seeded with ``seed``.

    A Fisher-Yates shuffle driven by ``derive_seed(seed, index, bits=192)`` (BLAKE2b of
    ``"seed:index"``): the same on every machine and Python version, independent of
    any global generator, and cheap (no generator state to seed or copy). 32! < 2**118,
    so taking remainders of a 192-bit number biases the shuffle by less than 2**-74.

    >>> seeded_deck(7, 0) == seeded_deck(7, 0) != seeded_deck(7, 1)
    True
    """
    return shuffled_deck(derive_seed(seed, index, bits=192))


def shuffled_deck(r: int) -> list[int]:
    """The deck that the 192-bit number ``r`` selects: Fisher-Yates on its remainders,
    position 31 down to 1, position ``i`` swapped with ``r mod (i + 1)`` (``r`` then
    divided by ``i + 1``).

    >>> deck, r = list(range(32)), 12345678901234567890
    >>> for i in range(31, 0, -1):
    ...     r, j = divmod(r, i + 1)
    ...     deck[i], deck[j] = deck[j], deck[i]
    >>> shuffled_deck(12345678901234567890) == deck
    True
    """
    return _shuffle(r, list(_IDS))


_IDS = tuple(range(32))


def _unrolled_shuffle() -> Callable[[int, list[int]], list[int]]:
    """The shuffle written out in a straight line (it runs for every deal, and a loop of
    31 divisions of a 192-bit number was a tenth of a random hand's time). The
    remainders are taken six radices at a time: one division of the big number gives a
    remainder below 2**30, whose six digits are then split off with small numbers; a
    position once swapped is never touched again, so it is kept in a local and the deck
    built from them at the end. Same remainders, so the same deck, as the loop in the
    docstring of :func:`shuffled_deck`."""
    lines = ["def shuffle(r, d):"]
    i = 31
    while i >= 1:
        group = list(range(i, max(i - 6, 0), -1))  # positions i, i-1, ... (radix pos+1)
        product = 1
        for pos in group:
            product *= pos + 1
        lines.append(f"    r, g = divmod(r, {product})")
        for pos in group:  # swap d[pos] and d[j]; d[pos] is final, so kept in a local
            lines.append(f"    j = g % {pos + 1}")
            lines.append(f"    g //= {pos + 1}")
            lines.append(f"    e{pos} = d[j]")
            lines.append(f"    d[j] = d[{pos}]")
        i -= len(group)
    lines.append("    return [d[0], " + ", ".join(f"e{pos}" for pos in range(1, 32)) + "]")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from constants only
    shuffle: Callable[[int, list[int]], list[int]] = namespace["shuffle"]
    return shuffle


_shuffle = _unrolled_shuffle()


def check_deck(deck: Any, where: str = "deck") -> list[int]:
    """A deck as 32 distinct card ids (from ids or notation), or DeckError."""
    if not isinstance(deck, (list, tuple)):
        raise DeckError(f"{where}: must be a list of the 32 cards")
    try:
        ids = [c if isinstance(c, int) and not isinstance(c, bool) else parse_card(c) for c in deck]
    except (CardError, AttributeError) as e:
        raise DeckError(f"{where}: {e}") from None
    if len(ids) != 32 or sorted(ids) != list(range(32)):
        seen: set[int] = set()
        dup: list[str] = []
        for c in ids:
            if not 0 <= c < 32:
                raise DeckError(f"{where}: {c} is not a card id")
            if c in seen:
                dup.append(card_str(c))
            seen.add(c)
        missing = sorted(set(range(32)) - set(ids))
        problem = []
        if len(ids) != 32:
            problem.append(f"{len(ids)} cards")
        if dup:
            problem.append("repeats " + " ".join(dup))
        if missing:
            problem.append("lacks " + " ".join(card_str(c) for c in missing))
        raise DeckError(f"{where}: not the 32 cards ({'; '.join(problem)})")
    return ids


def deck_for(
    n: int,
    dealer: int,
    hands: Mapping[int, str],
    stock: str = "",
    in_session: Iterable[int] | None = None,
) -> list[str]:
    """A deck that deals ``hands`` (seat -> "Th 9h 8h 7h") at a table of ``n``.

    Cards go from the top, one at a time, clockwise from the dealer's left, skipping
    seats not ``in_session``; seat ``s`` receives its k-th listed card in round k.
    Seats without a listed hand get the lowest unused card ids; then come the ``stock``
    cards in the order given, then every other card in id order. Raises ValueError
    for hands that cannot be dealt so.
    """
    seats = set(range(n) if in_session is None else in_session)
    order = [s for s in ((dealer + 1 + i) % n for i in range(n)) if s in seats]
    if not set(hands) <= set(order):
        raise ValueError("a hand for a seat that is not dealt in")
    wanted = {s: [parse_card(c) for c in text.split()] for s, text in hands.items()}
    stock_ids = [parse_card(c) for c in stock.split()]
    used = [c for cards in wanted.values() for c in cards] + stock_ids
    if len(used) != len(set(used)):
        raise ValueError("a card is listed twice")
    spare = [c for c in range(32) if c not in used]
    full: dict[int, list[int]] = {}
    for s in order:
        cards = list(wanted.get(s, []))
        if len(cards) not in (0, 4):
            raise ValueError(f"seat {s}: give four cards or none")
        if not cards:
            cards, spare = spare[:4], spare[4:]
        full[s] = cards
    deck = [full[s][k] for k in range(4) for s in order]
    deck += stock_ids + spare
    return [card_str(c) for c in check_deck(deck)]
