"""The table of ``toepen play`` as a person follows it (issue 13): the suit led, the prompt,
the last trick, the armoede marks, the second person, the hand summary and the standings."""

from __future__ import annotations

from pathlib import Path

import pytest

from toepen.cards import SUIT_SYMBOLS, SUITS, local_card_str
from toepen.engine import CLAIM, KNOCK
from toepen.narration import Message, Seat
from toepen.tui.app import PlayApp

from .driver import first_key, make_session, play_out, settle

SIZE = (120, 42)
pytestmark = pytest.mark.asyncio


def flat(text: str) -> str:
    return " ".join(text.split())


def seat_of(m: Message, default: int = -1) -> int:
    name = m.params.get("name")
    return name.seat if isinstance(name, Seat) else default


@pytest.mark.parametrize("lang", ["en", "nl"])
async def test_the_prompt_offers_knocking_only_when_it_is_legal(tmp_path: Path,
                                                                lang: str) -> None:
    session = make_session(tmp_path, "rulebook", lives=3, seed=12, lang=lang)
    app = PlayApp(session, lang=lang, delay=0.0, strict=True)
    t = app.t
    seen: set[bool] = set()

    def check(app: PlayApp) -> None:
        view = app.session.view()
        if view.phase != "play":
            return
        status = flat(app.panel_text("status"))
        may_knock = KNOCK in view.legal
        seen.add(may_knock)
        if may_knock:
            assert flat(t("phase.play")) in status
        else:
            assert flat(t("phase.play.card")) in status
            assert flat(t("phase.play")) not in status
            assert t("act.knock") not in app.panel_text("keys")

    async with app.run_test(size=SIZE) as pilot:
        await play_out(pilot, app, on_turn=check)
        await pilot.press("q")
    assert seen == {True, False}


async def test_the_suit_led_is_always_shown_and_the_last_trick_names_its_players(
    tmp_path: Path,
) -> None:
    session = make_session(tmp_path, "rulebook", lives=10, seed=5, lang="de")
    app = PlayApp(session, lang="de", delay=0.0, strict=True)
    t = app.t
    counts = {"led": 0, "last": 0}

    def check(app: PlayApp) -> None:
        view = app.session.view()
        trick = flat(app.panel_text("trick"))
        if view.phase in ("play", "answer") and view.led_suit >= 0:
            suit = f"{SUIT_SYMBOLS[view.led_suit]} {t(f'suit.{SUITS[view.led_suit]}')}"
            assert flat(t("screen.led_suit", suit=suit)) in trick
            counts["led"] += 1
        elif view.phase == "play":
            assert t("screen.led_suit", suit="").strip() not in trick
        if app.tricks.last_winner >= 0:
            last = flat(app.panel_text("last"))
            assert len(app.tricks.last) >= 1
            for seat, card in app.tricks.last:
                assert f"{view.players[seat]} {local_card_str(card, 'de')}" in last, last
            counts["last"] += 1

    async with app.run_test(size=SIZE) as pilot:
        await play_out(pilot, app, on_turn=check)
        await pilot.press("q")
    assert counts["led"] > 5 and counts["last"] > 5, counts


async def test_the_suit_led_stays_when_the_leader_folds(tmp_path: Path) -> None:
    import random

    session = make_session(tmp_path, "rulebook", lives=6, seed=22, lang="nl")
    game = session.game
    rng = random.Random(22)
    for _ in range(22):  # a seeded line of play where the leader folds after leading
        game.apply(game.turn, rng.choice(game.legal(game.turn)))
    view = session.view()
    assert game.turn == session.human
    assert view.phase == "play" and view.led_suit >= 0
    assert not any(c >> 3 == view.led_suit for _, c in view.trick), "the led card is still there"
    app = PlayApp(session, lang="nl", delay=0.0, strict=True, history=session.history())
    t = app.t
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        suit = f"{SUIT_SYMBOLS[view.led_suit]} {t(f'suit.{SUITS[view.led_suit]}')}"
        assert flat(t("screen.led_suit", suit=suit)) in flat(app.panel_text("trick"))
        await pilot.press("q")


