"""Games played through the engine by bots, as a spectator saw them, for the sheet tests."""

from __future__ import annotations

from dataclasses import dataclass

from toepen.bots import make_bot
from toepen.engine import Event, EventKind, Game, redact
from toepen.match import decide
from toepen.rules import Rules
from toepen.tally import Sheet, entries_from_events

K = EventKind
SHEET_KINDS = frozenset({
    K.DEAL, K.REDEAL, K.CLAIM, K.EXCHANGE, K.CHALLENGE, K.CLAIM_RESULT, K.EXCHANGE_RESULT,
    K.PELT, K.KNOCK, K.STAY, K.FOLD, K.LIVES, K.ELIMINATED, K.HAND_RESULT, K.RUBBER, K.DRINKS,
    K.TOEPKONING, K.SUDDEN_DEATH, K.SESSION_RESULT,
    # house rules
    K.LAUNDRY, K.LAUNDRY_RESULT, K.KANS, K.FOUR_OF_A_KIND, K.JACK, K.LIFE_BACK,
    # pot toepen
    K.REBUY, K.POT,
})
"""The kinds of event a sheet works out: everything public but the cards and passes."""


@dataclass
class Played:
    game: Game
    events: list[Event]
    """Every event of the session as a spectator was told it, in order."""


def play_session(rules: Rules, players: int, seed: int, bot: str = "random") -> Played:
    """A whole session between bots; the spectator's events of all of it."""
    game = Game(rules, players, seed=seed, dealer=seed % players)
    bots = [make_bot(bot, seed=seed * 10 + s) for s in range(players)]
    events = redact(game.opening_events(None), None)
    while game.turn >= 0:
        seat = game.turn
        events += redact(game.apply(seat, decide(bots[seat], game, seat)), None)
    return Played(game, events)


def sheet_of(played: Played) -> Sheet:
    """The sheet a table keeps of ``played``, entered from its public events."""
    game = played.game
    sheet = Sheet(game.rules, game.players, dealer=game.first_dealer)
    for entry in entries_from_events(played.events, game.rules):
        sheet.add(entry)
    return sheet


def sheet_events(events: list[Event]) -> list[Event]:
    return [e for e in events if e.kind in SHEET_KINDS]
