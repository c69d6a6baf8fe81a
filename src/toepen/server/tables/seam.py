"""The one seam between the tables and where they live: this process alone, or a cluster.

Two interfaces, one each way, and nothing else crosses between the tables wing and the
cluster wing:

- :class:`Seam`: what the table master, the lobby, the scheduler and play again ask of
  "where the table lives": hold a table while its seats change, whether this process
  applies a table's actions, the fence of a commit, an action or a play-again request
  sent to the process that applies them, what to tell the other processes. They always
  call it, never ask whether there is a cluster. :class:`LocalSeam` is this process alone
  (``toepen serve`` without ``--redis``); the cluster's
  (:class:`~toepen.server.cluster.seam.ClusterSeam`) stands behind the same interface.
  The start-up (:mod:`toepen.server.app`) chooses one.
- :class:`Host`: what the cluster may ask of this process's tables (find one, bring one
  up to the database, apply what another process changed or relayed, tell the clients
  here). The lobby's facade (:class:`~toepen.server.tables.host.LobbyHost`) implements
  it; the cluster gets it at its start and calls nothing else of the tables.

The cluster imports this module and :mod:`.table` (the data both speak of), nothing else
of the tables wing (``tests/test_layering.py``).
"""

from __future__ import annotations

import contextlib
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from ..db.store import TableRow
from .table import Table

Frames = dict[int | None, str | bytes]
"""The ``state`` frames of one state for one process: by seat (None: the spectators)."""


def seating(table: Table) -> tuple[Any, ...]:
    """What of a table the other processes must learn when it changes: seats and status."""
    return (tuple((s.kind, s.name, s.bot, s.token_hash) for s in table.seats),
            table.row.status, tuple(table.row.players or ()))


class Seam(Protocol):
    """Where the tables live, as the master, the lobby, the scheduler and play again use
    it (under the table's own lock where a method says so)."""

    shared: bool
    """Whether other processes change these tables too, so that a copy here may lag the
    database (a seat just taken elsewhere is read from it)."""

    def hold(self, table: Table) -> AbstractAsyncContextManager[None]:
        """Hold ``table`` while its seats or status change (inside its own lock): no
        other process changes it meanwhile, and it is what the database holds first; on
        the way out a change of its seats is told to the other processes."""

    def owns(self, table_id: str) -> bool:
        """Whether this process applies the table's actions now (and runs its bots and
        clocks); another process's actions are relayed to it."""

    def holds(self, table_id: str) -> bool:
        """Whether this process is the table's writer and has not heard otherwise: it
        encodes the other processes' frames and holds the table's play-again offer."""

    def fence(self, table_id: str) -> int | None:
        """The fence an action committed here now carries (the lease epoch; None: none)."""

    def fenced(self, table: Table, epoch: int | None) -> None:
        """A commit under ``epoch`` was refused by the fence: another process applies the
        table now; this one stops acting for it."""

    async def relay(self, table: Table, seat: int, text: str, state: int, by: str) -> bool:
        """Send an action to the process that applies the table's actions, whose answer
        is this one's (Refused as it refused it); False: apply it here."""

    async def relay_offer(self, table: Table, seat: int | None, host: bool, preset: Any,
                          options: Any) -> dict[str, Any] | None:
        """Send a ``rematch`` request to the process holding the table's offer; its
        answer (``rematch``: the next table's id once made), or None: take it here."""

    def elsewhere(self, table: Table) -> dict[str, set[int | None]]:
        """The views this process encodes for the other processes' clients of ``table``
        (by process: seats, None the spectators); empty unless it :meth:`holds` it."""

    def publish_frames(self, table: Table, n: int, by_proc: dict[str, Frames],
                       fresh: bool = False) -> None:
        """Send each other process the frames of state ``n`` for its clients (``fresh``:
        whole states, for clients any number of states behind)."""

    def publish_text(self, table: Table, text: str) -> None:
        """A public text (a chat line) for the other processes' clients of ``table``."""

    def publish_presence(self, table: Table) -> None:
        """Tell the other processes who is connected to ``table`` here."""

    def publish_flags(self, table: Table) -> None:
        """Tell the other processes the table's stand-ins and fallbacks (not stored)."""

    def publish_offer(self, table: Table) -> None:
        """Tell the other processes the play-again offer held here and the next table."""

    def created(self, table: Table) -> None:
        """A table was made here: the other processes learn of it."""

    def claim_soon(self, table: Table) -> None:
        """A table was made or its game began: the process to apply it takes it now."""

    def evicted(self, table_id: str) -> None:
        """A finished table left this process's memory: whatever was kept for it goes."""

    async def once(self, key: str, value: str) -> str:
        """``value`` if this is the first call of ``key`` wherever the tables live, else
        the value the first call gave."""


_NO_HOLD: AbstractAsyncContextManager[None] = contextlib.nullcontext()


