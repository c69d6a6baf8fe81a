"""Words for the game: events narrated, actions named, refusals explained, rules summed up.

Everything returns text in the translator's language and reads only what a seat may
know: redacted events and a :class:`~toepen.view.View`.

>>> from toepen.i18n import Translator
>>> from toepen.engine import Event, EventKind
>>> t = Translator("en")
>>> names = ("Ann", "Bas", "Cor")
>>> narrate(t, Event(EventKind.KNOCK, 1, 3), names, me=0)
'Bas knocks: stake 3'
>>> narrate(t, Event(EventKind.FOLD, 2, 2), names, me=0)
'Cor folds and pays 2'
>>> narrate(Translator("it"), Event(EventKind.PLAY, 1, 0, (16,)), names, me=0)
'Bas gioca 10♥'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import LOCAL_RANKS, SUIT_MASKS, local_card_str, mask_of
from ..engine import CHALLENGE, CLAIM, EXCHANGE, FOLD, KNOCK, PASS, STAY, Action, Event, EventKind
from ..i18n import N_, Translator
from ..rules import Rules
from ..view import View

SUIT_KEYS = (N_("suit.c"), N_("suit.d"), N_("suit.h"), N_("suit.s"))

VERB_KEYS: dict[Action, str] = {
    KNOCK: N_("act.knock"),
    STAY: N_("act.stay"),
    FOLD: N_("act.fold"),
    CLAIM: N_("act.claim"),
    EXCHANGE: N_("act.exchange"),
    CHALLENGE: N_("act.challenge"),
    PASS: N_("act.pass"),
}
"""The catalog id of each verb's label."""

VERB_KEYS_BY_KEY: dict[str, Action] = {
    "k": KNOCK, "s": STAY, "f": FOLD, "a": CLAIM, "x": EXCHANGE, "c": CHALLENGE, "p": PASS,
}
"""The keyboard key of each verb (the same in every language; shown on screen)."""

PHASE_KEYS: dict[str, str] = {
    "claim": N_("phase.claim"),
    "claim_challenge": N_("phase.claim_challenge"),
    "exchange": N_("phase.exchange"),
    "exchange_challenge": N_("phase.exchange_challenge"),
    "answer": N_("phase.answer"),
    "play": N_("phase.play"),
    "deal": N_("phase.deal"),
    "over": N_("phase.over"),
}

_PASS_KEYS = {
    "claim": N_("log.pass.claim"),
    "exchange": N_("log.pass.exchange"),
    "challenge": N_("log.pass.challenge"),
}
_CLAIM_RESULT_KEYS = {
    "genuine": N_("log.claim.genuine"),
    "false": N_("log.claim.false"),
    "unchallenged": N_("log.claim.unchallenged"),
}
_EXCHANGE_RESULT_KEYS = {
    "caught": N_("log.exchange.caught"),
    "clean": N_("log.exchange.clean"),
    "unchallenged": N_("log.exchange.unchallenged"),
}
_HAND_RESULT_KEYS = {
    "loses": N_("log.hand_result.loses"),
    "wins": N_("log.hand_result.wins"),
    "folded": N_("log.hand_result.folded"),
}
_LIVES_KEYS = {
    "stake": N_("log.lives.stake"),
    "armoede": N_("log.lives.armoede"),
    "exchange": N_("log.lives.exchange"),
}
_TELL_RANK_KEYS = {"tens": N_("rank.tens"), "jacks": N_("rank.jacks")}


def cards_text(cards: Sequence[int], lang: str) -> str:
    """Cards for display, sorted (suit by suit, high to low), localised."""
    return " ".join(local_card_str(c, lang) for c in sorted(cards))


def action_label(t: Translator, act: Action) -> str:
    """The localised name of an action (``play 10♥``, ``knock``...)."""
    if act.is_play:
        return t("act.play", card=local_card_str(act.card, t.lang))
    return t(VERB_KEYS[act])


