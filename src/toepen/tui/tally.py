"""``toepen tally``: the score sheet for real cards in the terminal (``docs/tally.md``).

The table types what happened (``Bas knock``, ``2 stay``, ``Cor challenge false``,
``Ann last``), ``undo`` takes back the last entry; the sheet is saved after every change.
The rows, the status and the refusals come from :class:`toepen.tally.Sheet`; this module
only draws them in the player's language.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input, RichLog, Static

from ..cards import local_card_str, parse_card
from ..i18n import N_, Translator
from ..narration import describe
from ..record import save
from ..tally import ENTRY_VERBS, Entry, EntryError, IllegalEntry, Sheet, refusal_message

SHORT_VERBS: dict[str, str] = {"k": "knock", "s": "stay", "f": "fold", "a": "claim",
                               "x": "exchange", "c": "challenge", "u": "unchallenged",
                               "l": "last", "b": "blind", "r": "rebuy"}
"""One-letter verbs (the keys ``toepen play`` uses, ``l`` the last trick, ``u`` no challenge,
``r`` a buy-in of pot toepen)."""

_OUTCOMES = {
    "genuine": N_("tally.outcome.genuine"), "false": N_("tally.outcome.false"),
    "caught": N_("tally.outcome.caught"), "clean": N_("tally.outcome.clean"),
    "witte_was": N_("tally.outcome.witte_was"), "vuile_was": N_("tally.outcome.vuile_was"),
}
_VERB_WORDS = {
    "knock": N_("act.knock"), "stay": N_("act.stay"), "fold": N_("act.fold"),
    "claim": N_("act.claim"), "exchange": N_("act.exchange"),
    "unchallenged": N_("tally.unchallenged"), "last": N_("tally.last"),
    "blind": N_("tally.blind"), "check": N_("tally.check"), "rebuy": N_("act.rebuy.stay"),
}
_REFUSALS = (  # the sheet's own refusals (narration has the engine's)
    N_("tally.refusal.passed"), N_("tally.refusal.declared"), N_("tally.refusal.stock_short"),
    N_("tally.refusal.not_opponent"), N_("tally.refusal.bad_outcome"),
    N_("tally.refusal.nothing_to_undo"), N_("tally.declaration.armoede"),
    N_("tally.declaration.exchange"), N_("tally.phase.play"),
)

COMMAND_MESSAGES = (  # what toepen tally (cli/tally_cmd.py) says around the screen
    N_("tally.cli.open"), N_("tally.cli.players"), N_("tally.cli.names"), N_("tally.cli.bad"),
    N_("tally.cli.entry"), N_("tally.cli.saved"),
)


class InputError(ValueError):
    """A line that is not an entry: ``key`` and ``values`` of its message."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


def parse_line(sheet: Sheet, text: str) -> Entry:
    """``"Bas knock"``, ``"2 k"``, ``"cor challenge false"`` -> an entry (InputError if not)."""
    parts = text.split()
    if len(parts) not in (2, 3):
        raise InputError(N_("tally.input.help"))
    who, verb = parts[0], parts[1].lower()
    if who.isdigit():
        seat = int(who)
    else:
        found = [i for i, p in enumerate(sheet.players) if p.casefold() == who.casefold()]
        if not found:
            found = [i for i, p in enumerate(sheet.players)
                     if p.casefold().startswith(who.casefold())]
        if len(found) != 1:
            raise InputError(N_("tally.input.who"), who=who)
        seat = found[0]
    verb = SHORT_VERBS.get(verb, verb)
    if verb not in ENTRY_VERBS:
        raise InputError(N_("tally.input.verb"), verb=parts[1])
    try:
        return Entry.parse(f"{seat} {verb} {parts[2] if len(parts) == 3 else ''}")
    except EntryError:
        raise InputError(N_("tally.input.help")) from None


