"""A save never starts a program (issue 23, point 1): ``toepen play --resume`` of a save
whose ``meta.bots`` names ``cmd:...`` plays the fallback with a notice, unless the person
names that program again with ``--bots``; ``q`` leaves at once while a program thinks.

The real-process tests run ``toepen play`` in a pseudo-terminal, as a person would.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import re
import shutil
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from toepen.bots.base import EXTERNAL_FALLBACK
from toepen.i18n import Translator
from toepen.record import load
from toepen.rules import Rules
from toepen.tui.session import PlaySession, shown_command

TOEPEN = shutil.which("toepen", path=str(Path(sys.executable).parent)) or "toepen"


def hostile_save(tmp: Path, command: str) -> Path:
    """A save of ``toepen play`` whose next turn is a bot's, every bot ``cmd:command``."""
    rules = Rules.preset("rulebook", lives=2)
    session = PlaySession.new(rules, players=3, bots=["random"], name="Ann", seed=11,
                              path=tmp / "game.json")
    game = session.game
    while game.turn == session.human or game.turn < 0:
        session.apply(game.turn, game.legal(game.turn)[0])
    assert game.turn != session.human
    session.save()
    doc = json.loads(session.path.read_text(encoding="utf-8"))  # type: ignore[union-attr]
    doc["meta"]["bots"] = ["", f"cmd:{command}", f"cmd:{command}"]
    path = tmp / "shared.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its parent) is gone for our purpose.
    with contextlib.suppress(OSError):
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] != "Z"
    return True


