"""The one way toepen derives a seed from other seeds, names and numbers.

Every seeded thing (a game's decks, a table's seed, an arena schedule, a bot's
sampler) derives its number here, so that two places never invent different
schemes for the same idea and a seed means the same on every machine and Python
version (no ``hash()``, no global generator).

>>> derive_seed(7, 0, bits=192) == int.from_bytes(
...     __import__("hashlib").blake2b(b"7:0", digest_size=24).digest(), "big")
True
>>> derive_seed("table", 3) == derive_seed("table", "3")
True
>>> 0 <= derive_seed(1) < 2**64
True
"""

from __future__ import annotations

from hashlib import blake2b

__all__ = ["derive_seed"]


def derive_seed(*parts: int | str, bits: int = 64) -> int:
    """A ``bits``-bit number derived from ``parts``: BLAKE2b of ``"p1:p2:..."``.

    The parts are joined with ``":"`` after ``str()``, so ``derive_seed(7, 0)`` and
    ``derive_seed("7", "0")`` agree. ``bits`` is a multiple of 8 from 8 to 512; the
    decks use 192 bits (see :func:`toepen.engine.deck.seeded_deck`), everything else
    the default 64.

    >>> derive_seed(1, "arena", 2) != derive_seed(1, "arena", 3)
    True
    """
    if bits & 7 or not 8 <= bits <= 512:
        raise ValueError(f"bits must be a multiple of 8 from 8 to 512, not {bits}")
    fmt = _FORMATS.get(len(parts))  # "%s:%s" % parts == ":".join(map(str, parts)), faster
    text = fmt % parts if fmt is not None else ":".join(map(str, parts))
    return int.from_bytes(blake2b(text.encode(), digest_size=bits >> 3).digest(), "big")


_FORMATS = {n: ":".join(["%s"] * n) for n in range(1, 9)}
