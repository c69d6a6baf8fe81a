"""The terminal's final standings of a real game whose winner is left with 1 life say
"1 life", in each language (plural forms: tests/test_plurals.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from toepen.tui.app import PlayApp

from .driver import make_session, play_out

pytestmark = pytest.mark.asyncio

WINNER = {
    # seed 2: Bas is the last one in with 1 life of 2; seed 1: Cor with both lives
    ("en", 2): "1. Bas: the last one in, 1 life left",
    ("nl", 2): "1. Bas: als laatste over, nog 1 leven",
    ("de", 2): "1. Bas: als Letzter noch dabei, 1 Leben übrig",
    ("it", 2): "1. Bas: l'ultimo rimasto, con 1 vita",
    ("nb", 2): "1. Bas: den siste igjen, 1 liv igjen",
    ("en", 1): "1. Cor: the last one in, 2 lives left",
    ("nl", 1): "1. Cor: als laatste over, nog 2 levens",
}


@pytest.mark.parametrize(("lang", "seed"), list(WINNER), ids=[f"{k[0]}-{k[1]}" for k in WINNER])
async def test_the_final_standings_say_one_life(tmp_path: Path, lang: str, seed: int) -> None:
    session = make_session(tmp_path, players=3, lives=2, bots="random", seed=seed, lang=lang)
    app = PlayApp(session, lang=lang, delay=0.0, strict=True)
    async with app.run_test(size=(100, 40)) as pilot:
        await play_out(pilot, app)
        assert app.over
        winner = app.session.view().places[0]
        assert winner.lives == (1 if seed == 2 else 2) and not winner.out
        lines = app.summary_lines()
        assert WINNER[lang, seed] in lines, lines
