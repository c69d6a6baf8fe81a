"""Game records: ``toepen-record/1``, our PGN.

A record is a JSON object: the format, the rules (as options), the players, the first
dealer, the decks in dealing order (or the seed they are drawn from) and every decision
in record notation (``"2 play Th"``; see ``docs/rules.md``). The engine knows nothing of
records: this module converts both ways (:func:`to_record`, :func:`replay`).

>>> from toepen.engine import Game
>>> g = Game.new("rulebook", ["Ann", "Bas", "Cor", "Dirk"], seed=11)
>>> for move in ["1 pass", "2 pass", "3 pass", "0 pass"]:
...     _ = g.apply(*parse_move(move))
>>> rec = to_record(g)
>>> rec["format"], rec["actions"][-1], len(rec["decks"])
('toepen-record/1', '0 pass', 1)
>>> replay(rec).phase is g.phase
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .cards import card_str
from .engine.actions import Action, ActionError, format_move, parse_move
from .engine.deck import DeckError, check_deck
from .engine.phase import Phase
from .engine.refusal import IllegalAction
from .engine.settle import Place
from .engine.state import Game
from .rules import Rules, RulesError

FORMAT = "toepen-record/1"


class RecordError(ValueError):
    """A record that is malformed or breaks the rules; the message names where."""


def check_format(record: dict[str, Any]) -> None:
    """RecordError unless ``record`` is of :data:`FORMAT`; a later version of it (written
    by a newer toepen) says to upgrade.

    >>> check_format({"format": "toepen-record/2"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    toepen.record.RecordError: format: 'toepen-record/2' is newer than ...: upgrade toepen ...
    """
    found = record.get("format")
    if found == FORMAT:
        return
    name, _, version = str(found).rpartition("/")
    if name == FORMAT.rpartition("/")[0] and version.isdigit() and int(version) > int(
            FORMAT.rpartition("/")[2]):
        raise RecordError(f"format: {found!r} is newer than this toepen reads ({FORMAT!r}): "
                          "upgrade toepen (pip install --upgrade toepen) to open it")
    raise RecordError(f"format: must be {FORMAT!r}, not {found!r}")


def to_record(
    game: Game, *, meta: dict[str, Any] | None = None, use_seed: bool = False
) -> dict[str, Any]:
    """The record of a game so far; once the session is over, with its finishing order
    (``places``: ``game.places()``, which :func:`replay` checks).

    With ``use_seed`` (a seeded game only) the record stores the seed instead of the
    decks, so that it can be continued past the last deal; it then replays only on
    this engine.
    """
    rec: dict[str, Any] = {
        "format": FORMAT,
        "rules": game.rules.to_json(),
        "players": list(game.players),
        "dealer": game.first_dealer,
    }
    if use_seed:
        if game.seed is None:
            raise ValueError("use_seed: this game was not dealt from a seed")
        rec["seed"] = game.seed
    else:
        rec["decks"] = [[card_str(c) for c in deck] for deck in game.dealt_decks()]
    rec["actions"] = [format_move(s, a) for s, a in game.actions]
    if game.is_over:
        rec["places"] = [p.to_json() for p in game.places()]
    if meta:
        rec["meta"] = meta
    return rec


def dumps(record: dict[str, Any]) -> str:
    """A record as compact, readable JSON text (one deck per line)."""
    parts = ["{"]
    items = list(record.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if key == "decks":
            decks = ",\n    ".join(json.dumps(d) for d in value)
            parts.append(f'  "decks": [\n    {decks}\n  ]{comma}')
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    parts.append("}")
    return "\n".join(parts) + "\n"


def save(record: dict[str, Any], path: str | Path) -> None:
    """Write a record to a file (atomically: a crash never leaves half a record)."""
    path = Path(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(dumps(record), encoding="utf-8")
    tmp.replace(path)


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file as JSON (RecordError if it is not JSON)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"file: cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise RecordError(f"file: not UTF-8 text (byte {e.start})") from None
    return loads(text)


def loads(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        where = "" if e.msg.endswith(" at") else " at"  # "starting at", not "at at"
        raise RecordError(f"file: not JSON ({e.msg}{where} line {e.lineno} column {e.colno})"
                          ) from None
    if not isinstance(data, dict):
        raise RecordError("file: a record is a JSON object")
    return data


def start(record: dict[str, Any]) -> tuple[Game, list[tuple[int, Action]]]:
    """Validate a record's fields; return the game before any action and the parsed actions."""
    if not isinstance(record, dict):
        raise RecordError("file: a record is a JSON object")
    check_format(record)
    kind = record.get("kind", "game")
    if kind != "game":
        raise RecordError(
            "kind: a score sheet (entries, no decks) is read by toepen.tally.Sheet.from_record"
            if kind == "sheet" else f"kind: must be 'game' or 'sheet', not {kind!r}"
        )
    try:
        rules = Rules.from_json(record.get("rules", "rulebook"))
    except RulesError as e:
        raise RecordError(f"rules: {e}") from None
    players = record.get("players")
    if (
        not isinstance(players, list)
        or not all(isinstance(p, str) for p in players)
        or not 2 <= len(players) <= 8
    ):
        raise RecordError("players: must be a list of 2 to 8 names")
    try:
        rules.check_table(len(players))
    except RulesError as e:
        raise RecordError(f"players: {e}") from None
    dealer = record.get("dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < len(players):
        raise RecordError(f"dealer: must be a seat from 0 to {len(players) - 1}, not {dealer!r}")
    has_decks, has_seed = "decks" in record, "seed" in record
    if has_decks == has_seed:
        raise RecordError("decks: a record has either decks or a seed")
    seed = None
    decks: list[list[int]] | None = None
    if has_seed:
        seed = record["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"seed: must be an integer, not {seed!r}")
    else:
        raw = record["decks"]
        if not isinstance(raw, list):
            raise RecordError("decks: must be a list of decks")
        try:
            decks = [check_deck(d, f"decks[{i}]") for i, d in enumerate(raw)]
        except DeckError as e:
            raise RecordError(str(e)) from None
    meta = record.get("meta")
    if meta is not None and not isinstance(meta, dict):
        raise RecordError("meta: must be an object")
    raw_actions = record.get("actions", [])
    if not isinstance(raw_actions, list):
        raise RecordError("actions: must be a list")
    actions: list[tuple[int, Action]] = []
    for i, text in enumerate(raw_actions, start=1):
        try:
            actions.append(parse_move(text))
        except ActionError as e:
            raise RecordError(f"action {i}: {e}") from None
    game = Game(rules, tuple(players), seed=seed, decks=decks, dealer=dealer)
    return game, actions


def restart(game: Game) -> Game:
    """``game`` back at its start: a new game of its rules, players and first dealer on
    the decks it has dealt so far, as its record replays (:func:`start`) without the
    record. Applying ``game.actions`` to it again gives every step's events, the hidden
    cards included (the server's history and its replays read them so).

    >>> from toepen.engine import Game
    >>> g = Game.new("rulebook", 3, seed=5)
    >>> _ = g.apply(g.turn, "pass")
    >>> again = restart(g)
    >>> again.actions, again.current_deck() == g.current_deck(), again.seed
    ([], True, None)
    """
    return Game(game.rules, game.players, decks=game.dealt_decks(), dealer=game.first_dealer)


def replay(record: dict[str, Any], upto: int | None = None) -> Game:
    """The game a record describes, after its actions (or the first ``upto`` of them).

    Raises RecordError naming the field or the action (1-based) that is wrong. A record
    may end anywhere; it may not go on once its game is over or awaits a deck.
    """
    game, actions = start(record)
    places = _places_of(record)
    for i, (seat, act) in enumerate(actions[:upto] if upto is not None else actions, start=1):
        if game.phase is Phase.DEAL:
            raise RecordError(f"action {i}: a new deal needs a deck that is not in the record")
        try:
            game.apply(seat, act)
        except IllegalAction as e:
            raise RecordError(f"action {i}: {e}") from None
    if places is not None and upto is None and game.is_over:
        # (a record cut short of its end, as a replay viewer makes, keeps its places)
        found = game.places()
        if found != places:
            raise RecordError(f"places: the record says {_seats_text(places)}, its actions "
                              f"finish {_seats_text(found)}")
    return game


def _places_of(record: dict[str, Any]) -> tuple[Place, ...] | None:
    """The record's ``places`` (optional; records before it have none), checked."""
    raw = record.get("places")
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise RecordError("places: must be a list of places")
    out = []
    for i, item in enumerate(raw):
        try:
            out.append(Place.from_json(item))
        except ValueError as e:
            raise RecordError(f"places[{i}]: {e}") from None
    return tuple(out)


def _seats_text(places: tuple[Place, ...]) -> str:
    """A finishing order in a line: ``1: seat 2, 2: seats 0+3``."""
    return ", ".join(f"{p.place}: seat{'s' if len(p.seats) > 1 else ''} "
                     f"{'+'.join(map(str, p.seats))}" for p in places)


def summary(game: Game) -> dict[str, Any]:
    """The position as ``toepen replay --json`` reports it."""
    seat = game.turn
    out: dict[str, Any] = {
        "lives": game.lives_by_seat(),
        "eliminated": list(game.eliminated),
        "winner": game.winner,
        "hand": game.hand_no,
        "stake": game.stake,
        "to_act": list(game.to_act),
        "legal": [str(a) for a in game.legal(seat)] if seat >= 0 else [],
        "phase": str(game.phase),
        "actions": len(game.actions),
    }
    out["places"] = [p.to_json() for p in game.places()]
    if game.phase is Phase.DEAL:
        out["stopped"] = "a new deal needs a deck that is not in the record"
    if game.rules.session == "rubber":
        out["rubber"] = game.rubber_no
        out["drinks"] = list(game.drinks)
        out["rubbers_won"] = list(game.rubbers_won)
    if game.rules.beer_tally:
        out["beers"] = list(game.beers)
    return out
