"""Words for the terminal: events narrated, actions named, refusals explained, rules summed up.

The words themselves come from :mod:`toepen.narration` (the message of an event, an
action, a refusal, a decision), shared with the browser; this module renders them with
the player's translator. Everything reads only what a seat may know: redacted events
and a :class:`~toepen.view.View`.

>>> from toepen.i18n import Translator
>>> from toepen.engine import Event, EventKind
>>> t = Translator("en")
>>> names = ("Ann", "Bas", "Cor")
>>> narrate(t, Event(EventKind.KNOCK, 1, 3), names, me=0)
'Bas knocks: stake 3'
>>> narrate(t, Event(EventKind.FOLD, 2, 2), names, me=0)
'Cor folds and pays 2'
>>> narrate(t, Event(EventKind.KNOCK, 0, 2), names, me=0)
'You knock: stake 2'
>>> narrate(Translator("it"), Event(EventKind.PLAY, 1, 0, (16,)), names, me=0)
'Bas gioca 10♥'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import LOCAL_RANKS
from ..engine import Action, Event
from ..engine.settle import Place
from ..i18n import N_, Translator
from ..narration import (
    VERB_KEYS,
    Refused,
    action_message,
    describe,
    in_second_person,
    money,
    refusal_message,
    turn_prompt,
)
from ..rules import HOUSE_RULES, Rules
from ..view import View

VERB_KEYS_BY_KEY: dict[str, Action] = {key: act for act, key in VERB_KEYS.items()}
"""The verb of each keyboard key (:data:`toepen.narration.VERB_KEYS`, shown on screen)."""


def action_label(t: Translator, act: Action, phase: str = "") -> str:
    """The localised name of an action (``play 10♥``, ``knock``...); ``phase``: the phase
    it is taken in (``rebuy``: "buy back in", "stay out")."""
    return action_message(act, phase).render(t, ())


def narrate(t: Translator, e: Event, names: Sequence[str], me: int) -> str | None:
    """One redacted event in words, or None for events not worth a line.

    ``me`` is the human seat: only its own private cards are ever named, and its own
    actions are told in the second person ("You knock: stake 2").
    """
    message = describe(e, me)
    return None if message is None else in_second_person(message, me).render(t, names)


def phase_text(t: Translator, view: View) -> str:
    """What the seat to act must decide, in words (knocking named only when legal)."""
    return turn_prompt(view).render(t, view.players)


def explain_refusal(t: Translator, view: View, refusal: Refused) -> str:
    """Why the engine refused an action of the viewing seat, in its language."""
    return refusal_message(refusal, view).render(t, view.players)


def rules_summary(t: Translator, rules: Rules, players: int) -> list[str]:
    """The rules in play, one localised line each."""
    lines = [t("rules.title", preset=rules.name, players=players)]
    lines.append(t("rules.order", order=" ".join(LOCAL_RANKS.get(t.lang, LOCAL_RANKS["en"]))))
    lines.append(t("rules.lives", n=rules.lives))
    lines.append(t(N_("rules.last_trick.loses") if rules.last_trick_loses
                   else N_("rules.last_trick.wins")))
    lines.append(t({"rotate": N_("rules.dealer.rotate"),
                    "last_trick_winner": N_("rules.dealer.last_trick_winner"),
                    "highest_loser": N_("rules.dealer.highest_loser")}[rules.dealer]))
    lines.append(t({
        "lives_at_least_stake": N_("rules.knock_limit.lives_at_least_stake"),
        "lives_cover_new_stake": N_("rules.knock_limit.lives_cover_new_stake"),
        "none": N_("rules.knock_limit.none"),
    }[rules.knock_limit]))
    if rules.max_stake is not None:
        lines.append(t("rules.max_stake", n=rules.max_stake))
    if not rules.first_player_may_knock_early:
        lines.append(t("rules.no_early_knock"))
    if rules.armoede:
        lines.append(t("rules.armoede"))
    if rules.exchange:
        lines.append(t("rules.exchange"))
    if rules.tells == "tens":
        lines.append(t("rules.tells.tens"))
    elif rules.tells == "tens_and_jacks":
        lines.append(t("rules.tells.tens_and_jacks"))
    if rules.pelt:
        lines.append(t("rules.pelt"))
    if rules.teams:
        lines.append(t("rules.teams"))
    if rules.session == "elimination":
        lines.append(t("rules.session.elimination"))
    elif rules.rubbers is None:
        lines.append(t("rules.session.rubber_open"))
    else:
        lines.append(t("rules.session.rubber", n=rules.rubbers))
        lines.append(t("rules.session.rubber_winner"))
    if rules.beer_tally:
        lines.append(t("rules.beer"))
    if rules.rebuy != "off":  # pot toepen: buying back in, and the pot
        lines.append(t(N_("rules.rebuy.once") if rules.rebuy == "once" else N_("rules.rebuy.any")))
    if rules.pot:
        amount = money(rules.pot_cents).render(t, ())
        lines.append(t("rules.pot", unit=rules.pot_unit, amount=amount))
    base = Rules()
    for name in HOUSE_RULES:  # each house rule on: its one-line label, and its value
        value = getattr(rules, name)
        if value != getattr(base, name) and name != "four_of_a_kind_penalty":
            label = t(f"option.{name}")
            if name == "four_of_a_kind":
                lines.append(f"{label}: " + t(N_("rules.four_of_a_kind.penalty"),
                                              n=rules.four_of_a_kind_penalty))
            elif value is True:
                lines.append(label)
            else:  # a choice, in the words the browser's lobby gives it
                lines.append(f"{label}: {t(f'option.{name}.{value}')}")
    return lines


def session_winner_reason(t: Translator, view: View) -> str | None:
    """Why the winner of a finished rubber session won, in words; None otherwise.

    Read from the engine's finishing order (:attr:`View.places`, rules.md D16): what put
    the first place above the second, the fewest drinks (rounds owed), then the most
    rubbers won, then the lowest seat (the player listed first).
    """
    places = view.places
    if view.winner is None or view.rules.session != "rubber" or len(places) < 2:
        return None
    names = view.players

    def name(p: Place) -> str:
        return " & ".join(names[s] for s in p.seats)

    top = places[0]
    if top.by == "drinks":
        return t("screen.why.drinks", name=name(top), n=top.drinks)
    level = sorted((p for p in places if p.drinks == top.drinks), key=lambda p: p.seat)
    if top.by == "rubbers":
        return t("screen.why.rubbers", names=", ".join(name(p) for p in level),
                 drinks=top.drinks, name=name(top), n=top.rubbers_won)
    same = [p for p in level if p.rubbers_won == top.rubbers_won]
    return t("screen.why.seat", names=", ".join(name(p) for p in same), drinks=top.drinks,
             rubbers=top.rubbers_won, name=name(top))
