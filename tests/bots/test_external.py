"""External JSON-lines bots: real subprocesses that play, crash, hang and babble."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import sys
import textwrap
from pathlib import Path

import pytest

from toepen.bots.base import make_bot
from toepen.bots.external import ExternalBot
from toepen.cards import card_str, parse_card
from toepen.engine import Game
from toepen.engine.actions import Action
from toepen.match import hand_over, play_game
from toepen.rules import Rules
from toepen.tools.arena import run_match
from toepen.view import observe

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "random_bot.py"
PY = sys.executable
TOEPEN = str(Path(PY).parent / "toepen")
"""This environment's ``toepen`` command: ``toepen bot NAME`` serves a built-in bot."""
PROGRAMS = {"example": [PY, str(EXAMPLE)], "toepen bot": [TOEPEN, "bot", "casual"]}
"""The programs every test of the protocol's own runs with: the example (no toepen
import) and a built-in bot served by ``toepen bot``."""


def script(tmp_path: Path, name: str, body: str) -> str:
    """Write a bot program; return the command that runs it."""
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"{PY} {path}"


HEADER = """
import json, sys, time
def decisions():
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "decide":
            yield m
def answer(obj):
    sys.stdout.write(json.dumps(obj) + "\\n"); sys.stdout.flush()
"""


def alive(pid: int | None) -> bool:
    if pid is None:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0): look at its state.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except FileNotFoundError:
        return False
    return state != "Z"


def play_session(bot: ExternalBot, preset: str = "rulebook", seed: int = 3) -> Game:
    game = Game(Rules.preset(preset, lives=3), 4, seed=seed)
    others = [make_bot("random", seed=s) for s in (1, 2, 3)]
    play_game(game, [bot, *others], seeds=[5, None, None, None])
    return game


@pytest.mark.parametrize("program", PROGRAMS)
def test_the_example_bot_plays_a_whole_session_without_incident(program: str) -> None:
    bot = make_bot("cmd:" + shlex.join(PROGRAMS[program]), seed=5)
    assert isinstance(bot, ExternalBot)
    try:
        game = play_session(bot)
        assert game.is_over
        assert bot.incidents == [] and bot.fallback is None
        assert any(s == 0 for s, _ in game.actions)
        pid = bot.pid
        assert alive(pid)
    finally:
        bot.close()
    assert not alive(pid)


@pytest.mark.parametrize("program", PROGRAMS)
def test_the_example_bot_is_seeded(program: str) -> None:
    runs = []
    for _ in range(2):
        with ExternalBot(PROGRAMS[program], seed=5) as bot:
            game = play_session(bot, "classic", seed=9)
            runs.append([a for s, a in game.actions if s == 0])
    assert runs[0] == runs[1] and len(runs[0]) > 10


@pytest.mark.parametrize("kind,body,reason", [
    ("crash", """
        for i, m in enumerate(decisions()):
            if i == 2:
                sys.stderr.write("boom\\n"); sys.exit(3)
            answer({"action": m["legal"][-1]})
     """, "exit status 3; stderr: boom"),
    ("timeout", """
        for i, m in enumerate(decisions()):
            if i == 1:
                time.sleep(60)
            answer({"action": m["legal"][0]})
     """, "no answer within 1.5 s"),
    ("crash", """
        for m in decisions():
            answer({"action": m["legal"][0]})
            sys.exit(0)
     """, "exited"),
    ("garbled", """
        for m in decisions():
            print("I think I will play the ten", flush=True)
     """, "not JSON"),
    ("garbled", """
        for m in decisions():
            answer({"action": "play Xx"})
     """, "unknown card"),
    ("garbled", """
        for m in decisions():
            answer({"move": m["legal"][0]})
     """, 'no "action"'),
    ("illegal", """
        for m in decisions():
            bad = [a for a in ["knock", "claim", "play Th", "play Jd"] if a not in m["legal"]]
            answer({"action": bad[0]})
     """, "is not legal"),
])
def test_a_failing_bot_does_not_stop_the_game_and_heuristic_takes_over(
    tmp_path: Path, kind: str, body: str, reason: str
) -> None:
    command = script(tmp_path, kind, HEADER + textwrap.dedent(body))
    # A generous limit except for the hang, so that a slow start-up on a busy machine
    # is not mistaken for the failure under test.
    bot = ExternalBot(command, seed=4, timeout=1.5 if kind == "timeout" else 20.0)
    try:
        game = play_session(bot)
        assert game.is_over, "the game went on to its end"
        assert len(bot.incidents) == 1
        incident = bot.incidents[0]
        assert incident.kind == kind and reason in incident.reason, incident
        assert incident.seat == 0
        assert bot.fallback is not None and bot.fallback.name == "heuristic"
        assert bot.pid is None, "the failed program was stopped"
        # After the failure, the seat plays exactly as a heuristic seeded like the bot.
        twin = make_bot("heuristic", seed=4)
        view = observe(Game(Rules.preset("rulebook"), 4, seed=1), 1)
        assert bot.act(view) == twin.act(view)
        # A new game starts the program again.
        bot.start_game(0, Rules.preset("rulebook"), ["a", "b", "c", "d"], 4)
        assert bot.fallback is None and alive(bot.pid)
    finally:
        bot.close()


