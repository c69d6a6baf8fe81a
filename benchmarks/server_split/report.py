"""Print what ``sitecustomize.py`` beside this file measured, per action.

``python report.py SPLIT.json ACTIONS``: each part's CPU time in all, per action (the
benchmark's action count) and per call, largest first.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main() -> None:
    data = json.loads(Path(sys.argv[1]).read_text())
    actions = int(sys.argv[2])
    for label, seconds in sorted(data["cpu"].items(), key=lambda kv: -kv[1]):
        calls = data["calls"].get(label, 0)
        per_call = seconds / calls * 1e6 if calls else 0.0
        print(f"{label:26s} {seconds:7.3f} s {seconds / actions * 1e6:7.1f} us/action "
              f"{calls:7d} calls {per_call:7.1f} us/call")


if __name__ == "__main__":
    main()
