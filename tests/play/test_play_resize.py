"""``toepen play`` at 60x20, 80x24 and 120x36 (issue 38, points 13-17 and 20): the window
resized in every phase (a hand's summary on its own screen among them) is laid out for
its new size; the log follows its newest line (a hint, a resize, a resumed game); the
rules scroll; at 60x20 no name, heading, status or key is cut or split, and the trick and
the knocker's row are on screen while a knock is answered; the end of a rubber is in the
hand's summary with who shared it; no stale fact (an earlier hand's last trick, an old
summary on ``--resume``, a hint offered once the session is over)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from toepen.i18n import LANGUAGES
from toepen.narration import name_list
from toepen.tui.app import GameLog, PlayApp
from toepen.tui.session import PlaySession

from .driver import first_key, make_session, play_out, settle
from .test_play_small import flat, keys_and_prompt_visible, lines_of, on_screen, steady

pytestmark = pytest.mark.asyncio

SIZES = ((60, 20), (80, 24), (120, 36))


def game_screen_classes(app: PlayApp) -> set[str]:
    return set(app.screen_stack[0].classes)


def shown(widget: Static) -> list[str]:
    """The lines a Static shows at its own width (as the terminal draws them)."""
    out = Console(width=max(1, widget.content_size.width), color_system=None,
                  legacy_windows=False, file=None, record=True)
    with out.capture() as capture:
        out.print(widget.content)
    return capture.get().rstrip("\n").split("\n")


def log_at_newest(app: PlayApp) -> None:
    log = app.query_one("#log", GameLog)
    if log.display:
        assert log.scroll_y == log.max_scroll_y, (
            "the log's newest line is out of sight", log.scroll_y, log.max_scroll_y)


def laid_out_for(app: PlayApp, size: tuple[int, int]) -> None:
    """The game's screen is laid out for ``size``: compact below 30 rows (the hand on one
    line, no frame), framed above; the prompt and the keys on screen; the log (or the
    summary in its place) below them, the log at its newest line."""
    width, height = size
    assert tuple(app.size) == size
    assert ("compact" in game_screen_classes(app)) == (height < PlayApp.COMPACT)
    assert app.compact == (height < PlayApp.COMPACT)
    keys_and_prompt_visible(app)
    hand = app.query_one("#hand", Static)
    frame = 0 if app.compact else 2
    if app.session.view().hand:
        assert hand.region.height == (1 if app.compact else 2) + frame, (
            "the hand is not drawn for this size", hand.region)
    summary = app.query_one("#summary", Static)
    log = app.query_one("#log", GameLog)
    if summary.display:
        box = on_screen(app, summary, "summary")
        assert lines_of(summary) <= box.height, "the summary is cut"
    else:
        on_screen(app, log, "log")
        assert log.scrollable_content_region.height >= PlayApp.LOG_ROWS
        log_at_newest(app)


async def wait_turn_or_summary(pilot: Pilot[None], app: PlayApp) -> None:
    for _ in range(4000):
        if app.awaiting_human or app.over or app.summary_open:
            break
        await pilot.pause(0.005)
    await pilot.pause()


async def test_a_resize_during_a_hand_summary_lays_the_game_out_for_the_new_size(
    tmp_path: Path,
) -> None:
    """Point 13: the summary on its own screen at 60x20, the window made 120x36: the
    summary goes beside the table and the game is framed again; made small again, the
    game is compact again."""
    session = make_session(tmp_path, "classic", lives=6, seed=3, rubbers=1)
    app = PlayApp(session, delay=0.0, strict=True)
    async with app.run_test(size=(60, 20)) as pilot:
        while not app.summary_open:
            await wait_turn_or_summary(pilot, app)
            assert not app.over, "no hand summary before the end"
            if app.awaiting_human and not app.summary_open:
                await pilot.press(first_key(app, app.legal_keys()))
        summary = app.summary_lines()
        await pilot.resize_terminal(120, 36)
        await pilot.pause()
        if app.summary_open:  # what a player would do: read it, press a key
            await pilot.press("enter")
        await wait_turn_or_summary(pilot, app)
        await steady(pilot, app)
        assert not app.summary_open
        laid_out_for(app, (120, 36))
        if app.summary:  # until the next trick, beside the table
            assert app.summary_lines() == summary
            assert app.query_one("#summary", Static).display
        await pilot.resize_terminal(60, 20)
        await steady(pilot, app)
        await wait_turn_or_summary(pilot, app)
        if app.summary_open:
            await pilot.press("enter")
            await wait_turn_or_summary(pilot, app)
        await steady(pilot, app)
        laid_out_for(app, (60, 20))


async def test_resized_in_every_phase_the_game_fits_each_size(tmp_path: Path) -> None:
    """A whole session, the window changed at every turn of the human and at every hand
    summary, in turn to each of 60x20, 80x24 and 120x36."""
    session = make_session(tmp_path, "classic", lives=8, seed=3, rubbers=1)
    app = PlayApp(session, delay=0.0, strict=True)
    phases: set[str] = set()
    turn = 0
    async with app.run_test(size=SIZES[0]) as pilot:
        while not app.over:
            await wait_turn_or_summary(pilot, app)
            if app.over:
                break
            size = SIZES[turn % len(SIZES)]
            turn += 1
            phases.add(str(app.session.view().phase))
            if app.summary_open or app.summary:
                phases.add("summary")
            await pilot.resize_terminal(*size)
            await steady(pilot, app)
            if app.summary_open:
                await pilot.press("enter")
                await wait_turn_or_summary(pilot, app)
                await steady(pilot, app)
            if app.over:
                break
            if not app.summary_open and app.awaiting_human:
                laid_out_for(app, size)
                await pilot.press(first_key(app, app.legal_keys()))
        await steady(pilot, app)
        for size in SIZES:
            await pilot.resize_terminal(*size)
            await steady(pilot, app)
            if app.summary_open:
                await pilot.press("enter")
                await steady(pilot, app)
            laid_out_for(app, size)
    assert {"summary", "play", "answer"} <= phases, (phases, app._summaries, turn)


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
async def test_the_log_keeps_its_newest_line_in_sight_when_a_hint_appears(
    tmp_path: Path, size: tuple[int, int],
) -> None:
    """Point 15: a hint takes rows from the log; the log's newest line stays in sight."""
    session = make_session(tmp_path, "rulebook", lives=6, seed=5, lang="nb")
    app = PlayApp(session, lang="nb", delay=0.0, strict=True)
    hints = 0
    async with app.run_test(size=size) as pilot:
        while hints < 3 and not app.over:
            await settle(pilot, app)
            if app.over:
                break
            await steady(pilot, app)
            log_at_newest(app)
            await pilot.press("question_mark")
            for _ in range(2000):  # the review's valuation runs in a thread
                if app.hint_reason is not None:
                    break
                await pilot.pause(0.01)
            assert app.hint_reason is not None, app.message
            app.hint_reason = None
            await steady(pilot, app)
            assert app.query_one("#message", Static).region.height >= 1
            log_at_newest(app)
            hints += 1
            await pilot.press(first_key(app, app.legal_keys()))
    assert hints == 3