async def test_a_claimed_armoede_mark_leaves_with_the_redeal(tmp_path: Path) -> None:
    session = make_session(tmp_path, "rulebook", lives=9, seed=15, lang="en")
    app = PlayApp(session, lang="en", delay=0.0, strict=True)
    t = app.t
    stood = (t("log.you.claim.genuine"), t("log.you.claim.unchallenged"))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):
            await settle(pilot, app)
            assert not app.over
            view = session.view()
            if any(line in stood for line in app.log_lines) and view.phase == "play":
                break
            if CLAIM in view.legal:
                await pilot.press("a")
                await settle(pilot, app)
                if not app.over and session.view().phase == "play":
                    # The bluff was called: the claim still belongs to this deal.
                    assert t("status.claimed") in app.panel_text("players")
                continue
            keys = app.legal_keys()
            await pilot.press("s" if "s" in keys else first_key(app, keys))
        else:
            raise AssertionError("no armoede claim stood")
        # The claim stood and brought a new deal: the mark went with the old cards.
        assert t("status.claimed") not in app.panel_text("players")
        await pilot.press("q")


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it", "nb"])
async def test_your_own_actions_are_told_in_the_second_person(tmp_path: Path,
                                                              lang: str) -> None:
    session = make_session(tmp_path, "rulebook", lives=4, seed=9, lang=lang)
    app = PlayApp(session, lang=lang, delay=0.0, strict=True)
    t = app.t
    async with app.run_test(size=SIZE) as pilot:
        await play_out(pilot, app, max_presses=12)
        await pilot.press("q")
    mine = [act for seat, act in session.game.actions if seat == app.human and act.is_play]
    assert mine
    for act in mine:
        card = local_card_str(act.card, lang)
        assert t("log.you.play", card=card) in app.log_lines
        assert t("log.play", name="Ann", card=card) not in app.log_lines
    # Nothing about the human says "Ann" in the third person where a "you" form exists.
    assert t("log.you.play", card="X") != t("log.play", name="Ann", card="X")
    # (the final standings are a table of every player's name, Ann's too, when it ends)
    table = {m.render(t, session.game.players) for m in app.summary
             if m.id.startswith("standings.row")}
    assert not [line for line in app.log_lines if "Ann" in line and line not in table], \
        app.log_lines


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_a_summary_between_hands_and_the_final_standings(tmp_path: Path,
                                                               lang: str) -> None:
    session = make_session(tmp_path, "rulebook", players=4, lives=3, seed=16, lang=lang)
    app = PlayApp(session, lang=lang, delay=0.0, strict=True)
    t = app.t
    lives = session.game.rules.lives
    shown: list[int] = []
    paid = [0] * 4

    def check(app: PlayApp) -> None:
        view = app.session.view()
        if not app.summary or (shown and shown[-1] == view.hand_no):
            return
        shown.append(view.hand_no)
        text = flat(app.panel_text("summary"))
        assert flat(t("summary.title", hand=view.hand_no - 1)) in text
        dealer = (t("summary.you.next_dealer") if view.dealer == app.human
                  else t("summary.next_dealer", name=view.players[view.dealer]))
        assert flat(dealer) in text
        for m in app.summary:
            if m.id in ("summary.paid", "summary.you.paid"):
                seat = seat_of(m, app.human)
                n = m.params["n"]
                assert isinstance(n, int)
                paid[seat] += n
        for seat in range(4):  # every life lost so far was in a summary (none after)
            assert paid[seat] == lives - view.lives[seat], (seat, paid, view.lives)

    async with app.run_test(size=SIZE) as pilot:
        await play_out(pilot, app, on_turn=check)
        await pilot.pause()
        assert len(shown) >= 2, shown
        view = session.view()
        winner = view.winner
        assert winner is not None
        text = app.panel_text("summary")
        assert t("standings.title") in text
        rows = [m for m in app.summary if m.id.startswith("standings.row")]
        assert seat_of(rows[0]) == winner and rows[0].id == "standings.row"
        assert sorted(seat_of(m) for m in rows) == [0, 1, 2, 3]
        assert [m.params["place"] for m in rows] == [1, 2, 3, 4]
        # the engine's finishing order, each line with what decided it: the winner's
        # lives, the others the hand they went out in (the last out first)
        assert [seat_of(m) for m in rows] == [p.seat for p in view.places]
        assert rows[0].params["figures"] == Message("standings.fig.winner",
                                                    {"lives": view.lives[winner]})
        hands = []
        for m in rows[1:]:
            figures = m.params["figures"]
            assert isinstance(figures, Message) and figures.id == "standings.fig.out"
            hands.append(figures.params["hand"])
        assert hands == sorted(hands, reverse=True) and hands[0] <= view.hand_no
        for m in rows:
            assert flat(m.render(t, view.players)) in flat(text)
            assert flat(m.render(t, view.players)) in [flat(x) for x in app.log_lines]
        await pilot.press("q")


