"""The full-screen game: one human against bots, in the human's language.

The screen is drawn only from ``observe(game, human)`` and from events redacted for
the human seat; the bots think in Textual thread workers and their moves are paced by
``delay`` seconds so that a person can follow them.
"""

from __future__ import annotations

import io
import secrets
import time
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import RichLog, Static

from ..bots.base import DEFAULT
from ..bots.reasons import forced, reason
from ..cards import SUIT_SYMBOLS, SUITS, local_card_str
from ..engine import PASS, Action, Event, EventKind, IllegalAction
from ..i18n import N_, Translator
from ..narration import (
    Message,
    describe,
    hand_summary,
    in_second_person,
    money,
    standings,
)
from ..review import evaluate
from ..rules import TELL_WORDS
from ..view import View
from .narrate import (
    VERB_KEYS_BY_KEY,
    action_label,
    explain_refusal,
    narrate,
    phase_text,
    rules_summary,
    session_winner_reason,
)
from .session import Notice, PlaySession, default_path, incident_notice, resolve_bot

CARD_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8")
"""Keys of the cards in the sorted hand, by position."""

_RED = (1, 2)  # diamonds, hearts
BOT_MARK = "\U0001f916"
"""The mark beside a bot's name in the seat list (as in the browser: a person may carry
any first name a bot might)."""

_STATUS_WORDS = (N_("status.out"), N_("status.folded"), N_("status.dealer"),
                 N_("status.knocked"), N_("status.claimed"), N_("status.exchanged"),
                 N_("status.toepkoning"), N_("status.winner"))
"""The statuses of a seat in the players' table (the longest word sets the column's
narrowest width)."""

_TOLD = (EventKind.HAND_RESULT, EventKind.ELIMINATED)
"""Events whose line a hand's summary repeats (the log has it once, from the event)."""


def card_text(card: int, lang: str, *, dim: bool = False) -> Text:
    """A card drawn as a small face: localised rank, suit symbol, suit colour."""
    colour = "red3" if card >> 3 in _RED else "black"
    style = f"bold {colour} on grey93" if not dim else "grey50 on grey23"
    return Text(f" {local_card_str(card, lang):>4} ", style=style)


class TrickTracker:
    """The current and the last trick, followed from redacted events."""

    def __init__(self) -> None:
        self.current: list[tuple[int, int]] = []
        self.last: list[tuple[int, int]] = []
        self.last_winner = -1
        self.claims: set[int] = set()
        """The seats that claimed armoede since the last deal or redeal."""

    def feed(self, e: Event) -> None:
        if e.kind is EventKind.CLAIM:
            self.claims.add(e.seat)
        if e.kind is EventKind.PLAY:
            self.current.append((e.seat, e.cards[0]))
        elif e.kind is EventKind.TRICK:
            self.last, self.last_winner = self.current, e.seat
            self.current = []
        elif e.kind is EventKind.FOLD:
            # A folded player's card leaves the trick in progress.
            self.current = [(s, c) for s, c in self.current if s != e.seat]
        elif e.kind in (EventKind.DEAL, EventKind.REDEAL):
            self.current = []
            # The last trick of an earlier hand (by a player who may be out since) is no
            # fact of the hand dealt now.
            self.last, self.last_winner = [], -1
            self.claims.clear()  # a redeal ends the armoede that caused it


class RulesScreen(ModalScreen[None]):
    """The rules in play, over the game; any of r, Escape or q closes it. Taller than the
    window, they scroll (arrows, PgUp, PgDn, Home, End, the mouse wheel)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", show=False),
        Binding("r", "close", show=False),
        Binding("q", "close", show=False),
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
        Binding("pageup", "scroll(-1000)", show=False),
        Binding("pagedown", "scroll(1000)", show=False),
        Binding("home", "scroll(-100000)", show=False),
        Binding("end", "scroll(100000)", show=False),
    ]
    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    #rules { width: 100%; max-width: 100; height: auto; max-height: 100%;
             border: round $accent; background: $panel; padding: 0 2; }
    #rules-text { height: auto; padding: 1 0; }
    """

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        text = Text()
        text.append(self.lines[0] + "\n\n", style="bold")
        for line in self.lines[1:-1]:
            text.append("• " + line + "\n")
        text.append("\n" + self.lines[-1], style="italic")
        with VerticalScroll(id="rules"):
            yield Static(text, id="rules-text")

    def action_scroll(self, rows: int) -> None:
        """Scroll by ``rows`` (±1000: a page; ±100000: to the top or the end)."""
        box = self.query_one("#rules", VerticalScroll)
        if abs(rows) == 1000:
            rows = (1 if rows > 0 else -1) * max(1, box.scrollable_content_region.height - 1)
        box.scroll_to(y=box.scroll_y + rows, animate=False, immediate=True)

    def action_close(self) -> None:
        self.dismiss(None)


class SummaryScreen(ModalScreen[None]):
    """A hand's summary (and, at the end, the final standings) on a screen of its own, for
    a window too small to show it beside the table; any key goes back to the game."""

    DEFAULT_CSS = """
    SummaryScreen { align: center middle; }
    #summary-box { width: 100%; max-width: 100; height: auto; max-height: 100%;
                   border: round $accent; background: $panel; padding: 0 1; }
    #summary-text { height: auto; }
    #summary-key { height: auto; text-style: italic; }
    """

    def __init__(self, text: Text, press: str) -> None:
        super().__init__()
        self.text = text
        self.press = press

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary-box"):
            yield Static(self.text, id="summary-text")
            yield Static(Text(self.press), id="summary-key")

    def on_key(self, event: events.Key) -> None:
        if event.key == "ctrl+c":
            return  # the app's save and quit
        event.stop()
        event.prevent_default()
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)


