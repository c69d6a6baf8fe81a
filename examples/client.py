#!/usr/bin/env python3
"""A whole Toepen client of a running ``toepen serve``, written from docs/protocol.md alone.

It imports nothing of toepen: the standard library and ``websockets`` (the server's
extra installs it). It creates a table of one person and bots (HTTP), sits at it over the
WebSocket, plays every decision of its seat until the session ends, and prints the game's
log, the hands' summaries and the standings in the language asked for, written out from
the server's message catalog. A dropped socket is reconnected with backoff, as the
protocol asks. Try it:

    toepen serve --port 8000 &
    python examples/client.py --url http://127.0.0.1:8000 --lang nl

``--frames FILE`` writes every frame, both ways, as JSON lines (``{"in": ...}`` or
``{"out": ...}``): the tests validate them against docs/protocol.schema.json.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import urllib.request
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

NO_RECONNECT = {4000, 4001, 4004, 4009, 4029}
"""Close codes after which a client must not reconnect (docs/protocol.md, Reconnecting)."""


def http(url: str, body: dict[str, Any] | None = None) -> Any:
    """GET (or POST ``body`` as JSON) and the answer's JSON."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as answer:
        return json.load(answer)


class Catalog:
    """``GET /api/i18n/{lang}``: writes the server's messages out (docs/protocol.md, The
    message catalog)."""

    def __init__(self, base: str, lang: str) -> None:
        self.data = http(f"{base}/api/i18n/{lang}")
        self.english = self.data if lang == "en" else http(f"{base}/api/i18n/en")
        self.names: list[str] = []
        """The players' names by seat (the view's ``players``)."""

    def card(self, card: str) -> str:
        notation = self.data["notation"]
        rank = self.data["ranks"][notation["ranks"].index(card[0])]
        return rank + self.data["suits"][notation["suits"].index(card[1])]

    def param(self, value: Any) -> Any:
        if not isinstance(value, dict):
            return value  # a number or a text, as it is
        if "seat" in value:
            return self.names[value["seat"]] if value["seat"] < len(self.names) else "?"
        if "seats" in value:
            return ", ".join(self.names[s] for s in value["seats"])
        if "cards" in value:
            return " ".join(self.card(c) for c in value["cards"])
        return self.say({"id": value["msg"], "params": value.get("params", {})})

    def say(self, message: dict[str, Any] | None) -> str:
        """A catalog message ``{"id", "params"}`` in the catalog's language."""
        if message is None:
            return ""
        key, params = message["id"], message.get("params", {})
        values = {name: self.param(v) for name, v in params.items()}
        count = next((params[c] for c in self.data["counts"] if c in params), None)
        messages = self.data["messages"]
        text = messages.get(key, self.english["messages"].get(key, key))
        # the CLDR rule of all five languages (en nl de it nb): "one" is the integer 1
        if isinstance(count, int) and count == 1 and f"{key}.one" in messages:
            text = messages[f"{key}.one"]
        for name, value in values.items():
            text = text.replace("{" + name + "}", str(value))
        return text


