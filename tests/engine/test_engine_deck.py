"""Decks: the seeded shuffle is the one of every earlier record; decks built to deal hands."""

from __future__ import annotations

import hashlib

import pytest

from toepen.cards import card_str, cards_str
from toepen.engine import Game, deck_for, seeded_deck, shuffled_deck
from toepen.rules import Rules
from toepen.seeds import derive_seed


def _old_seeded_deck(seed: int, index: int) -> list[int]:
    """The shuffle as main wrote it before ``toepen.seeds`` (BLAKE2b of b"seed:index")."""
    r = int.from_bytes(hashlib.blake2b(b"%d:%d" % (seed, index), digest_size=24).digest(), "big")
    deck = list(range(32))
    for i in range(31, 0, -1):
        r, j = divmod(r, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("seed", [0, 1, 7, -3, 2**31, 2**64 + 5, 123456789])
def test_seeded_decks_are_byte_identical_to_the_old_shuffle(seed: int) -> None:
    for index in range(40):
        assert seeded_deck(seed, index) == _old_seeded_deck(seed, index)
        assert derive_seed(seed, index, bits=192).bit_length() <= 192


def test_derive_seed_joins_its_parts_with_colons() -> None:
    want = int.from_bytes(hashlib.blake2b(b"table:3:x", digest_size=8).digest(), "big")
    assert derive_seed("table", 3, "x") == want
    many = tuple(range(12))
    text = ":".join(map(str, many)).encode()
    assert derive_seed(*many, bits=128) == int.from_bytes(
        hashlib.blake2b(text, digest_size=16).digest(), "big"
    )
    with pytest.raises(ValueError):
        derive_seed(1, bits=12)


def _loop_shuffle(r: int) -> list[int]:
    deck = list(range(32))
    for i in range(31, 0, -1):
        r, j = divmod(r, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_the_unrolled_shuffle_takes_the_loops_remainders() -> None:
    # The shuffle is generated code taking the remainders six radices at a time; any
    # 192-bit number (and the edges of every group) must give the loop's deck.
    import random

    rng = random.Random(12)
    numbers = [rng.getrandbits(192) for _ in range(3000)]
    numbers += [0, 1, 2**192 - 1, 2**200 + 3]
    product = 1
    for radix in range(32, 1, -1):
        product *= radix
        numbers += [product - 1, product, product + 1]
    for r in numbers:
        assert shuffled_deck(r) == _loop_shuffle(r), r


def test_shuffled_deck_is_a_permutation() -> None:
    assert sorted(shuffled_deck(2**191 + 12345)) == list(range(32))


def test_deck_for_deals_the_hands_asked_for_and_refuses_what_cannot_be() -> None:
    deck = deck_for(3, 2, {0: "Th 9h 8h 7h"}, stock="As")
    assert [deck[k * 3] for k in range(4)] == ["Th", "9h", "8h", "7h"]  # seat 0 is first
    g = Game(Rules.preset("rulebook", armoede=False), 3, decks=[deck], dealer=2)
    assert cards_str(g.hand_mask(0)) == "Th 9h 8h 7h" and card_str(g.stock()[0]) == "As"
    with pytest.raises(ValueError):
        deck_for(4, 0, {1: "Th 9h"})
    with pytest.raises(ValueError):
        deck_for(4, 0, {1: "Th 9h 8h 7h"}, stock="Th")
