"""``toepen play``'s keys around the game: scrolling the log, fast forward once you are out,
play again at the end (Textual's pilot); ``--resume`` and ``toepen replay`` never show a
traceback, whatever bytes the file holds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toepen.cli import app as cli
from toepen.record import load, replay
from toepen.tui.app import PlayApp

from .driver import make_session, play_out, settle

runner = CliRunner(env={"COLUMNS": "200"})


def fold_first(app: PlayApp, keys: list[str]) -> str:
    """Fold whenever folding is offered, else the first key: the human goes out soon."""
    return "f" if "f" in keys else keys[0]


@pytest.mark.asyncio
async def test_log_scrolls_and_the_summary_makes_way(tmp_path: Path) -> None:
    app = PlayApp(make_session(tmp_path, lives=3, seed=4), delay=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_out(pilot, app, max_presses=12)
        log = app.query_one("#log")
        await pilot.press("end")
        await pilot.pause()
        assert not app.summary and log.display  # the summary gave the log its place
        assert log.max_scroll_y > 0, "the test needs a log longer than its box"
        bottom = log.scroll_y
        await pilot.press("pageup")
        await pilot.pause()
        assert log.scroll_y < bottom
        await pilot.press("home")
        await pilot.pause()
        assert log.scroll_y == 0
        assert "[PgUp PgDn]" in app.panel_text("keys")


@pytest.mark.asyncio
async def test_fast_forward_once_out_then_play_again_with_the_same_table(
        tmp_path: Path) -> None:
    session = make_session(tmp_path, lives=1, seed=11, players=4)
    old_path = session.path
    assert old_path is not None
    app = PlayApp(session, delay=0.2)
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.out and not app.over:
            await play_out(pilot, app, policy=fold_first, max_presses=1)
            await pilot.pause(0.05)
        if app.out:
            assert "[space]" in app.panel_text("keys")
            await pilot.press("space")
            assert app.delay == 0.0 and app.message == app.t("notice.fast_forward")
            await settle(pilot, app, timeout=30)
        assert app.over
        assert "[n]" in app.panel_text("keys")
        names, rules, lineup = app.names, app.session.game.rules, app.session.lineup
        await pilot.press("n")
        await settle(pilot, app, timeout=30)
        assert not app.over
        assert app.names == names and app.session.lineup == lineup
        assert app.session.game.rules == rules and app.delay == 0.2
        assert app.session.path is not None and app.session.path != old_path
        assert app.session.path.parent == old_path.parent
        assert app.t("log.rematch") in app.log_lines
        assert replay(load(old_path)).winner is not None


@pytest.mark.parametrize("command", ["play --resume", "replay"])
def test_random_bytes_never_show_a_traceback(tmp_path: Path, command: str) -> None:
    rng = random.Random(13)
    samples = [bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
               for _ in range(12)]
    samples += [b"\xff\xfe{}", b'{"format": "toepen-record/1"', b"\x00" * 40, b"[1, 2]",
                '{"meta": "ü"}'.encode("latin-1")]
    for i, data in enumerate(samples):
        path = tmp_path / f"bad{i}.json"
        path.write_bytes(data)
        result = runner.invoke(cli, [*command.split(), str(path)])
        assert result.exit_code != 0, (data, result.output)
        assert isinstance(result.exception, SystemExit), (data, result.exception)
        assert "Traceback" not in result.output, result.output
        assert result.output.strip(), "a refusal says what is wrong"
