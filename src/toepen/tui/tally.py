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

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widget import Widget
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
    # the engine's refusals said about the player by name (toepen.tally.NAMED_REFUSALS)
    N_("tally.said.folded"), N_("tally.said.out_of_session"), N_("tally.said.not_your_turn"),
    N_("tally.said.knock_own_latest"), N_("tally.said.knock_stake_capped"),
    N_("tally.said.knock_lives_below_stake"), N_("tally.said.knock_exceeds_lives"),
    N_("tally.said.knock_before_first_card"), N_("tally.said.not_now"),
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


def sheet_table(t: Translator, sheet: Sheet, rows: tuple[int, int] | None = None,
                points: bool | None = None, dealer: bool = True) -> Table:
    """The sheet: a row per hand, a column per player; lives lost in strokes or points.
    Under ``count: points_up`` the sheet counts penalty points only (no row of lives).

    Each player's column is headed by the seat number an entry may use for them (``2 fold``)
    over the name; ``•`` marks who took the last trick (or was left in), which
    :func:`sheet_legend` says under the table. ``rows`` (first, end) shows only those hands
    (the screen's window onto a long evening); the totals are always there. ``points`` True
    shows lives lost as numbers whatever the
    sheet's display, ``dealer`` False leaves out the dealer's column (the screen, when
    strokes or the dealers do not fit its width; the status line names the dealer)."""
    up = sheet.rules.count == "points_up"
    points = sheet.display == "points" or up or bool(points)
    hands = sheet.hands()
    first, end = rows if rows is not None else (0, len(hands))
    table = Table(show_footer=False, expand=False, pad_edge=False, box=box.SIMPLE_HEAD,
                  show_edge=False, padding=(0, 0))
    table.add_column("#")
    if dealer:
        table.add_column(t(N_("tally.dealer")))
    table.add_column(t(N_("tally.stake")), justify="right")
    out = set(sheet.eliminated)
    for seat, name in enumerate(sheet.players):
        table.add_column(Text.assemble((f"{seat}\n", "dim"), (
            name, "strike dim" if seat in out else "bold")), justify="center")
    blank = ("", "") if dealer else ("",)

    def cell(n: int) -> str:
        return (str(n) if n else "") if points else strokes(n)

    for row in hands[first:end]:
        took = row.last if row.last is not None else row.left
        table.add_row(str(row.number), *((sheet.players[row.dealer],) if dealer else ()),
                      str(row.stake),
                      *(cell(p) + (" •" if s == took else "") for s, p in enumerate(row.paid)),
                      style="" if row.done else "yellow")
    lives = sheet.lives
    lost = [sheet.rules.lives - v for v in lives] if points else sheet.lives_lost
    table.add_section()
    table.add_row(t(N_("tally.points") if points else N_("tally.lost")), *blank,
                  *(str(n) if points else strokes(n) for n in lost), style="bold")
    if not up:
        table.add_row(t(N_("tally.lives")), *blank, *(str(v) for v in lives), style="bold")
    if sheet.rules.session == "rubber":
        kings = set(sheet.toepkoning)
        table.add_row(t(N_("tally.rubbers_won")), *blank,
                      *(f"{w}{' ♔' if s in kings else ''}"
                        for s, w in enumerate(sheet.rubbers_won)))
        table.add_row(t(N_("tally.drinks")), *blank, *(str(d) for d in sheet.drinks))
    if sheet.rules.beer_tally:
        table.add_row(t(N_("tally.beers")), *blank, *(str(b) for b in sheet.beers))
    return table


def sheet_legend(t: Translator, sheet: Sheet, rows: tuple[int, int] | None = None) -> Text:
    """The line under the sheet: what ``•`` and the seat numbers mean, and, when ``rows``
    (first, end) are not all the hands, which are shown and the keys for the others."""
    total = len(sheet.hands())
    first, end = rows if rows is not None else (0, total)
    said = t(N_("tally.legend"))
    if end > first and (first, end) != (0, total):
        said = t(N_("tally.window"), first=first + 1, last=end, total=total) + " · " + said
    return Text(said, style="dim")


def fitted_table(t: Translator, sheet: Sheet, console: Console, width: int, height: int,
                 back: int = 0) -> tuple[Group, int]:
    """The sheet drawn into ``width`` x ``height`` cells: the totals always, and as many
    hands as fit above them, ending ``back`` hands before the newest (0: the newest shown).
    Where the sheet is wider than ``width``, lives lost are shown as numbers, then the
    dealer's column is left out. Returns the table with its legend under it, and how many
    hands it shows."""
    total = len(sheet.hands())
    options = console.options.update(width=max(width, 1), height=None)
    natural = console.options.update(width=10_000)  # the table's own width, uncut
    end = total - back
    for points, dealer in ((False, True), (True, True), (True, False)):
        wide = sheet_table(t, sheet, (max(end - height, 0), end), points, dealer)
        if console.measure(wide, options=natural).maximum <= width:
            break

    def drawn(shown: int) -> tuple[Group, int]:
        rows = (max(end - shown, 0), end)
        table = Group(sheet_table(t, sheet, rows, points, dealer),
                      sheet_legend(t, sheet, rows))
        return table, len(console.render_lines(table, options, pad=False))

    table, lines = drawn(0)
    shown = max(min(end, height - lines), 0)
    while shown > 0:  # a row may take more than one line when the names are long
        bigger, lines = drawn(shown)
        if lines <= height:
            return bigger, shown
        shown -= 1
    return table, 0