def mid_hand(tmp_path: Path) -> PlaySession:
    """A game saved in a later hand, after its deal and before any trick was taken (the
    hand before's summary would be on screen still, in a game that was never left)."""
    session = make_session(tmp_path, "rulebook", lives=6, bots="random", seed=3)
    while True:
        view = session.view()
        seat, window = session.asked()
        if view.hand_no >= 2 and view.trick_no == 0 and seat == session.human:
            return session
        assert session.game.winner is None, "no such moment"
        if seat == session.human:  # never knocks, stays
            legal = [a for a in view.legal if str(a) != "knock"]
            stays = [a for a in legal if str(a) == "stay"]
            session.apply(seat, stays[0] if stays else legal[0])
        else:
            session.answer(seat, window, session.ask_bot(seat, window))


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_resumed_mid_hand_the_game_shows_the_hand_and_the_newest_log_line(
    tmp_path: Path, size: tuple[int, int],
) -> None:
    """Points 15 and 20: ``--resume`` in the middle of a hand shows no summary of the hand
    before (nor a screen of it), and the log is at its newest line."""
    session = mid_hand(tmp_path)
    resumed = PlaySession.resume(session.path) if session.path else session
    app = PlayApp(resumed, delay=0.0, strict=True, history=resumed.history())
    async with app.run_test(size=size) as pilot:
        await wait_turn_or_summary(pilot, app)
        await steady(pilot, app)
        assert not app.summary_open and not app.summary, app.summary_lines()
        assert app.t("summary.title", hand=1) in app.log_lines  # the log still has it
        assert app.query_one("#log", GameLog).display
        laid_out_for(app, size)


