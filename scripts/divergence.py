"""Where does a candidate bot gain or lose against a baseline? A first-divergence study.

For each deal, the baseline plays every seat (the reference game); then, for each seat,
the candidate replaces the baseline at that seat with every other bot and every seed
unchanged. The two games agree move for move until the candidate first decides
differently; the difference in that seat's lives lost is put down to the kind of that
first different decision (e.g. ``stay->fold``: the baseline stayed, the candidate
folded). A development tool, not a strength measure (use ``toepen arena`` for that).

    uv run python scripts/divergence.py --candidate expert --baseline pimc --deals 40
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rich.console import Console
from rich.progress import track
from rich.table import Table

from toepen.bots.base import make_bot
from toepen.engine import Game
from toepen.match import hand_over, play_game
from toepen.rules import Rules
from toepen.tools.arena import bot_seed, deal_seed


def _game(rules: Rules, names: list[str], seeds: list[int], seed: int) -> Game:
    game = Game(rules, len(names), seed=seed, dealer=0)
    bots = [make_bot(name, seed=s) for name, s in zip(names, seeds, strict=True)]
    play_game(game, bots, stop=hand_over(game))
    return game


def _kind(action: str) -> str:
    return "play" if action.startswith("play") else action


def study(args: tuple[str, str, str, int, int, int]) -> list[dict[str, Any]]:
    """One deal: the reference game and one game per candidate seat."""
    candidate, baseline, preset, players, seed, index = args
    rules = Rules.preset(preset)
    game_seed = deal_seed(seed, index)
    seeds = [bot_seed(seed, "deal", index, s) for s in range(players)]
    ref = _game(rules, [baseline] * players, seeds, game_seed)
    out = []
    for seat in range(players):
        names = [baseline] * players
        names[seat] = candidate
        game = _game(rules, names, seeds, game_seed)
        where = "same"
        for (_, a), (_, b) in zip(ref.actions, game.actions, strict=False):
            if a != b:
                where = f"{_kind(str(a))}->{_kind(str(b))}"
                break
        others = (sum(game.lives_lost) - game.lives_lost[seat]) / (players - 1)
        out.append({"deal": index, "seat": seat, "first": where,
                    "delta": game.lives_lost[seat] - ref.lives_lost[seat],
                    "versus": game.lives_lost[seat] - others})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--candidate", default="expert")
    ap.add_argument("--baseline", default="pimc")
    ap.add_argument("--preset", default="rulebook")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--start", type=int, default=0, help="first deal index")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    tasks = [(a.candidate, a.baseline, a.preset, a.players, a.seed, i)
             for i in range(a.start, a.start + a.deals)]
    rows: list[dict[str, Any]] = []
    with ProcessPoolExecutor(a.jobs) as pool:
        for res in track(pool.map(study, tasks), total=len(tasks), description="deals"):
            rows.extend(res)
    groups: dict[str, list[int]] = defaultdict(list)
    for r in rows:
        groups[r["first"]].append(r["delta"])
    table = Table(title=f"{a.candidate} at one seat vs the all-{a.baseline} game "
                        f"({a.preset}, {a.players} players, {a.deals} deals)")
    for col in ("first different decision (baseline->candidate)", "cases", "mean lives",
                "total lives"):
        table.add_column(col, justify="right")
    for key, ds in sorted(groups.items(), key=lambda kv: sum(kv[1])):
        table.add_row(key, str(len(ds)), f"{statistics.mean(ds):+.3f}", f"{sum(ds):+d}")
    Console().print(table)
    per_deal = defaultdict(list)
    for r in rows:
        per_deal[r["deal"]].append(r["delta"])
    means = [statistics.mean(v) for v in per_deal.values()]
    half = 1.96 * statistics.stdev(means) / len(means) ** 0.5 if len(means) > 1 else 0.0
    print(f"candidate minus reference, lives per hand: {statistics.mean(means):+.3f} "
          f"± {half:.3f} (95%, normal approximation over deals)")


if __name__ == "__main__":
    main()