def test_a_program_that_cannot_start_is_an_incident_not_an_error() -> None:
    bot = make_bot("cmd:/nonexistent/toepen-bot --fast", seed=1)
    game = Game(Rules.preset("rulebook"), 4, seed=2)
    play_game(game, [bot, *[make_bot("random", seed=s) for s in (1, 2, 3)]],
              stop=hand_over(game))
    assert game.hand_no == 2
    assert [i.kind for i in bot.incidents] == ["crash"]  # type: ignore[attr-defined]
    assert "cannot start" in bot.incidents[0].reason  # type: ignore[attr-defined]


def test_the_program_sees_only_its_own_cards(tmp_path: Path) -> None:
    log = tmp_path / "seen.jsonl"
    command = script(tmp_path, "logger", f"""
        import json, random, sys
        log = open({str(log)!r}, "a")
        rng = random.Random(1)
        for line in sys.stdin:
            log.write(line); log.flush()
            m = json.loads(line)
            if m["type"] == "decide":
                print(json.dumps({{"action": rng.choice(m["legal"])}}), flush=True)
    """)
    game = Game(Rules.preset("classic", lives=6), 4, seed=12)
    bots = [ExternalBot(command, seed=1), *[make_bot("random", seed=s) for s in (1, 2, 3)]]
    hidden_at: list[set[int]] = []
    own_at: list[set[int]] = []
    try:
        for b, seat in zip(bots, range(4), strict=True):
            if isinstance(b, ExternalBot):
                b.start_game(seat, game.rules, game.players, 1)
        steps = 0
        while game.turn >= 0 and steps < 600:
            seat = game.turn
            if seat == 0:
                shown = 0
                for _, mask, _ in game.revealed:
                    shown |= mask
                hidden = 0
                for s in range(1, 4):
                    hidden |= game.hand_mask(s)
                for c in game.stock():
                    hidden |= 1 << c
                hidden &= ~shown
                hidden_at.append({c for c in range(32) if hidden >> c & 1})
                own_at.append({c for c in range(32) if game.hand_mask(0) >> c & 1})
            view = observe(game, seat)
            game.apply(seat, bots[seat].act(view))
            steps += 1
    finally:
        for b in bots:
            if isinstance(b, ExternalBot):
                b.close()
    decides = [json.loads(x) for x in log.read_text().splitlines()]
    decides = [m for m in decides if m["type"] == "decide"]
    assert len(decides) == len(hidden_at) > 20
    for m, hidden, own in zip(decides, hidden_at, own_at, strict=True):
        assert {parse_card(c) for c in m["view"]["hand"]} == own
        mentioned = set()
        for word in json.dumps(m).replace('"', " ").replace(",", " ").split():
            with contextlib.suppress(ValueError):
                mentioned.add(parse_card(word))
        assert not mentioned & hidden, [card_str(c) for c in mentioned & hidden]
        assert m["legal"] == m["view"]["legal"] and m["protocol"] == 1


def test_hello_and_result_lines(tmp_path: Path) -> None:
    log = tmp_path / "lines.jsonl"
    command = script(tmp_path, "hello", f"""
        import json, sys
        log = open({str(log)!r}, "a")
        for line in sys.stdin:
            log.write(line); log.flush()
            m = json.loads(line)
            if m["type"] == "decide":
                print(json.dumps({{"action": m["legal"][-1], "id": m["id"]}}), flush=True)
    """)
    with ExternalBot(command, seed=3, time_budget=0.5) as bot:
        assert bot.timeout == 2.5
        game = Game(Rules.preset("rulebook"), 4, seed=2)
        play_game(game, [make_bot("random", seed=1), bot, *[make_bot("random", seed=s)
                                                            for s in (2, 3)]],
                  stop=hand_over(game), seeds=[None, 3, None, None])
        assert bot.incidents == []
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0]["type"] == "hello" and lines[0]["seat"] == 1
    assert lines[0]["rules"] == "rulebook" and lines[0]["seed"] == 3
    assert lines[0]["time_budget"] == 0.5
    assert lines[-1]["type"] == "result" and lines[-1]["view"]["seat"] == 1
    assert all(m["type"] == "decide" for m in lines[1:-1]) and len(lines) > 2


def test_an_arena_with_a_crashing_program_completes_and_counts_incidents(tmp_path: Path) -> None:
    command = script(tmp_path, "fragile", HEADER + """
for i, m in enumerate(decisions()):
    if i == 3:
        sys.exit(1)
    answer({"action": m["legal"][0]})
""")
    result = run_match(f"cmd:{command}", "random", Rules.preset("rulebook"), players=3, deals=3,
                       seed=1, jobs=1, timeout=20.0)
    row = result.row(f"cmd:{command}")
    assert row.hands == 9
    assert row.incidents >= 1 and "crash" in result.incidents[0]


@pytest.mark.parametrize("program", PROGRAMS)
def test_act_without_start_game_sends_hello_itself(program: str) -> None:
    with ExternalBot(PROGRAMS[program], seed=2) as bot:
        game = Game(Rules.preset("rulebook"), 4, seed=6)
        view = observe(game, game.turn)
        act = bot.act(view)
        assert act in view.legal and isinstance(act, Action)
        assert bot.incidents == []
    with pytest.raises(ValueError, match="timeout must be positive"):
        ExternalBot("x", timeout=0)
