"""Toepen as an OpenSpiel game: ``pyspiel.load_game("python_toepen(players=2,...)")``.

Importing this module registers the game under the short name ``python_toepen``.

Parameters (all optional):

===============  ============  ===========================================================
``preset``       "rulebook"    a preset of ``rules.md``
``players``      4             table size (2..8, as the preset allows)
``lives``        0             lives per seat (0: the preset's)
``options``      ""            more rule options: ``key:value`` joined by ``;``
                               (``tells:tens;pelt:true``: game strings split at commas)
``episode``      "session"     ``session`` or ``hand`` (the first hand only)
``dealer``       0             the first dealer
``max_moves``    0             decisions after which the episode is cut off (0: automatic)
``zero_sum``     False         centre the returns on the table mean (a zero-sum game)
===============  ============  ===========================================================

Chance deals the cards one at a time from the top of the deck (outcome = card id, 0..31,
uniform over the cards not yet dealt), as many as can ever be seen: the hands, plus the
stock the exchanges can draw when ``exchange`` is on. Redeals (armoede) and every new
hand start a new run of chance nodes. Player actions are the engine's action ids 0..38.
Under ``knock_anytime`` one player still acts at a time: before each card every seat that
may knock out of turn is the current player in seat order with the legal actions knock and
pass, then the player to play (:mod:`toepen.rl.windows`).

Returns are the lives each seat (a pair, in teams) lost, as negatives; rewards arrive
with the decision that caused them. A session can last without bound (counter-knocks
under ``knock_limit: none``, sudden deaths), so an episode is cut off after
``max_moves`` decisions (automatic: a proven bound on the decisions of one hand when
the stake is capped and ``episode=hand``, so nothing is cut off; else 10000);
``rubbers`` must be finite.

>>> import pyspiel
>>> game = pyspiel.load_game("python_toepen(players=2,lives=1,episode=hand)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 32)
>>> for card in range(8):
...     state.apply_action(card)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(1, ['claim', 'pass'])
>>> state.information_state_string(1).splitlines()[2]
'hand seat=1 value=4 cards=Tc 8c Ac Qc (private)'
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from ..bots import make_bot
from ..cards import card_str, cards_of
from ..engine.actions import ACTIONS, NUM_ACTIONS, PASS
from ..engine.events import Event, EventKind, redact
from ..engine.state import Game, Phase
from ..match import Incident, ask
from ..record import to_record
from ..rules import TELL_WORDS, Rules, RulesError
from ..view import View
from .encoding import HistoryEncoder, ObservationEncoder
from .limits import hand_decision_bound, hand_loss_bound, stake_cap
from .windows import KnockWindows

__all__ = [
    "SHORT_NAME", "ToepenConfig", "ToepenGame", "ToepenState", "ToepenObserver",
    "ToepenBot", "make_bots",
]

SHORT_NAME = "python_toepen"
SESSION_MAX_MOVES = 10_000
"""The automatic cut-off of a session episode, in decisions."""

_DEFAULTS: dict[str, Any] = {
    "preset": "rulebook",
    "players": 4,
    "lives": 0,
    "options": "",
    "episode": "session",
    "dealer": 0,
    "max_moves": 0,
    "zero_sum": False,
}


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Toepen (Python)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=8,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)
_ZERO_SUM_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


@dataclass(frozen=True)
class ToepenConfig:
    """The validated parameters of a ``python_toepen`` game."""

    rules: Rules
    players: int
    episode: str
    dealer: int
    max_moves: int
    zero_sum: bool
    stake: int
    """The highest stake a hand can reach (with no cap: bounded by ``max_moves``)."""
    history_length: int
    """Rows of the history block of the information-state tensor."""

    @staticmethod
    def from_params(params: dict[str, Any]) -> ToepenConfig:
        """Validate OpenSpiel parameters (ValueError naming the parameter)."""
        p = dict(_DEFAULTS)
        for key, value in params.items():
            if key not in _DEFAULTS:
                raise ValueError(f"parameter {key}: unknown (one of {', '.join(_DEFAULTS)})")
            p[key] = value
        for key in ("players", "lives", "dealer", "max_moves"):
            if not isinstance(p[key], int) or isinstance(p[key], bool):
                raise ValueError(f"parameter {key}: must be an integer, not {p[key]!r}")
        options = parse_options(p["options"])
        if p["lives"]:
            options["lives"] = p["lives"]
        try:
            rules = Rules.preset(p["preset"], **options)
            rules.check_table(p["players"])
        except (RulesError, TypeError) as e:
            raise ValueError(f"parameter preset/options: {e}") from None
        n = p["players"]
        if rules.session == "rubber" and rules.rubbers is None:
            raise ValueError(
                "parameter options: rubbers must be finite (an open-ended session never ends)"
            )
        if p["episode"] not in ("session", "hand"):
            raise ValueError(f"parameter episode: session or hand, not {p['episode']!r}")
        if not 0 <= p["dealer"] < n:
            raise ValueError(f"parameter dealer: a seat from 0 to {n - 1}, not {p['dealer']}")
        if p["max_moves"] < 0:
            raise ValueError(f"parameter max_moves: must be >= 0, not {p['max_moves']}")
        cap = stake_cap(rules)
        max_moves = p["max_moves"]
        if not max_moves:
            if p["episode"] == "hand" and cap is not None:
                max_moves = hand_decision_bound(rules, n, cap)
            else:
                max_moves = SESSION_MAX_MOVES
        stake = cap if cap is not None else max_moves + 1
        if cap is None:
            history = min(hand_decision_bound(rules, n, 16), max_moves)
        else:
            history = min(hand_decision_bound(rules, n, cap), max_moves)
        return ToepenConfig(
            rules=rules,
            players=n,
            episode=p["episode"],
            dealer=p["dealer"],
            max_moves=max_moves,
            zero_sum=bool(p["zero_sum"]),
            stake=stake,
            history_length=history,
        )

    def loss_bound(self) -> int:
        """The most lives one seat can lose in an episode."""
        per_hand = hand_loss_bound(self.rules, self.players, self.stake)
        if self.episode == "hand":
            return per_hand
        # Every decision settles at most one payment per seat (or pair), each at most
        # one hand's worth.
        return per_hand * self.max_moves

    def cards_to_deal(self, seats: int) -> int:
        """How many cards chance deals for a table of ``seats`` (the 32nd is implied)."""
        dealt = 4 * seats
        if self.rules.exchange:
            dealt += 4 * min(seats, (32 - dealt) // 4)
        return min(dealt, 31)


_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+")


def parse_options(text: Any) -> dict[str, Any]:
    """Rule options from the ``options`` parameter: ``key:value`` pairs joined by ``;``.

    OpenSpiel game strings split parameters at commas, so the options use none:
    ``true``/``false``, ``null``, integers, decimals and words are understood.

    >>> parse_options("tells:tens;pelt:true;rubbers:1;max_stake:null;pot:0.5")
    {'tells': 'tens', 'pelt': True, 'rubbers': 1, 'max_stake': None, 'pot': 0.5}
    >>> parse_options("lives")
    Traceback (most recent call last):
    ...
    ValueError: parameter options: 'lives' is not key:value (pairs are joined by ';')
    """
    if not isinstance(text, str):
        raise ValueError(f"parameter options: must be text, not {text!r}")
    options: dict[str, Any] = {}
    for pair in filter(None, (p.strip() for p in text.split(";"))):
        key, sep, raw = pair.partition(":")
        key, raw = key.strip(), raw.strip()
        if not sep or not key:
            raise ValueError(
                f"parameter options: {pair!r} is not key:value (pairs are joined by ';')"
            )
        value: Any
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        elif raw.lower() in ("null", "none"):
            value = None
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        elif _DECIMAL.fullmatch(raw):  # a pot's stake: 0.5
            value = float(raw)
        else:
            value = raw
        options[key] = value
    return options


class ToepenGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game (see the module documentation for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        cfg = ToepenConfig.from_params(params or {})
        self.config = cfg
        bound = float(cfg.loss_bound())
        n = cfg.players
        if cfg.zero_sum:
            spread = bound * (n - 1) / n
            info = pyspiel.GameInfo(
                num_distinct_actions=NUM_ACTIONS,
                max_chance_outcomes=32,
                num_players=n,
                min_utility=-spread,
                max_utility=spread,
                utility_sum=0.0,
                max_game_length=cfg.max_moves,
            )
            game_type = _ZERO_SUM_TYPE
        else:
            info = pyspiel.GameInfo(
                num_distinct_actions=NUM_ACTIONS,
                max_chance_outcomes=32,
                num_players=n,
                min_utility=-bound,
                max_utility=0.0,
                utility_sum=None,
                max_game_length=cfg.max_moves,
            )
            game_type = _GAME_TYPE
        full = dict(_DEFAULTS)
        full.update(params or {})
        super().__init__(game_type, info, full)

    def new_initial_state(self) -> ToepenState:
        """A new episode: the first deal awaits its cards (chance)."""
        return ToepenState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ToepenObserver:
        """An observer: the default observation, or the information state (perfect recall)."""
        return ToepenObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            self.config,
            params,
        )


class _Session:
    """The mutable part of a state: the engine game, the cards dealt so far, the events.

    Copied by :meth:`Game.clone` (OpenSpiel deep-copies state attributes) and pickled as
    its decks and actions (serialisation replays them).
    """

    __slots__ = ("config", "game", "pending", "events", "moves", "baseline", "windows")

    def __init__(
        self,
        config: ToepenConfig,
        game: Game,
        pending: list[int],
        events: list[Event],
        moves: int,
        baseline: list[float],
        windows: KnockWindows | None = None,
    ) -> None:
        self.config = config
        self.game = game
        self.pending = pending
        self.events = events
        self.moves = moves
        self.baseline = baseline
        self.windows = KnockWindows(game) if windows is None else windows

    @staticmethod
    def new(config: ToepenConfig) -> _Session:
        game = Game(config.rules, config.players, dealer=config.dealer)
        opening = game.opening_events(omniscient=True)
        return _Session(config, game, [], opening, 0, [0.0] * config.players)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Session:
        game = self.game.clone()
        return _Session(
            self.config,
            game,
            list(self.pending),
            list(self.events),
            self.moves,
            list(self.baseline),
            self.windows.copy(game),
        )

    def __reduce__(self) -> tuple[Any, ...]:
        g = self.game
        return (
            _restore_session,
            (
                g.rules.to_json(),
                g.n,
                g.first_dealer,
                self.config,
                g.dealt_decks(),
                [(s, int(a)) for s, a in g.actions],
                list(self.pending),
                self.moves,
                list(self.baseline),
                list(self.windows.passes),
            ),
        )

    @property
    def terminal(self) -> bool:
        g = self.game
        if g.phase is Phase.OVER or self.moves >= self.config.max_moves:
            return True
        return self.config.episode == "hand" and g.hand_no > 1

    def losses(self) -> list[float]:
        """Lives lost by each seat's side."""
        g = self.game
        by_team: dict[int, int] = {}
        for seat, lost in enumerate(g.lives_lost):
            by_team[g.team_of[seat]] = by_team.get(g.team_of[seat], 0) + lost
        return [float(by_team[g.team_of[s]]) for s in range(g.n)]

    def returns(self) -> list[float]:
        r = [-x for x in self.losses()]
        if self.config.zero_sum:
            mean = sum(r) / len(r)
            r = [x - mean for x in r]
        return r

    def deal_card(self, card: int) -> None:
        self.pending.append(card)
        seats = self.game.in_session.bit_count()
        if len(self.pending) >= self.config.cards_to_deal(seats):
            rest = sorted(set(range(32)) - set(self.pending))
            deck = self.pending + rest
            self.pending = []
            self.events.extend(self.game.deal(deck))
            self.windows.reopen()  # under knock_anytime the play may open with a window

    def decide(self, action: int) -> None:
        """The decision of the seat asked now (under ``knock_anytime`` maybe a seat in a
        knock window: knock or pass)."""
        self.baseline = self.returns()
        w = self.windows
        seat = w.seat
        passes = len(w.passes)
        self.events.extend(w.apply(seat, ACTIONS[action]))
        if len(w.passes) > passes:
            self.events.append(_window_pass(seat))
        self.moves += 1


