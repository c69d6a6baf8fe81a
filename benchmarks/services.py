"""Throwaway PostgreSQL and Redis for benchmarks and tests: started in a temp folder on a
free loopback port, gone afterwards. Debian's packages (``postgresql``, ``redis-server``)
provide the programs; ``.ci/run`` installs them.

``benchmarks/paced_bench.py --processes N`` runs its servers on them, and the server
tests' ``postgres_url`` and ``redis_url`` fixtures are these two.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from server_bench import free_port  # the benchmarks' own module, beside this one

__all__ = ["Postgres", "throwaway_postgres", "throwaway_postgres_cluster", "throwaway_redis"]


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise RuntimeError("PostgreSQL is not installed: apt-get install -y postgresql")


class Postgres:
    """A throwaway PostgreSQL cluster that a fault test may stop and start again (same
    folder, same port): :func:`throwaway_postgres_cluster`."""

    def __init__(self, bindir: Path, base: Path, port: int, prefix: list[str]) -> None:
        self.bindir = bindir
        self.base = base
        self.data = base / "data"
        self.port = port
        self.prefix = prefix
        self.url = f"postgresql://toepen@127.0.0.1:{port}/toepen"

    def run(self, *args: str) -> None:
        subprocess.run([*self.prefix, *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)

    def start(self) -> None:
        self.run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l",
                 str(self.base / "log"), "-w", "-o",
                 f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 -c fsync=on",
                 "start")

    def stop(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m MODE`` (``immediate``: no shutdown checkpoint, as a crash)."""
        self.run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w",
                 "stop")


@contextlib.contextmanager
def throwaway_postgres_cluster() -> Iterator[Postgres]:
    """A PostgreSQL cluster in a temp folder on a free port (:class:`Postgres`).

    initdb refuses to run as root: as root the cluster belongs to the ``postgres`` user
    (the Debian package creates it) and every command runs through ``runuser``.
    """
    bindir = _pg_bin()
    base = Path(tempfile.mkdtemp(prefix="toepen-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(base, "postgres")
        os.chmod(base, 0o755)
        prefix = ["runuser", "-u", "postgres", "--"]
    pg = Postgres(bindir, base, free_port(), prefix)
    pg.run(str(bindir / "initdb"), "-D", str(pg.data), "-A", "trust", "-U", "toepen",
           "--no-sync", "-E", "UTF8")
    pg.start()
    try:
        pg.run(str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(pg.port), "-U",
               "toepen", "toepen")
        yield pg
    finally:
        subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(pg.data), "-m",
                        "immediate", "stop"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        shutil.rmtree(base, ignore_errors=True)


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL cluster in a temp folder on a free port; yields its URL."""
    with throwaway_postgres_cluster() as pg:
        yield pg.url


@contextlib.contextmanager
def throwaway_redis() -> Iterator[str]:
    """A ``redis-server`` without persistence on a free port; yields its URL once it
    answers a ping."""
    import redis

    exe = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(exe).exists():
        raise RuntimeError("redis-server is not installed: apt-get install -y redis-server")
    port = free_port()
    folder = tempfile.mkdtemp(prefix="toepen-redis-")
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", folder],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.05)
        yield url
    finally:
        client.close()
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
