"""Why a hint: the figures of the one valuation, as messages.

A hint (the browser's button, ``GET /api/tables/{id}/hint``; the terminal's ``?``) asks
the strongest bot what to do. Its reason (:func:`reason`, a ``hint.reason.*`` catalog
message with its parameters) is worded from the figures that bot decided by: the
expected lives of each legal action (:meth:`~toepen.bots.expert.ExpertBot.evaluation`,
the same values the review compares, :mod:`toepen.review`). It names the action, what
it loses on average, the next best action and what that one loses; when the two are
within :data:`TIE` lives it says they are about even, and never that one is better.

Lives are shown as :func:`lives` (``hint.lives``: a number with two decimals in the
reader's language, "0,40" in Dutch), never as a percent of a life. A forced move (one
legal action) is not a hint: :func:`forced` says there is nothing to decide.

A bot that gives no figures (``heuristic``, standing in when ``expert`` cannot run)
gets the facts of its card (it takes the trick, it follows low, a discard, a lead)
or, for a bet, ``hint.reason.unvalued``: no figure is made up.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..cards import beats, rank_of, suit_of
from ..engine import STAY, Action
from ..narration import Cards, Message, action_message
from ..view import View

__all__ = ["REASON_IDS", "TIE", "cents", "forced", "lives", "next_best", "reason"]

TIE = 0.02
"""Lives: two actions this close are about even (expert's ``MARGIN``: it mixes them)."""

REASON_IDS: tuple[str, ...] = (
    "hint.reason.better", "hint.reason.discard", "hint.reason.even",
    "hint.reason.follow_low", "hint.reason.forced", "hint.reason.lead_high",
    "hint.reason.lead_low", "hint.reason.others", "hint.reason.unvalued", "hint.reason.wins",
    "hint.reason.rebuy.stay", "hint.reason.rebuy.pass",
)
"""Every message :func:`reason` and :func:`forced` may answer with."""


def cents(x: float) -> int:
    """Lives lost, in hundredths, as shown: ``x`` is a value (negative: lost).

    >>> cents(-0.404), cents(0.1), cents(-2.0)
    (40, 0, 200)
    """
    return max(0, round(-100 * x))


def lives(hundredths: int) -> Message:
    """A number of lives with two decimals, in the reader's language (``hint.lives``).

    >>> lives(40)
    Message('hint.lives', whole=0, frac='40')
    """
    return Message("hint.lives", {"whole": hundredths // 100, "frac": f"{hundredths % 100:02d}"})


def next_best(values: Mapping[Action, float], act: Action) -> Action:
    """The best-valued action other than ``act`` (ties: table order)."""
    order = list(values)
    return max((a for a in order if a != act), key=lambda a: (values[a], -order.index(a)))


def forced(view: View) -> Message | None:
    """``hint.reason.forced`` when the seat has one legal action (nothing to decide:
    not a hint), else None."""
    if len(view.legal) != 1:
        return None
    return Message("hint.reason.forced", {"action": action_message(view.legal[0])})


def reason(view: View, act: Action, values: Mapping[Action, float] | None = None) -> Message:
    """Why ``act`` for the viewing seat: from ``values`` (the valuation the bot chose
    by, every legal action) when given, else the facts of the card (see the module).

    >>> from types import SimpleNamespace as V
    >>> from toepen.cards import parse_card as c
    >>> v = V(hand=(c("Th"), c("Jh")), trick=(), led_suit=-1, legal=(1, 2))
    >>> knock, fold = Action.parse("knock"), Action.parse("fold")
    >>> reason(v, knock, {knock: -0.3, fold: -1.0}).id
    'hint.reason.better'
    >>> reason(v, knock, {knock: -0.991, fold: -1.0}).id
    'hint.reason.even'
    >>> reason(v, Action.parse("play Th")).id
    'hint.reason.lead_high'
    """
    got = forced(view)
    if got is not None:
        return got
    if getattr(view, "phase", "") == "rebuy":  # valued in stakes, not lives: said plainly
        return Message(f"hint.reason.rebuy.{'stay' if act is STAY else 'pass'}",
                       {"action": action_message(act, "rebuy")})
    if values is not None and act in values and len(values) > 1:
        other = next_best(values, act)
        mine, theirs = cents(values[act]), cents(values[other])
        said = {"action": action_message(act), "other": action_message(other),
                "lose": lives(mine), "other_lose": lives(theirs)}
        if mine - theirs > round(100 * TIE):
            # Chosen for what it costs the others (expert's tie-breaker), not for the seat.
            return Message("hint.reason.others", said)
        if theirs - mine <= round(100 * TIE):
            return Message("hint.reason.even", said)
        return Message("hint.reason.better", {**said, "gain": lives(theirs - mine)})
    if act.is_play:
        return _play_reason(view, act)
    return Message("hint.reason.unvalued", {"action": action_message(act)})


def _play_reason(view: View, act: Action) -> Message:
    card = act.card
    said = {"card": Cards((card,))}
    if not view.trick:
        strongest = min(view.hand) if view.hand else card
        best_of_suit = all(not beats(o, card) for o in view.hand if suit_of(o) == suit_of(card))
        if card == strongest or (best_of_suit and rank_of(card) <= 1):
            return Message("hint.reason.lead_high", said)
        return Message("hint.reason.lead_low", said)
    led = view.led_suit
    if led >= 0 and suit_of(card) != led:
        return Message("hint.reason.discard", said)
    best = [c for _, c in view.trick if led < 0 or suit_of(c) == led]
    top = min(best) if best else None
    if top is None or beats(card, top):
        return Message("hint.reason.wins", said)
    return Message("hint.reason.follow_low", said)