@pytest.mark.parametrize(("size", "preset"), [((60, 20), "classic"),
                                              ((80, 24), "kroeg-huisregels")])
async def test_the_rules_scroll_to_their_last_line(tmp_path: Path, size: tuple[int, int],
                                                   preset: str) -> None:
    """Point 16: the rules are taller than these windows; they stay inside and scroll."""
    session = make_session(tmp_path, preset, lives=6, seed=2)
    app = PlayApp(session, delay=0.0, strict=True)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await pilot.pause()
        box = app.screen.query_one("#rules")
        on_screen(app, box, "rules")
        assert box.max_scroll_y > 0, "the rules fit: the test needs them taller"
        text = app.screen.query_one("#rules-text", Static)
        assert lines_of(text) + 2 <= box.scrollable_content_region.height + box.max_scroll_y
        await pilot.press("end")
        await pilot.pause()
        assert box.scroll_y == box.max_scroll_y
        await pilot.press("home")
        await pilot.pause()
        assert box.scroll_y == 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert box.scroll_y > 0
        await pilot.press("escape")
        await pilot.pause()
        assert len(app.screen_stack) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_at_60x20_nothing_is_cut_and_a_knock_is_answered_in_sight(
    tmp_path: Path, lang: str,
) -> None:
    """Point 17: the players' table shows every name with its mark on one line, no
    heading or status cut short; the title bar and the key bar never split a part or a
    key; while a knock is answered the trick and the knocker's row are on screen."""
    session = make_session(tmp_path, "classic", lives=6, seed=3, rubbers=1, lang=lang)
    app = PlayApp(session, lang=lang, delay=0.0, strict=True)
    t = app.t
    answers = 0

    def check(app: PlayApp) -> None:
        nonlocal answers
        view = app.session.view()
        players = app.query_one("#players", Static)
        rows = shown(players)
        text = "\n".join(rows)
        assert "…" not in text, text
        for seat, name in enumerate(view.players):
            mark = t("screen.you") if seat == app.human else "🤖"
            assert any(f"{name} {mark}" in row for row in rows), (name, text)
        for heading in ("col.lives", "col.cards", "col.stake", "col.rubbers",
                        "col.drinks", "col.status"):
            for word in t(heading).split():
                assert re.search(rf"(^|\s){re.escape(word)}(\s|$)", text), (word, text)
        for row in shown(app.query_one("#keys", Static)):
            assert row.count("[") == row.count("]"), ("a key split", row)
        title = shown(app.query_one("#title", Static))
        parts = [p for row in title for p in row.split("  ·  ")]
        assert {p.strip() for p in parts} >= {t("screen.rubber", n=view.rubber_no)}, title
        keys_and_prompt_visible(app)
        if view.phase == "answer":
            answers += 1
            top = app.query_one("#top").region
            trick = app.query_one("#trick", Static).region
            assert trick.height >= 1 and top.contains_region(trick), (trick, top)
            knocker = view.players[view.last_knocker]
            row = next(i for i, r in enumerate(rows) if f" {knocker} " in f" {r} ")
            assert players.region.y + row < top.bottom, "the knocker's row is cut"
            assert t("status.knocked") in rows[row]

    async with app.run_test(size=(60, 20)) as pilot:
        while not app.over:
            await settle(pilot, app)
            if app.over:
                break
            await steady(pilot, app)
            check(app)
            keys = app.legal_keys()
            await pilot.press("s" if "s" in keys else first_key(app, keys))
    assert answers >= 1


