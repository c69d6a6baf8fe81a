"""The store, off the event loop: one storage thread, and group commit of actions.

Every call of the synchronous :class:`~toepen.server.db.store.Store` runs in one thread,
so the event loop never waits on the disk and SQLite never sees two writers. Actions
that arrive while a commit runs are committed together in the next transaction;
each caller returns only once its own action is on disk. A failure becomes
:class:`~toepen.server.protocol.Refused` ``server_error`` (503): nothing changed.

A commit can fail with its outcome unknown (the connection broke during it: the
database may have stored it and crashed before answering). Then the storage looks
again before it answers (:meth:`Storage._look_again`): ``server_error`` only once the
database said the action is not stored; the caller told success if it is; ``in_doubt``
(503) if the database did not answer at all for :attr:`Storage.doubt_seconds`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError

from ..protocol import Refused
from .store import ActionRow, SeatRow, Store, TableRow

log = logging.getLogger("toepen.server")
T = TypeVar("T")


after_call: Callable[[str], None] | None = None
"""A hook for fault tests, None in service: called in the event loop with the name of
the store's method (e.g. ``set_seats``) each time one returned, before anyone is told
what it did (a crash test's harness, installed in the server's process before it starts,
kills or stops the process there: see tests/faults.py)."""

before_commit: Callable[[list[ActionRow]], None] | None = None
"""A hook for fault tests, None in service: called in the storage thread with the actions
about to be committed in one transaction, before the commit (a test's harness can stop
the thread there: an owner frozen with a write in flight)."""


def _failed(e: BaseException) -> Refused:
    return Refused("server_error", f"storage failed ({type(e).__name__}); nothing changed", 503)


def _stale(r: ActionRow) -> Refused:
    return Refused("stale", f"action {r.n} of this table was just made on another server; "
                   "nothing changed", 409)


class Fenced(Refused):
    """An action refused by the lease's fence: its writer no longer holds the table's
    lease (another process took it, with a higher epoch); nothing was stored."""

    epoch: int | None = None
    """The epoch it was written under."""


def _fenced(r: ActionRow) -> Refused:
    e = Fenced("stale", f"action {r.n}: this server no longer holds the table's lease "
               f"(epoch {r.epoch} is past); nothing changed", 409)
    e.epoch = r.epoch
    return e


class Storage:
    """Asynchronous access to a :class:`Store` (which it closes with :meth:`close`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="toepen-db")
        self._batch: list[tuple[ActionRow, asyncio.Future[None]]] = []
        self._flush_task: asyncio.Task[None] | None = None
        self.doubt_seconds = 15.0
        """How long a commit whose outcome is unknown is tried again (see _look_again)."""

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the storage thread; a failure is Refused ``server_error``."""
        loop = asyncio.get_running_loop()
        try:
            out = await loop.run_in_executor(self.thread, fn, *args)
        except Exception as e:
            log.exception("storage failed")
            raise _failed(e) from None
        if after_call is not None:
            after_call(getattr(fn, "__name__", ""))
        return out

    # -- the writes and reads the lobby needs ------------------------------------------

    async def load_tables(self, live: bool = False) -> list[TableRow]:
        """Every stored table (``live``: only those whose game is not over)."""
        return await self.run(self.store.load_tables, None, live)

    async def finished_ids(self) -> list[str]:
        return await self.run(self.store.finished_ids)

    async def taken(self, table_id: str, code: str) -> bool:
        return await self.run(self.store.taken, table_id, code)

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
        try:
            while self._batch:
                batch, self._batch = self._batch, []
                outcome = await self._commit([r for r, _ in batch])
                for (_, fut), err in zip(batch, outcome, strict=True):
                    if fut.done():
                        continue
                    if err is None:
                        fut.set_result(None)
                    else:
                        fut.set_exception(err)
        finally:
            self._flush_task = None

    async def _commit(self, rows: list[ActionRow]) -> list[BaseException | None]:
        """Store ``rows`` in one transaction; each row's outcome (None: stored)."""
        loop = asyncio.get_running_loop()
        try:
            fenced = await loop.run_in_executor(self.thread, self._append, rows)
        except IntegrityError:  # a row another server stored first: one by one
            if len(rows) == 1:
                log.warning("action %d of table %s: another server stored it first",
                            rows[0].n, rows[0].table_id)
                return [_stale(rows[0])]
            return [(await self._commit([r]))[0] for r in rows]
        except (OperationalError, InterfaceError) as e:  # the connection failed: maybe
            log.warning("storing %d action(s) failed (%s); looking again", len(rows),
                        type(e).__name__)  # committed, maybe not
            return [await self._look_again(r, e) for r in rows]
        except Exception as e:  # refused by the database: rolled back, nothing changed
            if len(rows) > 1:  # one bad row must not sink the others
                return [(await self._commit([r]))[0] for r in rows]
            log.exception("storing action %d of table %s failed", rows[0].n, rows[0].table_id)
            return [_failed(e)]
        return [_fenced(r) if any(r is f for f in fenced) else None for r in rows]

    async def _look_again(self, row: ActionRow, error: BaseException) -> BaseException | None:
        """After a commit whose outcome is unknown (the connection failed during it): the
        same row is written again until the database answers. Its key (table, action
        number) makes that harmless: if the first commit went through, the second finds
        the row there, and the row stored is compared with ours (ours: stored; another
        server's: stale); if not, the second stores it now. Only a database that does not
        answer for :attr:`doubt_seconds` leaves the outcome unknown: ``in_doubt``, never
        ``server_error``'s "nothing changed"."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.doubt_seconds
        while True:
            try:
                return await loop.run_in_executor(self.thread, self._settle, row)
            except (OperationalError, InterfaceError) as e:
                error = e
            except Exception as e:  # the database answered, and refused: nothing stored
                log.exception("storing action %d of table %s failed", row.n, row.table_id)
                return _failed(e)
            if loop.time() > deadline:
                log.error("action %d of table %s: the database did not answer for %.0f s "
                          "(%s); stored or not is unknown", row.n, row.table_id,
                          self.doubt_seconds, type(error).__name__)
                return Refused("in_doubt", f"the database did not answer "
                               f"({type(error).__name__}): the action may or may not be "
                               "stored; the table is read again when it answers", 503)
            await asyncio.sleep(0.2)

    def _append(self, rows: list[ActionRow]) -> list[ActionRow]:
        if before_commit is not None:
            before_commit(rows)
        return self.store.append_actions(rows)

    def _settle(self, row: ActionRow) -> BaseException | None:
        """In the storage thread: whether ``row`` is stored now (see :meth:`_look_again`)."""
        ours = (row.seat, row.action, row.by, row.epoch or 0)
        found = self.store.find_action(row.table_id, row.n)
        if found is None:
            try:
                if not self.store.append_actions([row]):
                    log.warning("action %d of table %s: stored at the second try",
                                row.n, row.table_id)
                    return None
            except IntegrityError:  # stored meanwhile (by us, or by another server)
                pass
            found = self.store.find_action(row.table_id, row.n)
            if found is None:  # fenced: a process that took the lease meanwhile
                return _fenced(row)
        if found == ours:
            log.warning("action %d of table %s: the failed commit had stored it", row.n,
                        row.table_id)
            return None
        return _stale(row)

    async def take_lease(self, table_id: str) -> int:
        """Raise the table's lease epoch (:meth:`Store.take_lease`); returns it."""
        return await self.run(self.store.take_lease, table_id)

    def close(self) -> None:
        """Stop committing (what is queued is dropped: nobody saw it) and close the store."""
        if self._flush_task is not None:
            self._flush_task.cancel()
        self.thread.shutdown(wait=True)
        self.store.close()