def _window_pass(seat: int) -> Event:
    """A knock window's pass, public, in the event log (the engine records none), so that
    an information state with perfect recall holds it."""
    return Event(EventKind.PASS, seat, 0, (), "window", False)


def _restore_session(
    rules_json: Any,
    n: int,
    dealer: int,
    config: ToepenConfig,
    decks: list[list[int]],
    actions: list[tuple[int, int]],
    pending: list[int],
    moves: int,
    baseline: list[float],
    passes: list[tuple[int, int]] | None = None,
) -> _Session:
    rules = Rules.from_json(rules_json)
    game = Game(rules, n, decks=decks, dealer=dealer)
    events = game.opening_events(omniscient=True)
    windows = KnockWindows(game)
    todo = list(passes or ())
    todo.reverse()
    for i, (seat, act) in enumerate([*actions, (-1, -1)]):
        while todo and todo[-1][0] == i:  # the window passes before the i-th action
            windows.apply(todo.pop()[1], ACTIONS[int(PASS)])
            events.append(_window_pass(windows.passes[-1][1]))
        if seat >= 0:
            events.extend(windows.apply(seat, ACTIONS[act]))
    return _Session(config, game, pending, events, moves, baseline, windows)


class ToepenState(pyspiel.State):  # type: ignore[misc]
    """One position of a ``python_toepen`` episode."""

    def __init__(self, game: ToepenGame) -> None:
        super().__init__(game)
        self._s = _Session.new(game.config)

    # -- the OpenSpiel API ---------------------------------------------------------------

    def current_player(self) -> int:
        s = self._s
        if s.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if s.game.phase is Phase.DEAL:
            return int(pyspiel.PlayerId.CHANCE)
        return s.windows.seat

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(int(a) for a in self._s.windows.legal(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = set(self._s.pending)
        cards = [c for c in range(32) if c not in dealt]
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._s.deal_card(action)
        else:
            self._s.decide(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_str(action)}"
        return str(ACTIONS[action])

    def is_terminal(self) -> bool:
        return self._s.terminal

    def returns(self) -> list[float]:
        return self._s.returns()

    def rewards(self) -> list[float]:
        """What the last decision caused (lives lost as negatives), per seat."""
        now = self._s.returns()
        return [a - b for a, b in zip(now, self._s.baseline, strict=True)]

    def __str__(self) -> str:
        g = self._s.game
        hands = " | ".join(" ".join(card_str(c) for c in cards_of(h)) for h in g.hand_masks())
        trick = " ".join(f"{s}:{card_str(c)}" for s, c in g.trick)
        return (
            f"hand {g.hand_no} phase {g.phase.name.lower()} turn {g.turn} dealer {g.dealer} "
            f"stake {g.stake} lives {g.lives_by_seat()} moves {self._s.moves}\n"
            f"hands {hands}\ntrick {trick}\n"
            f"dealt {' '.join(card_str(c) for c in self._s.pending)}"
        )

    # -- toepen extras -------------------------------------------------------------------

    def view(self, seat: int | None) -> View:
        """``observe(game, seat)``: what ``seat`` may know (None: a spectator); its
        ``legal`` the actions it may take now (knock or pass in a knock window)."""
        return self._s.windows.view(seat)

    def record(self) -> dict[str, Any]:
        """The episode so far as a ``toepen-record/1`` (the whole truth: every deck)."""
        return to_record(self._s.game)

    def lives(self) -> list[int]:
        """Lives by seat (teams: the pair's pool)."""
        return self._s.game.lives_by_seat()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> ToepenState:
        """A state ``player_id`` cannot tell from this one, its hidden cards drawn anew.

        Every deal is redrawn: the cards ``player_id`` has seen (its own, cards played,
        hands shown by a challenge) stay where they are; the others are shuffled over the
        remaining places, rejecting deals that contradict a shown void or a tell, and the
        result is checked by replaying every decision and comparing the information
        state. Random bits come from ``probability_sampler`` (a callable returning floats
        in [0, 1), e.g. ``pyspiel.UniformProbabilitySampler``).
        """
        game = self.get_game()
        if not 0 <= player_id < game.num_players():
            raise ValueError(f"player_id: no player {player_id}")
        rng = random.Random(int(probability_sampler() * 2**53))
        target = self.information_state_string(player_id)
        knowledge = _deal_knowledge(self._s.events, player_id)
        decks = self._s.game.dealt_decks()
        if len(knowledge) != len(decks):
            raise RuntimeError("the event log does not match the decks")  # pragma: no cover
        history = self.full_history()
        tell_ranks = self._s.config.rules.tell_ranks
        for _ in range(_RESAMPLE_TRIES):
            # Each deal is redrawn until it passes the cheap checks (voids, tells) on its
            # own; the replay then checks everything together.
            new_decks = [
                _redraw_until_consistent(deck, know, tell_ranks, rng)
                for deck, know in zip(decks, knowledge, strict=True)
            ]
            pending = rng.sample(range(32), len(self._s.pending))
            state = _replay_with_decks(game, history, new_decks, pending)
            if state is not None and state.information_state_string(player_id) == target:
                return state
        raise RuntimeError(
            f"resample_from_infostate: no consistent deal found in {_RESAMPLE_TRIES} tries"
        )


_RESAMPLE_TRIES = 200
_RANK_OF_WORD = {word: rank for rank, word in TELL_WORDS.items()}
_DEAL_TRIES = 100_000


@dataclass
class _DealKnowledge:
    """What one seat knows about one deal: fixed cards and constraints on the others."""

    known: set[int]
    """Cards whose place the seat knows (own, played, shown)."""
    order: list[int]
    """Seats in dealing order."""
    exchangers: list[int]
    """Seats that exchanged, in order (each drew the next 4 stock cards)."""
    voids: dict[int, set[int]]
    """Seat -> suits it showed it lacked while playing."""
    tells: dict[int, dict[int, int]]
    """Seat -> {rank: count} announced."""


def _deal_knowledge(events: Sequence[Event], seat: int) -> list[_DealKnowledge]:
    """Per deal, from ``seat``'s redacted events."""
    out: list[_DealKnowledge] = []
    cur: _DealKnowledge | None = None
    led = -1
    for e in redact(list(events), seat):
        k = e.kind
        if k in (EventKind.DEAL, EventKind.REDEAL):
            cur = _DealKnowledge(set(), [], [], {}, {})
            out.append(cur)
            led = -1
            continue
        if cur is None:
            continue
        if k is EventKind.HAND:
            cur.order.append(e.seat)
            cur.known.update(e.cards)
        elif k is EventKind.DRAW or k is EventKind.REVEAL:
            cur.known.update(e.cards)
        elif k is EventKind.EXCHANGE:
            cur.exchangers.append(e.seat)
        elif k is EventKind.TELL:
            rank = _RANK_OF_WORD[e.detail]
            cur.tells.setdefault(e.seat, {})[rank] = e.value
        elif k is EventKind.PLAY:
            card = e.cards[0]
            cur.known.add(card)
            if led < 0:
                led = card >> 3
            elif card >> 3 != led:
                cur.voids.setdefault(e.seat, set()).add(led)
        elif k is EventKind.TRICK:
            led = -1
    return out


def _redraw_deck(
    deck: list[int], know: _DealKnowledge, tell_ranks: tuple[int, ...], rng: random.Random
) -> list[int] | None:
    """``deck`` with the unknown cards shuffled over the unknown places (None: a void or
    a tell is contradicted)."""
    free = [i for i, c in enumerate(deck) if c not in know.known]
    cards = [deck[i] for i in free]
    rng.shuffle(cards)
    new = list(deck)
    for i, c in zip(free, cards, strict=True):
        new[i] = c
    m = len(know.order)
    if m == 0:
        return new
    hands = {seat: [new[j + k * m] for k in range(4)] for j, seat in enumerate(know.order)}
    held = dict(hands)
    pos = 4 * m
    for seat in know.exchangers:
        held[seat] = new[pos:pos + 4]
        pos += 4
    for seat, suits in know.voids.items():
        if any(c >> 3 in suits for c in held[seat] if c not in know.known):
            return None
    for seat, cards_ in hands.items():
        said = know.tells.get(seat, {})
        for rank in tell_ranks:
            count = sum(1 for c in cards_ if c & 7 == rank)
            announced = said.get(rank)
            if (count != announced) if announced is not None else (count >= 3):
                return None
    return new


def _redraw_until_consistent(
    deck: list[int], know: _DealKnowledge, tell_ranks: tuple[int, ...], rng: random.Random
) -> list[int]:
    for _ in range(_DEAL_TRIES):
        new = _redraw_deck(deck, know, tell_ranks, rng)
        if new is not None:
            return new
    # The true deck passes every check, so this needs astronomically bad luck.
    raise RuntimeError(  # pragma: no cover
        f"resample_from_infostate: no deal consistent with the voids in {_DEAL_TRIES} tries"
    )


def _replay_with_decks(
    game: ToepenGame, history: Sequence[Any], decks: list[list[int]], pending: list[int]
) -> ToepenState | None:
    """The history with its chance outcomes taken from ``decks`` (None: it breaks a rule)."""
    state = game.new_initial_state()
    deck_i = 0
    pos = 0
    try:
        for item in history:
            if item.player == pyspiel.PlayerId.CHANCE:
                if deck_i < len(decks):
                    state.apply_action(decks[deck_i][pos])
                    pos += 1
                    if not state.is_chance_node():
                        deck_i += 1
                        pos = 0
                else:
                    state.apply_action(pending[pos])
                    pos += 1
            else:
                if state.current_player() != item.player:
                    return None
                state.apply_action(item.action)
    except pyspiel.SpielError:
        return None
    return state


class ToepenObserver:
    """An OpenSpiel observer over :func:`toepen.view.observe` (the PyObserver interface).

    Tensor: the observation vector of :class:`~toepen.rl.encoding.ObservationEncoder`;
    with perfect recall, followed by the hand's decisions
    (:class:`~toepen.rl.encoding.HistoryEncoder`). String: the seat's view as JSON, or
    with perfect recall every event of the episode as the seat saw it. Without private
    information the seat's own cards are left out.
    """

    def __init__(self, iig_obs_type: Any, config: ToepenConfig, params: Any = None) -> None:
        if params:
            raise ValueError(f"observer parameters: none are supported, not {params!r}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observer: private information of all players is not offered")
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.encoder = ObservationEncoder(config.players)
        self.history = HistoryEncoder(config.players, config.history_length)
        size = self.encoder.size + (self.history.size if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {
            "observation": self.tensor[: self.encoder.size]
        }
        if self.perfect_recall:
            self.dict["history"] = self.tensor[self.encoder.size :]

    def set_from(self, state: ToepenState, player: int) -> None:
        view = state.view(player)
        self.encoder.encode(view, out=self.dict["observation"])
        if not self.private:
            self.dict["observation"][self.encoder.slices["hand"]] = 0.0
        if not self.public:
            hand = self.dict["observation"][self.encoder.slices["hand"]].copy()
            self.tensor.fill(0.0)
            if self.private:
                self.dict["observation"][self.encoder.slices["hand"]] = hand
            return
        if self.perfect_recall:
            self.history.encode(view, out=self.dict["history"])

    def string_from(self, state: ToepenState, player: int) -> str:
        s = state._s
        who: int | None = player if self.private else None
        if not self.public:
            hand = state.view(player).hand if self.private else ()
            return f"p{player} hand {' '.join(card_str(c) for c in hand)}"
        if self.perfect_recall:
            lines = [f"p{player}", *(str(e) + (" (private)" if e.private else "")
                                    for e in redact(s.events, who))]
            lines.append(f"dealt {len(s.pending)}")
            return "\n".join(lines)
        data = (state.view(player) if self.private else state.view(None)).to_json()
        data.pop("legal", None)
        return f"p{player} " + json.dumps(data, sort_keys=True, separators=(",", ":"))


class ToepenBot(pyspiel.Bot):  # type: ignore[misc]
    """A toepen bot (``make_bot(name)``) as a ``pyspiel.Bot`` for one seat.

    It sees only ``observe(game, seat)``, exactly as in every other front end.
    """

    def __init__(
        self,
        name: str,
        player_id: int,
        *,
        seed: int | None = None,
        time_budget: float | None = None,
    ) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = make_bot(name, seed=seed, time_budget=time_budget)
        self.name = name
        self.seed = seed
        self.player_id = player_id
        self.incidents: list[Incident] = []
        """Answers of the bot that the fallback replaced (:func:`toepen.match.ask`)."""

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def step(self, state: Any) -> int:
        if not isinstance(state, ToepenState):
            raise TypeError(f"ToepenBot plays python_toepen states, not {type(state).__name__}")
        if state.current_player() != self.player_id:
            raise ValueError(
                f"ToepenBot for player {self.player_id} asked to act for "
                f"{state.current_player()}"
            )
        return int(ask(self.bot, state.view(self.player_id), self.seed, self.incidents.append,
                       self.name))


def make_bots(
    names: Sequence[str], *, seed: int | None = None, time_budget: float | None = None
) -> list[ToepenBot]:
    """One :class:`ToepenBot` per seat, by bot name (seeded ``seed``, ``seed + 1``...)."""
    return [
        ToepenBot(
            name, i, seed=None if seed is None else seed + i, time_budget=time_budget
        )
        for i, name in enumerate(names)
    ]


def _register() -> None:
    # A second registration (the module reloaded) is refused by pyspiel: keep the first.
    with contextlib.suppress(pyspiel.SpielError):
        pyspiel.register_game(_GAME_TYPE, ToepenGame)


_register()
