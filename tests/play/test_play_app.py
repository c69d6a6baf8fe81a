"""``toepen play`` driven headless through key presses (Textual's pilot)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from toepen.cards import SUIT_MASKS, SUITS, cards_of, local_card_str, mask_of
from toepen.engine import KNOCK, Action, Phase
from toepen.i18n import Translator
from toepen.record import load, replay
from toepen.tui.app import PlayApp, RulesScreen
from toepen.tui.session import PlaySession

from .driver import first_key, make_session, play_out, settle

SIZE = (120, 42)
pytestmark = pytest.mark.asyncio


def hidden_cards_shown(app: PlayApp) -> list[str]:
    """Cards a bot holds (and nobody was shown) that appear on the human's screen.

    Checks the panels of the hand in progress and the log since its (re)deal.
    """
    game = app.session.game
    view = app.session.view()
    t = app.t
    revealed = mask_of(c for _, cards, _ in view.revealed for c in cards)
    hidden = 0
    for seat in range(game.n):
        if seat != app.human:
            hidden |= game.hand_mask(seat)
    hidden &= ~revealed
    texts = [app.panel_text(p) for p in ("players", "trick", "status", "hand", "keys",
                                         "message")]
    if view.trick_no > 0:
        texts.append(app.panel_text("last"))
    starts = {t("log.deal", hand=view.hand_no, name=view.players[view.dealer]),
              t("log.redeal", name=view.players[view.dealer]),
              t("log.you.deal", hand=view.hand_no), t("log.you.redeal")}
    since = max((i for i, line in enumerate(app.log_lines) if line in starts), default=0)
    texts.extend(app.log_lines[since:])
    text = "\n".join(texts)
    return [local_card_str(c, app.lang) for c in cards_of(hidden)
            if local_card_str(c, app.lang) in text]


@pytest.mark.parametrize(
    ("preset", "lang", "bots", "players", "options"),
    [
        ("rulebook", "nl", "random", 4, {}),
        ("classic", "de", "heuristic", 4, {"rubbers": 1}),
        ("teams", "it", "random", 4, {}),
        ("kroegtoepen", "nb", "heuristic", 3, {}),
        ("gezinstoepen", "en", "random", 3, {}),
    ],
)
async def test_whole_session_through_keys(
    tmp_path: Path, preset: str, lang: str, bots: str, players: int,
    options: dict[str, object],
) -> None:
    session = make_session(tmp_path, preset, players=players, bots=bots, seed=11, lang=lang,
                           **options)
    app = PlayApp(session, lang=lang, delay=0.0, strict=True)
    leaks: list[str] = []

    def check(app: PlayApp) -> None:
        leaks.extend(hidden_cards_shown(app))
        # The hand panel shows exactly the human's cards, localised.
        hand_text = app.panel_text("hand")
        for card in app.session.view().hand:
            assert local_card_str(card, lang) in hand_text

    async with app.run_test(size=SIZE) as pilot:
        presses = await play_out(pilot, app, on_turn=check)
        assert app.over
        game = session.game
        assert game.winner is not None
        t = Translator(lang)
        # The human's own win is told in the second person ("You win the session!").
        won = (t("log.you.session_result") if game.winner == app.human
               else t("log.session_result", name=game.players[game.winner]))
        assert won in app.log_lines
        status = app.panel_text("status")
        assert game.players[game.winner] in status or t("screen.you_win") in status
        players_text = app.panel_text("players")
        if game.rules.session == "rubber":
            assert t("col.drinks") in players_text
        if game.rules.beer_tally:
            assert t("col.beers") in players_text
        if game.rules.teams:
            assert t("col.team") in players_text
        await pilot.press("q")
    assert presses > 0
    assert not leaks, f"hidden cards on screen: {leaks}"
    # Saved as it went: the file replays to the very same game.
    record = load(session.path)
    assert record["seed"] == 11
    assert record["meta"]["human"] == 0 and record["meta"]["bots"][1:] == [bots] * (players - 1)
    again = replay(record)
    assert again.actions == game.actions and again.winner == game.winner


async def test_illegal_keys_are_refused_with_a_reason(tmp_path: Path) -> None:
    session = make_session(tmp_path, "rulebook", lives=6, seed=9, lang="de")
    app = PlayApp(session, lang="de", delay=0.0, strict=True)
    t = app.t
    seen: set[str] = set()

    async def refuse(key: str, expected: str | None) -> None:
        before = list(session.game.actions)
        app.message = ""
        await pilot.press(key)
        assert session.game.actions == before, "a refused key changed the game"
        assert app.awaiting_human
        assert app.message, f"key {key!r} did nothing visible"
        if expected is not None:
            assert app.message == expected
        assert app.message in app.panel_text("message").replace("\n", " ") or len(
            app.message) > 100

    async with app.run_test(size=SIZE) as pilot:
        while not app.over and len(seen) < 4:
            await settle(pilot, app)
            if app.over:
                break
            view = session.view()
            hand = sorted(view.hand)
            if "no_card" not in seen and len(hand) < 8:
                await refuse(str(len(hand) + 1), t("illegal.no_card", key=len(hand) + 1,
                                                  n=len(hand)))
                seen.add("no_card")
            if view.phase == "claim" and "phase" not in seen:
                label = t("act.stay")
                await refuse("s", t("refusal.not_now", action=label,
                                    phase=t("phase.claim")))
                seen.add("phase")
            if view.phase == "play" and view.trick:
                led = SUIT_MASKS[view.led_suit]
                off = [i for i, c in enumerate(hand) if not led >> c & 1]
                if off and mask_of(hand) & led:
                    await refuse(str(off[0] + 1),
                                 t("refusal.must_follow_suit",
                                   suit=t(f"suit.{SUITS[view.led_suit]}")))
                    seen.add("follow")
            if view.phase in ("play", "answer") and KNOCK not in view.legal:
                expected = (t("refusal.knock_own_latest") if view.last_knocker == app.human
                            else None)
                await refuse("k", expected)
                seen.add("knock")
            keys = app.legal_keys()
            # Stay in the hand (never fold) so that the situations above come up.
            key = "s" if "s" in keys else first_key(app, [k for k in keys if k != "f"] or keys)
            await pilot.press(key)
        await pilot.press("q")
    assert {"no_card", "phase", "follow"} <= seen, seen


async def test_resume_after_ctrl_c_continues_the_identical_game(tmp_path: Path) -> None:
    # The uninterrupted game.
    whole = make_session(tmp_path / "a", "rulebook", lives=2, bots="heuristic", seed=21)
    app = PlayApp(whole, delay=0.0, strict=True)
    async with app.run_test(size=SIZE) as pilot:
        await play_out(pilot, app)
        await pilot.press("q")
    assert whole.game.winner is not None
    full = [*whole.game.actions]

    # The same game, stopped by Ctrl-C after a few of the human's moves.
    part = make_session(tmp_path / "b", "rulebook", lives=2, bots="heuristic", seed=21)
    app = PlayApp(part, delay=0.0, strict=True)
    async with app.run_test(size=SIZE) as pilot:
        await play_out(pilot, app, max_presses=5)
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert not app.is_running
    assert part.path is not None and part.path.exists()
    saved = load(part.path)
    stopped_at = len(saved["actions"])
    assert 5 < stopped_at < len(full)
    assert replay(saved).actions == full[:stopped_at]

    # Resumed from the file: same seat, same bots, same seeds; the same decisions follow.
    resumed = PlaySession.resume(part.path)
    assert resumed.game.actions == full[:stopped_at]
    assert resumed.lineup == whole.lineup and resumed.human == 0
    app = PlayApp(resumed, delay=0.0, strict=True, history=resumed.history())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert app.t("log.resumed", n=stopped_at) in app.log_lines
        assert any(line.startswith(app.t("log.hand", cards="").rstrip())
                   for line in app.log_lines)
        await play_out(pilot, app)
        await pilot.press("q")
    assert resumed.game.actions == full
    assert load(part.path)["actions"] == load(whole.path)["actions"]


async def test_hint_and_rules(tmp_path: Path) -> None:
    session = make_session(tmp_path, "classic", lives=5, seed=3, lang="it")
    app = PlayApp(session, lang="it", delay=0.0, strict=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        prefix = app.t("hint.result_why", bot="X", action="", key="", why="").split("(")[0]
        deadline = asyncio.get_running_loop().time() + 60
        while not app.message.startswith(prefix):
            assert asyncio.get_running_loop().time() < deadline, app.message
            await pilot.pause(0.01)
        assert app.message.startswith(prefix), app.message
        labels = [app.key_for(a) for a in session.view().legal]
        assert any(f"[{k}]" in app.message for k in labels), app.message
        # the reason is the browser's (bots/reasons.py), in Italian: no English, no card codes
        import re

        from toepen.bots.reasons import REASON_IDS

        why = app.hint_reason
        assert why is not None and why.id in REASON_IDS
        assert why.render(app.t, app.names) in app.message
        assert "expected lives" not in app.message
        assert not re.search(r"\b[TJQKA987][cdhs]\b", app.message), app.message
        before = list(session.game.actions)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        text = "\n".join(app.screen.lines)
        assert app.t("rules.last_trick.wins") in text and app.t("rules.exchange") in text
        assert app.t("rules.pelt") in text
        # The keys of the game wait while the rules are shown.
        await pilot.press(app.legal_keys()[0])
        assert session.game.actions == before
        await pilot.press("r")
        await pilot.pause()
        assert not isinstance(app.screen, RulesScreen)
        await pilot.press("q")


async def test_a_bot_that_breaks_the_rules_does_not_stop_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toepen.bots import BOTS
    from toepen.view import View

    class Illegal:
        name = "test-illegal"

        def __init__(self, seed: int | None = None, time_budget: float | None = None) -> None:
            pass

        def act(self, view: View) -> Action:
            return KNOCK if KNOCK not in view.legal else Action.parse("play Th")

    monkeypatch.setitem(BOTS, "test-illegal", Illegal)  # registered for this test only
    session = make_session(tmp_path, "no-knock", lives=1, bots="test-illegal", seed=2)
    app = PlayApp(session, delay=0.0, strict=True)
    async with app.run_test(size=SIZE) as pilot:
        await play_out(pilot, app)
        await pilot.press("q")
    assert session.game.winner is not None
    # one way in every venue (toepen.match.ask): the fallback bot plays, and it is said
    assert session.incidents and {i.kind for i in session.incidents} == {"illegal"}
    assert {i.fallback for i in session.incidents} == {"random"}
    prefix = app.t("notice.bot_fallback", name="Bas", bot="test-illegal",
                   why=app.t("notice.bot_why.illegal"), fallback="random",
                   action="\0").split("\0")[0]
    said = [line for line in app.log_lines if line.startswith(prefix)]
    assert len(said) == sum(i.seat == 1 for i in session.incidents), said


async def test_screenshot_script_and_docs(tmp_path: Path) -> None:
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("screenshot_play",
                                                  root / "scripts" / "screenshot_play.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    svg = await module.shoot("nl", 7, "rulebook", tmp_path)
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<svg") and "Jouw&#160;hand" in text
    shipped = root / "docs" / "screenshots" / "play-rulebook-en.svg"
    assert shipped.read_text(encoding="utf-8").startswith("<svg")
    assert "screenshots/play-rulebook-en.svg" in (root / "docs" / "play.md").read_text()


async def test_a_missing_planned_bot_falls_back_with_a_visible_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toepen.tui.session import FALLBACKS, Notice, PlayError, resolve_bot

    monkeypatch.setitem(FALLBACKS, "planned", ("not-there-either", "random"))
    assert resolve_bot("planned") == (
        "random", [Notice("notice.fallback", {"wanted": "planned", "used": "random"})])
    with pytest.raises(PlayError, match="unknown bot 'unplanned'"):
        resolve_bot("unplanned")
    session = make_session(tmp_path, "rulebook", bots="planned", seed=5, lang="nl")
    assert session.lineup == ("", "random", "random", "random")
    app = PlayApp(session, lang="nl", delay=0.0, strict=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        notice = app.t("notice.fallback", wanted="planned", used="random")
        assert notice in app.log_lines
        assert load(session.path)["meta"]["bots_wanted"][1:] == ["planned"] * 3
        await pilot.press("q")


async def test_a_rubber_session_says_why_its_winner_won(tmp_path: Path) -> None:
    from toepen.tui.narrate import session_winner_reason

    session = make_session(tmp_path, "classic", players=3, lives=2, bots="heuristic", seed=8,
                           lang="nl", rubbers=2)
    app = PlayApp(session, lang="nl", delay=0.0, strict=True)
    async with app.run_test(size=SIZE) as pilot:
        await play_out(pilot, app)
        view = session.view()
        reason = session_winner_reason(app.t, view)
        assert reason is not None and view.winner is not None
        assert " ".join(reason.split()) in " ".join(app.panel_text("status").split())
        assert reason in app.log_lines
        at = app.log_lines.index(reason)
        assert app.log_lines[at - 1] == app.t("log.session_result",
                                              name=view.players[view.winner])
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert app.t("rules.session.rubber_winner") in app.screen.lines
        await pilot.press("r")
        await pilot.press("q")


@pytest.mark.parametrize("lang", ["en", "nl", "de", "it", "nb"])
async def test_the_knock_prompt_says_what_folding_and_staying_cost(
    tmp_path: Path, lang: str,
) -> None:
    session = make_session(tmp_path, "kroegtoepen", lives=10, bots="random", seed=6, lang=lang)
    app = PlayApp(session, lang=lang, delay=0.0, strict=True)
    t = app.t
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            await settle(pilot, app)
            assert not app.over
            view = session.view()
            if view.phase == "answer":
                break
            keys = app.legal_keys()
            await pilot.press("s" if "s" in keys else
                              first_key(app, [k for k in keys if k not in "fk"] or keys))
        else:
            raise AssertionError("nobody knocked")
        costs = t("screen.answer_costs", fold=view.accepted[app.human], stake=view.stake)
        assert view.accepted[app.human] < view.stake
        assert costs in app.panel_text("status").replace("\n", " ")
        assert t("act.fold") in app.panel_text("keys")
        # And it is what the engine charges: folding costs exactly the stake accepted.
        lives = view.lives[app.human]
        await pilot.press("f")
        await pilot.pause()
        assert session.view().lives[app.human] == lives - view.accepted[app.human]
        await pilot.press("q")



async def test_the_terminal_offers_the_buy_in(tmp_path: Path) -> None:
    """Pot toepen (issue 39): out of the session, the human is asked to buy back in (s) or
    stay out (p), in words; a buy-in brings them back and the standings say so."""
    session = make_session(tmp_path, "rulebook", players=3, bots="random", seed=4, lang="nl",
                           rebuy="once", pot=0.5)
    app = PlayApp(session, lang="nl", delay=0.0, strict=True)
    t = Translator("nl")
    asked: list[str] = []

    def buy_in(app: PlayApp, keys: list[str]) -> str:
        if app.session.game.phase is Phase.REBUY:
            asked.append(" ".join(app.panel_text(p) for p in ("status", "message", "keys")))
            return "s"
        return first_key(app, keys)

    async with app.run_test(size=SIZE) as pilot:
        await play_out(pilot, app, policy=buy_in)
        assert app.over
        assert t("col.rebuys") in app.panel_text("players")
        await pilot.press("q")
    assert asked, "the human was never asked to buy back in"
    said = " ".join(" ".join(asked).split())
    assert t("phase.rebuy") in said
    assert f"[s] {t('act.rebuy.stay')}" in said and f"[p] {t('act.rebuy.pass')}" in said
    assert session.game.rebuys[app.human] == 1
    assert t("screen.pot", unit="€", amount="1,50") in " ".join(asked[0].split())  # 3 × 0,50
    assert any(line.startswith(t("log.you.rebuy", n=1)[:12]) for line in app.log_lines)
