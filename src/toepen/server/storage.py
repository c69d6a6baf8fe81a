"""The store, off the event loop: one storage thread, and group commit of actions.

Every call of the synchronous :class:`~toepen.server.store.Store` runs in one thread,
so the event loop never waits on the disk and SQLite never sees two writers. Actions
that arrive while a commit runs are committed together in the next transaction;
each caller returns only once its own action is on disk. A failure becomes
:class:`~toepen.server.protocol.Refused` ``server_error`` (503): nothing changed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import signal
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from .protocol import Refused
from .store import ActionRow, SeatRow, Store, TableRow

log = logging.getLogger("toepen.server")
T = TypeVar("T")


FAILPOINT = os.environ.get("TOEPEN_FAILPOINT", "")
"""For crash tests only: ``after:METHOD`` SIGKILLs this process right after the store's
``METHOD`` committed, before anyone is told (e.g. ``after:set_seats``)."""


def _failpoint(name: str) -> None:
    if FAILPOINT and f"after:{name}" == FAILPOINT:
        os.kill(os.getpid(), signal.SIGKILL)


def _failed(e: BaseException) -> Refused:
    return Refused("server_error", f"storage failed ({type(e).__name__}); nothing changed", 503)


class Storage:
    """Asynchronous access to a :class:`Store` (which it closes with :meth:`close`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="toepen-db")
        self._batch: list[tuple[ActionRow, asyncio.Future[None]]] = []
        self._flush_task: asyncio.Task[None] | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the storage thread; a failure is Refused ``server_error``."""
        loop = asyncio.get_running_loop()
        try:
            out = await loop.run_in_executor(self.thread, fn, *args)
        except Exception as e:
            log.exception("storage failed")
            raise _failed(e) from None
        _failpoint(getattr(fn, "__name__", ""))
        return out

    # -- the writes and reads the lobby needs ------------------------------------------

    async def load_tables(self) -> list[TableRow]:
        return await self.run(self.store.load_tables)

    async def load_actions(self, table_id: str, start: int = 0) -> list[tuple[int, str, str]]:
        return await self.run(self.store.load_actions, table_id, start)

    async def load_table(self, table_id: str) -> TableRow | None:
        return await self.run(self.store.load_table, table_id)

    async def load_code(self, code: str) -> str | None:
        return await self.run(self.store.load_code, code)

    async def create_table(self, row: TableRow, seats: list[SeatRow]) -> None:
        await self.run(self.store.create_table, row, seats)

    async def set_seat(self, table_id: str, seat: SeatRow) -> None:
        await self.run(self.store.set_seats, table_id, [seat])

    async def set_seats(self, table_id: str, seats: list[SeatRow],
                        players: list[str] | None = None) -> None:
        """Seats, and with ``players`` the start: one transaction."""
        await self.run(self.store.set_seats, table_id, seats, players)

    async def start(self, table_id: str, players: list[str]) -> None:
        await self.run(self.store.start, table_id, players)

    # -- group commit ------------------------------------------------------------------

    async def append(self, row: ActionRow) -> None:
        """Commit one action (with the actions that arrive meanwhile, in one transaction)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._batch.append((row, fut))
        if self._flush_task is None:
            self._flush_task = asyncio.get_running_loop().create_task(self._flush())
        await fut

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._batch:
                batch, self._batch = self._batch, []
                try:
                    await loop.run_in_executor(self.thread, self.store.append_actions,
                                               [r for r, _ in batch])
                    outcome: list[BaseException | None] = [None] * len(batch)
                except Exception:  # one bad row must not sink the others: one by one
                    outcome = []
                    for r, _ in batch:
                        try:
                            await loop.run_in_executor(self.thread,
                                                       self.store.append_actions, [r])
                            outcome.append(None)
                        except IntegrityError:  # another server stored action n first
                            outcome.append(Refused(
                                "stale", f"action {r.n} of this table was just made on "
                                "another server; nothing changed", 409))
                        except Exception as e:
                            log.exception("storing action %d of table %s failed", r.n,
                                          r.table_id)
                            outcome.append(_failed(e))
                for (_, fut), err in zip(batch, outcome, strict=True):
                    if fut.done():
                        continue
                    if err is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(err)
        finally:
            self._flush_task = None

    def close(self) -> None:
        """Stop committing (what is queued is dropped: nobody saw it) and close the store."""
        if self._flush_task is not None:
            self._flush_task.cancel()
        self.thread.shutdown(wait=True)
        self.store.close()
