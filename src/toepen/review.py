"""Review a game: every decision of one seat, valued from what that seat knew then.

A review goes through a ``toepen-record/1`` document (:mod:`toepen.record`) and, at each
decision of the reviewed seat that had more than one legal action, values it by the one
valuation that ``expert`` decides by and the hint shows
(:meth:`~toepen.bots.expert.ExpertBot.evaluation`, through :func:`evaluate`):
inference-weighted sampling of the deals consistent with the seat's
:class:`~toepen.view.View`, the exact solver for the card play, and the escalation table
(the knock war to come), for **every** legal action. The seat's choice is compared with
the evaluation's best (a choice within :data:`TIE` lives of it is a tie, not a mistake);
the difference is the lives it cost on average. The biggest mistakes come first
(:meth:`Review.mistakes`), each with a short reason as a catalog message
(``review.reason.*``) worded from those values, in lives, that every client shows in its
own language.

No peeking: a decision's values are a pure function of the seat's view at that moment,
the review's seed and its sample count (:func:`evaluate`); nothing of the record that the
seat could not see reaches the bot. The **all cards** mode (``all_cards=True``) is the
exception, asked for after the game: it values each decision on the one true deal (every
hand open, so the card play is the exact solver's), and a review made so says so
(``Review.all_cards``, ``"mode": "all_cards"`` in its JSON).

Values are the change of the seat's own lives in the hand, 0 or negative (the opponents'
losses only break expert's near-ties, and are in no value). Blind rounds (the seat has not
seen its cards) are valued from an average hand
(:meth:`~toepen.bots.expert.ExpertBot.blind_values`). Under ``knock_anytime`` a knock out
of turn is reviewed as the knock window it was; a window's pass is not in a record
(nothing happened at the table), so it is not reviewed.

>>> from toepen.bots import make_bot
>>> from toepen.engine import Game
>>> from toepen.match import hand_over, play_game
>>> from toepen.record import to_record
>>> g = Game.new("rulebook", 3, seed=4)
>>> play_game(g, [make_bot("heuristic", seed=s) for s in range(3)], stop=hand_over(g))
>>> r = review(to_record(g), seat=1, samples=2)
>>> all(d.cost >= 0 and d.choice in d.values for d in r.decisions)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .bots.expert import Evaluation, ExpertBot
from .bots.knowledge import Knowledge
from .bots.pimc import World
from .bots.reasons import TIE, cents, lives, next_best
from .engine.actions import FOLD, KNOCK, STAY, Action, format_move
from .engine.phase import Phase
from .engine.state import Game
from .match import window_view
from .narration import Cards, Message, Param, action_message
from .record import RecordError, start
from .view import View, observe

__all__ = [
    "AT_IDS", "DEFAULT_SAMPLES", "FORMAT", "REASON_IDS", "TIE", "Decision", "Evaluation",
    "Point", "Review", "ReviewBot", "ReviewError", "at", "evaluate", "judge", "points", "review",
]

FORMAT = "toepen-review/1"
"""The ``format`` of a review's JSON (docs/review.md)."""
DEFAULT_SAMPLES = 48
"""Sampled deals per decision of a review unless asked otherwise."""
EPS = 1e-9
"""Costs up to this are none (:meth:`Review.mistakes`)."""

REASON_IDS: tuple[str, ...] = (
    "review.reason.best", "review.reason.tie",
    "review.reason.play", "review.reason.knock", "review.reason.no_knock",
    "review.reason.stay", "review.reason.fold", "review.reason.other",
)
"""Every message :func:`judge` gives as a decision's reason."""


class ReviewError(ValueError):
    """A review that cannot be made (a bad record or seat); the message names what."""


# -- the review bot -------------------------------------------------------------------------