class SheetView(Widget):
    """The sheet on the screen: the newest hands that fit and the totals, scrolled with
    PgUp/PgDn and the arrows (:class:`TallyApp`)."""

    DEFAULT_CSS = "SheetView { padding: 0 1; }"

    def __init__(self, t: Translator, sheet: Sheet, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.t = t
        self.sheet = sheet
        self.back = 0
        """Hands hidden below the window (0: it follows the newest hand)."""
        self.shown = 0
        """Hands shown at the last drawing."""

    def render(self) -> RenderableType:
        size = self.content_size
        self.back = max(min(self.back, len(self.sheet.hands()) - 1), 0)
        table, self.shown = fitted_table(self.t, self.sheet, self.app.console, size.width,
                                         size.height, self.back)
        return table

    def scroll_hands(self, by: int) -> None:
        """Show ``by`` hands further back (negative: towards the newest)."""
        most = max(len(self.sheet.hands()) - self.shown, 0)
        self.back = max(min(self.back + by, most), 0)
        self.refresh()


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
    """What may be entered now: the players who may do the same things named together
    (``Ann, Bas, Cor, Dirk: knock, last trick``), in seat order."""
    by_seat: dict[int, list[str]] = {}
    for e in sheet.legal_entries():
        by_seat.setdefault(e.seat, []).append(verb_text(t, e))
    groups: dict[tuple[str, ...], list[str]] = {}
    for s, words in sorted(by_seat.items()):
        groups.setdefault(tuple(words), []).append(sheet.players[s])
    return " · ".join(f"{', '.join(names)}: {', '.join(words)}"
                      for words, names in groups.items())


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
    """``toepen tally``: the sheet, its status, what may be entered, the last thing done,
    the log and an input. The sheet takes the room there is and keeps its totals on
    screen; below 24 rows the log gives its room to the sheet (the line above the input
    still says what was entered or refused)."""

    TITLE = "Toepen"
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    #sheet { height: 3fr; min-height: 4; }
    #status { height: auto; padding: 0 1; text-style: bold; }
    #legal { height: auto; max-height: 3; padding: 0 1; color: $text-muted; }
    #message { height: auto; padding: 0 1; color: $warning; }
    #message.done { color: $success; }
    #log { height: 1fr; border: round $secondary; }
    #log.hidden { display: none; }
    #entry { dock: bottom; }
    """
    SMALL = 24
    """Below this many rows the log is not shown (the sheet needs the room)."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", show=False),
        Binding("ctrl+c", "quit", show=False, priority=True),
        Binding("pageup", "hands(1)", show=False),
        Binding("pagedown", "hands(-1)", show=False),
        Binding("up", "hand(1)", show=False),
        Binding("down", "hand(-1)", show=False),
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
        yield SheetView(self.t, self.sheet, id="sheet")
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

    def on_resize(self) -> None:
        self.query_one("#log", RichLog).set_class(self.size.height < self.SMALL, "hidden")

    def redraw(self, message: str = "", done: bool = False) -> None:
        t, sheet = self.t, self.sheet
        rules = sheet.rules
        self.query_one("#title", Static).update(t(
            N_("tally.title_points") if rules.count == "points_up" else N_("tally.title"),
            rules=t(f"preset.{rules.name}"), lives=rules.lives))
        self.query_one("#sheet", SheetView).refresh()
        self.query_one("#status", Static).update(status_line(t, sheet))
        self.query_one("#legal", Static).update(legal_line(t, sheet))
        shown = self.query_one("#message", Static)
        shown.update(message)
        shown.set_class(done, "done")

    def action_hands(self, pages: int) -> None:
        """PgUp/PgDn: a window of hands further back or forward."""
        view = self.query_one("#sheet", SheetView)
        view.scroll_hands(pages * max(view.shown - 1, 1))

    def action_hand(self, by: int) -> None:
        """Up/down: one hand further back or forward."""
        self.query_one("#sheet", SheetView).scroll_hands(by)

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
            self.redraw(refusal_message(e.refusal, self.sheet).render(
                self.t, self.sheet.players))
            return
        self._save()
        said = entry_text(self.t, self.sheet, entry)
        log = self.query_one("#log", RichLog)
        log.write(f"▸ {said}")
        for line in log_lines(self.t, self.sheet, since=len(self.sheet.entries) - 1):
            log.write(line)
        self.query_one("#sheet", SheetView).back = 0  # the newest hand comes into view
        self.redraw(self.t(N_("tally.accepted"), entry=said), done=True)

    def action_undo(self) -> None:
        try:
            entry = self.sheet.undo()
        except IllegalEntry as e:
            self.redraw(refusal_message(e.refusal, self.sheet).render(
                self.t, self.sheet.players))
            return
        self._save()
        said = self.t(N_("tally.undone"), entry=entry_text(self.t, self.sheet, entry))
        self.query_one("#log", RichLog).write(said)
        self.query_one("#sheet", SheetView).back = 0
        self.redraw(said, done=True)
