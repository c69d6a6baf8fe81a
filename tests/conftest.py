"""What every test of the suite shares: the bytecode of its Python processes.

The suite starts hundreds of Python processes (servers, their bot workers, the terminal
game, external bots, the command line). Where bytecode is not written
(``PYTHONDONTWRITEBYTECODE=1`` or ``python -B``) each of them compiles every module it
imports from source, about 1.4 s of a server's start of 2.7 s (measured on this machine's
2 cores). The suite then keeps the bytecode in pytest's own cache folder
(``.pytest_cache/d/pycache``, through ``PYTHONPYCACHEPREFIX``), never next to the sources:
the tree stays as clean as the setting asked, and each module is compiled once per
change. The bytecode of modules in the temporary folder (the virtual environments the
install tests make, a new one each run) is removed at the end of the run, so that the
cache does not grow run after run. A cache prefix named by the caller is kept as it is;
without pytest's cache (``-p no:cacheprovider``) nothing changes.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

PYCACHE = pytest.StashKey[str]()
"""The bytecode cache this run set up (none where it did not)."""


def pytest_configure(config: pytest.Config) -> None:
    if not sys.dont_write_bytecode or sys.pycache_prefix or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    cache = getattr(config, "cache", None)
    if cache is None:
        return
    prefix = str(cache.mkdir("pycache"))
    config.stash[PYCACHE] = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # for the processes the tests start
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.pycache_prefix = prefix  # and for the modules this process imports from now on
    sys.dont_write_bytecode = False


def pytest_unconfigure(config: pytest.Config) -> None:
    prefix = config.stash.get(PYCACHE, None)
    if prefix is not None:
        temp = Path(tempfile.gettempdir()).resolve()
        shutil.rmtree(Path(prefix) / temp.relative_to(temp.anchor), ignore_errors=True)
