"""The core package installs alone: ``pip install toepen`` in a fresh virtual environment
imports toepen and plays a game with none of the server's or the terminal's libraries
there, says which extra a command needs, and with ``[rl]`` alone runs the PettingZoo
environment. Installed with uv from this tree (its cache, else the package index)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UV = shutil.which("uv")
SERVER_AND_TERMINAL = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "psycopg", "redis",
                       "prometheus_client", "argon2", "textual", "orjson", "numpy")

PLAY = """
import importlib.util, sys
from toepen import Game, Rules, make_bot, play_game, observe, to_record, replay
present = [m for m in sys.argv[1].split(",") if importlib.util.find_spec(m) is not None]
assert not present, f"installed with the core: {present}"
game = Game(Rules.preset("classic"), 4, seed=5)
bots = ["expert", "heuristic", "pimc", "random"]
play_game(game, [make_bot(b, seed=i) for i, b in enumerate(bots)])
assert game.is_over and replay(to_record(game)).winner == game.winner
loaded = [m for m in sys.argv[1].split(",") if m in sys.modules]
assert not loaded, loaded
print("played", game.hand_no, "hands; winner", game.winner)
"""

PETTINGZOO = """
from pettingzoo.test import api_test
from toepen.rl.pettingzoo import env
api_test(env(preset="rulebook", players=3, lives=3), num_cycles=200)
print("pettingzoo ok")
"""


def _venv(tmp: Path, spec: str) -> Path:
    assert UV is not None, "uv is needed (the README's one tool): pip install uv"
    venv = tmp / "venv"
    env = {**os.environ, "VIRTUAL_ENV": str(venv)}
    env.pop("UV_PROJECT_ENVIRONMENT", None)
    subprocess.run([UV, "venv", "--quiet", "--python", sys.executable, str(venv)],
                   check=True, env=env, timeout=120)
    subprocess.run([UV, "pip", "install", "--quiet", "--python", str(venv / "bin" / "python"),
                    spec], check=True, env=env, timeout=600, cwd=tmp)
    return venv / "bin" / "python"


def test_the_core_installs_alone_plays_and_names_the_missing_extras(tmp_path: Path) -> None:
    python = _venv(tmp_path, str(ROOT))
    done = subprocess.run([str(python), "-c", PLAY, ",".join(SERVER_AND_TERMINAL)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "played" in done.stdout
    toepen = python.parent / "toepen"
    rules = subprocess.run([str(toepen), "rules", "--lang", "en"], capture_output=True,
                           text=True, timeout=120)
    assert rules.returncode == 0, rules.stderr
    for argv, extra, lang, says in [
        (["serve"], "server", "en", "toepen serve needs the [server] extra"),
        (["serve", "--port", "9"], "server", "nl", "toepen serve heeft de extra [server]"),
        (["play", "--lang", "de"], "tui", "de", "toepen play braucht das Extra [tui]"),
        (["arena", "--bots", "random,heuristic"], "arena", "it", "richiede l'extra [arena]"),
    ]:
        out = subprocess.run([str(toepen), *argv], capture_output=True, text=True,
                             timeout=120, env={**os.environ, "LANG": f"{lang}_XX.UTF-8",
                                               "LANGUAGE": lang, "LC_ALL": "",
                                               "COLUMNS": "200"})
        text = " ".join(re.sub("[│╭╮╰╯─]", " ", out.stdout + out.stderr).split())
        assert out.returncode == 2, text
        assert says in text and f"pip install 'toepen[{extra}]'" in text, text
        assert "Traceback" not in text


def test_the_rl_extra_alone_runs_the_pettingzoo_environment(tmp_path: Path) -> None:
    python = _venv(tmp_path, f"{ROOT}[rl]")
    done = subprocess.run([str(python), "-c", PETTINGZOO], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "pettingzoo ok" in done.stdout
    gone = subprocess.run([str(python), "-c", "import fastapi"], capture_output=True)
    assert gone.returncode != 0  # [rl] brings no server


def test_serve_without_the_postgres_or_redis_extra_names_it(tmp_path: Path) -> None:
    """``[server]`` alone: ``--db postgresql://...`` and ``--redis`` say which extra they
    need (in the user's language, exit 2) instead of failing inside the server."""
    python = _venv(tmp_path, f"{ROOT}[server]")
    gone = subprocess.run([str(python), "-c", "import psycopg"], capture_output=True)
    assert gone.returncode != 0  # [server] brings no PostgreSQL driver
    gone = subprocess.run([str(python), "-c", "import redis"], capture_output=True)
    assert gone.returncode != 0  # nor a Redis client
    toepen = python.parent / "toepen"
    db = ["--db", "postgresql://toepen@127.0.0.1:1/toepen"]
    redis = ["--redis", "redis://127.0.0.1:1/0"]
    for argv, extra, lang, says in [
        (db, "postgres", "en", "needs the [postgres] extra"),
        (["--db", "postgres://u@h/db"], "postgres", "nl", "heeft de extra [postgres]"),
        (redis, "redis", "de", "braucht das Extra [redis]"),
        ([*db, *redis], "postgres", "nb", "trenger tillegget [postgres]"),
    ]:
        out = subprocess.run([str(toepen), "serve", "--port", "0", *argv],
                             capture_output=True, text=True, timeout=120,
                             env={**os.environ, "LANG": f"{lang}_XX.UTF-8", "LANGUAGE": lang,
                                  "LC_ALL": "", "COLUMNS": "200"})
        text = " ".join(re.sub("[│╭╮╰╯─]", " ", out.stdout + out.stderr).split())
        assert out.returncode == 2, text
        assert says in text and f"pip install 'toepen[{extra}]'" in text, text
        assert "Traceback" not in text and "Uvicorn running" not in text, text
