"""``observe`` is the one door to hidden information: the server's fast encoded views
(:func:`toepen.view.encoded_views`) are observe's, and nothing past ``view.py`` works out
which cards a seat may see."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from toepen.engine import Game, Phase
from toepen.rules import Rules
from toepen.view import encoded_views, observe

SRC = Path(__file__).resolve().parents[2] / "src" / "toepen"


def _dumps(data: object) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


@pytest.mark.parametrize(("preset", "options"), [
    ("rulebook", {"blind_knock": True}), ("classic", {}), ("kroeg-huisregels", {}),
])
def test_encoded_views_are_the_views_observe_gives(preset: str, options: dict[str, bool]) -> None:
    game = Game(Rules.preset(preset, **options), 4, seed=3)
    rng = random.Random(3)
    unseen = 0
    for _ in range(300):
        if game.is_over:
            break
        views = encoded_views(game, [None, 0, 1, 2, 3], _dumps)
        for who, raw in views.items():
            assert json.loads(raw) == observe(game, who).to_json(), (who, game.phase)
        if game.phase is Phase.BLIND:
            unseen += 1
            assert all(json.loads(views[s])["hand"] == [] for s in range(4))
        game.apply(game.turn, rng.choice(game.legal_actions()))
    assert unseen or not options  # the blind round was seen with blind_knock
    with pytest.raises(ValueError, match="no seat 4"):
        encoded_views(game, [4], _dumps)


def test_the_server_does_not_work_out_what_a_seat_sees() -> None:
    # the server's broadcast goes through view.encoded_views; it reads no hand itself
    tree = ast.parse((SRC / "server" / "tables" / "master.py").read_text(encoding="utf-8"))
    names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)} | {
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
        and isinstance(n.value, str)}
    assert not names & {"hand_mask", "hand_masks", "cards_unseen"}