class Client:
    """One seat at one table: reads frames, answers its decisions."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.base = args.url.rstrip("/")
        self.catalog = Catalog(self.base, args.lang)
        self.rng = random.Random(args.seed)
        self.frames = open(args.frames, "w", encoding="utf-8") if args.frames else None  # noqa: SIM115
        self.sent: tuple[int, str] | None = None
        """(state number, action) of the last ``act`` sent, until a ``state`` answers it."""
        self.next_id = 0
        self.connections = 0
        self.standings: list[str] = []

    def log(self, text: str) -> None:
        if text and not self.args.quiet:
            print(text, flush=True)

    def create(self) -> dict[str, Any]:
        """``POST /api/tables``: this client at seat 0, bots elsewhere, started at once."""
        size = self.args.bots + 1
        body = {"name": self.args.name, "size": size, "preset": self.args.preset,
                "options": {"lives": self.args.lives}, "autostart": True,
                "bots": {str(s): self.args.bot for s in range(1, size)}}
        return http(f"{self.base}/api/tables", body)  # type: ignore[no-any-return]

    def send(self, ws: Any, msg: dict[str, Any]) -> None:
        if self.frames:
            self.frames.write(json.dumps({"out": msg}) + "\n")
        ws.send(json.dumps(msg))

    def choose(self, view: dict[str, Any]) -> str:
        """A simple player: never claims or challenges, stays when knocked unless the
        hand is weak, knocks now and then, plays a random legal card."""
        legal = view["legal"]
        if "pass" in legal and "stay" not in legal:
            return "pass"
        if "stay" in legal:
            return "stay" if self.rng.random() < 0.7 else ("fold" if "fold" in legal else "stay")
        if "knock" in legal and self.rng.random() < 0.1:
            return "knock"
        plays = [a for a in legal if a.startswith("play ")]
        return self.rng.choice(plays or legal)

    def on_state(self, ws: Any, msg: dict[str, Any]) -> bool:
        """A ``state``: tell it, and act if this seat is asked. True once the session is over."""
        view = msg["view"]
        self.catalog.names = view["players"]
        if "history" in msg:  # the first state after welcome: the log so far
            if msg["history_skipped"]:
                self.log(f"({msg['history_skipped']} earlier events not sent)")
            for event in msg["history"]:
                self.log(self.catalog.say(event["say"]))
            if self.connections > 1:
                self.log(f"(reconnected at state {msg['state']})")
            if self.sent is not None:  # back after a drop: was our action stored?
                state, action = self.sent
                last = msg["last"]
                mine = last == {"seat": view["seat"], "action": action, "by": "player"}
                if msg["state"] == state:
                    said = "not stored: choosing again"
                elif msg["state"] == state + 1 and mine:
                    said = "stored"
                else:
                    said = "overtaken: the game moved on"
                self.log(f"(reconnected: the action sent at state {state} was {said})")
        for event in msg["events"]:
            self.log(self.catalog.say(event["say"]))
        self.sent = None
        for line in msg.get("summary", []):
            self.log("  " + self.catalog.say(line))
        if "standings" in msg:
            self.standings = [self.catalog.say(line) for line in msg["standings"]]
            for line in self.standings:
                self.log("* " + line)
        if view["winner"] is not None:
            return True
        if msg["prompt"] is not None and view["legal"]:
            self.log("> " + self.catalog.say(msg["prompt"]))
            action = self.choose(view)
            self.next_id += 1
            self.sent = (msg["state"], action)
            self.send(ws, {"v": 1, "type": "act", "action": action, "state": msg["state"],
                           "id": self.next_id})
        return False

    def session(self, table_id: str, token: str) -> bool:
        """One socket, ``hello`` to its close: True once the session is over."""
        ws_url = self.base.replace("http", "ws", 1) + f"/ws/{table_id}"
        with connect(ws_url, max_size=2**20) as ws:
            self.send(ws, {"v": 1, "type": "hello", "token": token})
            for text in ws:
                msg = json.loads(text)
                if self.frames:
                    self.frames.write(json.dumps({"in": msg}) + "\n")
                kind = msg["type"]
                if kind == "welcome":
                    self.connections += 1
                    self.catalog.names = [s["name"] or "" for s in msg["table"]["seats"]]
                elif kind == "state" and self.on_state(ws, msg):
                    return True
                elif kind == "error":
                    self.log("! " + self.catalog.say(msg.get("refusal", {}).get("say")
                                                     or msg["say"]))
                    self.sent = None  # refused: nothing changed; the next state asks again
                elif kind == "chat":
                    self.log(f"{msg['name']}: {msg['text'] or self.catalog.say(msg['say'])}")
        return False

    def run(self) -> int:
        joined = self.create()
        table_id, token = joined["table"]["id"], joined["token"]
        self.log(f"table {table_id} (code {joined['table']['code']}), seat {joined['seat']}")
        end = time.monotonic() + self.args.timeout
        delay = 0.25
        while time.monotonic() < end:
            try:
                if self.session(table_id, token):
                    return 0
            except ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd is not None else None
                if code in NO_RECONNECT:
                    self.log(f"closed ({code}): not reconnecting")
                    return 1
            except OSError:
                pass  # the server is restarting: try again
            time.sleep(delay)
            delay = min(delay * 2, 5.0)
        self.log("the session did not end in time")
        return 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server")
    parser.add_argument("--lang", default="en", help="en, nl, de, it or nb")
    parser.add_argument("--name", default="Ann", help="this player's name")
    parser.add_argument("--bots", type=int, default=3, help="how many bots (1 to 7)")
    parser.add_argument("--bot", default="casual", help="their bot or level name")
    parser.add_argument("--preset", default="rulebook")
    parser.add_argument("--lives", type=int, default=3)
    parser.add_argument("--seed", type=int, default=None, help="this client's choices")
    parser.add_argument("--timeout", type=float, default=300, help="seconds in all")
    parser.add_argument("--frames", help="write every frame, both ways, to this file")
    parser.add_argument("--quiet", action="store_true", help="print only the standings")
    args = parser.parse_args(argv)
    client = Client(args)
    try:
        code = client.run()
    finally:
        if client.frames:
            client.frames.close()
    if args.quiet:
        print("\n".join(client.standings))
    return code


if __name__ == "__main__":
    sys.exit(main())
