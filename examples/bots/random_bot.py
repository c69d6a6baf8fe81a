#!/usr/bin/env python3
"""A tiny external Toepen bot: uniform over the legal actions.

Plain Python, no toepen import. Run it in a tournament with

    toepen arena --bots "cmd:python examples/bots/random_bot.py,heuristic" --baseline heuristic

The protocol (docs/bots.md): the engine writes one JSON object per line on stdin.
``hello`` starts a game (it carries the seat and a seed), ``decide`` asks for one
decision and must be answered with one line ``{"action": "..."}`` on stdout,
``result`` ends a game. Anything else on stdout breaks the protocol, so log to stderr.
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random()
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            rng.seed(message.get("seed"))  # same seed, same decisions
            print(f"random_bot: seat {message['seat']}", file=sys.stderr)
        elif kind == "decide":
            choice = rng.choice(message["legal"])
            sys.stdout.write(json.dumps({"action": choice, "id": message.get("id")}) + "\n")
            sys.stdout.flush()
        elif kind == "result":
            view = message["view"]
            print(f"random_bot: game over, lives {view['lives']}", file=sys.stderr)


if __name__ == "__main__":
    main()
