"""A person who joins with a bot's name keeps it; the bot takes another (issue 25, point 3).

A table's bots have names of their own (``table.BOT_NAMES``). When a person joins
with the name a bot at the table has, as it looks (``names.skeleton``: letter case,
fullwidth letters and look-alikes folded), the bot is renamed, so that no two seats look
alike; the bot is still a bot. Over the real HTTP and WebSocket API of a running server.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import pytest

from toepen.server.names import skeleton
from toepen.server.tables.table import BOT_NAMES, bot_name

from .conftest import Player, Server, create


def fullwidth(name: str) -> str:
    """The name in fullwidth letters ("Ｄｉｒｋ"), which NFKC folds back."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in name)


def small_capital(name: str) -> str:
    """The name with its first small letter that has one as a small capital ("Dɪrk")."""
    for i, c in enumerate(name):
        if c.islower():
            try:
                cap = unicodedata.lookup(f"LATIN LETTER SMALL CAPITAL {c.upper()}")
            except KeyError:
                continue
            return name[:i] + cap + name[i + 1:]
    raise AssertionError(f"no small capital for a letter of {name!r}")


SPELLINGS: dict[str, Callable[[str], str]] = {
    "same": lambda n: n, "upper": str.upper, "lower": str.lower,
    "fullwidth": fullwidth, "small capital": small_capital}


def test_every_bot_name_has_each_spelling_and_they_look_alike() -> None:
    """The spellings of the test are other texts that look like the name."""
    for name in BOT_NAMES:
        for how, spell in SPELLINGS.items():
            other = spell(name)
            assert skeleton(other) == skeleton(name), (how, name, other)
            assert (other == name) == (how == "same"), (how, name, other)


@pytest.mark.parametrize("seed", range(40))
def test_a_bot_never_takes_a_name_that_looks_like_one_at_the_table(seed: int) -> None:
    """``bot_name``: the name the bot would have is taken in any spelling: another."""
    first = bot_name(seed, 1, ["Ann"])
    for how, spell in SPELLINGS.items():
        again = bot_name(seed, 1, ["Ann", spell(first)])
        assert skeleton(again) != skeleton(first), (how, first, again)
        assert again in BOT_NAMES


@pytest.mark.parametrize("how", list(SPELLINGS))
def test_a_person_who_joins_with_a_bots_name_keeps_it_and_the_bot_takes_another(
        server: Server, how: str) -> None:
    made = create(server, name="Ann", size=4, bots={"1": "random", "2": "heuristic"})
    tid = made["table"]["id"]
    before = made["table"]["seats"]
    bot = before[1]["name"]
    assert before[1]["kind"] == "bot" and bot in BOT_NAMES, before
    host = Player(server, tid, made["token"])
    try:
        newcomer = SPELLINGS[how](bot)
        joined = server.post(f"/api/tables/{tid}/join", {"name": newcomer})
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == 3
        # what the host's page hears over the WebSocket
        told = host.wait(lambda m: m["type"] == "table"
                         and m["table"]["seats"][3]["kind"] == "human")
        check_seats(told["table"]["seats"], before, newcomer)
        # what anyone reads over HTTP
        listed = server.get(f"/api/tables/{tid}").json()["seats"]
        check_seats(listed, before, newcomer)
        assert [s["name"] for s in listed] == [s["name"] for s in told["table"]["seats"]]
        # the game starts with those names, the renamed bot playing its seat
        host.send({"v": 1, "type": "host", "command": "start"})
        state = host.wait(lambda m: m["type"] == "state")
        assert state["view"]["players"] == [s["name"] for s in listed]
        after = server.get(f"/api/tables/{tid}").json()["seats"]
        assert [(s["kind"], s["bot"]) for s in after] == [(s["kind"], s["bot"]) for s in listed]
    finally:
        host.close()


def check_seats(seats: list[dict[str, Any]], before: list[dict[str, Any]], newcomer: str) -> None:
    names = [s["name"] for s in seats]
    assert names[3] == newcomer and seats[3]["kind"] == "human", seats
    # the bot: still a bot of its kind, under another name that looks like no one's
    assert seats[1]["kind"] == "bot" and seats[1]["bot"] == before[1]["bot"] == "random", seats
    assert names[1] != before[1]["name"] and names[1] in BOT_NAMES, names
    assert skeleton(names[1]) != skeleton(newcomer), names
    # the other bot and the host are as they were
    assert seats[0]["name"] == "Ann" and seats[0]["kind"] == "human"
    assert (seats[2]["kind"], seats[2]["bot"], seats[2]["name"]) == \
        (before[2]["kind"], before[2]["bot"], before[2]["name"])
    assert len({skeleton(n) for n in names}) == 4, names
