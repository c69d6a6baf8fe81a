"""The accounts' rate limits: attempts in a sliding window, by key (a name, an address,
an account), checked and counted in one step *before* the costly check they guard.

:meth:`Window.take` counts an attempt if the key has room and answers 0, or answers the
seconds to wait and counts nothing; an attempt that succeeds is given back
(:meth:`Window.give_back`). Because the check and the count are one step, 30 parallel
wrong logins for one name get 5 answers of 401 and 25 of 429, however the argon2 checks
interleave. :class:`MemoryWindow` keeps the window in the process (one server);
:class:`RedisWindow` in Redis (``--redis``: one limit for the whole cluster), in one Lua
script per step, on Redis's clock.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Protocol

from ...protocol import Refused

if TYPE_CHECKING:
    from fastapi import Request


def client_key(request: Request) -> str:
    """Who created a table, for ``tables_per_client``: the client's address."""
    return request.client.host if request.client else "unknown"


class Window(Protocol):
    """At most ``most`` attempts per key in ``window`` seconds."""

    most: int
    window: float

    async def take(self, key: str) -> float:
        """Count an attempt for ``key`` and answer 0, or (no room) the seconds until
        there is room, counting nothing."""
        ...

    async def give_back(self, key: str) -> None:
        """Forget the newest attempt of ``key`` (it succeeded: only failures count)."""
        ...


class MemoryWindow:
    """A :class:`Window` in this process's memory (bounded: at most 100 000 keys)."""

    def __init__(self, most: int, window: float) -> None:
        self.most = most
        self.window = window
        self.seen: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        stamps = self.seen.setdefault(key, deque())
        while stamps and now - stamps[0] >= self.window:
            stamps.popleft()
        return stamps

    async def take(self, key: str) -> float:
        # no await in here: on the event loop, the check and the count are one step
        now = time.monotonic()
        stamps = self._recent(key, now)
        if len(stamps) >= self.most:
            return self.window - (now - stamps[0])
        stamps.append(now)
        if len(self.seen) > 100_000:  # bounded memory: forget the oldest keys
            for old in list(self.seen)[:50_000]:
                if old != key:
                    del self.seen[old]
        return 0.0

    async def give_back(self, key: str) -> None:
        stamps = self.seen.get(key)
        if stamps:
            stamps.pop()
        if not stamps:
            self.seen.pop(key, None)


TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0
"""
"""Prune, check and count in one step (a sorted set of stamps in ms, per key)."""


class RedisWindow:
    """A :class:`Window` kept in Redis, shared by every process of a cluster. The keys
    are hashed (``toepen:limit:NAME:SHA-256``), so Redis holds no name or address."""

    def __init__(self, redis: Any, name: str, most: int, window: float) -> None:
        self.redis = redis
        self.name = name
        self.most = most
        self.window = window
        self._take = redis.register_script(TAKE)

    def _key(self, key: str) -> str:
        return f"toepen:limit:{self.name}:{hashlib.sha256(key.encode()).hexdigest()}"

    async def take(self, key: str) -> float:
        try:
            wait_ms = await self._take(keys=[self._key(key)],
                                       args=[self.most, int(self.window * 1000),
                                             secrets.token_hex(8)])
        except Exception:  # noqa: BLE001 - Redis down: refuse rather than let guesses through
            raise Refused("server_error", "the cluster does not answer: try again soon",
                          503) from None
        return int(wait_ms) / 1000

    async def give_back(self, key: str) -> None:
        with contextlib.suppress(Exception):  # else it counts as a failure: harmless
            await self.redis.zpopmax(self._key(key))
