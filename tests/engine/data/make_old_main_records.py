"""How ``old_main_records.json.gz`` was written (run on main at commit e1a0e1a).

    uv run python tests/engine/data/make_old_main_records.py old_main_records.json
    gzip -9 old_main_records.json

Kept to show what the corpus holds; it uses the API of that commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any


def fingerprint(g: Any) -> dict[str, Any]:
    from toepen.view import observe

    views = {}
    for seat in [None, *range(g.n)]:
        j = observe(g, seat).to_json()
        views["spectator" if seat is None else str(seat)] = hashlib.sha256(
            json.dumps(j, sort_keys=True).encode()
        ).hexdigest()
    return {
        "keys": sorted(observe(g, None).to_json()),
        "views": views,
        "phase": str(observe(g, None).phase),
        "to_act": list(g.to_act),
        "legal": [str(a) for a in g.legal_actions()],
        "lives": g.lives_by_seat(),
        "hand_no": g.hand_no,
        "winner": g.winner,
        "actions": len(g.actions),
    }


def main(path: str) -> None:
    from toepen.bots import make_bot
    from toepen.engine import Game
    from toepen.record import to_record
    from toepen.rules import Rules
    from toepen.view import observe

    out = []
    for preset in Rules.preset_names():
        for n in (2, 3, 4, 5, 6, 8):
            try:
                Rules.preset(preset).check_table(n)
            except Exception:
                continue
            for seed in (1, 2):
                for cut in (None, 37):
                    g = Game.new(preset, n, seed=seed * 100 + n)
                    bots = [
                        make_bot("heuristic" if s % 2 else "random", seed=seed * 10 + s)
                        for s in range(n)
                    ]
                    steps = 0
                    while not g.is_over and (cut is None or steps < cut) and steps < 3000:
                        seat = g.to_act[0]
                        g.apply(seat, bots[seat].act(observe(g, seat)))
                        steps += 1
                    for use_seed in (False, True) if cut else (False,):
                        out.append({
                            "preset": preset,
                            "players": n,
                            "record": to_record(g, use_seed=use_seed),
                            "state": fingerprint(g),
                        })
    with open(path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    print(len(out), "games")


if __name__ == "__main__":
    main(sys.argv[1])
