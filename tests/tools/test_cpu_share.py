"""A server process with a share of a core of its own (toepen bench --paced --cpu-share)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from toepen.tools.cpu_share import available, limited
from toepen.tools.server_bench import cpu_seconds


def test_a_busy_process_gets_no_more_than_its_share() -> None:
    """Where the machine allows it (root and a writable cgroup cpu controller), a busy
    loop limited to a fifth of a core uses about that; its group is gone afterwards.
    Elsewhere the limit is refused with the reason, and nothing is changed."""
    with pytest.raises(ValueError, match="cpu share 0"), limited([], 0.0):
        pass
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        why = available()
        if why is not None:
            with pytest.raises(OSError, match="cgroup"), limited([busy.pid], 0.2):
                pass
            return
        with limited([busy.pid], 0.2) as groups:
            assert len(groups) == 1 and groups[0].is_dir()
            time.sleep(0.3)
            before = cpu_seconds(busy.pid)
            t0 = time.perf_counter()
            time.sleep(1.5)
            used = (cpu_seconds(busy.pid) - before) / (time.perf_counter() - t0)
        assert 0.1 < used < 0.3, used
        assert not groups[0].exists()
    finally:
        busy.kill()
        busy.wait()
