"""Throwaway PostgreSQL and Redis for benchmarks and tests: started in a temp folder on a
free loopback port, gone afterwards. Debian's packages (``postgresql``, ``redis-server``)
provide the programs; ``.ci/run`` installs them.

``toepen bench --server --paced --processes N`` runs its servers on them, and the server
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

from .server_bench import free_port

__all__ = ["throwaway_postgres", "throwaway_redis"]


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise RuntimeError("PostgreSQL is not installed: apt-get install -y postgresql")


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL cluster in a temp folder on a free port; yields its URL.

    initdb refuses to run as root: as root the cluster belongs to the ``postgres`` user
    (the Debian package creates it) and every command runs through ``runuser``.
    """
    bindir = _pg_bin()
    base = Path(tempfile.mkdtemp(prefix="toepen-pg-"))
    data = base / "data"
    port = free_port()
    prefix: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(base, "postgres")
        os.chmod(base, 0o755)
        prefix = ["runuser", "-u", "postgres", "--"]

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)

    run(str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "toepen",
        "--no-sync", "-E", "UTF8")
    run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(base / "log"), "-w", "-o",
        f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=on", "start")
    try:
        run(str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "toepen",
            "toepen")
        yield f"postgresql://toepen@127.0.0.1:{port}/toepen"
    finally:
        subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(base, ignore_errors=True)


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
