"""The table's social side: chat, quick reactions and the rematch.

- **chat** (``{"type": "chat", "text": "..."}``): a seated player's line, at most
  :attr:`~toepen.server.protocol.Limits.chat_length` characters as people see them, no
  control characters or line breaks; the text is sent as it is (the page escapes it).
- **react** (``{"type": "react", "react": "cheers"}``): one of :data:`REACTIONS`, a short
  set of emotes and pub phrases each client says in its own language (``react.<name>``).
- Chat and reactions share a budget per seat (however many sockets it has open):
  :attr:`Limits.chat_burst` in :attr:`Limits.chat_window` seconds. Spectators neither
  chat nor react. Both go to every client of the table through the
  table master's one broadcast path (:meth:`~toepen.server.tables.master.Master.broadcast`).
- **rematch** (``{"type": "rematch"}``, once the game is over): play again, a new table
  with the same seats (the same people, their seat tokens valid there too; the same bots,
  by name and kind) and the same rules. The first request offers it (the table's
  ``offer``: who offered, who accepted, who is waited for), each other person's request
  accepts it; bots accept at once. It is made and dealt when every person at the table
  has accepted, so nobody's clock runs before they agreed; a person who has left the table
  (no socket) is not waited for, nor one who has not answered within ``--offer-wait``
  seconds (60): a stand-in plays their seat at the new table until they come. The host
  may send ``preset`` and ``options`` to change the rules (a new offer). A request after
  it is made gets the same new table. Every client of the old table is told by its
  ``table`` message (``rematch``: the new table's id).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import unicodedata
from typing import TYPE_CHECKING, Any

from ...narration import Message
from ...rules import Rules, RulesError
from .. import protocol
from ..db.store import TableRow
from ..protocol import REACTIONS, Limits, Refused, name_length
from .table import Client, Offer, Seat, Table

if TYPE_CHECKING:
    from .lobby import Lobby

log = logging.getLogger("toepen.server")

class ChatBudget:
    """At most ``burst`` messages in ``window`` seconds, per seat of a table (a sliding
    count, kept with the table: ``Table.chat_sent``), whichever of its sockets sends."""

    def __init__(self, burst: int, window: float) -> None:
        self.burst = burst
        self.window = window

    def spend(self, table: Table, seat: int, now: float | None = None) -> None:
        """Count one message of ``seat``, or Refused ``rate_limited`` (nothing sent)."""
        now = time.monotonic() if now is None else now
        stamps = [t for t in table.chat_sent.get(seat, []) if now - t < self.window]
        if len(stamps) >= self.burst:
            table.chat_sent[seat] = stamps
            raise Refused("rate_limited", f"chat: at most {self.burst} messages in "
                          f"{self.window:g} seconds", 429,
                          say=Message("error.chat.rate", {"n": self.burst,
                                                          "s": int(self.window)}))
        stamps.append(now)
        table.chat_sent[seat] = stamps


def chat_text(text: Any, limit: int) -> str:
    """A chat line: text of 1 to ``limit`` characters (as people see them, without the
    spaces around it), no control or formatting character, no line break; or Refused.

    >>> chat_text("  proost 🍺 ", 200)
    'proost 🍺'
    >>> chat_text("<b>hi</b>", 200)  # sent as it is: the page escapes it
    '<b>hi</b>'
    >>> chat_text("a\\nb", 200)
    Traceback (most recent call last):
    ...
    toepen.server.protocol.Refused: chat: no control characters or line breaks
    >>> chat_text("x" * 201, 200)
    Traceback (most recent call last):
    ...
    toepen.server.protocol.Refused: chat: 1 to 200 characters, not 201
    """
    if not isinstance(text, str):
        raise Refused("bad_message", "chat: 'text' must be text",
                      say=Message("error.chat.length", {"limit": limit}))
    line: str = text.strip()
    n = name_length(line) if len(line) <= 8 * limit else len(line)
    if not 1 <= n <= limit:
        raise Refused("bad_message", f"chat: 1 to {limit} characters, not {n}",
                      say=Message("error.chat.length", {"limit": limit}))
    if any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") or
           (unicodedata.category(ch) == "Cf" and ch != "\u200d") for ch in line):
        raise Refused("bad_message", "chat: no control characters or line breaks",
                      say=Message("error.chat.chars"))
    return line


def chat_message(seat: int, name: str, text: str | None, react: str | None) -> dict[str, Any]:
    """The ``chat`` message every client of the table gets (as an object)."""
    say = Message(REACTIONS[react]).to_json() if react is not None else None
    return {"v": protocol.PROTOCOL, "type": "chat", "seat": seat, "name": name,
            "text": text, "react": react, "say": say}


def speaker(table: Table, client: Client) -> tuple[int, str]:
    """The seat and name of a client who may chat (a seated player), or Refused."""
    seat = client.seat
    if seat is None:
        raise Refused("forbidden", "chat: only the players at the table may chat", 403,
                      say=Message("error.chat.seat"))
    name = table.game.players[seat] if table.game is not None else table.seats[seat].label
    return seat, name


class Social:
    """Chat, reactions and rematches of every table of a lobby."""

    def __init__(self, lobby: Lobby, limits: Limits) -> None:
        self.lobby = lobby
        self.limits = limits
        self.budget = ChatBudget(limits.chat_burst, limits.chat_window)

    def chat(self, table: Table, client: Client, text: Any) -> None:
        """A seated player's chat line, to everyone at the table."""
        seat, name = speaker(table, client)
        line = chat_text(text, self.limits.chat_length)
        self.budget.spend(table, seat)
        self.say(table, chat_message(seat, name, line, None))

    def react(self, table: Table, client: Client, react: Any) -> None:
        """A seated player's quick reaction, to everyone at the table."""
        seat, name = speaker(table, client)
        if not isinstance(react, str) or react not in REACTIONS:
            raise Refused("bad_message", f"react: one of {', '.join(REACTIONS)}",
                          say=Message("error.react.unknown"))
        self.budget.spend(table, seat)
        self.say(table, chat_message(seat, name, None, react))

    def say(self, table: Table, msg: dict[str, Any]) -> None:
        """A chat message to every client of the table, kept for those who come later."""
        table.chat.append(msg)
        self.lobby.master.broadcast(table, protocol.dumps(msg))

    async def rematch(self, table: Table, client: Client, preset: Any = None,
                      options: Any = None) -> Table | None:
        """Play again: the first request offers the next game (same seats; the host may
        send other rules), each other person's accepts it. The new table is made and dealt
        once every person at the table has accepted (:meth:`ready`); until then nobody's
        clock runs. Returns the new table once it is made (here).

        In a cluster the offer is the table's lease holder's: a request at another
        process goes to it (:meth:`~toepen.server.tables.seam.Seam.relay_offer`), and
        its offer is told to every process's clients (:meth:`told`). With no holder (it
        died; a finished table's lease lapses) the process taking the request holds the
        offer, and the next table is made once whichever process gets there first
        (:meth:`~toepen.server.tables.seam.Seam.once`)."""
        rules = await self.checked(table, client.seat, client.host, preset, options)
        if table.rematch is not None:  # it is made: tell this client again
            client.send(protocol.table(table.info()))
            return self.lobby.tables.get(table.rematch)
        seam = self.lobby.seam
        if not seam.holds(table.id):
            answer = await seam.relay_offer(table, client.seat, client.host, preset, options)
            if answer is not None:  # the holder took it (and told everyone)
                made = answer.get("rematch")
                if isinstance(made, str):
                    table.rematch = made
                    client.send(protocol.table(table.info()))
                return self.lobby.tables.get(made) if isinstance(made, str) else None
        return await self.accept(table, client.seat, rules, client)

    async def relayed(self, table: Table, seat: int | None, host: bool, preset: Any,
                      options: Any) -> str | None:
        """A request to play again that another process of the cluster took for this
        one, the holder of the table's lease: checked and taken here as a local one;
        the next table's id once it is made."""
        rules = await self.checked(table, seat, host, preset, options)
        await self.accept(table, seat, rules)
        return table.rematch

    async def checked(self, table: Table, seat: int | None, host: bool, preset: Any,
                      options: Any) -> Rules | None:
        """The rules of a ``rematch`` request (None: the table's), or Refused naming what
        is wrong: only a player or the host, only once the game is over, other rules
        only from the host."""
        if seat is None and not host:
            raise Refused("forbidden", "rematch: only a player at the table", 403,
                          say=Message("error.rematch.seat"))
        await self.lobby.fresh_copy(table)  # in a cluster: the whole game here too
        game = table.game
        if game is None or not game.is_over:
            raise Refused("bad_command", "rematch: the game is not over", 409,
                          say=Message("error.rematch.not_over"))
        if preset is None and not options:
            return None
        if not host:
            raise Refused("forbidden", "rematch: only the host may change the rules", 403,
                          say=Message("error.rematch.host"))
        return self.rules(preset if preset is not None else table.rules.name, options,
                          table.row.size)

    async def accept(self, table: Table, seat: int | None, rules: Rules | None,
                     client: Client | None = None) -> Table | None:
        """A request to play again (:meth:`checked`), taken here (this process holds the
        offer): it offers the next game (``rules``: the host's, a new offer) or accepts
        the offer; the next table once it is made."""
        async with table.lock:  # two clicks at once make one offer, one table
            if table.rematch is not None:  # it is made: tell this client again
                if client is not None:
                    client.send(protocol.table(table.info()))
                return self.lobby.tables.get(table.rematch)
            offer = table.offer
            if offer is None or rules is not None:  # an offer (the host's rules: a new one)
                if offer is not None and offer.timer is not None:
                    offer.timer.cancel()
                bots = {s.seat for s in table.seats if s.kind == "bot"}
                offer = table.offer = Offer(seat, rules or table.rules, bots,
                                            self.limits.offer_wait)
                offer.timer = asyncio.get_running_loop().call_later(
                    offer.wait, self._wait_over, table, offer)
            if seat is not None:
                offer.ready.add(seat)
        return await self.ready(table)

    def told(self, table: Table) -> None:
        """Every client of ``table`` here gets its ``table`` message (the offer, the next
        table's id); in a cluster so do the other processes' clients
        (:meth:`~toepen.server.tables.seam.Seam.publish_offer`)."""
        self.lobby.master.broadcast_table(table)
        self.lobby.seam.publish_offer(table)

    def left(self, table: Table) -> None:
        """A person left the table (their last socket closed): an offer to play again
        waits for them no longer."""
        if table.offer is not None and table.rematch is None:
            self.lobby.bots.spawn(self._ready_quietly(table))

    def _wait_over(self, table: Table, offer: Offer) -> None:
        """The offer's wait is over: the next game starts for those who accepted."""
        if table.offer is offer and table.rematch is None:
            offer.timer = None
            self.lobby.bots.spawn(self._ready_quietly(table, everyone=True))

    async def _ready_quietly(self, table: Table, everyone: bool = False) -> None:
        try:
            await self.ready(table, everyone)
        except Exception:  # the old table stays as it is: a click offers again
            log.exception("table %s: the rematch could not be made", table.id)

    async def ready(self, table: Table, everyone: bool = False) -> Table | None:
        """Make and deal the rematch if nobody is waited for any more (``everyone``: the
        wait is over); else tell every client who has accepted. The seats of the people
        who did not accept are played by a stand-in until they come."""
        async with table.lock:
            offer = table.offer
            if offer is None or table.rematch is not None:
                return self.lobby.tables.get(table.rematch or "")
            people = [s.seat for s in table.seats if s.kind == "human"]
            here = [p for p in people if p in offer.ready and table.connected(p)]
            if people and not here and (offer.by is not None or not table.waited_for(offer)):
                # everyone who accepted has gone (or, offered by a host without a seat,
                # nobody is at the table to play): the offer lapses
                if offer.timer is not None:
                    offer.timer.cancel()
                table.offer = None
                self.told(table)
                return None
            if table.waited_for(offer) and not everyone:
                self.told(table)
                return None
            if offer.timer is not None:
                offer.timer.cancel()
                offer.timer = None
            new: Table | None = None
            ids = await self.lobby.new_ids()
            made = await self.lobby.seam.once(f"rematch:{table.id}", ids[0])
            if made != ids[0]:  # another process made it (its offer lapsed here)
                table.rematch = made
            else:
                new = await self._create(table, offer.rules, offer.ready, ids)
                table.rematch = new.id
        if new is not None:
            await self.lobby.start(new)
        # every client of the old table learns the new one's id (at every server of a cluster)
        self.told(table)
        return new if new is not None else self.lobby.tables.get(made)

    @staticmethod
    def rules(preset: Any, options: Any, size: int) -> Rules:
        """The rules the host asked for, or Refused naming what is wrong."""
        if not isinstance(preset, str) or (options is not None and not isinstance(options, dict)):
            raise Refused("bad_message", "rematch: 'preset' is a name, 'options' an object",
                          say=Message("error.rematch.rules"))
        try:
            rules = Rules.preset(preset, **(options or {}))
            rules.check_table(size)
        except (RulesError, TypeError) as e:
            raise Refused("bad_message", f"rematch: {e}",
                          say=Message("error.rematch.rules")) from None
        return rules

    async def _create(self, old: Table, rules: Rules, ready: set[int],
                      ids: tuple[str, str]) -> Table:
        """A new table with the seats of ``old`` (not yet dealt) and the ``ids`` (its id
        and code); a person who did not accept (``ready``) has a stand-in until they
        come."""
        lobby = self.lobby
        seats = [Seat(s.seat, s.kind, s.name, s.bot, s.token_hash,
                      standin=s.kind == "human" and s.seat not in ready) for s in old.seats]
        seed = secrets.randbits(62)
        table_id, code = ids
        row = TableRow(id=table_id, code=code, preset=rules.name, rules=rules.to_json(),
                       size=old.row.size, seed=seed, dealer=seed % old.row.size,
                       idle_seconds=old.row.idle_seconds, autostart=False,
                       creator=old.row.creator, host_hash=old.row.host_hash)
        table = Table(row=row, rules=rules, seats=seats)
        await lobby.storage.create_table(row, [s.row() for s in seats])
        lobby.tables[table.id] = table
        lobby.codes[code] = table.id
        lobby.seam.created(table)  # the other servers learn of it as of any new table
        lobby.seam.claim_soon(table)
        return table
