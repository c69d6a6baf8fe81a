"""Regenerate the screenshots of ``toepen play`` in docs/screenshots/ (SVG).

Plays a seeded game headless against random bots, pressing keys as a person would,
and saves the screen when the human is to play into a trick in progress.

    uv run python scripts/screenshot_play.py [--lang en] [--seed 7] [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from toepen.rules import Rules
from toepen.tui.app import PlayApp
from toepen.tui.session import PlaySession

ROOT = Path(__file__).resolve().parents[1]


async def shoot(lang: str, seed: int, preset: str, out: Path) -> Path:
    """Play until a hand is in progress with cards on the table; save the screen as SVG."""
    with tempfile.TemporaryDirectory() as tmp:
        session = PlaySession.new(
            Rules.preset(preset, lives=10), players=4, bots=["random"], name="Ann",
            seed=seed, path=Path(tmp) / "game.json", lang=lang,
        )
        app = PlayApp(session, lang=lang, delay=0.0, strict=True)
        async with app.run_test(size=(110, 40)) as pilot:
            while not app.over:
                await pilot.pause()
                if not app.awaiting_human:
                    continue
                view = session.view()
                if view.phase == "play" and view.trick and view.trick_no >= 1:
                    break
                keys = app.legal_keys()
                # Never claim or challenge, always stay: keeps the hand going.
                for preferred in ("p", "s"):
                    if preferred in keys:
                        await pilot.press(preferred)
                        break
                else:
                    await pilot.press(next(k for k in keys if k.isdigit()))
            await pilot.pause()
            out.mkdir(parents=True, exist_ok=True)
            name = f"play-{preset}-{lang}.svg"
            app.save_screenshot(name, str(out))
            await pilot.press("q")
        return out / name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="en")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--preset", default="rulebook")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args()
    path = asyncio.run(shoot(args.lang, args.seed, args.preset, args.out))
    print(path)


if __name__ == "__main__":
    main()
