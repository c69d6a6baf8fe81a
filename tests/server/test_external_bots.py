"""External JSON-lines bots at server tables: registered by the operator, chosen by name.

Real servers, real bot programs (written to a temp folder), real sockets. A program writes
its pid and every line it receives to files, so the tests see what it was told and
whether it is still alive.
"""

from __future__ import annotations

import json
import os
import random
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from toepen.cli import app
from toepen.record import replay
from toepen.view import observe

from .audit import CARD, audit, strings, timeline
from .conftest import Player, Server, create
from .schema import check_server_message
from .test_session import calm, over, play_until

PY = sys.executable

BOT = """
import json, os, random, sys, time

mode, out = sys.argv[1], sys.argv[2]
pid = os.getpid()
with open(os.path.join(out, f"pid-{pid}"), "w") as f:
    f.write(str(pid))
log = open(os.path.join(out, f"in-{pid}.jsonl"), "a")
rng = random.Random(0)
decisions = 0
for line in sys.stdin:
    log.write(line)
    log.flush()
    m = json.loads(line)
    if m["type"] == "hello":
        rng = random.Random(m["seed"])
    if m["type"] != "decide":
        continue
    decisions += 1
    legal = m["legal"]
    if decisions > 1 and mode == "crash":
        print("my hand:", " ".join(m["view"]["hand"]), file=sys.stderr, flush=True)
        sys.exit(3)
    if decisions > 1 and mode == "hang":
        time.sleep(3600)
    if decisions > 1 and mode == "illegal":
        wrong = next(f"play {r}{s}" for r in "789TJQKA" for s in "cdhs"
                     if f"play {r}{s}" not in legal)
        print(json.dumps({"action": wrong, "id": m["id"]}), flush=True)
        continue
    quiet = [a for a in legal if a not in ("knock", "fold")]
    print(json.dumps({"action": rng.choice(quiet or legal), "id": m["id"]}), flush=True)
if mode == "stubborn":  # does not leave when its stdin closes: it must be killed
    time.sleep(3600)
"""

MODES = ("good", "stubborn", "crash", "hang", "illegal")
NAMES = {"good": "polite", "stubborn": "stubborn", "crash": "crashy", "hang": "sleepy",
         "illegal": "liar"}
TIMEOUT = 2.0


def bot_args(folder: Path, modes: tuple[str, ...] = MODES) -> tuple[list[str], dict[str, Path]]:
    """The bot program in ``folder``; ``--bot`` options and each bot's output folder."""
    program = folder / "bot.py"
    program.write_text(textwrap.dedent(BOT), encoding="utf-8")
    args: list[str] = []
    outs: dict[str, Path] = {}
    for mode in modes:
        out = folder / mode
        out.mkdir()
        outs[mode] = out
        args += ["--bot", f"{NAMES[mode]}=cmd:{PY} {program} {mode} {out}"]
    return args, outs


def pids(out: Path) -> list[int]:
    return sorted(int(p.name.removeprefix("pid-")) for p in out.glob("pid-*"))


def lines(out: Path, pid: int) -> list[dict[str, Any]]:
    path = out / f"in-{pid}.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()]


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def back(p: Player) -> None:
    """Read until ``p`` has noticed the restart, reconnected and has a fresh state."""
    before = p.reconnects
    end = time.monotonic() + 30
    while p.reconnects == before:
        assert time.monotonic() < end, "the client did not reconnect"
        p.poll(0.2)
    p.wait(lambda m: m["type"] == "state", 10)


def wait_gone(found: list[int], seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not all(gone(p) for p in found):
        assert time.monotonic() < end, f"bot processes still alive: " \
            f"{[p for p in found if not gone(p)]}"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def bots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, Path]]]:
    """One server with every test bot registered."""
    folder = tmp_path_factory.mktemp("bots")
    args, outs = bot_args(folder)
    db = tmp_path_factory.mktemp("db") / "toepen.sqlite3"
    server = Server(f"sqlite:///{db}", *args, "--bot-timeout", str(TIMEOUT)).start()
    yield server, outs
    server.stop()


