"""A game of ``toepen play``: one human seat, bots in the others, saved as it goes.

Everything here is independent of the screen: the app drives a :class:`PlaySession`
and the tests can too. The bots are asked as in every other venue (:mod:`toepen.match`):
:meth:`PlaySession.asked` says who is asked (under ``knock_anytime`` each bot that may
knock out of turn is first offered a knock window; the human knocks on their own turn),
:meth:`PlaySession.ask_bot` asks it (an answer that cannot be played is the fallback
bot's, and the incident is kept for a notice) and :meth:`PlaySession.answer` plays the
answer. Bots are rebuilt for every decision, seeded by :func:`toepen.match.seat_seed`
from the session seed and the seat; a decision is a function of that seed and the view,
so a resumed game makes exactly the decisions the uninterrupted one would have made, and
so does the same table at the server or in the arena.

>>> from toepen.rules import Rules
>>> s = PlaySession.new(Rules.preset("rulebook", lives=2), players=3, bots=["random"],
...                     name="Ann", seed=5, path=None)
>>> s.game.players, s.lineup
(('Ann', 'Bas', 'Cor'), ('', 'random', 'random'))
>>> s.bot_seed(1) == s.bot_seed(1), s.bot_seed(1) == s.bot_seed(2)
(True, False)
>>> s.asked()
(1, False)
>>> act = s.ask_bot(1, False)
>>> _ = s.answer(1, False, act)
>>> len(s.game.actions), s.incidents
(1, [])
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..bots import Bot, make_bot
from ..bots.base import (
    BUILTIN,
    CMD_PREFIX,
    DEFAULT,
    EXTERNAL_FALLBACK,
    check_bot_name,
    close_bot,
    fallback_chain,
    resolve_name,
    start_game,
)
from ..engine import Action, Event, Game, redact
from ..i18n import N_, Translator
from ..match import Incident, apply_answer, ask, asked, seat_seed, view_for
from ..record import RecordError, load, replay, save, start, to_record
from ..rules import Rules
from ..view import View, observe

CLIENT = "toepen play"
BOT_NAMES = ("Bas", "Cor", "Dirk", "Els", "Fien", "Gijs", "Hanna", "Ivo")
"""Names of the bots, seat 1 onwards."""

FALLBACKS: dict[str, tuple[str, ...]] = {
    spec.name: fallback_chain(spec.name)[1:] for spec in BUILTIN if spec.fallback is not None
}
"""Bots that may not be installed yet, and what plays instead (with a notice): the
registry's fallbacks (``expert``, ``pimc``: ``heuristic``, then ``random``)."""


INCIDENT_WHY: dict[str, str] = {
    "error": N_("notice.bot_why.error"),
    "illegal": N_("notice.bot_why.illegal"),
    "timeout": N_("notice.bot_why.timeout"),
}
"""The catalog message of each kind of incident (:data:`toepen.match.INCIDENT_KINDS`)."""


def incident_notice(incident: Incident) -> Notice:
    """What the player is told when a bot's answer was replaced by its fallback's: the
    seat (``name``, filled in by the app), why, and what the fallback played."""
    return Notice(N_("notice.bot_fallback"), {
        "seat": incident.seat, "bot": incident.bot, "fallback": incident.fallback,
        "why": INCIDENT_WHY.get(incident.kind, INCIDENT_WHY["error"]),
        "action": incident.action})


class PlayError(ValueError):
    """A setup or a saved game that cannot be played; the message says what is wrong.

    ``key`` and ``values`` are the catalog message, so that the command line can say
    it in the player's language; ``str()`` is the English text.
    """

    def __init__(self, key: str, **values: object) -> None:
        self.key = key
        self.values = values
        super().__init__(Translator("en")(key, **values))


@dataclass(frozen=True, slots=True)
class Notice:
    """A message for the player: a catalog id and its values."""

    key: str
    values: dict[str, object] = field(default_factory=dict)


