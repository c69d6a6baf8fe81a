"""The match driver's hot path (``toepen.match.play_game``, as the arena plays), this
tree against another one in the same run, as ratios (nothing asserted)::

    git worktree add /tmp/before <commit>
    uv run python benchmarks/bench_driver.py --against /tmp/before

Each tree plays whole sessions with random bots, heuristic bots and random bots under
``knock_anytime`` (the knock windows) in a fresh interpreter for ``--seconds`` per
round; the best of ``--rounds`` is kept, trees interleaved.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

LOOP = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
from toepen.bots import make_bot
from toepen.engine import Game
from toepen.match import play_game
from toepen.rules import Rules
seconds, rounds = float(sys.argv[2]), int(sys.argv[3])
cases = (("random", ["random"] * 4, Rules.preset("rulebook", lives=5)),
         ("heuristic", ["heuristic"] * 4, Rules.preset("rulebook", lives=5)),
         ("random, knock_anytime", ["random"] * 4,
          Rules.preset("kroeg-huisregels", lives=5, knock_anytime=True)))
out = {}
for label, names, rules in cases:
    best = 0.0
    for _ in range(rounds):
        start, n, k = time.perf_counter(), 0, 0
        while time.perf_counter() - start < seconds:
            g = Game(rules, 4, seed=k)
            play_game(g, [make_bot(b, seed=k * 8 + s) for s, b in enumerate(names)])
            n += len(g.actions)
            k += 1
        best = max(best, n / (time.perf_counter() - start))
    out[label] = best
print(json.dumps(out))
'''


def measure(src: Path, seconds: float, rounds: int) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", LOOP, str(src), str(seconds), str(rounds)],
                          capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, required=True, help="the other tree")
    parser.add_argument("--seconds", type=float, default=0.6)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    here = Path(__file__).resolve().parents[1] / "src"
    there = args.against / "src"
    best: dict[tuple[str, str], float] = {}
    for _ in range(2):
        for tree, src in (("this", here), ("against", there)):
            for label, value in measure(src, args.seconds, args.rounds).items():
                best[tree, label] = max(best.get((tree, label), 0.0), value)
    for label in sorted({label for _, label in best}):
        now, before = best["this", label], best["against", label]
        print(f"{label:24s} {now:9.0f} actions/s  against {before:9.0f}  "
              f"ratio {now / before:.3f}")


if __name__ == "__main__":
    main()