@pytest.mark.parametrize("size", [(100, 30)])  # smaller: its own screen (test_play_small)
async def test_the_hand_summary_is_on_screen_in_a_small_terminal(
    tmp_path: Path, size: tuple[int, int],
) -> None:
    from textual.widgets import Static

    session = make_session(tmp_path, "rulebook", lives=3, seed=14, lang="en")
    app = PlayApp(session, lang="en", delay=0.0, strict=True)
    seen: list[int] = []

    def check(app: PlayApp) -> None:
        if app.summary:
            region = app.query_one("#summary", Static).region
            assert region.height >= 2 and region.y + region.height <= size[1], region
            for panel in ("#hand", "#keys", "#status"):  # and the game stays playable
                box = app.query_one(panel, Static).region
                assert box.height >= 1 and box.y + box.height <= size[1], (panel, box)
            seen.append(region.height)

    async with app.run_test(size=size) as pilot:
        await play_out(pilot, app, on_turn=check)
        await pilot.press("q")
    assert seen


@pytest.mark.parametrize(("lang", "seed"), [("it", 1), ("en", 3), ("nl", 1)])
async def test_a_session_that_ends_on_a_fold_ends_with_its_summary_and_standings(
    tmp_path: Path, lang: str, seed: int,
) -> None:
    """Issue 22, point 6: the last hand ends on a fold (a ``folded`` hand result, issue
    38), and the screen
    and the log still give its summary and the final standings; the log tells each
    hand's result and each player out once (the summary does not repeat them)."""
    from collections import Counter

    from toepen.engine import EventKind
    from toepen.tui.narrate import narrate

    session = make_session(tmp_path, "rulebook", lives=2, seed=seed, lang=lang)
    app = PlayApp(session, lang=lang, delay=0.0, strict=True)
    t = app.t
    async with app.run_test(size=SIZE) as pilot:
        await play_out(pilot, app)
        await pilot.pause()
        events = app._events
        last_deal = max(i for i, e in enumerate(events) if e.kind is EventKind.DEAL)
        last_hand = events[last_deal:]
        assert any(e.kind is EventKind.FOLD for e in last_hand)
        result = [e.detail for e in last_hand if e.kind is EventKind.HAND_RESULT]
        assert result == ["folded"], "not a fold end"
        view = session.view()
        ids = [m.id for m in app.summary]
        assert ids[0] == "summary.title" and app.summary[0].params["hand"] == view.hand_no
        assert "standings.title" in ids
        paid = [m for m in app.summary if m.id in ("summary.paid", "summary.you.paid")]
        assert paid, ids  # the folds of the last hand were paid
        rows = [m for m in app.summary if m.id.startswith("standings.row")]
        assert sorted(seat_of(m) for m in rows) == [0, 1, 2, 3]
        shown = flat(app.panel_text("summary"))
        for m in app.summary:  # on screen, and in the log
            assert flat(m.render(t, view.players)) in shown
            assert m.render(t, view.players) in app.log_lines
        told = Counter(line for e in events if e.kind in (EventKind.HAND_RESULT,
                                                         EventKind.ELIMINATED)
                       and (line := narrate(t, e, app.names, app.human)) is not None)
        in_log = Counter(line for line in app.log_lines if line in told)
        assert in_log == told
        await pilot.press("q")


async def test_the_bots_are_marked_in_the_seat_list(tmp_path: Path) -> None:
    """A bot's seat carries the mark beside its name (a person may have any name a bot
    might); the human's seat does not."""
    from toepen.tui.app import BOT_MARK

    session = make_session(tmp_path, "rulebook", players=3, lives=2, seed=3)
    app = PlayApp(session, lang="en", delay=0.0, strict=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        rows = app.panel_text("players").splitlines()
        names = app.session.view().players
        for seat, name in enumerate(names):
            row = next(r for r in rows if f" {name} " in f" {r} ")
            assert (BOT_MARK in row) == (seat != app.human), (seat, row)
        await pilot.press("q")
