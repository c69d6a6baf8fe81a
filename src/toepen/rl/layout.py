"""The layout the batched environment's two paths share: phase and action ids, and the
fields of its per-seat and per-game blocks (:mod:`toepen.rl.batch` plays them in NumPy,
:mod:`toepen.rl.kernel` compiled; neither imports the other's internals)."""

from __future__ import annotations

from ..engine.actions import CHALLENGE, CLAIM, EXCHANGE, FOLD, KNOCK, PASS, STAY
from ..engine.state import Phase

# Phase ids: the index in Phase (the observation's one-hot).
_PH = {p: i for i, p in enumerate(Phase)}
P_CLAIM, P_CLAIM_CH = _PH[Phase.CLAIM], _PH[Phase.CLAIM_CHALLENGE]
P_EXCH, P_EXCH_CH = _PH[Phase.EXCHANGE], _PH[Phase.EXCHANGE_CHALLENGE]
P_ANSWER, P_PLAY, P_OVER = _PH[Phase.ANSWER], _PH[Phase.PLAY], _PH[Phase.OVER]
A_KNOCK, A_STAY, A_FOLD = int(KNOCK), int(STAY), int(FOLD)
A_CLAIM, A_EXCH, A_CHAL, A_PASS = int(CLAIM), int(EXCHANGE), int(CHALLENGE), int(PASS)

(F_PLAYED, F_REVEALED, F_VOIDS, F_TELL_TEN, F_TELL_JACK, F_WON, F_ACCEPTED, F_KNOCKS,
 F_POOLS, F_DRINKS, F_LOST, F_LOST_BEFORE, F_RUBBERS_WON, F_HANDS, F_TRICK_CARD,
 F_TRICK_POS, F_COUNT) = range(17)
"""The per-seat fields of :attr:`ToepenBatch._per_seat` (the observation's per-seat blocks,
then the rest)."""
(G_KEYS, G_GAME_KEYS, G_EPISODES, G_DEALS, G_IN_SESSION, G_DEALER, G_HAND_NO,
 G_RUBBER_NO, G_WINNER, G_PHASE, G_TURN, G_ACTIVE, G_STOCK_POS, G_STAKE, G_LAST_KNOCKER,
 G_KNOCK_BAR, G_LEADER, G_RESUME, G_TRICK_COUNT, G_PLAYED_MASK, G_LED, G_TRICK_NO,
 G_ANY_CARD, G_CLAIMED, G_EXCHANGED, G_DISCARD, G_TARGET, G_QUEUE, G_ROUND_QUEUE,
 G_CURSOR, G_ROUND_CURSOR, G_HAND_OVER, G_DEAL_DUE, G_COUNT) = range(34)
"""The per-game fields, the rows of :attr:`ToepenBatch._game` (the compiled path passes
two blocks, not an array a field)."""
