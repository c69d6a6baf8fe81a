"""The table master: every action is checked, committed, applied, then broadcast.

One action at a time per table (under the table's lock):

1. **check**: against the game in memory (the state number the sender saw, whose turn it
   is, the engine's legal actions); a refusal changes nothing and carries the engine's
   reason (:class:`~toepen.engine.Refusal`);
2. **commit**: the action is stored (group commit, :class:`~toepen.server.db.commit.Storage`);
   a client never sees a state the database does not hold;
3. **apply**: the game moves on (a copy, swapped in once the commit is done);
4. **broadcast**: each client gets ``observe(game, seat)`` and the events redacted for it,
   each with its narration (:func:`toepen.narration.describe`), per receiver.

The master also sends what clients see when they connect and when the table changes
outside the game. What happens next (a bot's move, an idle clock) is not its business:
it calls :attr:`Master.on_change` after every change, and the bot scheduler answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import orjson

from ...engine import Action, ActionError, Event, EventKind, Game, IllegalAction, Refusal
from ...narration import refusal_message
from ...record import restart
from ...view import encoded_views, observe
from .. import protocol
from ..db.commit import Fenced, Storage
from ..db.store import ActionRow
from ..protocol import Closing, Limits, Refused
from .ports import MetricsPort
from .seam import Frames, LocalSeam, Seam
from .table import Client, Table

log = logging.getLogger("toepen.server")
Last = tuple[int, str, str]
"""The action a ``state`` follows: (seat, action text, by)."""


async def _to_the_end(fut: asyncio.Future[None]) -> bool:
    """Await ``fut`` to its end, through cancellations of the caller; returns whether
    the caller was cancelled meanwhile (it re-raises that once done). Raises what
    ``fut`` raised."""
    cancelled = False
    while not fut.done():
        try:
            await asyncio.shield(fut)
        except asyncio.CancelledError:
            if fut.done():  # fut itself was cancelled (the storage closed)
                raise
            cancelled = True
    fut.result()
    return cancelled


def parse_action(text: Any, state: Any) -> Action:
    """The action of an ``act`` message (its fields' types), or Refused."""
    if not isinstance(state, int) or isinstance(state, bool):
        raise Refused("bad_message", "state: must be an integer (view.action_count)")
    if not isinstance(text, str):
        raise Refused("bad_message", "action: must be text such as 'play Th' or 'knock'")
    try:
        return Action.parse(text)
    except ActionError as e:
        raise Refused("bad_action", f"action: {e}") from None


def history(game: Game) -> list[Event]:
    """Every event of ``game`` so far, unredacted (the caller redacts for its receiver):
    the first deal, then what each action caused, from the game replayed on its decks."""
    replay = restart(game)
    events = list(replay.opening_events(omniscient=True))
    for seat, act in game.actions:
        events.extend(replay.apply(seat, act))
    return events


def closing(game: Game, events: Sequence[Event],
            past: list[Event] | None = None) -> Closing | None:
    """What the ``state`` after ``events`` sums up: the hand they ended (from its deal to
    the next) and, at the end of the session, the session; None while a hand goes on.
    ``past``: :func:`history` of ``game`` if the caller has it."""
    over = game.is_over
    ended = any(e.kind is EventKind.HAND_RESULT for e in events)
    if not ended and not over:
        return None
    if past is None:
        past = history(game)
    if not ended:  # the session ended outside a hand (a pass on a buy-in: the hand that
        # put the player out was summed up then; a fold or a penalty that ends the session
        # ends its hand with a hand_result, as every hand does)
        return Closing(None, past, game.winner, game.places(), game.rules,
                       tuple(game.rebuys))
    end = max(i for i, e in enumerate(past) if e.kind is EventKind.HAND_RESULT)
    start = max((i for i, e in enumerate(past[:end]) if e.kind is EventKind.DEAL), default=0)
    return Closing(past[start:], past if over else None, game.winner if over else None,
                   game.places(), game.rules, tuple(game.rebuys))


def last_of(table: Table) -> Last | None:
    """The game's last action as ``last`` of a ``state`` says it: (seat, action text,
    by); None before the first. A client that reconnects reads from it (and the state
    number) whether the action it sent before the drop was stored."""
    game = table.game
    if game is None or not game.actions:
        return None
    seat, act = game.actions[-1]
    n = len(game.actions)
    by = table.last_by[n - 1] if len(table.last_by) >= n else "player"
    return seat, str(act), by


def final(game: Game, past: list[Event] | None = None) -> Closing | None:
    """The standings of a finished game, for a client that connects after its end."""
    if not game.is_over:
        return None
    return Closing(None, () if past is None else past, game.winner, game.places(), game.rules,
                   tuple(game.rebuys))


def past(table: Table) -> list[Event]:
    """:func:`history` of the table's game, kept with the table: replayed once, then
    extended by each action's events (:func:`moved`), not replayed at every hand's end."""
    game = table.game
    assert game is not None
    if table.events_at != len(game.actions):
        table.events = history(game)
        table.events_at = len(game.actions)
    return table.events


def moved(table: Table, before: int, events: Sequence[Event]) -> None:
    """The table's game went from state ``before`` to the next with ``events``."""
    if table.events_at == before:
        table.events.extend(events)
        table.events_at = before + 1


class Master:
    """Changes tables and tells their clients."""

    def __init__(self, storage: Storage, limits: Limits, seam: Seam | None = None) -> None:
        self.storage = storage
        self.limits = limits
        self.on_change: Callable[[Table], None] = lambda table: None
        """Called after every change of a table's game or seats (outside its lock)."""
        self.on_over: list[Callable[[Table], Awaitable[None]]] = []
        """Run when a table's game has ended, in a task of their own (not the caller's,
        which a change may cancel): results, ratings."""
        self._over_tasks: set[asyncio.Task[None]] = set()
        self._doubtful: set[str] = set()
        self.seam: Seam = seam if seam is not None else LocalSeam()
        """Where the tables live (:mod:`~toepen.server.tables.seam`): this process alone,
        or a cluster of servers (``--redis``)."""
        self.metrics: MetricsPort | None = None

    @contextlib.asynccontextmanager
    async def locked(self, table: Table) -> AsyncIterator[None]:
        """The table's lock and its seam's hold (:meth:`Seam.hold`: in a cluster the
        table's lock across processes, the table caught up with the database first, a
        change of its seats told to the others on the way out)."""
        async with table.lock, self.seam.hold(table):
            yield

    # -- the game --------------------------------------------------------------------

    def check(self, table: Table, seat: int, state: int, by: str) -> None:
        """Refused unless the table's game takes an action of ``seat`` now, at state number
        ``state``; whether the action is legal, and why not, the engine's ``apply`` says
        (:meth:`refused`)."""
        game = table.game
        if game is None:
            raise Refused("not_started", "the game has not started")
        if game.is_over:
            raise Refused("over", "the game is over")
        if by == "standin" and not table.seats[seat].standin:
            raise Refused("stale", "the player is back")
        n = len(game.actions)
        if state != n:
            raise Refused("stale", f"state {state} is stale: the game is at state {n}")

    @staticmethod
    def refused(game: Game, seat: int, why: Refusal) -> Refused:
        """The engine's refusal of an action of ``seat`` as the protocol's error:
        ``not_your_turn`` (knock_anytime: nor may it knock out of turn) or ``illegal`` (two
        knocks at once: the second finds its state stale), with the reason's code, params,
        English and narration (``say``, for the seat's own view)."""
        say = refusal_message(why, observe(game, seat))
        refusal = {**why.to_json(), "message": why.english(), "say": say.to_json()}
        if seat not in game.to_act:
            return Refused("not_your_turn", f"seat {seat} is not to act (seat {game.turn} is)",
                           refusal=refusal)
        return Refused("illegal", why.english(), refusal=refusal)

    async def act(self, table: Table, seat: int, text: Any, state: Any,
                  by: str = "player", relayed: bool = False) -> None:
        """Apply one action: checked, committed, then broadcast; Refused changes nothing.

        In a cluster only the table's owner (its lease holder) does this; any other
        process relays the action to it and answers what it answers (``relayed``: it
        came from another process, so it is not relayed again). Every path that learns
        of a new state ends in :attr:`on_change`, a stale refusal from the database
        too (the other process's action is read and told first)."""
        act = parse_action(text, state)
        seam = self.seam
        for _ in range(3):
            if (not relayed and not seam.owns(table.id)
                    and await seam.relay(table, seat, str(act), state, by)):
                return
            try:
                await self._apply(table, seat, act, state, by)
                return
            except Fenced:
                # the lease moved while this was written (a takeover, a handover):
                # nothing was stored, and the new owner decides (relayed again; a
                # relayed action is answered "moved", its sender asks the new owner)
                if relayed or by != "player":
                    raise  # a bot's or the clock's move: the new owner makes its own
        raise Refused("server_error", "the table's lease kept moving; nothing changed", 503)

    async def _apply(self, table: Table, seat: int, act: Action, state: int,
                     by: str) -> None:
        """:meth:`act` at the table's owner (or a lone server)."""
        changed = False
        cancelled = False
        try:
            async with table.lock:
                self.check(table, seat, state, by)
                game = table.game
                assert game is not None
                n = len(game.actions)
                after = game.clone()
                try:
                    events = after.apply(seat, act)
                except IllegalAction as e:  # (it changed nothing)
                    raise self.refused(game, seat, e.refusal) from None
                started = time.perf_counter()
                epoch = self.seam.fence(table.id)
                row = ActionRow(table.id, n, seat, str(act), by,
                                after.winner if after.is_over else None, epoch)
                try:
                    # once sent to the database the action is seen to its end, even if
                    # the caller is cancelled meanwhile (a bot's move when its table is
                    # kicked): what is stored is applied and told, never left behind
                    cancelled = await _to_the_end(asyncio.ensure_future(
                        self.storage.append(row)))
                except Refused as e:
                    try:
                        if e.code == "stale":
                            # another process stored action n: read it (and what follows)
                            changed = await self.catch_up_actions(table)
                        elif e.code == "in_doubt":
                            self._doubt(table)
                    finally:
                        if isinstance(e, Fenced):  # another process applies it now
                            self.seam.fenced(table, e.epoch)
                    raise
                if self.metrics is not None:
                    self.metrics.committed(time.perf_counter() - started, by)
                table.game = after
                moved(table, n, events)
                table.last_by.append(by)
                if after.is_over:
                    table.row.status = "over"
                    table.row.winner = after.winner
                changed = True
                self.broadcast_state(table, events, (seat, str(act), by))
                if after.is_over:
                    self.broadcast_table(table)
        finally:
            if changed:
                self.on_change(table)
        if after.is_over and self.on_over:
            task = asyncio.get_running_loop().create_task(self._ended(table))
            self._over_tasks.add(task)
            task.add_done_callback(self._over_tasks.discard)
        if cancelled:
            raise asyncio.CancelledError

    def _doubt(self, table: Table) -> None:
        """The database did not say whether an action of ``table`` is stored: read the
        table again from it once it answers, and tell every client what it holds."""
        if table.id in self._doubtful:
            return
        self._doubtful.add(table.id)
        task = asyncio.get_running_loop().create_task(self._resolve(table))
        self._over_tasks.add(task)
        task.add_done_callback(self._over_tasks.discard)

    async def _resolve(self, table: Table) -> None:
        try:
            while True:
                await asyncio.sleep(0.5)
                try:
                    async with table.lock:
                        await self.catch_up_actions(table)
                    break
                except Refused:
                    continue
        finally:
            self._doubtful.discard(table.id)
        self.on_change(table)

    def apply_stored(self, table: Table, seat: int, text: str, by: str,
                     tell: bool = True) -> list[Event]:
        """Apply an action stored by another process (under the table's lock): the same
        game here, and (``tell``) this process's clients told. Its events."""
        game = table.game
        assert game is not None
        after = game.clone()
        events = after.apply(seat, Action.parse(text))
        table.game = after
        moved(table, len(game.actions), events)
        table.last_by.append(by)
        if after.is_over:
            table.row.status = "over"
            table.row.winner = after.winner
        if tell:
            self.broadcast_state(table, events, (seat, text, by))
            if after.is_over:
                self.broadcast_table(table)
        return events

    async def catch_up_actions(self, table: Table) -> bool:
        """Apply what the database holds beyond this copy of the game; the clients here
        (and, at the owner, elsewhere) are told the last state (a client further behind
        gets it whole). Whether there was anything."""
        if table.game is None:
            return False
        stored = await self.storage.load_actions(table.id, len(table.game.actions))
        if not stored:
            return False
        events: list[Event] = []
        for seat, text, by in stored:
            events = self.apply_stored(table, seat, text, by, tell=False)
        seat, text, by = stored[-1]
        self.broadcast_state(table, events, (seat, text, by))
        if table.game.is_over:
            self.broadcast_table(table)
        return True

    async def _ended(self, table: Table) -> None:
        for hook in self.on_over:
            try:
                await hook(table)
            except Exception:  # the game is over and stored whatever a hook does
                log.exception("table %s: a game-over hook failed", table.id)

    # -- connections -----------------------------------------------------------------

    def attach(self, table: Table, client: Client) -> None:
        """A client joins the table's audience: ``welcome``, then its ``state``."""
        if client.seat is None and table.spectators() >= self.limits.max_spectators:
            raise Refused("limit", f"this table has {self.limits.max_spectators} spectators, "
                          "its maximum", 429)
        table.clients.add(client)
        table.seen = time.monotonic()
        client.send(protocol.welcome(table.info(), client.seat, client.host, self.limits,
                                     table.chat))
        if table.game is not None:
            # the log so far as this receiver may see it (a spectator, a joiner, a reopened tab)
            view = observe(table.game, client.seat)
            so_far = past(table)
            client.send(protocol.state(view, (), last_of(table), so_far,
                                       closing=final(table.game, so_far)))
            client.at = table.state
        self.broadcast_table(table)
        self.seam.publish_presence(table)

    def detach(self, table: Table, client: Client) -> None:
        if client in table.clients and (client.seat is not None or client.host):
            table.seen = time.monotonic()
        table.clients.discard(client)
        with contextlib.suppress(RuntimeError):
            self.broadcast_table(table)
            self.seam.publish_presence(table)

    async def back(self, table: Table, seat: int) -> None:
        """The owner of ``seat`` is back: end a stand-in."""
        if table.seats[seat].standin:
            async with table.lock:
                table.seats[seat].standin = False
                self.flags_changed(table)
            self.on_change(table)

    def flags_changed(self, table: Table) -> None:
        """A stand-in or a fallback began or ended (not stored): tell every client, and
        the other servers."""
        self.broadcast_table(table)
        self.seam.publish_flags(table)

    # -- sending ---------------------------------------------------------------------

    def broadcast(self, table: Table, text: str, local: bool = False) -> None:
        """Every client of the table gets ``text`` (the same for all: a chat line), at
        every server of a cluster (``local``: this server's clients only)."""
        for c in list(table.clients):
            c.send(text)
        if not local:
            self.seam.publish_text(table, text)

    def broadcast_table(self, table: Table, local: bool = True) -> None:
        """Every client of the table here gets its ``table`` message (in a cluster each
        server tells its own clients, from its own copy of the table)."""
        self.broadcast(table, protocol.table(table.info()), local=local)

    def broadcast_state(self, table: Table, events: Sequence[Event], last: Last | None) -> None:
        """Every client gets the ``state`` of its own seat: encoded once per receiver
        class (a seat, or the spectators), from one public view (:func:`state_frames`).

        A client gets the frame of state ``n`` only if it has state ``n - 1``; one
        further behind gets the whole state (:meth:`fresh`), one that has it already
        nothing. In a cluster the owner encodes the frames of the other processes'
        clients too (by their presence) and sends each process its own."""
        game = table.game
        assert game is not None
        n = len(game.actions)
        ends = closing(game, events, past(table))
        clients = [c for c in table.clients if c.at < n]
        behind = [c for c in clients if c.at < n - 1]
        now = [c for c in clients if c.at == n - 1]
        remote = self.seam.elsewhere(table)
        wanted: set[int | None] = {c.seat for c in now}
        for keys in remote.values():
            wanted |= keys
        cache: dict[int | None, str | bytes] = {}
        if wanted:
            cache.update(state_frames(game, wanted, events, last, ends))
        for c in now:
            c.send(cache[c.seat])
            c.at = n
        if behind:
            self.catch_up_clients(table, behind)
        if remote:
            self.seam.publish_frames(table, n, {proc: {k: cache[k] for k in keys}
                                                for proc, keys in remote.items()})

    def fresh_frames(self, table: Table, keys: set[int | None]) -> dict[int | None, bytes]:
        """The whole ``state`` (its history so far) for each of ``keys`` (a seat; None:
        a spectator), as a client that connects now gets it."""
        game = table.game
        assert game is not None
        so_far = past(table)
        ends = final(game, so_far)
        last = last_of(table)
        return {key: protocol.state(observe(game, key), (), last, so_far, closing=ends)
                for key in keys}

    def fresh(self, table: Table, client: Client) -> None:
        """Send ``client`` the whole state, its ``history`` the log so far."""
        client.send(self.fresh_frames(table, {client.seat})[client.seat])
        client.at = table.state

    def catch_up_clients(self, table: Table, clients: Sequence[Client]) -> None:
        """Every client of ``clients`` that lacks the table's latest state is told each
        action it missed, in order, each ``state`` with its ``last`` and its events (a
        client is never sent a state that skips one: its log would miss a card or a
        knock). A client that has had no state yet, or one more than :data:`CATCH_UP`
        states behind, gets the whole state (its ``history`` holds what it missed)."""
        game = table.game
        if game is None:
            return
        n = len(game.actions)
        stepwise: list[Client] = []
        for c in clients:
            if c.at >= n:
                continue
            if c.at < 0 or n - c.at > CATCH_UP:
                self.fresh(table, c)
            else:
                stepwise.append(c)
        if not stepwise:
            return
        since = min(c.at for c in stepwise)
        for at, frames in missed_frames(table, since, {c.seat for c in stepwise}):
            for c in stepwise:
                if c.at == at - 1:
                    c.send(frames[c.seat])
                    c.at = at

    def tell_behind(self, table: Table) -> None:
        """Every client here that lacks the table's latest state is told what it missed
        (:meth:`catch_up_clients`)."""
        self.catch_up_clients(table, list(table.clients))

    def tell_elsewhere(self, table: Table) -> None:
        """The owner (just taken over): every other process's clients get the whole
        state (each process sends it on to its clients that lack it)."""
        if table.game is None:
            return
        by_proc: dict[str, Frames] = {
            proc: dict(self.fresh_frames(table, keys))
            for proc, keys in table.receivers().items()}
        if by_proc:
            self.seam.publish_frames(table, table.state, by_proc, fresh=True)


CATCH_UP = 100
"""At most this many states are told one by one to a client that missed them; further
behind, it gets the whole state (its ``history``), as a client that connects does."""


def missed_frames(table: Table, since: int, seats: set[int | None]
                  ) -> list[tuple[int, dict[int | None, bytes]]]:
    """The ``state`` frames of each state after ``since`` up to the table's, for each of
    ``seats`` (None: a spectator), as they were sent when each action was made: the
    game replayed on its decks, each step encoded by :func:`state_frames`."""
    game = table.game
    assert game is not None
    replay = Game(game.rules, game.players, decks=game.dealt_decks(), dealer=game.first_dealer)
    so_far = list(replay.opening_events(omniscient=True))
    out: list[tuple[int, dict[int | None, bytes]]] = []
    for i, (seat, act) in enumerate(game.actions):
        events = replay.apply(seat, act)
        so_far.extend(events)
        if i < since:
            continue
        by = table.last_by[i] if i < len(table.last_by) else "player"
        out.append((i + 1, state_frames(replay, seats, events, (seat, str(act), by),
                                        closing(replay, events, so_far))))
    return out


def view_bytes(game: Game, seats: set[int | None]) -> dict[int | None, bytes]:
    """The JSON of ``observe(game, seat).to_json()`` for each of ``seats`` (None: a
    spectator), through observe's own fast door (:func:`toepen.view.encoded_views`)."""
    return encoded_views(game, seats, orjson.dumps)


def state_frames(game: Game, seats: set[int | None], events: Sequence[Event],
                 last: Last | None, ends: Closing | None) -> dict[int | None, bytes]:
    """The ``state`` message for each of ``seats`` (None: a spectator) after ``events``:
    ``protocol.state(observe(game, seat), events, last, closing=ends)``, with the views
    of :func:`view_bytes` and each event encoded once per way it is said (the events
    encoded once for all when every receiver is told them alike)."""
    views = view_bytes(game, seats)
    n, players = len(game.actions), game.n
    shared = protocol.shared_events(events, players) if len(seats) > 1 else None
    acting = set(game.to_act) if game.winner is None else set()
    return {seat: protocol.state_frame(
                view, seat, events, last, n, closing=ends, events_part=shared,
                prompt=protocol.prompt_json(observe(game, seat)) if seat in acting else None)
            for seat, view in views.items()}
