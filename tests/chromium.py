"""Debian's Chromium for the browser tests (``tests/web`` and the cluster's Play now test):
its path, its flags (no sandbox as root, no background networking on a closed network) and
the one way to launch it through Playwright (Playwright's own browser is never used)."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

T = TypeVar("T")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def launch(pw: Playwright) -> Browser:
    """Chromium, or a failure that says how to install it."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (see .ci/run)")
    return pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def with_browser(body: Callable[[Browser], T]) -> T:
    """``body`` with a Chromium of its own, in a thread of its own: Playwright's sync API
    refuses to start where another one runs (the browser tests' session), so a test
    outside ``tests/web`` works whatever ran before it."""
    def run() -> T:
        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                return body(browser)
            finally:
                browser.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()
