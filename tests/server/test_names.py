"""Names that look alike, and names with invisible characters (issue 23, point 9):
"Alıce" (dotless ı), "Mɑrco", "ɢerrit", "ᴏscar" registered beside the real spellings, and
display names at tables took invisible joiners, variation selectors and tags anywhere.
One check each (``protocol.check_name``, ``accounts.security.check_username``), their
facts in ``server/names``; emoji names keep working."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toepen.server import names
from toepen.server.protocol import Refused, check_name
from toepen.server.site.accounts.security import check_username, name_key

from .conftest import Server
from .test_accounts import PASSWORD, Browser

LOOKALIKES = {"Alice": "Alıce", "Marco": "Mɑrco", "Gerrit": "ɢerrit", "Oscar": "ᴏscar",
              "Lisa": "ʟisa", "Roos": "ʀoos", "Nina": "Niɴa", "Bill": "Biǀl"}
"""Real spellings and the issue's look-alikes (and a few more of the same kinds)."""
TAG_ENGLAND = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
EMOJI_NAMES = ["Jan 🍺", "Ann 👍🏽", "👨\u200d👩\u200d👧", "Kim 🏳\ufe0f\u200d🌈",
               f"{TAG_ENGLAND} Joe", "1\ufe0f\u20e3 Bo", "👩🏽\u200d💻 Eva", "❤\ufe0f Mia",
               "🇳🇱 Sem"]
"""Emoji names that tables take today, joiners, selectors, skin tones and tags in their
sequences: they must keep working."""
HIDDEN = ["Ann\u200d", "An\u200dn", "\u200dAnn", "A\ufe0fnn", "Ann\ufe0f", "Ann\U000e0041",
          "Ann\U000e0041\U000e007f", "An\u034fn", "\u3164Ann", "Ann\u3164", "A\u2800nn",
          "An\U0001f3fbn", "Ann \U000e0067\U000e007f", "Jan 🍺\u200d", "Jan \u200d🍺",
          "An\u115fn", "A\u180bnn", "A\u2060nn", "A\u00adnn"]
"""Invisible characters outside any emoji sequence."""


@pytest.mark.parametrize(("real", "fake"), sorted(LOOKALIKES.items()))
def test_a_lookalike_user_name_is_refused(real: str, fake: str) -> None:
    assert check_username(real) == real
    assert names.skeleton(fake) == names.skeleton(real)
    with pytest.raises(Refused, match="looks like"):
        check_username(fake)


@pytest.mark.parametrize("name", ["Zoë_B", "Bjørn", "Ærlig", "Jürgen", "Łukasz", "Straße",
                                  "Þóra", "Çelik"])
def test_letters_with_accents_and_real_latin_letters_still_register(name: str) -> None:
    assert check_username(name) == unicodedata.normalize("NFC", name)


@pytest.mark.parametrize("name", HIDDEN)
def test_invisible_characters_outside_emoji_are_refused_at_tables(name: str) -> None:
    with pytest.raises(Refused) as caught:
        check_name(name, 24)
    assert caught.value.code == "bad_message"
    assert caught.value.message.startswith("name: ")


@pytest.mark.parametrize("name", EMOJI_NAMES)
def test_emoji_names_keep_working(name: str) -> None:
    assert check_name(name, 24) == name


LOOKS = {**{c: k for k, c in (p for p in ((pair[1], pair[0]) for pair in
                                          names.FALLBACK_LOOKALIKES.split()))},
         **{chr(cp): unicodedata.name(chr(cp))[-1].lower() for cp in range(0x1D00, 0x1D2C)
            if unicodedata.name(chr(cp), "").startswith("LATIN LETTER SMALL CAPITAL ")
            and len(unicodedata.name(chr(cp))) == 28}}
FAKES: dict[str, list[str]] = {}
for fake, real in LOOKS.items():
    FAKES.setdefault(real.lower(), []).append(fake)

user_names = st.from_regex(r"\A[A-Za-z][A-Za-z0-9_.-]{2,19}\Z")


@given(name=user_names, data=st.data())
def test_no_two_user_names_that_look_alike_both_register_apart(name: str,
                                                               data: st.DataObject) -> None:
    """Property: change letters of a valid name into look-alikes; the result is refused,
    or it has the same name_key (so it is taken): skeletons equal, keys equal."""
    try:
        check_username(name)
    except Refused:
        return  # a bot's name, a server word...
    chars = list(name)
    for i, ch in enumerate(chars):
        options = FAKES.get(ch.lower())
        if options and data.draw(st.booleans()):
            chars[i] = data.draw(st.sampled_from(options))
    fake = "".join(chars)
    assert names.skeleton(fake) == names.skeleton(name)
    try:
        accepted = check_username(fake)
    except Refused:
        return
    assert name_key(accepted) == name_key(name)


@given(st.text(max_size=40))
def test_check_name_refuses_cleanly_or_returns_a_visible_name(text: str) -> None:
    """Property: any text is refused as bad_message or returned as it is; what passes has
    no invisible character outside an emoji sequence and no space at either end."""
    try:
        got = check_name(text, 24)
    except Refused as e:
        assert e.code == "bad_message" and e.message.startswith("name: ")
        return
    assert got == text and got.strip() == got
    assert names.misplaced_emoji_part(got) is None
    for ch in got:
        assert not names.invisible(ch) or ch == "\u200d" or 0xFE00 <= ord(ch) <= 0xFE0F \
            or 0xE0020 <= ord(ch) <= 0xE007F


@given(st.lists(st.sampled_from([*"Anik ", "\u200d", "\ufe0f", "\U000e0067", "\U000e007f",
                                 "🏴", "👨", "🏽", "🍺", "\u20e3", "1"]), min_size=1, max_size=12))
def test_emoji_parts_pass_only_inside_their_sequences(parts: list[str]) -> None:
    text = "".join(parts)
    try:
        check_name(text, 24)
    except Refused:
        return
    assert names.misplaced_emoji_part(text) is None


def test_the_library_is_in_use() -> None:
    """confusable-homoglyphs answers as pinned (else the fallback table would be used,
    with a warning); both agree on every look-alike of the table."""
    assert names._source() == "library"  # noqa: SLF001 - the start-up check itself
    for pair in names.FALLBACK_LOOKALIKES.split():
        assert names._library_lookalike(pair[0]) == pair[1], pair  # noqa: SLF001


def test_the_server_refuses_lookalike_accounts_and_hidden_table_names(server: Server) -> None:
    Browser(server).register("Alice")
    for fake in ("Alıce", "ALıCE", "Mɑrco", "ɢerrit", "ᴏscar"):
        r = Browser(server).post("/api/account/register", {"name": fake, "password": PASSWORD})
        assert r.status_code in (400, 409), (fake, r.text)
        assert r.json()["say"]["id"] in ("account.error.name_lookalike",
                                         "account.error.name_chars",
                                         "account.error.name_taken"), (fake, r.text)
    r = Browser(server).post("/api/account/register", {"name": "Alıce", "password": PASSWORD})
    assert r.json()["say"] == {"id": "account.error.name_lookalike",
                               "params": {"char": "ı", "like": "i"}}, r.text
    for name in ("Ann\u200d", "A\ufe0fnn", "Ann\U000e0041", "\u3164Ann"):
        r = server.post("/api/tables", {"name": name})
        assert r.status_code in (400, 422), (name, r.text)
        assert "name" in r.text
    r = server.post("/api/tables", {"name": "Jan 👨\u200d👩\u200d👧"})
    assert r.status_code == 201, r.text
