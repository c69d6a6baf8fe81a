"""What ``toepen serve`` does to its own process once started, and nothing else does."""

from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT

PROBE = """
import asyncio, gc, tempfile
from toepen.server.app import GC_MIDDLE, GC_YOUNG, create_app, lifespan
from toepen.server.config import ServerConfig

async def main(own):
    with tempfile.TemporaryDirectory() as tmp:
        cfg = ServerConfig(db=f"sqlite:///{tmp}/t.sqlite3", bot_workers=1, bot_pool="thread",
                           own_process=own)
        app = create_app(cfg)
        before = gc.get_threshold()
        async with lifespan(app):
            print(own, gc.get_threshold()[:2] == (GC_YOUNG, GC_MIDDLE), gc.get_freeze_count() > 0,
                  gc.get_threshold() == before)

asyncio.run(main(OWN))
"""


def probe(own: bool) -> str:
    out = subprocess.run([sys.executable, "-c", PROBE.replace("OWN", str(own))], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().splitlines()[-1]


def test_a_server_process_tunes_its_collector_once_started() -> None:
    assert probe(True) == "True True True False"


def test_an_app_inside_another_program_leaves_its_collector_alone() -> None:
    assert probe(False) == "False False False True"
