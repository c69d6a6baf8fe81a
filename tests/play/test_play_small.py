"""``toepen play`` in a small window (issue 25, points 10, 11 and 16): at 60x20 and 80x24 the
key bar, the prompt, the hand and a few log lines stay on screen, a hand's summary and
the final standings get a screen of their own ("press a key"); at 120x36 the summary takes
the log's place. The log wraps at its own width, also for what was written while it was
hidden. Checked against the regions Textual gives the widgets on the screen."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from toepen.cards import SUIT_SYMBOLS, SUITS
from toepen.i18n import LANGUAGES, Translator
from toepen.tui.app import GameLog, PlayApp, SummaryScreen
from toepen.tui.session import PlaySession

from .driver import first_key, make_session, play_out, settle

pytestmark = pytest.mark.asyncio


def out_early(tmp_path: Path, lang: str = "en") -> PlaySession:
    """A game (lives 2, seed 3) played up to where the human, folding whenever offered,
    has just gone out in hand 2 while three bots play on (deterministic: played here,
    then handed to the app with its history). Few moves are left: an app on it paces the
    bots (0.25 s a move) so that the session is still on when the test looks, also on a
    loaded machine."""
    session = make_session(tmp_path, "rulebook", lives=2, bots="random", seed=3, lang=lang)
    while session.view().in_session[session.human]:
        seat, window = session.asked()
        if seat == session.human:
            legal = session.view().legal
            folds = [a for a in legal if str(a) == "fold"]
            session.apply(seat, folds[0] if folds else legal[0])
        else:
            session.answer(seat, window, session.ask_bot(seat, window))
    assert session.game.winner is None
    return session


def flat(text: str) -> str:
    return " ".join(text.split())


def on_screen(app: PlayApp, widget: Widget, what: str) -> Region:
    """The widget's region, asserted to lie inside the terminal with at least one row and
    to show all of its content (nothing cut below it)."""
    box = widget.region
    width, height = app.size
    assert box.height >= 1 and box.y >= 0 and box.bottom <= height and box.right <= width, (
        what, box, app.size)
    return box


def lines_of(widget: Static) -> int:
    """Rows the content of a Static needs at its width."""
    return widget.get_content_height(widget.size, widget.size, widget.content_size.width)


WIDGETS = ("title", "top", "status", "hand", "keys", "message", "log")


def keys_and_prompt_visible(app: PlayApp) -> None:
    for name in ("title", "status", "hand", "keys"):
        widget = app.query_one(f"#{name}", Static)
        box = on_screen(app, widget, name)
        assert lines_of(widget) <= box.height - (widget.outer_size.height - widget.size.height), (
            name, "cut")
    assert app.query_one("#title").region.y == 0, "the title bar scrolled away"


async def steady(pilot: Pilot[None], app: PlayApp) -> None:
    """Wait until the screen is laid out for what it shows (the players' table fitted to
    the rows the prompt leaves), as a person sees it a moment after a move."""
    last: tuple[object, ...] = ()
    for _ in range(100):
        await pilot.pause(0.01)
        now = (*(app.query_one(f"#{w}").region for w in WIDGETS),
               app.query_one("#top").styles.max_height)
        if now == last:
            return
        last = now


def summary_screen_fits(app: PlayApp) -> str:
    """The summary on its own screen: inside the terminal, not scrolled, its last line the
    'press a key'. Its plain text."""
    screen = app.screen
    assert isinstance(screen, SummaryScreen)
    box = screen.query_one("#summary-box")
    on_screen(app, box, "summary screen")
    assert box.max_scroll_y == 0, "the summary does not fit its screen"
    key = screen.query_one("#summary-key", Static)
    on_screen(app, key, "press a key")
    assert screen.press == app.t("screen.press_key")
    return flat(screen.text.plain)


@pytest.mark.parametrize(("size", "preset", "seed"), [
    ((60, 20), "kroegtoepen", 6), ((80, 24), "classic", 3), ((120, 36), "classic", 3)])
async def test_keys_prompt_log_summary_and_standings_fit_the_window(
    tmp_path: Path, size: tuple[int, int], preset: str, seed: int,
) -> None:
    options = {"rubbers": 1} if preset == "classic" else {}
    lives = 8 if preset == "kroegtoepen" else 6
    session = make_session(tmp_path, preset, lives=lives, bots="random", seed=seed, **options)
    app = PlayApp(session, delay=0.0, strict=True)
    t = app.t
    compact = size[1] < 30
    seen = {"answer": 0, "summary": 0}

    def check(app: PlayApp) -> None:
        keys_and_prompt_visible(app)
        view = app.session.view()
        log = app.query_one("#log", GameLog)
        if app.summary and not compact:  # the summary in the log's place, all of it
            panel = app.query_one("#summary", Static)
            box = on_screen(app, panel, "summary")
            assert lines_of(panel) <= box.height, "the summary is cut"
            seen["summary"] += 1
        else:
            assert log.display and log.scrollable_content_region.height >= 3, (
                "fewer than 3 log lines", log.region)
            on_screen(app, log, "log")
        if view.phase == "answer":
            costs = t("screen.answer_costs", fold=view.accepted[app.human], stake=view.stake)
            assert flat(costs) in flat(app.panel_text("status"))
            seen["answer"] += 1

    async with app.run_test(size=size) as pilot:
        summaries = 0
        while not app.over:
            await settle(pilot, app) if not compact else None
            # on a compact screen, stop at each summary screen and look at it
            while not (app.awaiting_human or app.over or app.summary_open):
                await pilot.pause(0.005)
            if app.summary_open and not app.over:
                text = summary_screen_fits(app)
                assert flat(app.summary_lines()[0]) in text
                before = len(app.session.game.actions)
                await pilot.pause(0.05)
                assert len(app.session.game.actions) == before, "the game went on under it"
                summaries += 1
                await pilot.press("enter")
                await pilot.pause()
                assert not app.summary_open
                continue
            if app.over:
                break
            await steady(pilot, app)
            check(app)
            keys = app.legal_keys()
            stake = app.session.view().stake
            key = ("s" if "s" in keys and stake <= 3 else "f" if "f" in keys
                   else first_key(app, [k for k in keys if k != "k"] or keys))
            await pilot.press(key)
        await steady(pilot, app)
        view = session.view()
        rows = [m.render(t, app.names) for m in app.summary if m.id.startswith("standings.row")]
        assert len(rows) == 4
        if compact:  # the final standings on their own screen, every row of them
            assert summaries >= 1, (summaries, view.hand_no, app._summaries)
            text = summary_screen_fits(app)
            assert flat(t("standings.title")) in text
            for row in rows:
                assert flat(row) in text
            await pilot.press("enter")
            await pilot.pause()
            assert not app.summary_open and app.over
        else:
            panel = app.query_one("#summary", Static)
            box = on_screen(app, panel, "standings")
            assert lines_of(panel) <= box.height, "the standings are cut"
            for row in rows:
                assert flat(row) in flat(app.panel_text("summary"))
            assert seen["summary"] >= 1
        keys_and_prompt_visible(app)
        assert "[n]" in app.panel_text("keys") and "[q]" in app.panel_text("keys")
        assert view.winner is not None
    assert seen["answer"] >= 1, "no knock was answered"


async def test_the_log_wraps_at_its_width_also_for_lines_written_while_hidden(
    tmp_path: Path,
) -> None:
    """Out early, fast-forward (space) to the end while the summaries cover the log; then
    every line of the log is wrapped at its width, and again after the window changes size."""
    session = out_early(tmp_path)
    app = PlayApp(session, delay=0.25, strict=True, history=session.history())

    def check_wrap(log: GameLog) -> None:
        width = log.scrollable_content_region.width
        drawn = [strip.text.rstrip() for strip in log.lines]
        assert drawn and max(len(line) for line in drawn) <= width
        short = [e.plain for e in log.entries if len(e.plain) <= width]
        assert len(short) > 10
        missing = [line for line in short if line not in drawn]
        assert not missing, f"wrapped narrower than the log's {width} columns: {missing[:3]}"
        assert any(len(line) > 30 for line in drawn)

    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert app.out, "the test needs the human out while the session goes on"
        await pilot.press("space")
        await settle(pilot, app, timeout=30)
        assert app.over and app.summary
        await pilot.press("end")  # the log takes its place back
        await pilot.pause()
        await pilot.pause()
        log = app.query_one("#log", GameLog)
        assert log.display
        check_wrap(log)
        await pilot.resize_terminal(70, 36)
        await pilot.pause()
        await pilot.pause()
        check_wrap(log)


async def test_a_refusal_leaves_the_message_line_with_its_trick(tmp_path: Path) -> None:
    session = out_early(tmp_path)
    app = PlayApp(session, delay=0.25, strict=True, history=session.history())
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert app.out, "the test needs the human out while the session goes on"
        hand = session.view().hand_no
        app.action_verb("k")  # the key k, at once (a bot's move may be due any moment)
        assert app.message and app.message in flat(app.panel_text("message"))
        refusal = app.message
        while session.view().hand_no == hand and not app.over:
            await pilot.pause(0.02)
        await pilot.pause()
        assert refusal not in app.panel_text("message"), "a stale refusal stayed"


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_after_the_session_no_trick_no_stake_and_n_is_offered(tmp_path: Path,
                                                                    lang: str) -> None:
    t = Translator(lang)
    quit_text = t("screen.press_q")
    assert re.search(r"(^|\W)n(\W|$)", quit_text) and re.search(r"(^|\W)q(\W|$)", quit_text)
    assert re.search(r"(^|\W)n(\W|$)", t("illegal.over"))
    if lang != "en":
        return
    session = make_session(tmp_path, "rulebook", lives=1, bots="random", seed=4)
    app = PlayApp(session, delay=0.0, strict=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await play_out(pilot, app)
        await pilot.pause()
        view = session.view()
        trick = flat(app.panel_text("trick"))
        assert t("screen.trick", n=4) not in trick and t("screen.no_cards") not in trick
        assert t("screen.session_over") in trick
        status = flat(app.panel_text("status"))
        assert t("screen.stake", stake=view.stake) not in status
        assert flat(quit_text) in status


async def test_the_suit_led_is_apart_from_no_cards_yet_on_a_narrow_table(
    tmp_path: Path,
) -> None:
    """The narrow table's one line: "noch keine Karten  Ausgespielte Farbe: ♥ Herz"."""
    import random

    session = make_session(tmp_path, "rulebook", lives=6, seed=27, lang="de")
    game = session.game
    rng = random.Random(27)
    found = False
    for _ in range(600):  # a seeded line of play to an empty trick with a suit led
        view = session.view()
        if (game.turn == session.human and view.phase == "play" and view.led_suit >= 0
                and not view.trick):
            found = True
            break
        if game.winner is not None:
            break
        seat = game.turn if game.turn >= 0 else game.to_act[0]
        game.apply(seat, rng.choice(game.legal(seat)))
    assert found
    app = PlayApp(session, lang="de", delay=0.0, strict=True, history=session.history())
    t = app.t
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.narrow
        suit = f"{SUIT_SYMBOLS[view.led_suit]} {t(f'suit.{SUITS[view.led_suit]}')}"
        trick = app.panel_text("trick")
        assert t("screen.no_cards") + " " in trick
        assert " " + t("screen.led_suit", suit=suit) in trick


async def test_the_fast_forward_key_is_named_in_the_language(tmp_path: Path) -> None:
    session = out_early(tmp_path, "nl")
    app = PlayApp(session, lang="nl", delay=0.25, strict=True, history=session.history())
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert app.out
        keys_text = app.panel_text("keys")
        assert "[spatie]" in keys_text and "[space]" not in keys_text, keys_text
        await pilot.press("space")
        assert app.delay == 0.0
