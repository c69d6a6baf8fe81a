"""examples/client.py, the client written from docs/protocol.md alone, plays a whole
session against bots on a real server: it ends with the standings, in the language asked
for, and every frame it sent or received is valid under the strict schema."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from toepen.i18n import catalog_json

from .conftest import ROOT, Server
from .schema import check_client_message, check_server_message

CLIENT = ROOT / "examples" / "client.py"


@pytest.mark.parametrize(("lang", "bots", "seed"), [("de", 3, 1), ("nb", 1, 2)])
def test_the_example_client_plays_a_whole_session(server: Server, tmp_path: Path, lang: str,
                                                  bots: int, seed: int) -> None:
    frames = tmp_path / "frames.jsonl"
    run = subprocess.run(
        [sys.executable, str(CLIENT), "--url", server.url, "--lang", lang, "--bots", str(bots),
         "--seed", str(seed), "--frames", str(frames), "--timeout", "120"],
        capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    got = [json.loads(line) for line in frames.read_text(encoding="utf-8").splitlines()]
    received = [f["in"] for f in got if "in" in f]
    sent = [f["out"] for f in got if "out" in f]
    for msg in received:
        check_server_message(msg)
    for msg in sent:
        check_client_message(msg)
    assert sent[0]["type"] == "hello" and any(m["type"] == "act" for m in sent)
    end = received[-1]
    assert end["type"] == "state" and end["view"]["winner"] is not None
    assert end["standings"] and end["summary"]
    # what it printed is the server's messages written out from the catalog
    messages = catalog_json(lang)["messages"]
    out = run.stdout
    assert "* " + messages["standings.title"] in out
    assert messages["summary.title"].split("{")[0].strip() in out
    assert "{" not in out, "a placeholder left unfilled"
    names = end["view"]["players"]
    assert all(name in out for name in names)


def test_the_example_client_carries_on_after_a_server_crash(sqlite_db: str,
                                                             tmp_path: Path) -> None:
    """The server is SIGKILLed mid-session and started again on its database: the client
    reconnects by itself (as the protocol asks) and plays the session to its end."""
    server = Server(sqlite_db, "--bot-delay", "0.05").start()
    frames = tmp_path / "frames.jsonl"
    try:
        client = subprocess.Popen(
            [sys.executable, str(CLIENT), "--url", server.url, "--bots", "3", "--lives", "5",
             "--seed", "3", "--frames", str(frames), "--timeout", "150"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
        end = time.monotonic() + 60
        while '"type": "act"' not in (frames.read_text() if frames.exists() else ""):
            assert time.monotonic() < end and client.poll() is None, "the client never acted"
            time.sleep(0.05)
        server.kill()
        time.sleep(0.5)
        server.start()
        out, _ = client.communicate(timeout=170)
    finally:
        server.stop()
    assert client.returncode == 0, out[-3000:]
    assert "(reconnected at state" in out
    received = [json.loads(line)["in"] for line in frames.read_text().splitlines()
                if '"in"' in line[:6]]
    assert sum(m["type"] == "welcome" for m in received) >= 2
    for msg in received:
        check_server_message(msg)
    assert received[-1]["view"]["winner"] is not None and received[-1]["standings"]