def resolve_bot(name: str) -> tuple[str, list[Notice]]:
    """The bot that will play for ``name`` (a level: its bot): itself, or its fallback
    with a notice.

    Unknown names (not a planned bot either) raise PlayError.
    """
    name = resolve_name(name)
    notices: list[Notice] = []
    first_error: ValueError | None = None
    for candidate in (name, *FALLBACKS.get(name, ())):
        try:
            check_bot_name(candidate)
        except ValueError as e:
            first_error = first_error or e
            continue
        if candidate != name:
            notices.append(Notice(N_("notice.fallback"), {"wanted": name, "used": candidate}))
        return candidate, notices
    raise PlayError(N_("error.bot"), reason=str(first_error))


def shown_command(name: str, limit: int = 200) -> str:
    """An external bot's command as a notice may show it: printable characters only
    (anything else as ``?``), at most ``limit`` of them.

    >>> shown_command("cmd:echo \\x1b[2J hi")
    'echo ?[2J hi'
    """
    text = name[len(CMD_PREFIX):] if name.startswith(CMD_PREFIX) else name
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def default_data_dir() -> Path:
    """Where games are saved: ``<user data dir>/toepen/games``."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("toepen")) / "games"


def _stamp() -> str:
    """The time part of a default file name (UTC, to the second)."""
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S")


def default_path(seed: int, folder: Path | None = None) -> Path:
    """A fresh file name for a new game's record in the data folder (or ``folder``).

    The name is reserved on disk (created empty, exclusively), so that two games started
    in the same second with the same seed never share a file: the second one gets
    ``-2``, the third ``-3``... The first save replaces the empty file.
    """
    folder = default_data_dir() if folder is None else folder
    return reserve_file(folder, f"play-{_stamp()}-{seed}")


def reserve_file(folder: Path, stem: str) -> Path:
    """``folder/stem.json``, or ``stem-2.json``, ``stem-3.json``... the first name not
    taken, created empty and exclusively (the folder too, if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    n = 1
    while True:
        path = folder / (f"{stem}.json" if n == 1 else f"{stem}-{n}.json")
        try:
            path.open("x", encoding="utf-8").close()
        except FileExistsError:
            n += 1
            continue
        return path


class PlaySession:
    """A game, its human seat, the bot lineup and where it is saved."""

    def __init__(
        self,
        game: Game,
        human: int,
        lineup: Sequence[str],
        path: Path | None,
        *,
        notices: Sequence[Notice] = (),
        meta: dict[str, Any] | None = None,
        timeout: float | None = None,
    ) -> None:
        if game.seed is None:
            raise PlayError(N_("error.setup"), reason="a played game deals from a seed")
        if not 0 <= human < game.n:
            raise PlayError(N_("error.setup"), reason=f"no seat {human} at a table of {game.n}")
        if len(lineup) != game.n or lineup[human] != "" or any(
            not lineup[s] for s in range(game.n) if s != human
        ):
            raise PlayError(N_("error.setup"), reason="one bot for every seat but the human's")
        self.game = game
        self.human = human
        self.lineup: tuple[str, ...] = tuple(lineup)
        self.path = path
        self.notices: list[Notice] = list(notices)
        self.meta: dict[str, Any] = dict(meta or {})
        self.timeout = timeout
        """Seconds per decision of an external bot (None: the server's default, 5 s)."""
        self._persistent: dict[int, Bot] = {}
        self.passed: set[int] = set()
        """The bot seats that passed in the knock windows of this decision point."""
        self.incidents: list[Incident] = []
        """Every bot answer the fallback replaced in this sitting, in order."""

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: Rules,
        *,
        players: int = 4,
        bots: Sequence[str] = (DEFAULT,),
        name: str = "",
        seed: int | None = None,
        path: Path | None = None,
        lang: str = "en",
        timeout: float | None = None,
    ) -> PlaySession:
        """A new game: the human in seat 0, bots in the others.

        ``bots`` is one name for every bot or one per bot seat. Missing planned bots
        fall back (the registry's chain: ``expert`` -> ``heuristic`` -> ``random``) with a
        notice.
        """
        sizes = rules.allowed_table_sizes()
        if players not in sizes:
            raise PlayError(N_("error.players"), preset=rules.name, n=players,
                            sizes=", ".join(map(str, sizes)))
        try:
            rules.check_table(players)
        except ValueError as e:  # pragma: no cover - allowed_table_sizes() said it all
            raise PlayError(N_("error.rules"), reason=str(e)) from None
        wanted = list(bots)
        if len(wanted) == 1:
            wanted *= players - 1
        if len(wanted) != players - 1:
            raise PlayError(N_("error.bots_count"), n=players - 1, given=len(wanted))
        notices: list[Notice] = []
        resolved: dict[str, str] = {}
        for bot in dict.fromkeys(wanted):
            used, extra = resolve_bot(bot)
            resolved[bot] = used
            notices.extend(extra)
        lineup = ["", *(resolved[b] for b in wanted)]
        human_name = name.strip() or "Player"
        names = [human_name]
        for i in range(1, players):
            bot_name = BOT_NAMES[i - 1]
            if bot_name.lower() == human_name.lower():
                bot_name += " II"
            names.append(bot_name)
        if seed is None:
            seed = secrets.randbelow(2**31)
        game = Game(rules, tuple(names), seed=seed)
        meta = {
            "client": CLIENT,
            "human": 0,
            "bots": lineup,
            "bots_wanted": ["", *wanted],
            "names": names,
            "lang": lang,
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        return cls(game, 0, lineup, path, notices=notices, meta=meta, timeout=timeout)

    @classmethod
    def resume(cls, path: Path, *, allow: Sequence[str] = (),
               timeout: float | None = None) -> PlaySession:
        """Continue a game saved by ``toepen play`` (same seat, bots and seeds).

        A save never starts a program: an external bot it names (``cmd:COMMAND``) is
        replaced by its fallback (``heuristic``) with a notice, unless the person names
        that very bot again in ``allow`` (``toepen play --resume FILE --bots cmd:...``).
        ``timeout``: seconds per decision of the external bots kept.
        """
        try:
            record = load(path)
        except RecordError as e:
            raise PlayError(N_("error.resume_read"), reason=str(e)) from None
        meta = record.get("meta")
        if not isinstance(meta, dict) or meta.get("client") != CLIENT:
            raise PlayError(N_("error.not_play_record"), path=str(path))
        if "seed" not in record:
            raise PlayError(N_("error.resume_decks"), path=str(path))
        human = meta.get("human")
        lineup = meta.get("bots")
        if not isinstance(human, int) or isinstance(human, bool):
            raise PlayError(N_("error.resume_meta"), path=str(path), field="human")
        if not isinstance(lineup, list) or not all(isinstance(b, str) for b in lineup):
            raise PlayError(N_("error.resume_meta"), path=str(path), field="bots")
        try:
            game = replay(record)
        except RecordError as e:
            raise PlayError(N_("error.resume_replay"), path=str(path), reason=str(e)) from None
        if not 0 <= human < game.n:
            raise PlayError(N_("error.resume_meta"), path=str(path), field="human")
        if len(lineup) != game.n or lineup[human] != "":
            raise PlayError(N_("error.resume_meta"), path=str(path), field="bots")
        notices: list[Notice] = []
        used: list[str] = []
        names = game.players
        for seat, bot in enumerate(lineup):
            if seat == human:
                used.append("")
                continue
            if bot.startswith(CMD_PREFIX) and bot not in allow:
                notices.append(Notice(N_("notice.external_dropped"), {
                    "name": names[seat], "command": shown_command(bot),
                    "used": EXTERNAL_FALLBACK}))
                bot = EXTERNAL_FALLBACK
            try:
                name, extra = resolve_bot(bot)
            except PlayError as e:  # the save's fault, not a flag's: say which seat
                raise PlayError(N_("error.resume_bot"), path=str(path), name=names[seat],
                                bot=shown_command(bot), reason=str(e.values.get("reason", "")),
                                ) from None
            used.append(name)
            notices.extend(n for n in extra if n not in notices)
        return cls(game, human, used, path, notices=notices, meta=meta, timeout=timeout)

    # -- playing ----------------------------------------------------------------------------------

    @property
    def seed(self) -> int:
        assert self.game.seed is not None
        return self.game.seed

    def view(self) -> View:
        """What the human may see now."""
        return observe(self.game, self.human)

    def bot_seed(self, seat: int) -> int:
        """The seed of ``seat``'s bot: :func:`toepen.match.seat_seed` of the session seed
        (a decision is a function of it and the view, so resumed games decide
        identically)."""
        return seat_seed(self.seed, seat)

    def asked(self) -> tuple[int, bool]:
        """The seat asked now and whether in a knock window (:func:`toepen.match.asked`;
        the human is never offered a window: they knock on their own turn)."""
        return asked(self.game, self.passed, (self.human,))

    def ask_bot(self, seat: int, window: bool) -> Action:
        """The decision of ``seat``'s bot now (:func:`toepen.match.ask`; safe in a worker
        thread: it reads the game and changes nothing but :attr:`incidents`)."""
        view = view_for(self.game, seat, window)
        return ask(self.bot_for(seat), view, self.bot_seed(seat), self.incidents.append,
                   self.lineup[seat])

    def answer(self, seat: int, window: bool, act: Action) -> list[Event]:
        """Play the answer of the seat asked (:meth:`asked`): a window's pass is noted
        (no event), anything else is applied and saved; the events the human may see."""
        events = apply_answer(self.game, seat, act, window, self.passed)
        if events is None:
            return []
        self.save()
        return redact(events, self.human)

    def bot_for(self, seat: int) -> Bot:
        """The bot for ``seat``'s next decision.

        A fresh one seeded by :meth:`bot_seed` (so that decisions depend only on the
        game so far), told its seat through the ``start_game`` hook. External bots
        (``cmd:COMMAND``) are one process per seat for the whole game instead.
        """
        name = self.lineup[seat]
        game = self.game
        if name.startswith(CMD_PREFIX):
            bot = self._persistent.get(seat)
            if bot is None:
                bot = make_bot(name, seed=self.bot_seed(seat), timeout=self.timeout)
                start_game(bot, seat, game.rules, game.players, self.bot_seed(seat))
                self._persistent[seat] = bot
            return bot
        seed = self.bot_seed(seat)
        bot = make_bot(name, seed=seed)
        start_game(bot, seat, game.rules, game.players, seed)
        return bot

    def close(self) -> None:
        """Release the bots that hold something (external processes); at once, also
        while one of them thinks in another thread (its decision ends then)."""
        for bot in self._persistent.values():
            close_bot(bot)
        self._persistent.clear()

    def apply(self, seat: int, act: Action) -> list[Event]:
        """Apply a decision, save the record, and return the events as the human may see them."""
        events = self.game.apply(seat, act)
        self.passed.clear()
        self.save()
        return redact(events, self.human)

    def history(self) -> list[Event]:
        """Every event of the game so far as the human saw it (replayed from the record)."""
        game, actions = start(to_record(self.game, use_seed=True))
        events = game.opening_events(self.human)
        for seat, act in actions:
            events.extend(redact(game.apply(seat, act), self.human))
        return events

    def record(self) -> dict[str, Any]:
        """The game so far, ``toepen-record/1`` with the seed and the play metadata."""
        meta = dict(self.meta)
        meta["human"] = self.human
        meta["bots"] = list(self.lineup)
        meta["updated"] = datetime.now(UTC).isoformat(timespec="seconds")
        return to_record(self.game, use_seed=True, meta=meta)

    def save(self) -> Path | None:
        """Write the record (atomically) where this session is saved; the path, or None."""
        if self.path is None:
            return None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        save(self.record(), self.path)
        return self.path