async def test_the_end_of_a_rubber_is_in_the_hand_summary(tmp_path: Path) -> None:
    """Point 14: at 120x36 the summary that takes the log's place says that the rubber
    is over and who shared it, who owes a round, and that every life is back."""
    session = make_session(tmp_path, "classic", lives=3, seed=10, rubbers=2)
    app = PlayApp(session, delay=0.0, strict=True)
    t = app.t
    seen: list[str] = []

    def check(app: PlayApp) -> None:
        view = app.session.view()
        if view.rubber_no != 2 or seen or not app.summary:
            return
        panel = app.query_one("#summary", Static)
        assert panel.display
        box = on_screen(app, panel, "summary")
        assert lines_of(panel) <= box.height, "the summary is cut"
        text = flat(app.panel_text("summary"))
        sharers = [view.players[s] for s in range(4) if view.rubbers_won[s] == 1]
        assert len(sharers) > 1, "the test needs a shared rubber"
        shared = t("log.rubber_shared_by", n=1, names=name_list(sharers, "en"))
        assert shared in text
        assert shared in app.log_lines
        for seat in range(4):
            if view.drinks[seat]:
                line = (t("log.you.drinks", n=1) if seat == app.human
                        else t("log.drinks", name=view.players[seat], n=1))
                assert line in text
        assert t("summary.rubber_next", rubber=2, lives=3) in text
        seen.append(text)

    async with app.run_test(size=(120, 36)) as pilot:
        await play_out(pilot, app, on_turn=check)
    assert seen


async def test_no_stale_last_trick_and_no_hint_after_the_end(tmp_path: Path) -> None:
    """Point 20: the last trick shown is one of the hand in play (none before its first
    trick is taken); once the session is over no hint is offered."""
    session = make_session(tmp_path, "rulebook", lives=2, seed=4)
    app = PlayApp(session, delay=0.0, strict=True)
    firsts = 0

    def check(app: PlayApp) -> None:
        nonlocal firsts
        view = app.session.view()
        if view.trick_no == 0 and view.hand_no > 1:
            assert not flat(app.panel_text("last")), app.panel_text("last")
            firsts += 1
        assert "[?]" in app.panel_text("keys")

    async with app.run_test(size=(120, 36)) as pilot:
        await play_out(pilot, app, on_turn=check)
        await pilot.pause()
        assert app.over
        assert "[?]" not in app.panel_text("keys")
        assert app.t("keys.hint") not in app.panel_text("keys")
    assert firsts >= 1


async def test_a_resize_under_the_rules_lays_the_game_out_for_the_new_size(
    tmp_path: Path,
) -> None:
    """Point 13, any screen over the game: the rules open at 60x20, the window made
    120x36 and back; closed, the game is laid out for the size it has."""
    session = make_session(tmp_path, "classic", lives=6, seed=3, rubbers=1)
    app = PlayApp(session, delay=0.0, strict=True)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot, app)
        for size in ((120, 36), (60, 20), (120, 36)):
            await pilot.press("r")
            await pilot.pause()
            assert len(app.screen_stack) == 2
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.press("r")
            await steady(pilot, app)
            assert len(app.screen_stack) == 1
            laid_out_for(app, size)
