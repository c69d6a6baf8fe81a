"""A game whose cards are not known: the engine's hook for a table that plays real cards.

Every rule of :class:`~toepen.engine.state.Game` reads public facts only, except a few
steps that read or move hidden cards ("the cards" in :mod:`.state`): dealing, what the
players see in their cards (tells, four of a kind), who may draw for kans, what a drawn
card made and what a shown hand turned out to be. An :class:`UnseenGame` is the same
``Game`` with those steps told by the table instead: nothing is dealt, nobody is told a
card, every seat may be asked to draw for kans, and what a kans draw made or a challenge
showed is what the table said (:meth:`UnseenGame.tell`) before the action that reads it.
Two facts of the play only the table knows: whose turn it is to play a card
(:meth:`UnseenGame.take_turn`) and which trick is the last one
(:meth:`UnseenGame.last_trick`); and it knows that four of a kind was shown
(:meth:`UnseenGame.show_four`). Whether a card has been played before a knock
(``first_player_may_knock_early``) is the table's too: every knock of the rules is allowed.

Everything else is the engine's: ``apply`` with its refusals, the stake, lives, the
session, the events. The score sheet (:mod:`toepen.tally`) drives one through the public
facts of a pub table and reads it through ``Game``'s public properties and the few
round facts below (:attr:`~UnseenGame.queue`, :attr:`~UnseenGame.declaration`...).

>>> from toepen.engine import PASS, KNOCK, STAY, FOLD
>>> from toepen.rules import Rules
>>> g = UnseenGame(Rules.preset("rulebook", lives=3), ["Ann", "Bas", "Cor"])
>>> g.phase, g.queue, g.declaration.name
(<Phase.CLAIM: 'claim'>, (1, 2, 0), 'armoede')
>>> for seat in g.queue:
...     _ = g.apply(seat, PASS)
>>> g.phase, g.turn, g.hand_mask(1)
(<Phase.PLAY: 'play'>, 1, 0)
>>> _ = g.apply(1, KNOCK); _ = g.apply(2, STAY); _ = g.apply(0, FOLD)
>>> [str(e.kind) for e in g.last_trick(2)][:2]  # last trick loses: Cor pays the stake
['hand_result', 'lives']
>>> g.lives_by_seat(), g.hand_no
([2, 3, 1], 2)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import RANK_MASKS
from ..rules import Rules
from .core import GameCore, slot_copier
from .declare import Declaration
from .events import Event, EventKind
from .phase import Phase
from .refusal import IllegalAction, Refusal
from .state import Game

__all__ = ["UnseenGame"]


class UnseenGame(Game):
    """A :class:`~toepen.engine.state.Game` whose cards are not known (see the module).

    Build it with the rules, the players and the first dealer; drive it with ``apply``
    (the engine's own), :meth:`tell` before an action whose outcome depends on cards,
    :meth:`take_turn` during the tricks, :meth:`show_four` and :meth:`last_trick`.
    ``hand_mask`` reads 0 except for four of a kind shown; the deck is empty.
    """

    __slots__ = ("_shown", "_drawn_four", "_seen_at", "_deals")

    _shown: str  # what the next shown hand turned out to be (a declaration's word)
    _drawn_four: int  # the rank the next kans draw made four of, -1 for a miss
    _seen_at: int  # len(_actions) when the cards of this deal were seen
    _deals: int  # deals so far, redeals included

    def __init__(self, rules: Rules, players: Sequence[str], dealer: int = 0) -> None:
        self._shown = ""
        self._drawn_four = -1
        self._seen_at = -1
        self._deals = 0
        super().__init__(rules, tuple(players), dealer=dealer)
        self._early = True  # whether a card has been played is the table's to say

    def clone(self) -> UnseenGame:
        """An independent copy (lists copied shallowly, as ``Game.clone``)."""
        twin = object.__new__(UnseenGame)
        _copy_slots(twin, self)
        return twin

    # -- what the table tells ---------------------------------------------------------------

    def tell(self, *, shown: str = "", drawn_four: int = -1) -> None:
        """What the table says of the cards the next action reveals: ``shown``, the word a
        challenged declaration's shown hand turned out to be (``genuine``, ``false``,
        ``caught``, ``witte_was``...: the declaration's honest words and its dishonest
        one); ``drawn_four``, the rank (0 to 7, ``toepen.cards``' order) a kans draw made
        four of, -1 when it missed. It holds until told again."""
        self._shown = shown
        self._drawn_four = drawn_four

    def take_turn(self, seat: int) -> None:
        """During the tricks the table knows who is to play a card: ``seat`` is (nothing
        changes outside the play)."""
        if self._phase is Phase.PLAY and self._turn != seat:
            self._turn = seat
            self._legal = None

    def show_four(self, seat: int, rank: int) -> list[Event]:
        """``seat`` shows four cards of ``rank``: it wins the hand (four of a kind, or a
        kans draw that made it); the events."""
        ev: list[Event] = []
        self._ev = ev
        self._hands[seat] = RANK_MASKS[rank]
        self._four_of_a_kind(seat)
        return ev

    def last_trick(self, seat: int, card: int = -1) -> list[Event]:
        """``seat`` took the last trick (with ``card``, for ``jack_last_trick``): the hand
        is settled; the events. IllegalAction outside the play."""
        if self._phase is not Phase.PLAY:
            raise IllegalAction(Refusal("not_now", {"seat": seat, "action": "play",
                                                    "phase": self._phase.value}))
        ev: list[Event] = []
        self._ev = ev
        self._settle(seat, card)
        return ev

    # -- the round, as the table sees it ------------------------------------------------------

    @property
    def queue(self) -> tuple[int, ...]:
        """The seats still to be asked in the current round (the blind round, a
        declaration or its challenge, the answers to a knock, the rebuy round), the next
        first."""
        return tuple(self._queue)

    @property
    def declaration(self) -> Declaration | None:
        """The declaration of the current or latest round of this deal (None before one)."""
        return self._decl

    @property
    def rounds(self) -> tuple[Declaration, ...]:
        """The declaration rounds of a deal under these rules, in order."""
        return self._rounds

    def declared(self, decl: Declaration) -> int:
        """Mask of the seats that made ``decl`` this hand."""
        return self._declared[decl.index]

    def opponents(self, seat: int) -> int:
        """Mask of the seats in the hand that play against ``seat`` (teams: not its partner)."""
        return self._opponents_mask(seat)

    @property
    def deals(self) -> int:
        """Deals so far, redeals included."""
        return self._deals

    @property
    def cards_just_seen(self) -> bool:
        """The players have just seen their cards and nobody has acted since (when four of
        a kind may be shown)."""
        return self._seen_at == len(self._actions)

    # -- the cards, as the table tells them ----------------------------------------------------

    def _deal_cards(self, order: tuple[int, ...], redeal: bool) -> bool:
        self._deals += 1
        self._ev.append(Event(EventKind.REDEAL if redeal else EventKind.DEAL, self._dealer,
                              self._hand_no))
        self._dealt_ev = ()
        return True

    def _cards_seen(self, order: tuple[int, ...]) -> None:
        # Tells are said at the table and cost nothing; four of a kind is shown by the
        # table (show_four) before anything else of the deal.
        self._seen_at = len(self._actions)
        self._start_declarations(order)

    def _may_declare(self, decl: Declaration, seat: int) -> bool:
        return True  # who holds three of a rank (kans) only the table knows

    def _draw_hand(self, decl: Declaration, seat: int) -> None:
        self._stock_pos += decl.draws
        self._ev.append(Event(decl.declared, seat, decl.draws))

    def _kans(self, seat: int) -> None:
        self._stock_pos += 1
        self._ev.append(Event(EventKind.KANS, seat, 1))
        if self._drawn_four >= 0:  # the drawn card made four of the rank told
            self._hands[seat] = RANK_MASKS[self._drawn_four]
            self._four_of_a_kind(seat)
            return
        self._next_declarer()

    def _judge(self, decl: Declaration, declarer: int) -> str | None:
        word = self._shown
        return None if word == decl.dishonest_word else word


_EMPTY = UnseenGame(Rules(), ("a", "b"))
_copy_slots = slot_copier(
    [name for cls in UnseenGame.__mro__ for name in getattr(cls, "__slots__", ())],
    {name for name in GameCore.__slots__ if isinstance(getattr(_EMPTY, name), list)},
)
