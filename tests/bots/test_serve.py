"""``toepen bot NAME``: a built-in bot over the JSON-lines protocol, as it plays in-process;
``tree:DIR:NAME`` in the arena; the view's JSON read back exactly."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from toepen.bots.base import make_bot
from toepen.bots.external import ExternalBot, tree_command
from toepen.engine import Game
from toepen.match import hand_over, play_game, window_view
from toepen.rules import Rules
from toepen.tools.arena import SetupError, check_setup, run_match
from toepen.view import View, ViewError, observe

ROOT = Path(__file__).resolve().parents[2]
TOEPEN = str(Path(sys.executable).parent / "toepen")


def test_a_view_reads_back_from_its_json_exactly() -> None:
    rules = [Rules.preset(p, lives=2) for p in Rules.preset_names()]
    rules += [Rules.preset("kroeg-huisregels", blind_knock=True, knock_anytime=True, lives=2)]
    seen = 0
    for r in rules:
        for players in r.allowed_table_sizes()[:2]:
            rng = random.Random(players)
            game = Game(r, players, seed=players)
            while game.turn >= 0:
                for seat in (None, *range(players)):
                    view = observe(game, seat)
                    assert View.from_json(view.to_json()) == view, (r.preset, seat)
                    seen += 1
                for seat in game.knockers():
                    view = window_view(game, seat)
                    assert View.from_json(view.to_json()) == view
                game.apply(game.turn, rng.choice(game.legal_actions()))
    assert seen > 1000
    good = observe(Game(Rules.preset("rulebook"), 3, seed=1), 0).to_json()
    for field, value, says in (("hand", ["Xx"], "hand"), ("voids", [["q"], [], []], "voids"),
                               ("phase", "dinner", "phase"), ("stake", "2", "stake")):
        with pytest.raises(ViewError, match=says):
            View.from_json({**good, field: value})
    with pytest.raises(ViewError, match="no field 'lives'"):
        View.from_json({k: v for k, v in good.items() if k != "lives"})


def test_a_served_bot_decides_as_the_same_bot_in_process() -> None:
    rules = Rules.preset("rulebook", lives=3)
    games = []
    for served in (True, False):
        game = Game(rules, 3, seed=11)
        bot = ExternalBot([TOEPEN, "bot", "expert"], seed=4, timeout=30) if served else \
            make_bot("expert", seed=4)
        others = [make_bot("random", seed=s) for s in (1, 2)]
        try:
            play_game(game, [bot, *others], stop=hand_over(game), seeds=[4, 1, 2])
        finally:
            if isinstance(bot, ExternalBot):
                assert bot.incidents == []
                bot.close()
        games.append(list(game.actions))
    assert games[0] == games[1] and sum(s == 0 for s, _ in games[0]) >= 4


def test_a_tree_bot_in_the_arena_plays_as_the_same_bot_in_process() -> None:
    tree = f"tree:{ROOT}:good"
    assert tree_command(tree)[1:] == ["bot", "good"]
    rules = Rules.preset("rulebook")
    served = run_match("good", tree, rules, players=2, deals=3, seed=5, jobs=1, sessions=0,
                       timeout=30)
    local = run_match("good", "heuristic", rules, players=2, deals=3, seed=5, jobs=1,
                      sessions=0)
    assert served.incidents == []
    # the same games, decision for decision: the same lives and the same difference
    assert served.row("good").diff == local.row("good").diff
    assert served.row(tree).lives_per_hand == local.row("heuristic").lives_per_hand


def test_bad_trees_and_bad_lines_are_refused_with_the_reason(tmp_path: Path) -> None:
    rules = Rules.preset("rulebook")
    for spec, says in ((f"tree:{tmp_path}/none:expert", "no folder"),
                       (f"tree:{tmp_path}:expert", "no .*toepen"),
                       (f"tree:{ROOT}:ex pert", "not a bot's name"), ("tree:expert", "form")):
        with pytest.raises(SetupError, match=says):
            check_setup(["good"], rules, 4, baseline=spec, format="versus")
    for line, says in (("not json", "not JSON"),
                       ('{"type": "decide", "id": 1, "view": {"seat": 0}}', "view")):
        run = subprocess.run([TOEPEN, "bot", "good"], input=line + "\n", capture_output=True,
                             text=True, timeout=60)
        assert run.returncode == 2 and says in run.stderr and run.stdout == "", run
    run = subprocess.run([TOEPEN, "bot", "cmd:sh"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "not a program" in run.stderr