def verb_text(t: Translator, entry: Entry) -> str:
    """What an entry says was done, in words: ``knock``, ``challenges (caught)``."""
    verb, word = entry.verb, entry.word
    if verb in ("challenge", "shown"):
        key = N_("tally.challenge") if verb == "challenge" else N_("tally.shown")
        return t(key, outcome=t(_OUTCOMES.get(word, word)))
    if verb == "four":
        return t(N_("tally.four"), rank=_rank_text(t, word))
    if verb == "kans":
        return t(N_("tally.kans.miss")) if word == "miss" else t(
            N_("tally.kans.hit"), rank=_rank_text(t, word))
    if verb == "last" and word:
        return t(N_("tally.last_jack"), card=local_card_str(parse_card(word), t.lang))
    return t(_VERB_WORDS[verb])


def _rank_text(t: Translator, word: str) -> str:
    return local_card_str(parse_card(f"{word}c"), t.lang)[:-1]


def entry_text(t: Translator, sheet: Sheet, entry: Entry) -> str:
    """An entry in words: ``Bas: knock``, ``Cor: challenges (caught)``."""
    return f"{sheet.players[entry.seat]}: {verb_text(t, entry)}"


def strokes(n: int) -> str:
    """Lives lost as tally strokes: ``卌`` for each five, ``|`` for the rest."""
    return "卌" * (n // 5) + "|" * (n % 5) if n > 0 else ""


def sheet_table(t: Translator, sheet: Sheet) -> Table:
    """The sheet: a row per hand, a column per player; lives lost in strokes or points.
    Under ``count: points_up`` the sheet counts penalty points only (no row of lives)."""
    up = sheet.rules.count == "points_up"
    points = sheet.display == "points" or up
    table = Table(show_footer=False, expand=False, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column(t(N_("tally.dealer")))
    table.add_column(t(N_("tally.stake")), justify="right")
    out = set(sheet.eliminated)
    for seat, name in enumerate(sheet.players):
        table.add_column(Text(name, style="strike dim" if seat in out else "bold"),
                         justify="center")

    def cell(n: int) -> str:
        return (str(n) if n else "") if points else strokes(n)

    for row in sheet.hands():
        took = row.last if row.last is not None else row.left
        table.add_row(str(row.number), sheet.players[row.dealer], str(row.stake),
                      *(cell(p) + (" •" if s == took else "") for s, p in enumerate(row.paid)),
                      style="" if row.done else "yellow")
    lives = sheet.lives
    lost = [sheet.rules.lives - v for v in lives] if points else sheet.lives_lost
    table.add_section()
    table.add_row("", t(N_("tally.points") if points else N_("tally.lost")), "",
                  *(str(n) if points else strokes(n) for n in lost), style="bold")
    if not up:
        table.add_row("", t(N_("tally.lives")), "", *(str(v) for v in lives), style="bold")
    if sheet.rules.session == "rubber":
        kings = set(sheet.toepkoning)
        table.add_row("", t(N_("tally.rubbers_won")), "",
                      *(f"{w}{' ♔' if s in kings else ''}"
                        for s, w in enumerate(sheet.rubbers_won)))
        table.add_row("", t(N_("tally.drinks")), "", *(str(d) for d in sheet.drinks))
    if sheet.rules.beer_tally:
        table.add_row("", t(N_("tally.beers")), "", *(str(b) for b in sheet.beers))
    return table


def status_line(t: Translator, sheet: Sheet) -> str:
    """What the sheet waits for, in words."""
    names = sheet.players
    if sheet.is_over:
        winner = sheet.winner
        return t(N_("tally.status.over"), name=names[winner] if winner is not None else "")
    if sheet.turn >= 0:
        return t(N_("tally.status.answer"), name=names[sheet.turn], stake=sheet.stake)
    if sheet.target >= 0:
        return t(N_("tally.status.challenge"), name=names[sheet.target])
    return t(N_("tally.status.hand"), hand=sheet.hand_no, name=names[sheet.dealer],
             stake=sheet.stake)


def legal_line(t: Translator, sheet: Sheet) -> str:
    """What may be entered now, player by player."""
    by_seat: dict[int, list[str]] = {}
    for e in sheet.legal_entries():
        by_seat.setdefault(e.seat, []).append(verb_text(t, e))
    return " · ".join(f"{sheet.players[s]}: {', '.join(w)}" for s, w in sorted(by_seat.items()))


def log_lines(t: Translator, sheet: Sheet, since: int = 0) -> list[str]:
    """The events from entry ``since`` on (-1: from the start), in words."""
    out = []
    for entry_no, event in sheet.events():
        if entry_no < since:
            continue
        message = describe(event, None)
        if message is not None:
            out.append(message.render(t, sheet.players))
    return out


class TallyApp(App[None]):
    """``toepen tally``: the sheet, its status, what may be entered, the log, an input."""

    TITLE = "Toepen"
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    #sheet { height: auto; max-height: 60%; overflow-y: auto; padding: 0 1; }
    #status { height: auto; padding: 0 1; text-style: bold; }
    #legal { height: auto; padding: 0 1; color: $text-muted; }
    #message { height: auto; padding: 0 1; color: $warning; }
    #log { height: 1fr; border: round $secondary; }
    #entry { dock: bottom; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", show=False),
        Binding("ctrl+c", "quit", show=False, priority=True),
    ]

    def __init__(self, sheet: Sheet, path: Path | None, t: Translator,
                 saver: Callable[[Sheet, Path], None] | None = None) -> None:
        super().__init__()
        self.sheet = sheet
        self.path = path
        self.t = t
        self.saver = saver or (lambda s, p: save(s.to_record(), p))

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="sheet")
        yield Static(id="status")
        yield Static(id="legal")
        yield Static(id="message")
        yield RichLog(id="log", wrap=True, markup=False)
        yield Input(placeholder=self.t(N_("tally.input.placeholder")), id="entry")

    def on_mount(self) -> None:
        log = self.query_one("#log", RichLog)
        for line in log_lines(self.t, self.sheet, since=-1):
            log.write(line)
        self.redraw()
        self.query_one("#entry", Input).focus()

    def redraw(self, message: str = "") -> None:
        t, sheet = self.t, self.sheet
        rules = sheet.rules
        self.query_one("#title", Static).update(t(
            N_("tally.title_points") if rules.count == "points_up" else N_("tally.title"),
            rules=t(f"preset.{rules.name}"), lives=rules.lives))
        self.query_one("#sheet", Static).update(Group(sheet_table(t, sheet)))
        self.query_one("#status", Static).update(status_line(t, sheet))
        self.query_one("#legal", Static).update(legal_line(t, sheet))
        self.query_one("#message", Static).update(message)

    def _save(self) -> None:
        if self.path is not None:
            self.saver(self.sheet, self.path)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if not text:
            return
        word = text.casefold()
        if word in ("undo", "u", self.t(N_("tally.word.undo")).casefold()):
            self.action_undo()
            return
        if word in ("quit", "q", self.t(N_("tally.word.quit")).casefold()):
            self.exit()
            return
        try:
            entry = parse_line(self.sheet, text)
        except InputError as e:
            self.redraw(self.t(e.key, **e.values))
            return
        try:
            self.sheet.add(entry)
        except IllegalEntry as e:
            self.redraw(refusal_message(e.refusal).render(self.t, self.sheet.players))
            return
        self._save()
        log = self.query_one("#log", RichLog)
        log.write(f"▸ {entry_text(self.t, self.sheet, entry)}")
        for line in log_lines(self.t, self.sheet, since=len(self.sheet.entries) - 1):
            log.write(line)
        self.redraw()

    def action_undo(self) -> None:
        try:
            entry = self.sheet.undo()
        except IllegalEntry as e:
            self.redraw(refusal_message(e.refusal).render(self.t, self.sheet.players))
            return
        self._save()
        self.query_one("#log", RichLog).write(
            self.t(N_("tally.undone"), entry=entry_text(self.t, self.sheet, entry)))
        self.redraw()