def narrate(t: Translator, e: Event, names: Sequence[str], me: int) -> str | None:
    """One redacted event in words, or None for events not worth a line.

    ``me`` is the human seat: only its own private cards are ever named.
    """
    k = EventKind
    kind = e.kind
    who = names[e.seat] if 0 <= e.seat < len(names) else ""
    lang = t.lang
    if kind is k.DEAL:
        return t("log.deal", hand=e.value, name=who)
    if kind is k.REDEAL:
        return t("log.redeal", name=who)
    if kind is k.HAND:
        if e.seat == me and e.cards:
            return t("log.hand", cards=cards_text(e.cards, lang))
        return None
    if kind is k.DRAW:
        if e.seat == me and e.cards:
            return t("log.draw", cards=cards_text(e.cards, lang))
        return None
    if kind is k.TELL:
        rank = t(_TELL_RANK_KEYS.get(e.detail, N_("rank.tens")))
        key = N_("log.tell.whistle") if e.value == 3 else N_("log.tell.stand")
        return t(key, name=who, rank=rank)
    if kind is k.CLAIM:
        return t("log.claim", name=who)
    if kind is k.EXCHANGE:
        return t("log.exchange", name=who, n=e.value)
    if kind is k.CHALLENGE:
        target = names[e.value] if 0 <= e.value < len(names) else ""
        return t("log.challenge", name=who, target=target)
    if kind is k.PASS:
        return t(_PASS_KEYS.get(e.detail, N_("log.pass.claim")), name=who)
    if kind is k.REVEAL:
        return t("log.reveal", name=who, cards=cards_text(e.cards, lang))
    if kind is k.CLAIM_RESULT:
        return t(_CLAIM_RESULT_KEYS.get(e.detail, N_("log.claim.false")), name=who)
    if kind is k.EXCHANGE_RESULT:
        return t(_EXCHANGE_RESULT_KEYS.get(e.detail, N_("log.exchange.clean")), name=who)
    if kind is k.PELT:
        return t("log.pelt", name=who, stake=e.value)
    if kind is k.KNOCK:
        return t("log.knock", name=who, stake=e.value)
    if kind is k.STAY:
        return t("log.stay", name=who, stake=e.value)
    if kind is k.FOLD:
        return t("log.fold", name=who, n=e.value)
    if kind is k.PLAY:
        return t("log.play", name=who, card=local_card_str(e.cards[0], lang))
    if kind is k.TRICK:
        return t("log.trick", name=who, n=e.value)
    if kind is k.LIVES:
        if e.detail == "fold":
            return None  # the fold line already says what was paid
        return t(_LIVES_KEYS.get(e.detail, N_("log.lives.stake")), name=who, n=e.value)
    if kind is k.ELIMINATED:
        return t("log.eliminated", name=who)
    if kind is k.HAND_RESULT:
        return t(_HAND_RESULT_KEYS.get(e.detail, N_("log.hand_result.loses")),
                 name=who, stake=e.value)
    if kind is k.RUBBER:
        if e.seat < 0:
            return t("log.rubber_shared", n=e.value)
        return t("log.rubber", n=e.value, name=who)
    if kind is k.DRINKS:
        return t("log.drinks", name=who, n=e.value)
    if kind is k.TOEPKONING:
        return t("log.toepkoning", name=who)
    if kind is k.SUDDEN_DEATH:
        tied = ", ".join(names[s] for s in range(len(names)) if e.value >> s & 1)
        return t("log.sudden_death", names=tied)
    if kind is k.SESSION_RESULT:
        return t("log.session_result", name=who)
    return None


def phase_text(t: Translator, view: View) -> str:
    """What the seat to act must decide, in words."""
    target = ""
    if view.phase in ("claim_challenge", "exchange_challenge", "answer"):
        target = _target_name(view)
    return t(PHASE_KEYS.get(view.phase, N_("phase.play")), name=target)


def _target_name(view: View) -> str:
    if view.phase == "answer":
        seat = view.last_knocker
    elif view.phase == "claim_challenge":
        seat = _last_actor(view, CLAIM)
    else:
        seat = _last_actor(view, EXCHANGE)
    return view.players[seat] if 0 <= seat < len(view.players) else ""


def _last_actor(view: View, act: Action) -> int:
    for seat, a in reversed(view.hand_actions):
        if a is act or int(a) == int(act):
            return seat
    return -1


def knock_refusal(t: Translator, view: View) -> str | None:
    """Why the viewing seat may not knock now (its decision is to play or answer), or None."""
    seat = view.seat
    if seat is None:
        return None
    rules = view.rules
    stake = view.stake
    if seat == view.last_knocker:
        return t("illegal.knock_last")
    if rules.max_stake is not None and stake + 1 > rules.max_stake:
        return t("illegal.knock_cap", cap=rules.max_stake)
    lives = view.lives[seat]
    if rules.knock_limit == "lives_at_least_stake" and lives < stake:
        return t("illegal.knock_lives_below", lives=lives, stake=stake)
    if rules.knock_limit == "lives_cover_new_stake" and stake + 1 > lives:
        return t("illegal.knock_exceeds", new=stake + 1, lives=lives)
    if not rules.first_player_may_knock_early and not view.played and seat == view.leader:
        return t("illegal.knock_early")
    return None


def explain_refusal(t: Translator, view: View, act: Action, engine_reason: str) -> str:
    """Why ``act`` is not allowed for the viewing seat, in its language.

    ``engine_reason`` (``game.explain``) is the fallback where no localised reason fits.
    """
    if view.winner is not None or view.phase == "over":
        return t("illegal.over")
    if view.seat not in view.to_act:
        actor = view.players[view.to_act[0]] if view.to_act else ""
        return t("illegal.not_your_turn", name=actor)
    what = phase_text(t, view)
    label = action_label(t, act)
    if act is KNOCK and view.phase in ("play", "answer"):
        reason = knock_refusal(t, view)
        if reason is not None:
            return reason
    if act.is_play and view.phase == "play":
        hand = mask_of(view.hand)
        if not hand >> act.card & 1:
            return t("illegal.not_held", card=local_card_str(act.card, t.lang))
        if view.trick and view.led_suit >= 0 and hand & SUIT_MASKS[view.led_suit]:
            return t("illegal.follow_suit", suit=t(SUIT_KEYS[view.led_suit]))
    if act not in view.legal:
        return t("illegal.phase", action=label, what=what)
    return t("illegal.other", reason=engine_reason)


def rules_summary(t: Translator, rules: Rules, players: int) -> list[str]:
    """The rules in play, one localised line each."""
    lines = [t("rules.title", preset=rules.name, players=players)]
    lines.append(t("rules.order", order=" ".join(LOCAL_RANKS.get(t.lang, LOCAL_RANKS["en"]))))
    lines.append(t("rules.lives", n=rules.lives))
    lines.append(t(N_("rules.last_trick.loses") if rules.last_trick == "loses"
                   else N_("rules.last_trick.wins")))
    lines.append(t(N_("rules.dealer.rotate") if rules.dealer == "rotate"
                   else N_("rules.dealer.last_trick_winner")))
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
    if rules.beer_tally:
        lines.append(t("rules.beer"))
    return lines
