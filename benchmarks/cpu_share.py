"""A process with a share of a core of its own: a Linux cgroup CPU quota.

``benchmarks/paced_bench.py --cpu-share F`` puts each server process in a cgroup of
its own whose CFS quota is ``F`` of one core (over a 100 ms period: :data:`PERIOD_US`).
On a small machine that stands in for a bigger one in which every process has cores of
its own: N processes with a share each hold what N machines would, as long as the
client, PostgreSQL and Redis (not limited) keep up.

Needs a writable cgroup ``cpu`` controller: cgroup v1 (``/sys/fs/cgroup/cpu``) or v2
(``/sys/fs/cgroup`` with ``cpu`` in ``cgroup.subtree_control``), as root in most
containers. :func:`available` says why not otherwise, and nothing is changed then.
Only numbers are written, to files of a folder this module creates; nothing is run.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

__all__ = ["PERIOD_US", "available", "limited"]

PERIOD_US = 100_000
"""CFS period. Within each period the process runs at full speed until it has used its
quota (``share`` of the period), then waits for the next one. Over 100 ms a burst of up
to ``share`` x 100 ms (a collector pass, a few actions at once) runs as fast as on a core
of its own; over 10 ms (tried first) every burst was slowed ``1/share`` times, so a
process at a third of its quota already missed 100 ms at p99 (docs/server.md)."""
GROUP = "toepen-share-{owner}-{pid}"
"""A group's name: the bench that made it (``owner``) and the process it limits."""
ROOT_V1 = Path("/sys/fs/cgroup/cpu")
ROOT_V2 = Path("/sys/fs/cgroup")


def _root() -> tuple[Path, int] | None:
    if (ROOT_V1 / "cpu.cfs_quota_us").exists() and os.access(ROOT_V1, os.W_OK):
        return ROOT_V1, 1
    ctl = ROOT_V2 / "cgroup.subtree_control"
    if ctl.exists() and os.access(ROOT_V2, os.W_OK):
        with contextlib.suppress(OSError):
            if "cpu" in ctl.read_text().split():
                return ROOT_V2, 2
    return None


def available() -> str | None:
    """None when CPU shares can be set here; else why not, in a sentence."""
    if _root() is None:
        return ("no writable cgroup cpu controller (/sys/fs/cgroup/cpu or a cgroup v2 "
                "root with cpu enabled); run as root on Linux")
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, someone else's
        pass
    return True


def _release(root: Path, group: Path) -> None:
    """Its processes back to the root group, then the group removed (quietly)."""
    with contextlib.suppress(OSError):
        for line in (group / "cgroup.procs").read_text().split():
            (root / "cgroup.procs").write_text(line)
    with contextlib.suppress(OSError):
        group.rmdir()


def _sweep(root: Path) -> None:
    """The groups of a bench that is gone (killed before it removed them)."""
    for group in root.glob(GROUP.format(owner="*", pid="*")):
        owner = group.name.split("-")[2]
        if owner.isdigit() and not _alive(int(owner)):
            _release(root, group)


@contextlib.contextmanager
def limited(pids: list[int], share: float) -> Iterator[list[Path]]:
    """Each of ``pids`` in a cgroup of its own limited to ``share`` of one core, for
    the ``with`` block; the groups are removed after it (once their processes are
    gone, or moved back to the root group), and first those a killed bench left."""
    if not 0.0 < share <= 64.0:
        raise ValueError(f"cpu share {share}: more than 0, at most 64 cores")
    found = _root()
    if found is None:
        raise OSError(available())
    root, version = found
    _sweep(root)
    quota = max(1000, round(share * PERIOD_US))
    groups: list[Path] = []
    try:
        for pid in pids:
            group = root / GROUP.format(owner=os.getpid(), pid=pid)
            try:
                group.mkdir(exist_ok=True)
                groups.append(group)
                if version == 1:
                    (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                    (group / "cpu.cfs_quota_us").write_text(str(quota))
                else:
                    (group / "cpu.max").write_text(f"{quota} {PERIOD_US}")
                (group / "cgroup.procs").write_text(str(pid))
            except OSError as err:
                raise OSError(f"cgroup {group}: cannot limit process {pid} to {share:g} "
                              f"of a core ({err.strerror or err})") from None
        yield groups
    finally:
        for group in groups:
            _release(root, group)