class ReviewBot(ExpertBot):
    """``expert`` itself (its :meth:`~toepen.bots.expert.ExpertBot.evaluation`, sampled as
    an expert of the review's seed samples); with ``hands`` (the all-cards mode) it
    values the one true deal instead of sampled ones. It values nothing its own way."""

    name = "expert"

    def __init__(self, seed: int | None = None, samples: int | None = None,
                 hands: Sequence[int] | None = None) -> None:
        super().__init__(seed=seed, samples=samples)
        self.hands = None if hands is None else list(hands)

    def samples_for(self, view: View) -> int:
        if self.hands is not None:
            return 1
        return super().samples_for(view)

    def worlds(self, view: View, know: Knowledge, rng: random.Random, k: int) -> list[World]:
        """Sampled deals; in the all-cards mode, the true deal (seats out of the hand
        hold nothing, as in a sampled one)."""
        if self.hands is None:
            return super().worlds(view, know, rng, k)
        hands = [h if view.active[s] or s == know.me else 0 for s, h in enumerate(self.hands)]
        hands[know.me] = know.hand
        return [World(hands)]


# -- the decisions of a seat ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Point:
    """One decision of the reviewed seat in a record: what it saw, and what it chose."""

    index: int
    """The action's number in the record (1-based)."""
    view: View
    """The seat's view then (its knock window's under ``knock_anytime``)."""
    choice: Action
    window: bool
    hands: tuple[int, ...]
    """Every hand then; read only by the all-cards mode."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A reviewed decision: every legal action's expected lives, the choice and the best."""

    index: int
    """The action's number in the record (1-based): for machines; players are told
    :attr:`at`."""
    hand: int
    """The hand's number in the session (1-based)."""
    trick: int
    """The trick of the hand the decision belongs to (1-based; 1 before the first)."""
    phase: str
    window: bool
    lives: int
    """The seat's lives before the decision."""
    stake: int
    """The stake then (in an answer: the stake of the knock answered)."""
    choice: Action
    best: Action
    values: Mapping[Action, float]
    """Expected change of the seat's lives in this hand after each legal action."""
    cost: float
    """``values[best] - values[choice]`` (0 when the choice was best)."""
    reason: Message
    samples: int

    @property
    def at(self) -> Message:
        """The decision named as a player thinks of it (:func:`at`): "hand 3, trick 2"."""
        return at(self.hand, self.trick, self.phase, self.stake)

    def to_json(self) -> dict[str, Any]:
        seat_actions = sorted(self.values.items(), key=lambda kv: -kv[1])
        return {
            "index": self.index, "hand": self.hand, "trick": self.trick,
            "at": self.at.to_json(), "phase": self.phase,
            "window": self.window, "lives": self.lives, "stake": self.stake,
            "choice": str(self.choice), "best": str(self.best),
            "cost": round(self.cost, 4),
            "values": {str(a): round(v, 4) for a, v in seat_actions},
            "reason": self.reason.to_json(), "samples": self.samples,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """The review of one seat of a record."""

    seat: int
    players: tuple[str, ...]
    rules: str | dict[str, Any]
    all_cards: bool
    samples: int
    seed: int
    decisions: tuple[Decision, ...]
    lives: tuple[tuple[int, int], ...]
    """(action number, the seat's lives after it) at the start and after each hand."""
    start_lives: int

    @property
    def total_cost(self) -> float:
        """Lives the seat's choices cost on average over the whole record."""
        return sum(d.cost for d in self.decisions)

    def mistakes(self, limit: int | None = None) -> list[Decision]:
        """The decisions that cost lives, the biggest first (ties by order of play)."""
        bad = sorted((d for d in self.decisions if d.cost > EPS),
                     key=lambda d: (-d.cost, d.index))
        return bad if limit is None else bad[:limit]

    def expected(self) -> list[tuple[int, float, float]]:
        """(action number, expected lives after the choice, expected lives after the
        best) at each decision: the lives before it plus the action's value."""
        return [(d.index, d.lives + d.values[d.choice], d.lives + d.values[d.best])
                for d in self.decisions]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "seat": self.seat, "players": list(self.players),
            "rules": self.rules, "mode": "all_cards" if self.all_cards else "seat",
            "samples": self.samples, "seed": self.seed,
            "total_cost": round(self.total_cost, 4),
            "decisions": [d.to_json() for d in self.decisions],
            "mistakes": [d.index for d in self.mistakes()],
            "lives": [{"index": i, "lives": v} for i, v in self.lives],
            "expected": [{"index": i, "choice": round(c, 4), "best": round(b, 4)}
                         for i, c, b in self.expected()],
        }