class LocalSeam:
    """The seam of a lone process: its tables live here and nowhere else. Every table's
    actions are applied here, nothing is relayed or published, and the table's own lock
    is the only hold."""

    shared = False

    def hold(self, table: Table) -> AbstractAsyncContextManager[None]:
        return _NO_HOLD  # the table's own lock is all there is (no generator per action)

    def owns(self, table_id: str) -> bool:
        return True

    def holds(self, table_id: str) -> bool:
        return True

    def fence(self, table_id: str) -> int | None:
        return None

    def fenced(self, table: Table, epoch: int | None) -> None:
        return None

    async def relay(self, table: Table, seat: int, text: str, state: int, by: str) -> bool:
        return False

    async def relay_offer(self, table: Table, seat: int | None, host: bool, preset: Any,
                          options: Any) -> dict[str, Any] | None:
        return None

    def elsewhere(self, table: Table) -> dict[str, set[int | None]]:
        return {}

    def publish_frames(self, table: Table, n: int, by_proc: dict[str, Frames],
                       fresh: bool = False) -> None:
        return None

    def publish_text(self, table: Table, text: str) -> None:
        return None

    def publish_presence(self, table: Table) -> None:
        return None

    def publish_flags(self, table: Table) -> None:
        return None

    def publish_offer(self, table: Table) -> None:
        return None

    def created(self, table: Table) -> None:
        return None

    def claim_soon(self, table: Table) -> None:
        return None

    def evicted(self, table_id: str) -> None:
        return None

    async def once(self, key: str, value: str) -> str:
        return value


class Host(Protocol):
    """This process's tables as the cluster may use them: all it asks of the lobby, the
    master and play again, and nothing more (implemented by
    :class:`~toepen.server.tables.host.LobbyHost`)."""

    def table(self, table_id: str) -> Table | None:
        """The table ``table_id`` if it is in memory here."""

    def tables(self) -> list[Table]:
        """Every table in memory here."""

    async def adopt(self, row: TableRow) -> None:
        """A table made at another process: into memory here (unless it is already)."""

    async def catch_up(self, table: Table, n: int, ver: int) -> None:
        """Under the table's locks: its row (seat version at least ``ver``) and game as
        the database holds them (``n``, the cluster's state number, is not trusted)."""

    async def sync(self, table: Table, takeover: bool = False) -> None:
        """Bring the table up to the database, tell the clients here what they lack and
        (``takeover``) every other process's clients too; then what comes next."""

    async def seats_changed(self, table: Table, ver: int, row: TableRow) -> None:
        """Another process changed the table's seats (or started its game): seat
        version ``ver``, ``row`` as stored."""

    def flags_changed(self, table: Table, flags: list[Any]) -> None:
        """Another process's stand-ins and fallbacks (``[standin, fallback, incident]``
        per seat): applied, the clients here told, then what comes next."""

    def elsewhere_changed(self, table: Table) -> None:
        """Who is connected at the other processes changed (:attr:`Table.elsewhere`,
        :attr:`Table.shown_offer`): the clients here told; an offer held here waits for
        whoever left no longer."""

    def said(self, table: Table, text: str) -> None:
        """A public text said at another process (a chat line): kept, told here."""

    def tell_table(self, table: Table) -> None:
        """Every client of ``table`` here gets its ``table`` message."""

    def deliver(self, table: Table, n: int, frames: dict[int | None, bytes],
                fresh: bool) -> bool:
        """The owner's frames of state ``n`` (by seat; None: the spectators) for the
        clients of ``table`` here, sent as the bytes they came as: each client exactly one
        state behind gets its own (``fresh``: whole states, for a client that has none);
        True when a client here lacks more than that (then :meth:`sync`: never a state
        that skips one)."""

    def game_over(self, table: Table, winner: Any) -> None:
        """The owner's game-over state came: the table is over here too (its status with
        that state, on every process), its clients told."""

    def offer_shown(self, table: Table, offer: Any, by: str, rematch: Any) -> None:
        """The play-again offer held at process ``by`` (None: none) and the next table's
        id once made: shown to the clients here, unless this process holds the offer."""

    def next(self, table: Table) -> None:
        """What comes next at ``table`` (its bots, stand-ins and clocks; nothing unless
        this process applies it)."""

    def fresh_frames(self, table: Table, keys: set[int | None]) -> dict[int | None, bytes]:
        """The whole ``state`` for each of ``keys`` (a seat; None: a spectator)."""

    async def act(self, table: Table, seat: int, text: str, state: int, by: str) -> None:
        """An action another process relayed to this one (it applies the table):
        checked, committed, applied, told; Refused changes nothing."""

    async def offer(self, table: Table, seat: int | None, host: bool, preset: Any,
                    options: Any) -> str | None:
        """A ``rematch`` request another process relayed to this one (it holds the
        offer), taken as a local one; the next table's id once it is made."""

    async def stored_actions(self, table_id: str, since: int) -> list[tuple[int, str, str]]:
        """The table's actions the database holds from number ``since`` on."""

    async def take_lease(self, table_id: str) -> int:
        """Raise the table's lease epoch in the database; the new epoch."""
