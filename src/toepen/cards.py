"""Cards, suits, ranks and their notation.

The 32 cards are ids ``0..31``: ``suit * 8 + rank``, where ranks run from the
highest (the ten, ``0``) to the lowest (the jack, ``7``). A set of cards is a
32-bit mask. Readable names live at the edges:

>>> card = parse_card("Th")
>>> card, card_str(card)
(16, 'Th')
>>> card_str(parse_card("10H")), card_str(parse_card("jd"))
('Th', 'Jd')
>>> beats(parse_card("9h"), parse_card("Ah"))
True
>>> cards_str(mask_of([parse_card("Kh"), parse_card("9h")]))
'9h Kh'
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "cdhs"
"""Suit letters in id order: clubs, diamonds, hearts, spades."""
RANKS = "T987AKQJ"
"""Rank letters from the highest (ten) to the lowest (jack)."""

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
TEN, NINE, EIGHT, SEVEN, ACE, KING, QUEEN, JACK = range(8)

DECK: tuple[int, ...] = tuple(range(32))
FULL_MASK = (1 << 32) - 1
SUIT_MASKS: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))
RANK_MASKS: tuple[int, ...] = tuple(
    sum(1 << (s * 8 + r) for s in range(4)) for r in range(8)
)
HIGH_CARDS_MASK = RANK_MASKS[TEN] | RANK_MASKS[NINE] | RANK_MASKS[EIGHT] | RANK_MASKS[SEVEN]
"""The 7s, 8s, 9s and tens: a hand without any of them is genuine armoede."""

# Localised rank letters (display only), rank order T 9 8 7 A K Q J.
LOCAL_RANKS: dict[str, tuple[str, ...]] = {
    "en": ("10", "9", "8", "7", "A", "K", "Q", "J"),
    "nl": ("10", "9", "8", "7", "A", "H", "V", "B"),
    "de": ("10", "9", "8", "7", "A", "K", "D", "B"),
    "it": ("10", "9", "8", "7", "A", "R", "D", "F"),
    "nb": ("10", "9", "8", "7", "E", "K", "D", "Kn"),
}

_NAMES: tuple[str, ...] = tuple(RANKS[c % 8] + SUITS[c // 8] for c in DECK)
_BY_NAME: dict[str, int] = {name.lower(): c for c, name in enumerate(_NAMES)}
for _c, _name in enumerate(_NAMES):
    if _name[0] == "T":
        _BY_NAME["10" + _name[1]] = _c


class CardError(ValueError):
    """A text that is not a card."""


def suit_of(card: int) -> int:
    """The suit (0..3) of a card id."""
    return card >> 3


def rank_of(card: int) -> int:
    """The rank (0 = ten, highest .. 7 = jack, lowest) of a card id."""
    return card & 7


def card_str(card: int) -> str:
    """Canonical notation of a card id (``Th``)."""
    return _NAMES[card]


def parse_card(text: str) -> int:
    """Parse ``Th``, ``th``, ``10h`` or ``10H`` into a card id.

    >>> parse_card("Xh")
    Traceback (most recent call last):
    ...
    toepen.cards.CardError: unknown card 'Xh'
    """
    card = _BY_NAME.get(text.strip().lower()) if isinstance(text, str) else None
    if card is None:
        raise CardError(f"unknown card {text!r}")
    return card


def beats(a: int, b: int) -> bool:
    """True if card ``a`` beats card ``b`` of the same suit (lower id wins)."""
    return (a >> 3) == (b >> 3) and a < b


def mask_of(cards: Iterable[int]) -> int:
    """The mask of a collection of card ids."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


# Precomputed card lists for every 8-bit suit pattern: makes mask -> cards cheap.
_BYTE_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(8) if b >> i & 1) for b in range(256)
)


def cards_of(mask: int) -> tuple[int, ...]:
    """Card ids of a mask, in id order (suit by suit, high to low)."""
    out: list[int] = []
    base = 0
    while mask:
        b = mask & 0xFF
        if b:
            out.extend(base + i for i in _BYTE_CARDS[b])
        mask >>= 8
        base += 8
    return tuple(out)


def cards_str(mask: int) -> str:
    """A mask as space-separated notation."""
    return " ".join(_NAMES[c] for c in cards_of(mask))


def popcount(mask: int) -> int:
    """Number of cards in a mask."""
    return mask.bit_count()


def local_card_str(card: int, lang: str = "en", symbols: bool = True) -> str:
    """A card for display in a language, e.g. ``V♥`` for the queen of hearts in Dutch."""
    ranks = LOCAL_RANKS.get(lang, LOCAL_RANKS["en"])
    suit = SUIT_SYMBOLS[card >> 3] if symbols else SUITS[card >> 3]
    return ranks[card & 7] + suit
