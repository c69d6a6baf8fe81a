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
    CLAIM = "claim"  # armoede: claim or pass
    CLAIM_CHALLENGE = "claim_challenge"  # challenge an armoede claim or pass
    EXCHANGE = "exchange"  # exchange or pass
    EXCHANGE_CHALLENGE = "exchange_challenge"  # challenge an exchange or pass
    ANSWER = "answer"  # answer a knock: stay, fold or knock again
    PLAY = "play"  # play a card (or knock first)
    OVER = "over"  # the session is over