class GameLog(RichLog):
    """The narrated log: every line kept, and drawn again at the log's own width whenever
    that width changes or the log is shown again (a line written while the log is hidden
    or narrower would otherwise keep the width it was wrapped at).

    It follows its newest line (:attr:`follow`) until the player scrolls back (PgUp,
    Home), also when its height changes (a hint, a summary closed, the window resized)."""

    can_focus = False
    """The game's keys (PgUp, PgDn, Home, End among them) are the app's, never the log's."""

    def __init__(self, *, id: str, max_lines: int = 1000) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id, wrap=True, max_lines=max_lines, min_width=1)
        self.entries: list[Text] = []
        self._drawn_width = 0
        self.follow = True
        """True while the newest line is kept in sight (a new line brings it back)."""

    def _width(self) -> int:
        return self.scrollable_content_region.width if self.display else 0

    def add(self, line: Text) -> None:
        """Keep ``line`` and draw it now if the log is on screen at the width it was drawn."""
        self.entries.append(line)
        self.follow = True  # a new line is shown (RichLog's auto_scroll)
        if len(self.entries) > (self.max_lines or len(self.entries)):
            del self.entries[0]
        width = self._width()
        if width > 0 and width == self._drawn_width:
            self.write(line, width=width)
        else:  # drawn in full by redraw(), once the log has a width again
            self._drawn_width = 0

    def redraw(self) -> None:
        """Draw every kept line again at the log's width (nothing while it is hidden)."""
        width = self._width()
        if width <= 0:
            return
        if width != self._drawn_width:
            self.clear()
            self._drawn_width = width
            for line in self.entries:
                self.write(line, width=width, scroll_end=False)
        if self.follow:
            self.scroll_end(animate=False, immediate=True)

    def scroll_pages(self, pages: int) -> None:
        """PgUp, PgDn (one page each), Home (-1000), End (1000); the log follows its
        newest line again once it is scrolled to the end."""
        page = self.scrollable_content_region.height
        if pages <= -1000:
            self.scroll_home(animate=False, immediate=True)
        elif pages >= 1000:
            self.scroll_end(animate=False, immediate=True)
        else:
            self.scroll_to(y=self.scroll_y + pages * page, animate=False, immediate=True)
        self.follow = self.scroll_y >= self.max_scroll_y

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self.call_after_refresh(self.redraw)


