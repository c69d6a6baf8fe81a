"""One tournament as data: its players, rounds, tables and results, and what may change.

:class:`Tournament` wraps the stored JSON document. Every method checks first and changes
after, so a refusal (:class:`ClubRefused`) leaves the tournament as it was. The draw and
the standings are :mod:`toepen.tourney`'s.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import hmac
import secrets
from typing import Any

from .... import tourney
from ....rules import Rules, RulesError
from ....seeds import derive_seed
from ....settle import evening, transfers
from ...protocol import Refused

MODES = ("cards", "sheet", "online")
"""How a round is played: real cards (results entered by the organiser), real cards on a
score sheet per table (results from the sheet), or online tables (from the game)."""
MAX_PLAYERS = 200
MAX_ROUNDS = 50


class ClubRefused(Refused):
    """A refusal of the clubs' API: English ``message`` plus ``say``, the message id and
    parameters the browser shows in the reader's language (``said``: ``web.club.error.<why>``)."""

    def __init__(self, why: str, message: str, status: int = 400, **params: Any) -> None:
        super().__init__("bad_command" if status == 409 else "bad_message", message, status)
        self.why = why
        self.said = {"id": f"web.club.error.{why}", "params": params}


def check_rules(preset: Any, options: Any) -> Rules:
    """The rules of a house-rule set, validated by :mod:`toepen.rules`, fit for tables of a
    tournament (3 to 8 players, no teams), or ClubRefused naming what is wrong."""
    if not isinstance(preset, str):
        raise ClubRefused("rules", "preset: must be a preset name", detail="preset")
    if not isinstance(options, dict):
        raise ClubRefused("rules", "options: must be an object", detail="options")
    try:
        rules = Rules.preset(preset, **options)
    except RulesError as e:
        raise ClubRefused("rules", str(e), detail=str(e)) from None
    except TypeError as e:
        raise ClubRefused("rules", f"options: {e}", detail=str(e)) from None
    if rules.teams:
        raise ClubRefused("teams", "a tournament's tables play without teams (option teams)")
    if not [s for s in rules.allowed_table_sizes()
            if tourney.MIN_TABLE <= s <= tourney.MAX_TABLE]:
        raise ClubRefused("rules", "option table_sizes: a tournament needs tables of 3 to 8",
                          detail="table_sizes")
    return rules


def rules_options(rules: Rules) -> dict[str, Any]:
    """The options of ``rules`` beyond its preset (for ``Lobby.create``)."""
    data = rules.to_json()
    if isinstance(data, str):
        return {}
    return {k: v for k, v in data.items() if k != "preset"}


def hand_entered_pot(cents: int, order: list[str]) -> dict[str, int]:
    """The pot balances of a table whose finishing order was entered by hand (winner
    first): every player put in ``cents`` and the winner took the pot; no buy-ins, since
    none were entered.

    >>> hand_entered_pot(50, ["Ann", "Bas", "Cor"])
    {'Ann': 100, 'Bas': -50, 'Cor': -50}
    """
    return {name: cents * (len(order) - 1) if i == 0 else -cents
            for i, name in enumerate(order)}