def points(record: dict[str, Any], seat: int) -> tuple[list[Point], list[tuple[int, int]], Game]:
    """The reviewed seat's decisions in ``record`` (more than one legal action; not the
    buy-ins of pot toepen, valued in stakes, not lives), the
    seat's lives at the start and after each hand, and the game at the record's end.

    Raises :class:`ReviewError` for a bad record (naming the field or action) or seat.
    """
    try:
        game, actions = start(record)
    except RecordError as e:
        raise ReviewError(str(e)) from None
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.n:
        raise ReviewError(f"seat: must be a seat from 0 to {game.n - 1}, not {seat!r}")
    out: list[Point] = []
    lives = [(0, game.lives(seat))]
    for i, (s, act) in enumerate(actions, start=1):
        if game.phase is Phase.DEAL:
            raise ReviewError(f"action {i}: a new deal needs a deck that is not in the record")
        if s == seat:
            window = (game.phase is Phase.PLAY and act is KNOCK and s != game.turn
                      and s in game.knockers())
            view = window_view(game, s) if window else observe(game, s)
            # (the buy-in of pot toepen is a matter of money, not of play: not reviewed)
            if act in view.legal and len(view.legal) > 1 and game.phase is not Phase.REBUY:
                out.append(Point(i, view, act, window, tuple(game.hand_masks())))
        hand_no = game.hand_no
        try:
            game.apply(s, act)
        except Exception as e:  # noqa: BLE001 - the engine's refusal names the action
            raise ReviewError(f"action {i}: {format_move(s, act)}: {e}") from None
        if game.hand_no != hand_no or game.is_over:
            lives.append((i, game.lives(seat)))
    return out, lives, game


def evaluate(view: View, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
             hands: Sequence[int] | None = None) -> Evaluation:
    """``expert``'s valuation of ``view``'s decision (:meth:`ExpertBot.evaluation`):
    every legal action's expected lives, escalation included, and its best; a function
    of the view, the seed and the sample count only (``hands``: the all-cards mode's
    true deal). The one valuation the hint and expert share.

    Raises :class:`ReviewError` when the decision could not be valued."""
    bot = ReviewBot(seed=seed, samples=samples, hands=hands)
    try:
        return bot.evaluation(view)
    except Exception as e:  # noqa: BLE001 - named in the review's error
        raise ReviewError(f"action {view.action_count + 1}: {type(e).__name__}: {e}") from None


def judge(point: Point, evaluation: Evaluation, samples: int) -> Decision:
    """The decision of ``point`` with its valuation: the best, the cost, the reason.

    The best is the evaluation's (what expert takes when it does not mix), unless the
    seat's choice is within :data:`TIE` lives of it: a tie, not a mistake (expert mixes
    such actions itself)."""
    view = point.view
    values = evaluation.values
    choice = point.choice
    best = evaluation.best
    if best is choice or values[choice] >= values[best] - TIE:
        best = choice
    cost = values[best] - values[choice] if best is not choice else 0.0
    seat = view.seat if view.seat is not None else 0
    return Decision(
        index=point.index, hand=view.hand_no, trick=view.trick_no + 1, phase=str(view.phase),
        window=point.window,
        lives=view.lives[seat], stake=view.stake, choice=choice, best=best,
        values=dict(values), cost=cost, reason=reason(view, choice, best, values),
        samples=samples)


AT_IDS: tuple[str, ...] = (
    "review.at.trick", "review.at.knock", "review.at.blind", "review.at.declare",
)
"""Every message :func:`at` names a decision with."""