class PlayApp(App[None]):
    """``toepen play``: the game screen."""

    TITLE = "Toepen"
    CSS = """
    Screen { layout: vertical; }
    #title { height: auto; background: $primary; color: $text; padding: 0 1; }
    #top { height: auto; }
    #players { width: 1fr; height: auto; padding: 0 1; }
    #table { width: 46; height: auto; border: round $secondary; padding: 0 1; }
    #summary { height: 1fr; padding: 0 1; display: none; overflow-y: auto; }
    #status { height: auto; padding: 0 1; }
    #hand { height: auto; padding: 0 1; border: round $accent; }
    #keys { height: auto; padding: 0 1; }
    #message { height: auto; padding: 0 1; color: $warning; }
    #log { height: 1fr; border: round $secondary; overflow-y: scroll;
           scrollbar-size-vertical: 1; }
    Screen.narrow #top { layout: vertical; }
    Screen.narrow #table { width: 100%; }
    Screen.compact { overflow: hidden; }
    Screen.compact #top { overflow: hidden; }
    Screen.compact #table { border: none; padding: 0 1; }
    Screen.compact #hand { border: none; }
    Screen.compact #log { border: none; border-top: solid $secondary; min-height: 2; }
    """
    COMPACT = 30
    """Below this height the screen is compact: the hand on one line, the table and the
    log without their frames (the log keeps at least :attr:`LOG_ROWS` rows), and a
    hand's summary and the final standings on a screen of their own (any key)."""
    LOG_ROWS = 3
    """Rows of the log a compact screen always keeps."""
    NARROW = 100
    """Below this width (plus 10 per extra column of the players' table) the table goes
    under the players and the trick is shown on one line."""
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(k, f"card({i})", show=False) for i, k in enumerate(CARD_KEYS)),
        *(Binding(k, f"verb('{k}')", show=False) for k in VERB_KEYS_BY_KEY),
        Binding("question_mark", "hint", show=False),
        Binding("r", "rules", show=False),
        Binding("q", "save_quit", show=False),
        Binding("ctrl+c", "save_quit", show=False, priority=True),
        Binding("pageup", "log_scroll(-1)", show=False),
        Binding("pagedown", "log_scroll(1)", show=False),
        Binding("home", "log_scroll(-1000)", show=False),
        Binding("end", "log_scroll(1000)", show=False),
        Binding("space", "fast_forward", show=False),
        Binding("n", "rematch", show=False),
    ]

    def __init__(
        self,
        session: PlaySession,
        *,
        lang: str = "en",
        delay: float = 0.8,
        strict: bool = False,
        history: Sequence[Event] | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        """The game being played (a rematch replaces it)."""
        self.finished: list[PlaySession] = []
        """The games this app played to the end before a rematch, in order."""
        self.t = Translator(lang, strict=strict)
        self.lang = self.t.lang
        self.delay = max(0.0, delay)
        self._delay = self.delay
        self.human = session.human
        self.names = session.game.players
        self.tricks = TrickTracker()
        self.message = ""
        """The last feedback line (a refusal, a hint, a notice)."""
        self._transient = False
        """True while :attr:`message` is a refusal or a hint: the next trick or deal
        clears it (a notice stays until something else is said)."""
        self.awaiting_human = False
        """True while the game waits for the human's key."""
        self.thinking: int | None = None
        self.quitting = False
        """True once the player left (q): nothing more is played."""
        self._history = list(history) if history is not None else list(
            session.game.opening_events(session.human)
        )
        self._hint_bot, hint_notices = resolve_bot(DEFAULT)
        self._notices: list[Notice] = [*session.notices, *(
            n for n in hint_notices if n not in session.notices)]
        self._mounted = False
        self.narrow = False
        self.compact = False
        """True below :attr:`COMPACT` rows (see there)."""
        self._summaries = 0
        """How many summaries were set (the session's hands and its end)."""
        self._summaries_shown = 0
        """How many of them a compact screen has shown on a screen of their own."""
        self.hint_reason: Message | None = None
        """The reason of the last hint shown (:func:`toepen.bots.reasons.reason`)."""
        self.log_lines: list[str] = []
        """Every line written to the log (for tests and the end of game summary)."""
        self.summary: list[Message] = []
        """What the last finished hand came to (and, once the session is over, the final
        standings), shown between the hands until the next trick is taken."""
        self._events: list[Event] = []
        """Every event the human saw (redacted), for the hand summaries and standings."""
        self._hand_start = 0
        """Where the hand in progress starts in :attr:`_events` (its deal)."""
        self._incidents_seen = len(session.incidents)
        """How many of the session's bot incidents have had their notice."""

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="top"):
            yield Static(id="players")
            with Vertical(id="table"):
                yield Static(id="trick")
                yield Static(id="last")
        yield Static(id="status")
        yield Static(id="hand")
        yield Static(id="keys")
        yield Static(id="message")
        yield Static(id="summary")
        yield GameLog(id="log")

    @property
    def _game_screen(self) -> Screen[Any]:
        """The game's own screen (the bottom of the stack): a summary or the rules may be
        on top of it when the window changes size, and the layout classes are its own."""
        return self.screen_stack[0]

    def on_mount(self) -> None:
        self._mounted = True
        self.title = self.t("app.title")
        self.query_one("#hand", Static).border_title = self.t("screen.hand")
        self.query_one("#table", Vertical).border_title = self.t("screen.table")
        self.query_one("#log", GameLog).border_title = self.t("screen.log")
        for notice in self._notices:
            self._write_log(self.t(notice.key, **notice.values), style="yellow")
        if self._notices:
            last = self._notices[-1]
            self.message = self.t(last.key, **last.values)
        if self.session.game.actions:
            self._write_log(self.t("log.resumed", n=len(self.session.game.actions)), style="cyan")
        self._feed(self._history)
        if self.session.game.actions and not self.over:
            # Resumed: the last hand's summary was read before the game was left (the log
            # holds it); the hand dealt since is what the screen is about.
            self.summary = []
            self._summaries_shown = self._summaries
        self.session.save()
        self._set_narrow(self.size.width)
        self._set_compact(self.size.height)
        self._advance()

    def on_resize(self, event: events.Resize) -> None:
        self._set_narrow(event.size.width)
        self._set_compact(event.size.height)
        if self._mounted:  # the title and the key bar break at the window's width
            self._render()

    def _set_compact(self, height: int) -> None:
        compact = height < self.COMPACT
        if compact != self.compact:
            self.compact = compact
            self._game_screen.set_class(compact, "compact")
            if self._mounted:
                screen = self.screen
                if not compact and isinstance(screen, SummaryScreen):
                    # The window has room for the summary beside the table again: it goes
                    # there (the game goes on, as on a large screen).
                    screen.dismiss(None)
                else:
                    self._render()
                if compact and self.summary:
                    self._show_summary()
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """On a compact screen, give the players' table no more rows than leave the log
        :attr:`LOG_ROWS` (the prompt, the hand and the keys always keep theirs)."""
        top = self.query_one("#top", Horizontal)
        if not self.compact:
            if top.styles.max_height is not None:
                top.styles.max_height = None
            return
        width, height = self.size
        used = 0
        for name in ("title", "status", "hand", "keys", "message"):  # from their content,
            widget = self.query_one(f"#{name}", Static)              # not the last layout
            if widget.display:
                gutter = widget.styles.gutter
                used += gutter.height + widget.get_content_height(
                    self.size, self.size, max(1, width - gutter.width))
        frame = self.query_one("#log", GameLog).styles.gutter.height
        room = max(1, height - used - self.LOG_ROWS - frame)
        current = top.styles.max_height
        if current is None or current.value != room:
            top.styles.max_height = room

    @property
    def summary_open(self) -> bool:
        """True while a summary covers the game on a screen of its own."""
        return isinstance(self.screen, SummaryScreen)

    def _show_summary(self) -> None:
        """Put the summary on a screen of its own (compact screens); the game waits for a
        key there. Hand summaries are skipped while the bots play on without you."""
        self._summaries_shown = self._summaries
        if self.summary_open or not self.summary:
            return
        if not self.over and self.out and self.delay == 0:
            return
        self.push_screen(SummaryScreen(self._summary_text(), self.t("screen.press_key")),
                         lambda _: self._summary_closed())

    def _summary_closed(self) -> None:
        if self.over and self.compact:  # read: the log takes its place back
            self.summary = []
        self._render()
        self._advance()

    def _set_narrow(self, width: int) -> None:
        rules = self.session.game.rules
        extra = 2 * (rules.session == "rubber") + rules.beer_tally + rules.teams
        narrow = width < self.NARROW + 10 * extra
        if narrow != self.narrow:
            self.narrow = narrow
            self._game_screen.set_class(narrow, "narrow")
            if self._mounted:
                self._render()

    # -- the game loop -------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the session has a winner."""
        return self.session.game.winner is not None

    def _advance(self) -> None:
        game = self.session.game
        self.awaiting_human = False
        self.thinking = None
        if self.quitting:
            return
        if self.compact and self._summaries > self._summaries_shown:
            self._show_summary()
        if self.summary_open:  # the game goes on once the summary was read
            self._render()
            return
        if self.over:
            self._render()
            return
        seat, window = self.session.asked()
        if seat == self.human:
            self.awaiting_human = True
            self._render()
            return
        if seat < 0:  # pragma: no cover - a seeded game always has the next deck
            self._render()
            return
        if not window:  # a knock window is asked without a pause or a "thinking" mark
            self.thinking = seat
            if self.delay > 0:  # with no delay the screen is drawn when the human is next
                self._render()
        token = len(game.actions)
        self.run_worker(
            lambda: self._think(seat, window, token), thread=True, group="bots",
            exit_on_error=False,
        )

    def _think(self, seat: int, window: bool, token: int) -> None:
        """Worker thread: the bot decides from its own view only (:func:`toepen.match.ask`:
        an answer that cannot be played is its fallback's)."""
        start = time.perf_counter()
        act = self.session.ask_bot(seat, window)
        elapsed = time.perf_counter() - start
        self.call_from_thread(self._bot_done, seat, window, act, token, elapsed)

    def _bot_done(self, seat: int, window: bool, act: Action, token: int,
                  elapsed: float) -> None:
        wait = self.delay - elapsed
        if wait > 0 and not (window and act is PASS):
            self.set_timer(wait, lambda: self._apply_bot(seat, window, act, token))
        else:
            self._apply_bot(seat, window, act, token)

    def _apply_bot(self, seat: int, window: bool, act: Action, token: int) -> None:
        game = self.session.game
        if self.quitting or len(game.actions) != token or self.session.asked() != (seat,
                                                                                   window):
            return  # stale (the app is closing)
        incidents = self.session.incidents
        while self._incidents_seen < len(incidents):
            notice = incident_notice(incidents[self._incidents_seen])
            self._incidents_seen += 1
            values = dict(notice.values)
            values["name"] = self.names[seat]
            values["why"] = self.t(str(values["why"]))
            values["action"] = action_label(self.t, act)
            self._write_log(self.t(notice.key, **values), style="yellow")
        self._feed(self.session.answer(seat, window, act))
        self._advance()

    def _human_act(self, act: Action) -> None:
        game = self.session.game
        view = self.session.view()
        if self.over:
            self._say(self.t("illegal.over"))
            return
        refusal = game.refusal(self.human, act)
        if refusal is not None:  # the engine's reason, never worked out here
            self._say(explain_refusal(self.t, view, refusal))
            return
        if not self.awaiting_human:  # pragma: no cover - the human's turn is always awaited
            return
        try:
            events = self.session.apply(self.human, act)
        except IllegalAction as e:  # pragma: no cover - legal was checked just above
            self._say(explain_refusal(self.t, view, e.refusal))
            return
        self.message = ""
        self._feed(events)
        self._advance()

    # -- keys ---------------------------------------------------------------------------------

    def _modal(self) -> bool:
        """True while another screen (the rules) covers the game: game keys wait."""
        return len(self.screen_stack) > 1

    def action_card(self, index: int) -> None:
        """Play the card at ``index`` of the sorted hand."""
        if self._modal():
            return
        hand = self.session.view().hand
        if index >= len(hand):
            if self.over:
                self._say(self.t("illegal.over"))
            else:
                self._say(self.t("illegal.no_card", key=CARD_KEYS[index], n=len(hand)))
            return
        self._human_act(Action.play(sorted(hand)[index]))

    def action_verb(self, key: str) -> None:
        if self._modal():
            return
        self._human_act(VERB_KEYS_BY_KEY[key])

    def action_rules(self) -> None:
        if self._modal():
            return
        lines = rules_summary(self.t, self.session.game.rules, self.session.game.n)
        self.push_screen(RulesScreen([*lines, self.t("rules.close")]))

    def action_hint(self) -> None:
        if self._modal():
            return
        if not self.awaiting_human:
            self._say(self.t("hint.not_now"))
            return
        view = self.session.view()
        nothing = forced(view)
        if nothing is not None:  # one legal move: nothing to decide, no hint
            self.hint_reason = nothing
            self._say(nothing.render(self.t, self.names))
            return
        self._say(self.t("hint.thinking", bot=self._hint_bot))
        token = len(self.session.game.actions)
        self.run_worker(lambda: self._hint(view, token), thread=True, group="hint",
                        exit_on_error=False)

    def _hint(self, view: View, token: int) -> None:
        try:
            # The review's own valuation (its samples, its seed), as the browser's hint:
            # the action `toepen review` will call best, worded from its figures.
            ev = evaluate(view)
            act = ev.choice
            why = reason(view, act, ev.values)
        except Exception as e:  # a broken bot must not take the game down
            self.call_from_thread(self._say, self.t("hint.failed", reason=str(e)))
            return
        self.call_from_thread(self._hint_done, act, why, token)

    def _hint_done(self, act: Action, why: Message, token: int) -> None:
        if token != len(self.session.game.actions):
            return
        key = self.key_for(act)
        label = action_label(self.t, act, self.session.game.phase)
        self.hint_reason = why
        self._say(self.t("hint.result_why", bot=self._hint_bot, action=label, key=key,
                         why=why.render(self.t, self.names)))

    def action_log_scroll(self, pages: int) -> None:
        """Scroll the log (PgUp, PgDn, Home, End); the hand's summary gives it its place."""
        if self._modal():
            return
        if self.summary and not self.compact:
            self.summary = []
            self._render()
        self.query_one("#log", GameLog).scroll_pages(pages)

    @property
    def out(self) -> bool:
        """The human is out of the session that goes on."""
        return not self.over and not self.session.view().in_session[self.human]

    def action_fast_forward(self) -> None:
        """Once you are out: the bots play the rest without pausing (space)."""
        if self._modal() or not self.out or self.delay == 0:
            return
        self.delay = 0.0
        self._say(self.t("notice.fast_forward"))
        self._render()

    def action_rematch(self) -> None:
        """Once the session is over: a new game with the same players, bots and rules (n),
        dealt from a new seed and saved beside the old one."""
        if self._modal() or not self.over:
            return
        old = self.session
        self.session.save()
        bots = [b for s, b in enumerate(old.lineup) if s != old.human]
        folder = old.path.parent if old.path is not None else None
        seed = secrets.randbelow(2**31)
        fresh = PlaySession.new(old.game.rules, players=old.game.n, bots=bots,
                                name=old.game.players[old.human], seed=seed,
                                path=default_path(seed, folder) if folder else None,
                                lang=self.lang, timeout=old.timeout)
        old.close()
        self.finished.append(old)
        self.session = fresh
        self.human = fresh.human
        self.names = fresh.game.players
        self.tricks = TrickTracker()
        self.summary = []
        self._events = []
        self._hand_start = 0
        self.delay = self._delay
        self._write_log(self.t("log.rematch"), style="bold cyan")
        self._say("")
        self._feed(fresh.game.opening_events(fresh.human))
        fresh.save()
        self._advance()

    def action_save_quit(self) -> None:
        """Save the record and leave (Ctrl-C, q), at once: an external bot that is
        thinking is stopped (its program and what it started), not waited for."""
        self.quitting = True  # no bot is asked again, no move applied
        self.session.save()
        self.session.close()
        self.exit()

    # -- helpers for keys and tests --------------------------------------------------------------

    def key_for(self, act: Action) -> str:
        """The key that chooses ``act`` now ('' if no key does)."""
        if act.is_play:
            hand = sorted(self.session.view().hand)
            return CARD_KEYS[hand.index(act.card)] if act.card in hand else ""
        for key, verb in VERB_KEYS_BY_KEY.items():
            if verb is act:
                return key
        return ""

    def legal_keys(self) -> list[str]:
        """The keys of the human's legal actions now (empty unless it is the human's turn)."""
        if not self.awaiting_human:
            return []
        return [self.key_for(a) for a in self.session.view().legal]

    def panel_text(self, widget_id: str) -> str:
        """The plain text a panel shows now (``players``, ``trick``, ``last``, ``status``,
        ``hand``, ``keys``, ``message``, ``title``)."""
        content = self.query_one(f"#{widget_id}", Static).content
        out = io.StringIO()
        console = Console(file=out, width=160, color_system=None, legacy_windows=False)
        console.print(content)
        return out.getvalue()

    def _say(self, text: str) -> None:
        self.message = text
        self._transient = True
        if self._mounted:
            self._show_message()
            self._fit()

    def _show_message(self) -> None:
        """The feedback line, taking no row while there is nothing to say."""
        message = self.query_one("#message", Static)
        message.update(Text(self.message))
        message.display = bool(self.message)

    def _write_log(self, line: str, style: str = "") -> None:
        self.log_lines.append(line)
        self.query_one("#log", GameLog).add(Text(line, style=style))

    def _feed(self, events: Sequence[Event]) -> None:
        """Narrate redacted events and follow the tricks."""
        for e in events:
            self.tricks.feed(e)
            self._follow_hands(e)
            line = narrate(self.t, e, self.names, self.human)
            if line is None:
                continue
            style = ""
            if e.kind in (EventKind.DEAL, EventKind.REDEAL):
                style = "bold"
            elif e.kind in (EventKind.KNOCK, EventKind.PELT):
                style = "bold magenta"
            elif e.kind in (EventKind.LIVES, EventKind.FOLD, EventKind.ELIMINATED):
                style = "red"
            elif e.kind is EventKind.SESSION_RESULT:
                style = "bold green"
            self._write_log(line, style)
            if e.kind is EventKind.SESSION_RESULT:
                reason = session_winner_reason(self.t, self.session.view())
                if reason is not None:
                    self._write_log(reason, "green")

    def _follow_hands(self, e: Event) -> None:
        """Keep the events; at the end of a hand (the next deal, or the session's end) set
        :attr:`summary` and write it to the log; the next trick taken clears it.

        A session always ends with its last hand's summary and the final standings, also
        when it ends on a fold or on a lost armoede claim (a ``folded``/``last_left``
        ``HAND_RESULT`` after the ``ELIMINATED``). The log
        gets only the summary's own lines: the hand's result and who went out were
        narrated there already, when they happened."""
        self._events.append(e)
        if self._transient and e.kind in (EventKind.TRICK, EventKind.DEAL, EventKind.REDEAL):
            self.message = ""  # a refusal or a hint was about the trick that is over
            self._transient = False
        if e.kind is EventKind.TRICK:
            self.summary = []
        hand = self._events[self._hand_start:]
        over = e.kind is EventKind.SESSION_RESULT
        settled = any(x.kind in (EventKind.HAND_RESULT, EventKind.LIVES) for x in hand)
        if over or (e.kind is EventKind.DEAL and settled):
            self._summaries += 1
            self.summary = hand_summary(hand, self.human)
            # The end of a rubber before who deals next, and the next rubber's lives last
            # (the log told the end of the rubber when it happened).
            rubber = self._rubber_lines(hand, over)
            ended = [m for m in rubber if not m.id.startswith("summary.rubber_next")]
            nxt = self.summary[-1].id.endswith("next_dealer")
            at = len(self.summary) - nxt
            self.summary[at:at] = ended
            self.summary += rubber[len(ended):]
            if over:
                final = self.session.view()
                self.summary += standings(final.places, final.rules, rebuys=final.rebuys)
            told = {line for x in hand if x.kind in _TOLD
                    and (line := narrate(self.t, x, self.names, self.human)) is not None}
            told.update(m.render(self.t, self.names) for m in ended)
            for m in self.summary:
                line = m.render(self.t, self.names)
                if line not in told:
                    self._write_log(line, "green")
        if e.kind is EventKind.DEAL:
            self._hand_start = len(self._events) - 1

    def _rubber_lines(self, hand: Sequence[Event], over: bool) -> list[Message]:
        """The end of a rubber in a hand's summary: who won it (or shared it), who owes a
        round, a toepkoning, and, unless the session ends with it, that the next rubber
        begins with every life back (the last line)."""
        out: list[Message] = []
        ended = 0
        for e in hand:
            if e.kind is EventKind.RUBBER:
                ended = e.value
            if e.kind in (EventKind.RUBBER, EventKind.DRINKS, EventKind.TOEPKONING):
                message = describe(e, self.human)
                if message is not None:
                    out.append(in_second_person(message, self.human))
        if ended and not over:
            rules = self.session.game.rules
            if rules.count == "points_up":
                out.append(Message(N_("summary.rubber_next_points"), {"rubber": ended + 1}))
            else:
                out.append(Message(N_("summary.rubber_next"),
                                   {"rubber": ended + 1, "lives": rules.lives}))
        return out

    def summary_lines(self) -> list[str]:
        """The summary shown now, one line per message (empty while none is shown)."""
        return [m.render(self.t, self.names) for m in self.summary]

    # -- drawing --------------------------------------------------------------------------------

    def _render(self) -> None:
        t = self.t
        view = self.session.view()
        rules = view.rules
        title = t("screen.title", preset=rules.name, hand=view.hand_no,
                  dealer=view.players[view.dealer])
        if rules.session == "rubber":
            title += "  ·  " + t("screen.rubber", n=view.rubber_no)
        parts = [Text(part, style="bold") for part in title.split("  ·  ")]
        self.query_one("#title", Static).update(self._flow(parts, "  ·  "))
        self.query_one("#players", Static).update(self._players_table(view))
        self.query_one("#trick", Static).update(self._trick_text(view))
        self.query_one("#last", Static).update(self._last_text(view))
        # The summary takes the log's place while it is shown (the log holds it too), so
        # that the hand and the keys stay on screen in a small terminal.
        summary = self.query_one("#summary", Static)
        in_panel = bool(self.summary) and not self.compact
        summary.display = in_panel
        log = self.query_one("#log", GameLog)
        log.display = not in_panel
        summary.update(self._summary_text())
        if log.display:
            self.call_after_refresh(log.redraw)
        self.query_one("#status", Static).update(self._status_text(view))
        self.query_one("#hand", Static).update(self._hand_text(view))
        self.query_one("#keys", Static).update(self._keys_text(view))
        self._show_message()
        self._fit()

    def _summary_text(self) -> Text:
        """The summary as short paragraphs: the hand's, then the standings row by row."""
        text = Text()
        lines = self.summary_lines()
        for i, (m, line) in enumerate(zip(self.summary, lines, strict=True)):
            if m.id in ("summary.title", "standings.title"):
                if i:
                    text.append("\n")
                text.append(line + " ", style="bold green")
            elif m.id.startswith("standings.row"):
                text.append("\n" + line, style="green")
            else:
                text.append(line + " ")
        return text

    def _players_table(self, view: View) -> Table:
        t = self.t
        rules = view.rules
        # A narrow window: one space between the columns, none at the edges. A name (with
        # its mark) never wraps, a heading is never cut inside a word; the statuses wrap.
        table = Table(box=None, padding=(0, 1), expand=False, show_edge=False,
                      collapse_padding=self.narrow, pad_edge=not self.narrow)

        def column(heading: str, **options: Any) -> None:
            longest = max((cell_len(w) for w in heading.split()), default=0)
            table.add_column(heading, min_width=longest, **options)

        table.add_column("", no_wrap=True)
        you = " " + t("screen.you")
        names = [n + (you if s == self.human else " " + BOT_MARK)
                 for s, n in enumerate(view.players)]
        table.add_column(t("col.player"), no_wrap=True,
                         min_width=max(cell_len(n) for n in names))
        if view.teams:
            column(t("col.team"))
        points = rules.count == "points_up"  # the sheet counts penalty points up
        column(t("col.points") if points else t("col.lives"), justify="right")
        column(t("col.cards"), justify="right")
        column(t("col.stake"), justify="right")
        if rules.session == "rubber":
            column(t("col.rubbers"), justify="right")
            column(t("col.drinks"), justify="right")
        if rules.beer_tally:
            column(t("col.beers"), justify="right")
        if rules.rebuy != "off":  # pot toepen: how often each bought back in
            column(t("col.rebuys"), justify="right")
        words = [w for key in _STATUS_WORDS for w in t(key, rank="").split()]
        table.add_column(t("col.status"), min_width=max(cell_len(w) for w in words),
                         overflow="fold")
        tells: dict[int, list[str]] = {}
        for seat, count, rank in view.tells:
            word = t(f"rank.{TELL_WORDS[rank]}")
            key = N_("status.whistles") if count == 3 else N_("status.stands")
            tells.setdefault(seat, []).append(t(key, rank=word))
        for seat, name in enumerate(view.players):
            marker = "▶" if seat in view.to_act else ""
            label = Text(name, style="bold" if seat == self.human else "")
            if seat == self.human:
                label.append(" " + t("screen.you"), style="italic")
            else:  # every other seat of toepen play is a bot: marked as the browser does
                label.append(" " + BOT_MARK)
            status: list[str] = []
            if not view.in_session[seat]:
                status.append(t("status.out"))
            elif not view.active[seat]:
                status.append(t("status.folded"))
            if seat == view.dealer:
                status.append(t("status.dealer"))
            if seat == view.last_knocker and view.in_session[seat]:
                status.append(t("status.knocked"))
            if seat in view.claimed and seat in self.tricks.claims:
                status.append(t("status.claimed"))
            if seat in view.exchanged:
                status.append(t("status.exchanged"))
            if seat in view.toepkoning:
                status.append(t("status.toepkoning"))
            if view.winner == seat:
                status.append(t("status.winner"))
            status.extend(tells.get(seat, []))
            row: list[Any] = [marker, label]
            if view.teams:
                row.append("ABCD"[view.teams[seat]])
            lives_style = "red" if view.lives[seat] <= 2 else ""
            row.append(Text(str(rules.sheet_value(view.lives[seat])), style=lives_style))
            row.append(str(view.hand_sizes[seat]) if view.in_session[seat] else "")
            row.append(str(view.accepted[seat]) if view.active[seat] else "")
            if rules.session == "rubber":
                row.extend([str(view.rubbers_won[seat]), str(view.drinks[seat])])
            if rules.beer_tally:
                row.append(str(view.beers[seat]))
            if rules.rebuy != "off":
                row.append(str(view.rebuys[seat]) if view.rebuys else "0")
            row.append(", ".join(status))
            style = "dim" if not view.in_session[seat] or not view.active[seat] else ""
            table.add_row(*row, style=style)
        return table

    def _led_text(self, view: View) -> Text | None:
        """The suit led of the trick in progress (it binds even when the led card left
        the table with a folded leader), or None before the first card."""
        if view.led_suit < 0 or view.phase not in ("play", "answer"):
            return None
        suit = self.t(f"suit.{SUITS[view.led_suit]}")
        colour = "red3" if view.led_suit in _RED else ""
        return Text(self.t("screen.led_suit",
                           suit=f"{SUIT_SYMBOLS[view.led_suit]} {suit}"), style=colour)

    def _trick_text(self, view: View) -> Group:
        t = self.t
        if self.over:
            return Group(Text(t("screen.session_over"), style="bold"))
        head = Text(t("screen.trick", n=min(view.trick_no + 1, 4)), style="bold")
        led = self._led_text(view)
        if self.narrow:
            head.append("  ")
            if not view.trick:
                head.append(t("screen.no_cards") + "  ", style="dim")
            for seat, card in view.trick:
                head.append(view.players[seat] + " ")
                head.append_text(card_text(card, self.lang))
                head.append("  ")
            if led is not None:
                head.append_text(led)
            head.rstrip()
            return Group(head)
        lines: list[Text] = [head]
        if led is not None:
            lines.append(led)
        if not view.trick:
            lines.append(Text(t("screen.no_cards"), style="dim"))
        for seat, card in view.trick:
            line = Text(f"{view.players[seat]:<8} ")
            line.append_text(card_text(card, self.lang))
            lines.append(line)
        return Group(*lines)

    def _last_text(self, view: View) -> Text:
        t = self.t
        if self.tricks.last_winner < 0:
            return Text("")
        text = Text(t("screen.last_trick", name=view.players[self.tricks.last_winner]) + " ",
                    style="dim")
        for i, (seat, card) in enumerate(self.tricks.last):
            won = seat == self.tricks.last_winner
            text.append(("" if i == 0 else ", ") + view.players[seat] + " ",
                        style="bold" if won else "dim")
            text.append(local_card_str(card, self.lang), style="bold" if won else "dim")
        return text

    def _status_text(self, view: View) -> Text:
        t = self.t
        if self.over and view.winner is not None:  # no stake, no trick: the session is over
            key = N_("screen.you_win") if view.winner == self.human else N_("screen.winner")
            text = Text(t(key, name=view.players[view.winner]), style="bold green")
            reason = session_winner_reason(t, view)
            if reason is not None:
                text.append("\n" + reason, style="green")
            text.append("\n" + t("screen.press_q"))
            return text
        parts = [t("screen.stake", stake=view.stake)]
        if 0 <= view.last_knocker < len(view.players):
            parts.append(t("screen.knocked_by", name=view.players[view.last_knocker]))
        if view.rules.exchange and view.phase in ("exchange", "exchange_challenge"):
            parts.append(t("screen.stock", n=view.stock_size))
        if view.rules.pot:  # pot toepen: the stakes put in so far
            amount = money(view.pot).render(t, ())
            parts.append(t("screen.pot", unit=view.rules.pot_unit, amount=amount))
        text = Text()
        # Answering a knock in a small window, the line of the stake gives its row to the
        # trick: the answer's costs name the new stake, the prompt names the knocker.
        if not (self.compact and self.awaiting_human and view.phase == "answer"
                and not view.rules.pot):
            text.append("  ·  ".join(parts), style="bold")
            text.append("\n")
        if self.awaiting_human:
            text.append(t("screen.your_turn") + " ", style="bold green")
            text.append(phase_text(t, view))
            if view.phase == "answer":
                # What the engine charges: a fold pays the stake this seat had accepted.
                text.append("\n" + t("screen.answer_costs", fold=view.accepted[self.human],
                                      stake=view.stake))
        elif self.thinking is not None:
            text.append(t("screen.thinking", name=view.players[self.thinking]), style="italic")
        return text

    def _hand_text(self, view: View) -> Text:
        hand = sorted(view.hand)
        if not hand:
            return Text(self.t("screen.no_hand"), style="dim")
        legal = set(int(a) for a in view.legal if a.is_play)
        playing = self.awaiting_human and view.phase == "play"
        if self.compact:  # one line: the key beside its card
            line = Text()
            for i, card in enumerate(hand):
                dim = playing and card not in legal
                line.append(f"[{CARD_KEYS[i]}]", style="dim" if dim else "bold")
                line.append_text(card_text(card, self.lang, dim=dim))
                line.append("  ")
            line.rstrip()
            return line
        keys = Text()
        faces = Text()
        for i, card in enumerate(hand):
            dim = playing and card not in legal
            keys.append(f"  [{CARD_KEYS[i]}]   ", style="dim" if dim else "bold")
            faces.append_text(card_text(card, self.lang, dim=dim))
            faces.append("  ")
        keys.append("\n")
        keys.append_text(faces)
        return keys

    def _keys_text(self, view: View) -> Text:
        """The key bar: each key with its label, never split over two lines (a line
        breaks between them, at the width of the window)."""
        t = self.t
        items: list[tuple[str, str]] = []
        if self.awaiting_human:
            plays = [a for a in view.legal if a.is_play]
            if plays:
                hand = sorted(view.hand)
                items.append((",".join(CARD_KEYS[hand.index(a.card)] for a in plays),
                              t("keys.play")))
            items.extend((self.key_for(act), action_label(t, act, view.phase))
                         for act in view.legal if not act.is_play)
        if not self.over:  # nothing is left to decide
            items.append(("?", t("keys.hint")))
        items.append(("r", t("keys.rules")))
        if self.over:
            items.append(("n", t("keys.rematch")))
        elif self.out and self.delay:
            items.append((t("keys.space"), t("keys.fast_forward")))
        items.append(("PgUp PgDn", t("keys.log")))
        items.append(("q", t("keys.quit")))
        texts = []
        for key, label in items:
            item = Text()
            item.append(f"[{key}] ", style="bold cyan")
            item.append(label)
            texts.append(item)
        return self._flow(texts, "   ")

    def _flow(self, items: Sequence[Text], gap: str) -> Text:
        """``items`` on lines as wide as the window (less a bar's padding), a line broken
        between two items, never inside one that fits a line."""
        width = max(1, self.size.width - 2)
        text = Text()
        line = 0
        for item in items:
            if line and line + len(gap) + item.cell_len > width:
                text.append("\n")
                line = 0
            elif line:
                text.append(gap)
                line += len(gap)
            text.append_text(item)
            line += item.cell_len
        return text


__all__ = ["PlayApp", "RulesScreen", "TrickTracker", "card_text"]
