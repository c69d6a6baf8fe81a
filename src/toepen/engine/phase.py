"""The phases of a game: whose decision of which kind the game awaits.

One type for the engine and the :class:`~toepen.view.View`: a ``StrEnum``, so a phase
prints as its word and compares equal to it.

>>> Phase.CLAIM, str(Phase.CLAIM), Phase.CLAIM == "claim"
(<Phase.CLAIM: 'claim'>, 'claim', True)
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    """Whose decision of which kind the game awaits."""

    DEAL = "deal"  # a new deal needs a deck that is not there (chance)
    BLIND = "blind"  # blind_knock: knock blind (to stake 3) or pass, cards unseen
    BLIND_ANSWER = "blind_answer"  # answer a blind knock: stay or fold, cards unseen
    CLAIM = "claim"  # armoede: claim or pass
    CLAIM_CHALLENGE = "claim_challenge"  # challenge an armoede claim or pass
    EXCHANGE = "exchange"  # exchange or pass
    EXCHANGE_CHALLENGE = "exchange_challenge"  # challenge an exchange or pass
    KANS = "kans"  # three_of_a_kind_draw: draw one card for the fourth (exchange) or pass
    LAUNDRY = "laundry"  # witte/vuile was: exchange the hand (exchange) or pass
    LAUNDRY_CHALLENGE = "laundry_challenge"  # check a laundry claim or pass
    REBUY = "rebuy"  # rebuy: a player just out buys back in (stay) or stays out (pass)
    ANSWER = "answer"  # answer a knock: stay, fold or knock again
    PLAY = "play"  # play a card (or knock first)
    OVER = "over"  # the session is over