def at(hand: int, trick: int, phase: str, stake: int) -> Message:
    """A decision named as players think of it, never by a record's action number: "hand 3,
    trick 2" (the card play, a knock in turn or out of it), "hand 3, the knock at stake 2"
    (answering a knock), "hand 3, the blind round", "hand 3, before the first trick" (the
    declarations: armoede, exchanges, kans, laundry and their challenges)."""
    if phase == Phase.PLAY:
        return Message("review.at.trick", {"hand": hand, "trick": trick})
    if phase == Phase.ANSWER:
        return Message("review.at.knock", {"hand": hand, "stake": stake})
    if phase in (Phase.BLIND, Phase.BLIND_ANSWER):
        return Message("review.at.blind", {"hand": hand})
    return Message("review.at.declare", {"hand": hand})


def reason(view: View, choice: Action, best: Action, values: Mapping[Action, float]) -> Message:
    """Why ``best`` rather than ``choice``, in words, from the values alone (a
    ``review.reason.*`` message; every figure is one of the values, in lives, or the
    difference of two of them as shown)."""
    seat = view.seat if view.seat is not None else 0
    stake = view.stake
    if best is choice:
        other = next_best(values, choice)
        mine, theirs = cents(values[choice]), cents(values[other])
        said: dict[str, Param] = {"action": action_message(choice),
                                  "other": action_message(other),
                                  "lose": lives(mine), "other_lose": lives(theirs)}
        return Message("review.reason.tie" if theirs - mine <= round(100 * TIE)
                       else "review.reason.best", said)
    lose, best_lose = cents(values[choice]), cents(values[best])
    figures: dict[str, Param] = {
        "action": action_message(choice), "best": action_message(best),
        "lose": lives(lose), "best_lose": lives(best_lose),
        "cost": lives(max(0, lose - best_lose))}
    if choice.is_play and best.is_play:
        return Message("review.reason.play", {
            **figures, "card": Cards((choice.card,)), "other": Cards((best.card,))})
    if choice is KNOCK:
        return Message("review.reason.knock", {**figures, "stake": stake + 1})
    if best is KNOCK:
        return Message("review.reason.no_knock", figures)
    if choice is STAY and best is FOLD:
        return Message("review.reason.stay", {**figures, "stake": stake,
                                              "fold": view.accepted[seat]})
    if choice is FOLD and best is STAY:
        return Message("review.reason.fold", {**figures, "stake": stake,
                                              "fold": view.accepted[seat]})
    return Message("review.reason.other", figures)


Progress = Callable[[int, int], None]
"""Told ``(done, total)`` after each decision valued."""


def review(record: dict[str, Any], seat: int, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
           all_cards: bool = False, progress: Progress | None = None) -> Review:
    """The review of ``seat`` in ``record`` (see the module); ``progress`` is told
    ``(done, total)`` as decisions are valued.

    Raises :class:`ReviewError` naming what is wrong with the record or the seat."""
    pts, lives, game = points(record, seat)
    decisions: list[Decision] = []
    if progress is not None:
        progress(0, len(pts))
    for k, p in enumerate(pts, start=1):
        got = evaluate(p.view, samples=samples, seed=seed,
                       hands=p.hands if all_cards else None)
        decisions.append(judge(p, got, 1 if all_cards else samples))
        if progress is not None:
            progress(k, len(pts))
    return assemble(game, seat, decisions, lives, samples=samples, seed=seed,
                    all_cards=all_cards)


def assemble(game: Game, seat: int, decisions: Sequence[Decision],
             lives: Sequence[tuple[int, int]], *, samples: int, seed: int,
             all_cards: bool) -> Review:
    """The :class:`Review` of decisions valued elsewhere (the server's bot pool)."""
    return Review(seat=seat, players=tuple(game.players), rules=game.rules.to_json(),
                  all_cards=all_cards, samples=samples, seed=seed,
                  decisions=tuple(decisions), lives=tuple(lives),
                  start_lives=lives[0][1] if lives else game.lives(seat))