class Terminal:
    """``toepen play ARGS`` in a pseudo-terminal of 220 x 50; its screen output kept."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 220, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "220", "LINES": "50"}
        self.proc = subprocess.Popen([TOEPEN, "play", *args], stdin=slave, stdout=slave,
                                     stderr=slave, cwd=cwd, env=env, start_new_session=True)
        os.close(slave)
        self.master = master
        self.out = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.out.extend(chunk)

    def screen(self) -> str:
        """What was written, escape sequences removed, on one line."""
        text = self.out.decode("utf-8", "replace")
        text = re.sub(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[P\]_^][^\x1b\x07]*(\x07|\x1b\\)|"
                      r"\x1b.", " ", text)
        return " ".join(text.split())

    def wait_for(self, text: str, timeout: float = 30.0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text in self.screen():
                return True
            if self.proc.poll() is not None:
                return text in self.screen()
            time.sleep(0.05)
        return False

    def press(self, key: str) -> None:
        os.write(self.master, key.encode())

    def wait_exit(self, timeout: float) -> float | None:
        """Seconds until the process ended (None: still running after ``timeout``)."""
        start = time.monotonic()
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        return time.monotonic() - start

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        with contextlib.suppress(OSError):
            os.close(self.master)


def test_resume_drops_a_saved_program_to_its_fallback_with_a_notice(tmp_path: Path) -> None:
    marker = tmp_path / "PWNED"
    path = hostile_save(tmp_path, f'sh -c "touch {marker}; sleep 100"')
    session = PlaySession.resume(path)
    try:
        assert session.lineup[1:] == (EXTERNAL_FALLBACK, EXTERNAL_FALLBACK)
        [notice, *_] = session.notices
        assert notice.key == "notice.external_dropped"
        assert notice.values["name"] == session.game.players[1]
        assert notice.values["used"] == EXTERNAL_FALLBACK
        assert notice.values["command"] == f'sh -c "touch {marker}; sleep 100"'
        seat = session.game.turn
        act = session.bot_for(seat).act(session.view() if seat == session.human
                                        else _view(session, seat))
        assert act in session.game.legal(seat)
        session.apply(seat, act)
        assert load(path)["meta"]["bots"][1:] == [EXTERNAL_FALLBACK] * 2  # saved as played
    finally:
        session.close()
    assert not marker.exists()
    text = Translator("nl")(notice.key, **notice.values)
    assert "--bots" in text and EXTERNAL_FALLBACK in text and "programma" in text


def _view(session: PlaySession, seat: int):  # type: ignore[no-untyped-def]
    from toepen.view import observe

    return observe(session.game, seat)


def test_a_program_named_again_on_the_command_line_is_kept(tmp_path: Path) -> None:
    example = Path(__file__).parents[2] / "examples" / "bots" / "random_bot.py"
    command = f"{sys.executable} {example}"
    path = hostile_save(tmp_path, command)
    session = PlaySession.resume(path, allow=[f"cmd:{command}"], timeout=7.5)
    try:
        assert session.lineup[1:] == (f"cmd:{command}",) * 2
        assert session.notices == []
        bot = session.bot_for(session.game.turn)
        assert getattr(bot, "timeout") == 7.5  # noqa: B009 - an ExternalBot's own field
        assert getattr(bot, "pid") is not None  # noqa: B009
    finally:
        session.close()


def test_the_notice_shows_no_terminal_control() -> None:
    assert shown_command("cmd:echo \x1b]0;owned\x07 \x9b2J") == "echo ?]0;owned? ?2J"
    assert len(shown_command("cmd:" + "x" * 500)) == 200


def test_play_resume_of_a_hostile_save_starts_nothing(tmp_path: Path) -> None:
    """The issue's own case, in a real terminal: the save's command is not run, the screen
    says so, and ``q`` leaves at once."""
    marker = tmp_path / "PWNED"
    path = hostile_save(tmp_path, f'sh -c "touch {marker}; sleep 100"')
    term = Terminal(["--resume", str(path), "--lang", "en", "--delay", "0"], tmp_path)
    try:
        assert term.wait_for("a saved game never starts a program"), term.screen()[-2000:]
        time.sleep(1.0)  # the bots have had their turns by now
        assert not marker.exists()
        term.press("q")
        took = term.wait_exit(timeout=20)
        assert took is not None, "q did not end toepen play"
    finally:
        term.close()
    assert not marker.exists()
    assert "toepen play --resume" in term.screen()
    assert load(path)["meta"]["bots"][1:] == [EXTERNAL_FALLBACK] * 2


def test_q_leaves_at_once_while_a_program_named_again_thinks(tmp_path: Path) -> None:
    """An external bot that never answers (and started a child of its own): ``q`` ends the
    game at once, and both the program and its child are gone."""
    pids = tmp_path / "pids"
    script = tmp_path / "slow_bot.sh"
    script.write_text(f"echo $$ > {pids}.tmp\nsleep 100 &\necho $! >> {pids}.tmp\n"
                      f"mv {pids}.tmp {pids}\nwait\n", encoding="utf-8")
    command = f"sh {script}"
    path = hostile_save(tmp_path, command)
    term = Terminal(["--resume", str(path), "--lang", "en", "--delay", "0",
                     "--bots", f"cmd:{command}", "--bot-timeout", "60"], tmp_path)
    try:
        end = time.monotonic() + 30
        while not pids.exists() and time.monotonic() < end and term.proc.poll() is None:
            time.sleep(0.05)
        assert pids.exists(), term.screen()[-2000:]  # named again: it runs, and thinks
        program, child = map(int, pids.read_text().split())
        assert alive(program) and alive(child)
        time.sleep(0.5)
        term.press("q")
        took = term.wait_exit(timeout=20)
        assert took is not None, "q did not end toepen play while the program thought"
        # At once: well inside the 60 s decision limit and the child's 100 s sleep.
        assert took < 10, took
    finally:
        term.close()
    assert not alive(program) and not alive(child)


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it", "nb"])
def test_the_notice_is_in_every_language(lang: str) -> None:
    t = Translator(lang, strict=True)
    text = t("notice.external_dropped", name="Bas", command="sh x", used="heuristic")
    assert "Bas" in text and "sh x" in text and "heuristic" in text and "--bots" in text