def pot_json(rules: Rules, tables: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Pot toepen over a tournament (club evening): each table's balances added per player
    (:func:`toepen.settle.evening`) and settled in the fewest transfers; None without a
    pot. Amounts in cents."""
    if not rules.pot_cents:
        return None
    balances = evening(t["pot"] for t in tables if t.get("pot"))
    return {"stake": rules.pot_cents, "unit": rules.pot_unit, "balances": balances,
            "settlement": [t.to_json() for t in transfers(balances)]}


def key(name: str) -> str:
    """The form of a name that two names must not share (letter case ignored)."""
    return name.casefold()


class Tournament:
    """A tournament's document (``state``) and the changes it allows."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state

    @classmethod
    def new(cls, rules: Rules, house_rules: str, scheme: tourney.Scheme, seed: int,
            target: int = tourney.DEFAULT_TARGET) -> Tournament:
        if not tourney.MIN_TABLE <= target <= tourney.MAX_TABLE:
            raise ClubRefused("target", f"target: a table size from 3 to 8, not {target}",
                              n=target)
        return cls({"rules": rules.to_json(), "house_rules": house_rules,
                    "scheme": scheme.to_json(), "target": target, "seed": seed,
                    "players": [], "rounds": [], "finished": False})

    def copy(self) -> Tournament:
        return Tournament(copy.deepcopy(self.state))

    # -- reading ---------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return Rules.from_json(self.state["rules"])

    @property
    def scheme(self) -> tourney.Scheme:
        return tourney.Scheme.from_json(self.state["scheme"])

    @property
    def players(self) -> list[dict[str, Any]]:
        players: list[dict[str, Any]] = self.state["players"]
        return players

    @property
    def rounds(self) -> list[dict[str, Any]]:
        rounds: list[dict[str, Any]] = self.state["rounds"]
        return rounds

    def active(self) -> list[str]:
        """The players who take part in the next draw, in order of registration."""
        return [p["name"] for p in self.players if p["dropped"] is None]

    def player(self, name: Any) -> dict[str, Any]:
        if isinstance(name, str):
            for p in self.players:
                if key(p["name"]) == key(name):
                    return p
        raise ClubRefused("unknown_player", f"no player {name!r} in this tournament", 404,
                          name=str(name))

    def open_round(self) -> dict[str, Any] | None:
        """The last round while a table of it has no result."""
        if self.rounds and any(t["result"] is None for t in self.rounds[-1]["tables"]):
            return self.rounds[-1]
        return None

    def results(self) -> list[list[list[str]]]:
        """Each round's finishing orders so far (tables without a result left out)."""
        return [[t["result"] for t in r["tables"] if t["result"] is not None]
                for r in self.rounds]

    def standings(self) -> list[tourney.Row]:
        return tourney.standings(self.results(), self.scheme,
                                 [p["name"] for p in self.players])

    def sizes(self, players: int) -> tuple[int, ...]:
        return tourney.table_sizes(players, self.rules.allowed_table_sizes(),
                                   self.state["target"])

    def public(self) -> dict[str, Any]:
        """What anyone may see (no key, no seed, no seat's key; not the code of an online
        table, which cannot be joined by code)."""
        active = {key(n) for n in self.active()}
        open_round = self.open_round()
        try:
            upcoming: list[int] = list(self.sizes(len(active))) if not open_round else []
        except tourney.DrawError:
            upcoming = []
        rules = self.rules
        distinct, best = tourney.spread([[t["seats"] for t in r["tables"]]
                                         for r in self.rounds])
        return {
            "rules": rules.to_json(), "preset": rules.name, "house_rules":
                self.state["house_rules"], "scheme": self.state["scheme"],
            "target": self.state["target"], "finished": self.state["finished"],
            "tie_breaks": list(tourney.TIE_BREAKS),
            "players": [{"name": p["name"], "member": p["member"], "active":
                         p["dropped"] is None, "from_round": p["from_round"],
                         "dropped": p["dropped"]} for p in self.players],
            "rounds": [{"no": i + 1, "mode": r["mode"],
                        "complete": all(t["result"] is not None for t in r["tables"]),
                        "tables": [{"no": j + 1, "seats": t["seats"],
                                    "table_id": t["table_id"], "sheet": t.get("sheet"),
                                    "mode": "online" if t["table_id"] else
                                    "sheet" if t.get("sheet") else "cards",
                                    "result": t["result"], "by": t["by"]}
                                   for j, t in enumerate(r["tables"])]}
                       for i, r in enumerate(self.rounds)],
            "standings": [{"place": r.place, "player": r.player, "points": r.points,
                           "wins": r.wins, "opponents": r.opponents, "played": r.played,
                           "active": key(r.player) in active} for r in self.standings()],
            "next_sizes": upcoming,
            "pot": pot_json(rules, [t for r in self.rounds for t in r["tables"]]),
            "spread": {"distinct": round(distinct, 2), "best": round(best, 2)},
        }

    # -- the keys of online seats ------------------------------------------------------

    def seat_secret(self) -> str:
        """The tournament's secret that every online seat's key is derived from (made
        with its first online table; kept in the document like the seed, never shown)."""
        secret = self.state.get("seat_secret")
        if not isinstance(secret, str):
            secret = self.state["seat_secret"] = secrets.token_hex(32)
        return secret

    def seat_key(self, table_id: str, seat: int) -> str:
        """The key that takes ``seat`` at the online table ``table_id`` (the organiser
        hands it to that player)."""
        mac = hmac.new(self.seat_secret().encode(), f"seat:{table_id}:{seat}".encode(),
                       hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:18]).decode()

    def online_tables(self) -> list[tuple[int, int, dict[str, Any]]]:
        """(round, table, the table) of each online table whose result is still to come."""
        return [(i + 1, j + 1, t) for i, r in enumerate(self.rounds)
                for j, t in enumerate(r["tables"])
                if t["table_id"] is not None and t["result"] is None]

    def seat_of_key(self, given: str) -> tuple[int, int, int] | None:
        """(round, table, seat) of the online seat whose key is ``given``, or None (no
        such seat, or its table has its result)."""
        if "seat_secret" not in self.state or not given.isascii():
            return None
        found = None
        for r, no, t in self.online_tables():
            for seat in range(len(t["seats"])):
                if hmac.compare_digest(self.seat_key(t["table_id"], seat).encode(),
                                       given.encode()):
                    found = (r, no, seat)
        return found

    # -- changes ---------------------------------------------------------------------

    def _not_finished(self) -> None:
        if self.state["finished"]:
            raise ClubRefused("finished", "the tournament is over", 409)

    def register(self, name: str, member: str | None = None) -> None:
        """A player joins (a late arrival plays from the next round drawn); a player who
        dropped out comes back the same way."""
        self._not_finished()
        for p in self.players:
            if key(p["name"]) == key(name):
                if p["dropped"] is None:
                    raise ClubRefused("name_taken", f"{p['name']} is already registered",
                                      409, name=p["name"])
                p["dropped"] = None
                p["from_round"] = len(self.rounds) + 1
                return
        if len(self.players) >= MAX_PLAYERS:
            raise ClubRefused("too_many", f"a tournament has at most {MAX_PLAYERS} players",
                              409, n=MAX_PLAYERS)
        self.players.append({"name": name, "member": member,
                             "from_round": len(self.rounds) + 1, "dropped": None})

    def drop(self, name: str) -> None:
        """A player leaves: not drawn again; their results so far stay in the standings."""
        self._not_finished()
        p = self.player(name)
        if p["dropped"] is not None:
            raise ClubRefused("already_dropped", f"{p['name']} has already left", 409,
                              name=p["name"])
        current = self.open_round()
        if current and any(key(s) == key(p["name"]) for t in current["tables"]
                           for s in t["seats"]):
            raise ClubRefused("plays_now", f"{p['name']} plays in round {len(self.rounds)}: "
                              "enter that table's result first", 409, name=p["name"],
                              round=len(self.rounds))
        p["dropped"] = len(self.rounds)

    def draw(self, mode: str) -> dict[str, Any]:
        """Draw the next round's tables (seats too) among the active players."""
        self._not_finished()
        if mode not in MODES:
            raise ClubRefused("mode", f"mode: cards, sheet or online, not {mode!r}",
                              mode=str(mode))
        if self.open_round():
            raise ClubRefused("round_open", f"round {len(self.rounds)} has tables without a "
                              "result", 409, round=len(self.rounds))
        if len(self.rounds) >= MAX_ROUNDS:
            raise ClubRefused("too_many_rounds", f"at most {MAX_ROUNDS} rounds", 409,
                              n=MAX_ROUNDS)
        players = self.active()
        try:
            sizes = self.sizes(len(players))
        except tourney.DrawError as e:
            raise ClubRefused("draw", str(e), 409, n=len(players)) from None
        seen = tourney.met([t["seats"] for t in r["tables"]] for r in self.rounds)
        seed = derive_seed(self.state["seed"], "round", len(self.rounds) + 1)
        tables = tourney.draw(players, seen, sizes, seed)
        new = {"mode": mode, "tables": [{"seats": t, "table_id": None, "code": None,
                                          "result": None, "by": None} for t in tables]}
        self.rounds.append(new)
        return new

    def table(self, round_no: Any, table_no: Any) -> dict[str, Any]:
        if not isinstance(round_no, int) or not 1 <= round_no <= len(self.rounds):
            raise ClubRefused("no_table", f"no round {round_no}", 404, round=str(round_no),
                              table=str(table_no))
        tables = self.rounds[round_no - 1]["tables"]
        if not isinstance(table_no, int) or not 1 <= table_no <= len(tables):
            raise ClubRefused("no_table", f"round {round_no} has no table {table_no}", 404,
                              round=str(round_no), table=str(table_no))
        table: dict[str, Any] = tables[table_no - 1]
        return table

    def switch(self, round_no: Any, table_no: Any, mode: str) -> None:
        """Check that a drawn real-card table may go on a sheet or online now (the
        caller makes the sheet or the lobby table)."""
        self._not_finished()
        table = self.table(round_no, table_no)
        if mode not in ("sheet", "online"):
            raise ClubRefused("mode", f"mode: sheet or online, not {mode!r}", mode=str(mode))
        if (round_no != len(self.rounds) or table["result"] is not None
                or table["table_id"] is not None or table.get("sheet") is not None):
            raise ClubRefused("not_cards", f"table {table_no} of round {round_no} is not a "
                              "real-card table waiting for its result", 409,
                              round=round_no, table=table_no)

    def enter(self, round_no: Any, table_no: Any, order: Any, by: str) -> None:
        """A table's finishing order (winner first): exactly the players it seated."""
        self._not_finished()
        table = self.table(round_no, table_no)
        seats = table["seats"]
        names = {key(s): s for s in seats}
        if (not isinstance(order, list) or not all(isinstance(n, str) for n in order)
                or sorted(key(n) for n in order) != sorted(names)):
            raise ClubRefused("order", f"table {table_no}: the order must hold each of "
                              f"{', '.join(seats)} once", table=table_no,
                              players=", ".join(seats))
        table["result"] = [names[key(n)] for n in order]
        table["by"] = by
        if self.rules.pot_cents:  # cards: the buy-ins are not known, none are counted
            table["pot"] = hand_entered_pot(self.rules.pot_cents, table["result"])

    def finish(self) -> None:
        self._not_finished()
        if self.open_round():
            raise ClubRefused("round_open", f"round {len(self.rounds)} has tables without a "
                              "result", 409, round=len(self.rounds))
        self.state["finished"] = True
