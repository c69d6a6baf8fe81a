"""Passwords, user names, session tokens and CSRF tokens (the rate limits: :mod:`.limits`).

Passwords are hashed with argon2id (``argon2-cffi``'s :class:`PasswordHasher`, its
default parameters); a session cookie is 43 URL-safe random characters of which the
server keeps the SHA-256 only; a session's CSRF token is derived from its cookie, so a
page that cannot read the (HTTP-only) cookie gets it from ``GET /api/account``.

>>> check_username("Ann_93")
'Ann_93'
>>> check_username("expert")
Traceback (most recent call last):
...
toepen.server.protocol.Refused: name: 'expert' is the name of a bot
>>> check_username("Анна")
Traceback (most recent call last):
...
toepen.server.protocol.Refused: name: Latin letters, digits and _ - . only (not 'А', 'а', 'н')
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ....bots.base import RESERVED
from ...names import lookalike
from ...protocol import Refused

NAME_MIN, NAME_MAX = 3, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 256
NAME_PUNCTUATION = "_-."
BOTS = (*RESERVED, "bot")
"""The bot registry's names (built-in bots and ``default``) and the word ``bot``: bots'
accounts, which nobody may register."""
SERVER_WORDS = ("admin", "toepen", "server", "anon", "guest", "system")
"""Words of the server itself, which nobody may register either."""
ANON_PREFIX = "anon-"
"""What a deleted account's seats are called (``anon-`` and six hex digits)."""

HASHER = PasswordHasher()
_DUMMY = HASHER.hash("not a password anyone has")


def name_key(name: str) -> str:
    """The folded form that two names must not share (``Ann`` and ``aNN`` are one)."""
    return unicodedata.normalize("NFKC", name).casefold()


def _latin_letter(ch: str) -> bool:
    return unicodedata.category(ch).startswith("L") and unicodedata.name(ch, "").startswith(
        "LATIN")


def check_username(name: object, bots: tuple[str, ...] = ()) -> str:
    """A user name, or Refused naming what is wrong: 3 to 20 characters, Latin letters
    (with their accents: Zoë, Bjørn), digits and ``_ - .``, starting with a letter; no
    letter made to look like another (``names.lookalike``: ``ı``, ``ɑ``, ``ɢ``, ``ᴏ``...),
    so that two names one cannot tell apart (``names.skeleton``) have one ``name_key``
    and the second is taken; not a bot's kind (a built-in bot such as ``expert``, whose
    account holds its rating, or one of ``bots``, the operator's external bots) nor a word
    of the server, letter case ignored. The first names bots sit under at a table
    (``table.BOT_NAMES``: ``Bas``, ``Noor``...) are people's names too, and free: a bot
    takes a name no person at its table uses, and is marked as a bot."""
    if not isinstance(name, str):
        raise Refused("bad_message", "name: must be text")
    name = unicodedata.normalize("NFC", name)
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise Refused("bad_message", f"name: {NAME_MIN} to {NAME_MAX} characters, "
                      f"not {len(name)}")
    bad = sorted({ch for ch in name if not (_latin_letter(ch) or ch.isdigit() and ch.isascii()
                                            or ch in NAME_PUNCTUATION)})
    if bad:
        shown = ", ".join(repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}" for ch in bad)
        raise Refused("bad_message", f"name: Latin letters, digits and _ - . only (not {shown})")
    if not _latin_letter(name[0]):
        raise Refused("bad_message", "name: must start with a letter")
    fakes = sorted({ch for ch in name if lookalike(ch) is not None})
    if fakes:  # so that no two names that look alike ever both pass: see names.skeleton
        ch = fakes[0]
        raise Refused("bad_message", f"name: {ch!r} looks like {lookalike(ch)!r}: "
                      "write the letter itself")
    key = name_key(name)
    stem = key.rstrip("0123456789_-.")
    bot_words = {name_key(n) for n in (*BOTS, *bots)}
    if key in bot_words or stem in bot_words:
        raise Refused("bad_message", f"name: {name!r} is the name of a bot")
    if stem in SERVER_WORDS or key.startswith(ANON_PREFIX):
        raise Refused("bad_message", f"name: {name!r} is reserved")
    return name


def check_password(password: object, name: str = "") -> str:
    """A new password: 8 to 256 characters, not the user name."""
    if not isinstance(password, str):
        raise Refused("bad_message", "password: must be text")
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Refused("bad_message", f"password: {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    if name and name_key(password) == name_key(name):
        raise Refused("bad_message", "password: must not be the user name")
    return password


def hash_password(password: str) -> str:
    return HASHER.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored``; an unknown user (``None``) costs the same
    time as a known one, so the answer's timing does not tell whether a name exists."""
    try:
        return HASHER.verify(stored or _DUMMY, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A session cookie's value."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_of(token: str) -> str:
    """The CSRF token of a session (or of a pre-login cookie)."""
    return hashlib.sha256(b"toepen-csrf:" + token.encode()).hexdigest()[:32]


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())