def table_of_bots(server: Server, seats: dict[str, str]) -> tuple[str, Player]:
    """A bot-only table with the host watching (not seated), started."""
    host = create(server, size=len(seats), bots=seats, options={"lives": 3})
    tid = host["table"]["id"]
    watcher = Player(server, tid, host["token"])
    assert watcher.welcome and watcher.welcome["seat"] is None and watcher.welcome["host"]
    r = server.post(f"/api/tables/{tid}/start", {},
                    headers={"Authorization": "Bearer " + host["token"]})
    assert r.status_code == 200, r.text
    return tid, watcher


def finish(server: Server, watchers: list[Player], timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while not all(over(w) for w in watchers):
        assert time.monotonic() < end, "a game did not finish"
        for w in watchers:
            w.poll(0.02)
    for w in watchers:
        w.drain(0.2)


def test_a_whole_game_with_external_bots_seeing_only_their_own_cards(
        bots: tuple[Server, dict[str, Path]]) -> None:
    server, outs = bots
    lineup = {"0": "polite", "1": "random", "2": "stubborn", "3": "heuristic"}
    tid, watcher = table_of_bots(server, lineup)
    finish(server, [watcher])

    record = server.get(f"/api/tables/{tid}/record").json()
    assert record["meta"]["bots"] == ["polite", "random", "stubborn", "heuristic"]
    assert len(set(record["players"])) == 4
    game = replay(record)
    assert game.is_over
    games = timeline(record)
    for msg in watcher.messages:
        check_server_message(msg)
    assert audit(watcher.messages, None, games) > 10
    info = server.get(f"/api/tables/{tid}").json()
    assert all("fallback" not in s for s in info["seats"]), info["seats"]

    for seat, mode in ((0, "good"), (2, "stubborn")):
        found = pids(outs[mode])
        assert len(found) == 1, "one process per seat for the whole game"
        # The game is over: the program got its result and is gone (the stubborn one,
        # which ignores the end of its input, killed).
        wait_gone(found)
        got = lines(outs[mode], found[0])
        hello, result = got[0], got[-1]
        assert hello["type"] == "hello" and hello["protocol"] == 1 and hello["seat"] == seat
        assert hello["players"] == record["players"] and hello["timeout"] == TIMEOUT
        assert isinstance(hello["seed"], int) and 0 <= hello["seed"] < 2**53
        if mode == "good":  # (the stubborn one may be killed before it reads it)
            assert result["type"] == "result" and result["winner"] == game.winner
            assert result["view"] == json.loads(json.dumps(observe(game, seat).to_json()))
        decides = [m for m in got if m["type"] == "decide"]
        assert len(decides) == sum(1 for a in record["actions"]
                                   if a.startswith(f"{seat} ")), "one question per action"
        for m in decides:
            n = m["view"]["action_count"]
            expected = json.loads(json.dumps(observe(games[n], seat).to_json()))
            assert m["view"] == expected, f"state {n}: the view is not observe(game, {seat})"
            assert m["legal"] == expected["legal"] and m["legal"]
            named = {c for s in strings(m) for c in CARD.findall(s)}
            assert named <= games.visible(n, seat), \
                f"seat {seat} was shown {sorted(named - games.visible(n, seat))}"
    assert f"at table {tid}" not in server.logpath.read_text(), "no incident"
    watcher.close()


def test_crash_hang_and_illegal_answer_fall_back_to_heuristic(
        bots: tuple[Server, dict[str, Path]]) -> None:
    server, outs = bots
    tables = {}
    for mode in ("crash", "hang", "illegal"):
        tables[mode] = table_of_bots(server, {"0": "random", "1": NAMES[mode],
                                              "2": "random", "3": "random"})
    finish(server, [w for _, w in tables.values()])

    texts = {"crash": "crash: the program stopped or could not start",
             "hang": f"timeout: no answer within {TIMEOUT:g} s",
             "illegal": "illegal: the answer was not a legal action"}
    kinds = {"crash": "crash", "hang": "timeout", "illegal": "illegal"}
    log = server.logpath.read_text()
    for mode, (tid, watcher) in tables.items():
        record = server.get(f"/api/tables/{tid}/record").json()
        assert replay(record).is_over and record["meta"]["bots"][1] == NAMES[mode]
        # The program answered once, then failed: heuristic played the seat from there.
        assert sum(1 for a in record["actions"] if a.startswith("1 ")) >= 2
        # The clients were told, with the kind and a fixed text only.
        told = [m for m in watcher.messages if m["type"] == "table"
                and m["table"]["seats"][1].get("fallback") == "heuristic"]
        assert told, f"{mode}: the clients were not told of the fallback"
        assert told[0]["table"]["seats"][1]["incident"] == texts[mode]
        info = server.get(f"/api/tables/{tid}").json()["seats"][1]
        assert info["fallback"] == "heuristic" and info["incident"] == texts[mode]
        # Nothing the program said (its stderr, its answer) reached a client.
        for msg in watcher.messages:
            check_server_message(msg)
        assert not any("my hand" in raw for raw in watcher.raw)
        audit(watcher.messages, None, timeline(record))
        # The server's log has it, in full.
        assert f"external bot {NAMES[mode]} at table {tid} seat 1: {kinds[mode]}" in log
        found = pids(outs[mode])
        assert len(found) == 1
        wait_gone(found)
        watcher.close()
    assert "stderr: my hand:" in log  # the operator sees what the crashing program said


def test_clients_cannot_name_a_command_or_an_unregistered_bot(
        bots: tuple[Server, dict[str, Path]], tmp_path: Path) -> None:
    server, _outs = bots
    presets = server.get("/api/presets").json()
    assert [b for b in presets["bots"] if b in NAMES.values()] == list(NAMES.values())
    marker = tmp_path / "pwned"
    before = len(server.get("/api/tables").json()["tables"])
    for name in (f"cmd:touch {marker}", "cmd:" + PY, "ghost", "Good"):
        r = server.post("/api/tables", {"size": 3, "bots": {"1": name}})
        assert r.status_code == 400 and "unknown bot" in r.json()["detail"], r.text
    assert len(server.get("/api/tables").json()["tables"]) == before

    host = create(server, name="Ann", size=3)
    tid = host["table"]["id"]
    ann = Player(server, tid, host["token"])
    for name in (f"cmd:touch {marker}", "ghost"):
        ann.send({"v": 1, "type": "host", "command": "add_bot", "seat": 1, "bot": name,
                  "id": name})
        err = ann.wait(lambda m: m["type"] == "error")
        check_server_message(err)
        assert err["code"] == "bad_message" and "unknown bot" in err["message"], err
        assert err["id"] == name
        assert server.get(f"/api/tables/{tid}").json()["seats"][1]["kind"] == "open"
    ann.send({"v": 1, "type": "host", "command": "add_bot", "seat": 1, "bot": "polite"})
    msg = ann.wait(lambda m: m["type"] == "table" and m["table"]["seats"][1]["kind"] == "bot")
    assert msg["table"]["seats"][1]["bot"] == "polite"
    ann.send({"v": 1, "type": "host", "command": "remove_bot", "seat": 1})
    ann.wait(lambda m: m["type"] == "table" and m["table"]["seats"][1]["kind"] == "open")
    time.sleep(0.2)
    assert not marker.exists(), "a client's command was run"
    ann.close()


def test_a_stop_leaves_no_bot_and_a_restart_keeps_registered_bots_only(
        tmp_path: Path, sqlite_db: str) -> None:
    """Stopped mid-game: every program is stopped with the server, even one that does not
    leave when its input closes. Started again with ``good`` registered but not
    ``stubborn``: ``good`` plays its seat again (a new process, a hello in the middle of
    the game), heuristic plays ``stubborn``'s and the table says so; the game ends."""
    args, outs = bot_args(tmp_path, ("good", "stubborn"))
    server = Server(sqlite_db, *args).start()
    try:
        host = create(server, name="Ann", size=4, idle_seconds=3600, options={"lives": 3},
                      bots={"1": "polite", "2": "stubborn", "3": "random"}, autostart=True)
        tid = host["table"]["id"]
        ann = Player(server, tid, host["token"])
        rng = random.Random(8)
        play_until([ann], rng, lambda: over(ann) or ann.my_turn() and all(
            pids(outs[m]) for m in ("good", "stubborn")), choose=calm)
        assert not over(ann)
        first = {m: pids(outs[m]) for m in ("good", "stubborn")}
        assert not any(gone(p) for found in first.values() for p in found)
        n = ann.view["action_count"]

        started = time.monotonic()
        server.stop()
        assert time.monotonic() - started < 9.5, "the server did not stop by itself"
        wait_gone([p for found in first.values() for p in found], 1.0)

        server.extra = (*args[:2], "--bot-timeout", str(TIMEOUT))  # good only
        server.start()
        back(ann)
        seats = ann.welcome["table"]["seats"] if ann.welcome else []
        assert "fallback" not in seats[1]
        assert seats[2]["bot"] == "stubborn" and seats[2]["fallback"] == "heuristic"
        assert seats[2]["incident"] == "unregistered: no bot 'stubborn' at this server"
        log = server.logpath.read_text()
        assert "seat 2: bot 'stubborn' is not registered at this server" in log
        assert ann.view["action_count"] == n

        play_until([ann], rng, lambda: over(ann), timeout=60, choose=calm)
        ann.drain(0.2)
        record = server.get(f"/api/tables/{tid}/record").json()
        assert replay(record).is_over
        for msg in ann.messages:
            check_server_message(msg)
        audit(ann.messages, 0, timeline(record))
        assert pids(outs["stubborn"]) == first["stubborn"], "not started again"
        second = [p for p in pids(outs["good"]) if p not in first["good"]]
        assert len(second) == 1
        wait_gone(second)  # the game is over: the program got its result and left
        got = lines(outs["good"], second[0])
        assert got[0]["type"] == "hello" and got[0]["seat"] == 1
        assert got[0]["timeout"] == TIMEOUT
        decides = [m for m in got if m["type"] == "decide"]
        assert decides and decides[0]["view"]["action_count"] >= n
        assert got[-1]["type"] == "result"
        ann.close()
    finally:
        server.stop()


@pytest.mark.parametrize("value,problem", [
    ("mybot", "NAME=cmd:COMMAND expected"),
    ("mybot=python mybot.py", "must start with 'cmd:'"),
    ("heuristic=cmd:python mybot.py", "'heuristic' is the name of a built-in bot"),
    ("Default=cmd:python mybot.py", "'Default' is the name of a built-in bot"),
    ("my bot=cmd:python mybot.py", "name 'my bot'"),
    ("mybot=cmd:", "'cmd:' needs a command"),
    ("mybot=cmd:python 'mybot.py", "cannot split the command"),
    ("mybot=cmd:no-such-program-here x", "program 'no-such-program-here' not found"),
])
def test_the_bot_option_is_checked(value: str, problem: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--bot", value])
    assert result.exit_code == 2, result.output
    assert "--bot" in result.output and problem in " ".join(result.output.split())


def test_a_bot_registered_twice_and_a_bad_timeout_are_refused() -> None:
    twice = CliRunner().invoke(app, ["serve", "--bot", "a=cmd:sh", "--bot", "a=cmd:sh x"])
    assert twice.exit_code == 2 and "'a' is registered twice" in twice.output
    zero = CliRunner().invoke(app, ["serve", "--bot-timeout", "0"])
    assert zero.exit_code == 2 and "--bot-timeout" in zero.output
