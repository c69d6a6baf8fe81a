"""A server process with a share of a core of its own (benchmarks/paced_bench.py --cpu-share)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cpu_share import available, limited
from server_bench import cpu_seconds


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
        try:
            with limited([busy.pid], 0.2) as groups:
                assert len(groups) == 1 and groups[0].is_dir()
                time.sleep(0.3)
                before = cpu_seconds(busy.pid)
                t0 = time.perf_counter()
                time.sleep(1.5)
                used = (cpu_seconds(busy.pid) - before) / (time.perf_counter() - t0)
        except OSError as err:
            # A controller that can be written but refuses the process (a container's
            # cgroup v2 with processes of its own): refused by name, nothing left behind.
            assert "cgroup" in str(err) and "cannot limit process" in str(err), err
            assert not any(p.name.startswith("toepen-share-") for p in _roots())
            return
        assert 0.1 < used < 0.3, used
        assert not groups[0].exists()
        # A process that is not there: refused by name, its group removed.
        with pytest.raises(OSError, match="cannot limit process 999999999"), \
                limited([999999999], 0.2):
            pass
        assert not any(p.name.startswith("toepen-share-") for p in _roots())
    finally:
        busy.kill()
        busy.wait()


def _roots() -> list[Path]:
    from cpu_share import ROOT_V1, ROOT_V2

    out: list[Path] = []
    for root in (ROOT_V1, ROOT_V2):
        if root.is_dir():
            out.extend(p for p in root.iterdir() if p.is_dir())
    return out


def test_groups_a_killed_bench_left_are_removed() -> None:
    """A bench killed inside ``limited`` leaves its groups; the next one removes those
    of owners that are gone, and keeps a live owner's."""
    if available() is not None:
        with pytest.raises(OSError, match="cgroup"), limited([], 0.2):
            pass
        return
    from cpu_share import _root

    found = _root()
    assert found is not None
    root = found[0]
    gone = subprocess.Popen(["true"])
    gone.wait()
    left = root / f"toepen-share-{gone.pid}-{gone.pid}"
    live = root / f"toepen-share-{os.getppid()}-1"  # a live owner's: not ours to remove
    left.mkdir()
    live.mkdir()
    try:
        with limited([], 0.2):
            assert not left.exists()
            assert live.is_dir()
    finally:
        for group in (left, live):
            if group.exists():
                group.rmdir()
