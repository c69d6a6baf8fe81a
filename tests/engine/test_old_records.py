"""Every record the old main wrote replays to the same state on this engine.

``data/old_main_records.json.gz`` was written by main as of commit e1a0e1a (before the
engine split) with ``data/make_old_main_records.py``: every preset at every table size it
allows, two seeds, whole sessions and games cut after 37 actions (those also as seeded
records), played by random and heuristic bots. Each entry holds the record and a
fingerprint of the final state: the digest of every seat's view (and the spectator's)
over the view keys of that time, the phase, seats to act, legal actions, lives, hand
number, winner and action count.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from toepen.record import replay
from toepen.view import observe

CORPUS = json.loads(
    gzip.decompress((Path(__file__).parent / "data" / "old_main_records.json.gz").read_bytes())
)


def fingerprint(game: Any, keys: list[str]) -> dict[str, Any]:
    views = {}
    for seat in [None, *range(game.n)]:
        j = observe(game, seat).to_json()
        old = {k: j[k] for k in keys}
        views["spectator" if seat is None else str(seat)] = hashlib.sha256(
            json.dumps(old, sort_keys=True).encode()
        ).hexdigest()
    return {
        "keys": keys,
        "views": views,
        "phase": str(observe(game, None).phase),
        "to_act": list(game.to_act),
        "legal": [str(a) for a in game.legal_actions()],
        "lives": game.lives_by_seat(),
        "hand_no": game.hand_no,
        "winner": game.winner,
        "actions": len(game.actions),
    }


def test_the_corpus_covers_every_preset_and_both_record_forms() -> None:
    presets = {e["preset"] for e in CORPUS}
    assert {"rulebook", "classic", "gezinstoepen", "kroegtoepen", "teams", "no-knock"} <= presets
    assert any("seed" in e["record"] for e in CORPUS)
    assert any("decks" in e["record"] for e in CORPUS)
    assert any(e["state"]["winner"] is not None for e in CORPUS)


@pytest.mark.parametrize(
    "entry",
    CORPUS,
    ids=[
        f"{e['preset']}-{e['players']}p-{len(e['record']['actions'])}a"
        f"{'-seed' if 'seed' in e['record'] else ''}"
        for e in CORPUS
    ],
)
def test_an_old_record_replays_to_the_same_state(entry: dict[str, Any]) -> None:
    game = replay(entry["record"])
    assert fingerprint(game, entry["state"]["keys"]) == entry["state"]
