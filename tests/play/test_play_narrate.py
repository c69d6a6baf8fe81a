"""Narration, refusals and explanations, in every language, without the screen."""

from __future__ import annotations

import random

import pytest

from toepen.engine import KNOCK, STAY, Action, Event, EventKind, Game
from toepen.i18n import LANGUAGES, Translator
from toepen.rules import Rules
from toepen.tui.narrate import explain_refusal, narrate, rules_summary
from toepen.view import View, observe

NAMES = ("Ann", "Bas", "Cor", "Dirk")
K = EventKind
EVENTS = [
    Event(K.DEAL, 0, 1), Event(K.REDEAL, 0, 1), Event(K.HAND, 0, 4, (0, 9, 18, 27), "", True),
    Event(K.TELL, 1, 3, (), "tens"), Event(K.TELL, 2, 4, (), "jacks"), Event(K.CLAIM, 1),
    Event(K.EXCHANGE, 1, 4), Event(K.DRAW, 0, 4, (1, 2, 3, 4), "", True),
    Event(K.CHALLENGE, 2, 1), Event(K.PASS, 3, 0, (), "claim"),
    Event(K.PASS, 3, 0, (), "exchange"), Event(K.PASS, 3, 0, (), "challenge"),
    Event(K.REVEAL, 1, 0, (4, 5, 6, 7), "armoede"),
    *(Event(K.CLAIM_RESULT, 1, 0, (), d) for d in ("genuine", "false", "unchallenged")),
    *(Event(K.EXCHANGE_RESULT, 1, 0, (), d) for d in ("caught", "clean", "unchallenged")),
    Event(K.PELT, 2, 2), Event(K.KNOCK, 1, 3), Event(K.STAY, 2, 3), Event(K.FOLD, 3, 2),
    Event(K.PLAY, 1, 0, (16,)), Event(K.TRICK, 2, 1),
    *(Event(K.LIVES, 2, 2, (), d) for d in ("stake", "armoede", "exchange")),
    Event(K.ELIMINATED, 3),
    *(Event(K.HAND_RESULT, 2, 3, (), d) for d in ("loses", "wins", "folded", "last_left")),
    Event(K.RUBBER, 1, 2), Event(K.RUBBER, -1, 2, (), "2 3"), Event(K.DRINKS, 3, 2),
    Event(K.TOEPKONING, 1, 3), Event(K.SUDDEN_DEATH, -1, 0b0110),
    Event(K.SESSION_RESULT, 1),
    # the house rules (docs/rules.md, "House rules")
    Event(K.KANS, 1, 1), Event(K.LAUNDRY, 1, 4), Event(K.FOUR_OF_A_KIND, 2, 3, (7, 15, 23, 31)),
    *(Event(K.LAUNDRY_RESULT, 1, 0, (), d)
      for d in ("witte_was", "vuile_was", "caught", "unchallenged")),
    Event(K.JACK, 2, 0, (31,), "others_pay_more"), Event(K.JACK, 2, 0, (31,), "winner_gains"),
    Event(K.LIFE_BACK, 2, 1, (), "jack"), Event(K.KNOCK, 1, 3, (), "blind"),
    *(Event(K.PASS, 3, 0, (), d) for d in ("blind", "kans", "laundry", "rebuy")),
    Event(K.REBUY, 1, 2), Event(K.POT, 2, 250, (), "€"),
    Event(K.REVEAL, 1, 0, (4, 5, 6, 7), "open"),
    *(Event(K.LIVES, 2, 2, (), d) for d in ("laundry", "four_of_a_kind")),
    Event(K.HAND_RESULT, 2, 3, (), "four_of_a_kind"),
]


def test_every_kind_of_event_is_narrated_in_every_language() -> None:
    assert {e.kind for e in EVENTS} == set(EventKind)
    for lang in LANGUAGES:
        t = Translator(lang, strict=True)
        lines = [narrate(t, e, NAMES, me=0) for e in EVENTS]
        assert all(lines), (lang, [e for e, line in zip(EVENTS, lines, strict=True) if not line])
        assert all("{" not in line for line in lines if line)
        assert "Bas" in lines[EVENTS.index(Event(K.KNOCK, 1, 3))]  # type: ignore[operator]
    sudden = narrate(Translator("en"), Event(K.SUDDEN_DEATH, -1, 0b0110), NAMES, 0)
    assert sudden == "Sudden death: Bas and Cor play on with 1 life each."


SHARED = {"en": "Rubber 1 is over, shared by Cor and Dirk.",
          "nl": "Partij 1 is voorbij, gedeeld door Cor en Dirk.",
          "de": "Robber 1 ist vorbei, geteilt zwischen Cor und Dirk.",
          "it": "La partita 1 è finita, pari tra Cor e Dirk.",
          "nb": "Parti 1 er over, delt mellom Cor og Dirk."}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_shared_rubber_names_who_shared_it(lang: str) -> None:
    """Issue 38: the engine's event says who shared the rubber; narration words it with
    the names as the language writes a list."""
    line = narrate(Translator(lang, strict=True), Event(K.RUBBER, -1, 1, (), "2 3"), NAMES, 0)
    assert line == SHARED[lang]
    three = narrate(Translator(lang), Event(K.RUBBER, -1, 1, (), "0 2 3"), NAMES, 1)
    assert three is not None and "Ann, Cor" in three  # three names: a comma, then "and"


def test_the_engine_says_who_shared_a_rubber() -> None:
    rules = Rules.preset("rulebook", session="rubber", lives=1, rubbers=1)
    for seed in range(300):
        game = Game(rules, list(NAMES), seed=seed)
        rng = random.Random(seed)
        events: list[Event] = []
        while not game.is_over:
            seat = game.to_act[0]
            events += game.apply(seat, rng.choice(game.legal(seat)))
        shared = [e for e in events if e.kind is K.RUBBER and e.seat < 0]
        if shared:
            break
    else:
        raise AssertionError("no seeded game shared a rubber")
    (rubber,) = shared
    won = tuple(s for s in range(4) if game.rubbers_won[s] == 1)
    assert len(won) > 1 and rubber.detail == " ".join(map(str, won))
    line = narrate(Translator("en"), rubber, NAMES, None)
    listed = ", ".join(NAMES[s] for s in won[:-1]) + f"{',' if len(won) > 2 else ''} and "
    assert line == f"Rubber 1 is over, shared by {listed}{NAMES[won[-1]]}."


def test_what_is_not_narrated() -> None:
    t = Translator("en")
    # Another seat's dealt or drawn cards (redacted: no cards) and a fold's payment.
    assert narrate(t, Event(K.HAND, 1, 4, (), "", True), NAMES, me=0) is None
    assert narrate(t, Event(K.DRAW, 1, 4, (), "", True), NAMES, me=0) is None
    assert narrate(t, Event(K.LIVES, 1, 2, (), "fold"), NAMES, me=0) is None
    assert narrate(t, Event(K.HAND, 0, 4, (16, 0), "", True), NAMES, me=0) == \
        "Your cards: 10♣ 10♥"
    assert narrate(Translator("nb"), Event(K.PLAY, 2, 0, (4,)), NAMES, me=0) == "Cor spiller E♣"


def _view_where(rules: Rules, seed: int, pred: object) -> tuple[Game, View]:
    """Knock whenever possible, always stay, until ``pred(view of the seat to act)``."""
    game = Game.new(rules, 4, seed=seed)
    while game.turn >= 0:
        view = observe(game, game.turn)
        if pred(view):  # type: ignore[operator]
            return game, view
        game.apply(game.turn, STAY if STAY in view.legal else view.legal[0])
    raise AssertionError("no such position")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_refusals_are_explained_in_the_language(lang: str) -> None:
    from toepen.cards import local_card_str

    t = Translator(lang, strict=True)
    rules = Rules.preset("gezinstoepen", armoede=False)

    def why(game: Game, view: View, act: Action) -> str:
        refusal = game.refusal(view.seat, act)
        assert refusal is not None
        return explain_refusal(t, view, refusal)

    # After a knock to the cap of 2, the players answering may not knock again.
    game, view = _view_where(rules, 3, lambda v: v.phase == "answer")
    assert view.seat != view.last_knocker and view.stake == 2
    assert why(game, view, KNOCK) == t("refusal.knock_stake_capped", max_stake=2)
    # Playing a card while answering a knock names what is to be decided.
    card = Action.play(view.hand[0])
    assert why(game, view, card) == t(
        "refusal.card_not_now", card=local_card_str(card.card, lang),
        phase=t("phase.answer", name=game.players[view.last_knocker]))
    # Not your turn.
    other = observe(game, next(s for s in range(4) if s not in view.to_act))
    assert why(game, other, STAY) == t("refusal.not_your_turn", turn=game.players[game.turn])
    # The knocker, to play once everyone stayed, may not knock twice in a row.
    game, view = _view_where(Rules.preset("rulebook", armoede=False), 3,
                             lambda v: v.phase == "play" and v.last_knocker == v.seat)
    assert KNOCK not in view.legal
    assert why(game, view, KNOCK) == t("refusal.knock_own_latest")


def test_every_refusal_code_has_a_message_in_every_language() -> None:
    from toepen.engine import REFUSAL_CODES

    for lang in LANGUAGES:
        t = Translator(lang, strict=True)
        assert all(t.has(f"refusal.{code}") for code in REFUSAL_CODES), lang


def test_rules_summary_follows_the_options() -> None:
    t = Translator("de", strict=True)
    lines = rules_summary(t, Rules.preset("kroegtoepen", max_stake=4,
                                          first_player_may_knock_early=False), 5)
    assert lines[0] == "Regeln im Spiel: kroegtoepen, 5 Spieler"
    assert t("rules.beer") in lines and t("rules.knock_limit.none") in lines
    assert t("rules.max_stake", n=4) in lines and t("rules.no_early_knock") in lines
    assert t("rules.armoede") in lines and t("rules.exchange") not in lines
    teams = rules_summary(t, Rules.preset("teams", tells="tens_and_jacks"), 4)
    assert t("rules.teams") in teams and t("rules.tells.tens_and_jacks") in teams


# The parameters the engine gives each refusal (toepen.engine.refusal).
REFUSAL_PARAMS = {
    "blind_knock_lives": {"seat": 1, "lives": 1},
    "fold_on_edge": {"seat": 1, "paid": 2, "lives": 2},
    "not_a_seat": {"seat": "9"}, "bad_action": {"seat": 1, "error": "unknown verb 'dance'"},
    "session_over": {"seat": 1, "action": "play 7s"},
    "deal_awaited": {"seat": 1, "action": "knock"},
    "no_such_seat": {"seat": 9, "players": 4}, "out_of_session": {"seat": 1},
    "folded": {"seat": 1}, "not_your_turn": {"seat": 1, "turn": 2},
    "knock_own_latest": {"seat": 1}, "knock_stake_capped": {"seat": 1, "max_stake": 2},
    "knock_lives_below_stake": {"seat": 1, "lives": 2, "stake": 3},
    "knock_exceeds_lives": {"seat": 1, "new_stake": 4, "lives": 3},
    "knock_before_first_card": {"seat": 1},
    "not_now": {"seat": 1, "action": "stay", "phase": "claim"},
    "card_not_now": {"seat": 1, "card": "Th", "phase": "answer"},
    "card_not_held": {"seat": 1, "card": "7s"},
    "must_follow_suit": {"seat": 1, "card": "7s", "suit": "h"},
    "no_deal_awaited": {"phase": "play"},
}


def test_each_message_fills_the_placeholders_of_its_text() -> None:
    """What the browser used to check of its own narration: describe() and
    refusal_message() fill every placeholder of each text (nested messages too), in every
    language, and the messages survive their JSON form."""
    from toepen.engine import REFUSAL_CODES, Refusal
    from toepen.i18n import catalog, placeholders
    from toepen.narration import Message, describe, refusal_message

    def nested(m: Message) -> list[Message]:
        inner = [v for v in m.params.values() if isinstance(v, Message)]
        return [m, *(x for v in inner for x in nested(v))]

    for lang in LANGUAGES:
        texts = catalog(lang)
        for e in EVENTS:
            m = describe(e, 0)
            assert m is not None
            assert Message.from_json(m.to_json()) == m
            for part in nested(m):
                assert placeholders(texts[part.id]) <= set(part.params), (lang, part)
        assert set(REFUSAL_PARAMS) == set(REFUSAL_CODES)
        for code, params in REFUSAL_PARAMS.items():
            m = refusal_message(Refusal(code, params))
            assert Message.from_json(m.to_json()) == m
            for part in nested(m):
                assert placeholders(texts[part.id]) <= set(part.params), (lang, part)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rubber_session_winner_is_explained_by_the_engines_tie_break(lang: str) -> None:
    """Fewest drinks, then most rubbers won, then the lowest seat (rules.md D16)."""
    import dataclasses

    from toepen.tui.narrate import session_winner_reason

    t = Translator(lang, strict=True)
    game = Game.new(Rules.preset("classic", rubbers=3), 3, seed=1)
    view = observe(game, 0)
    names = view.players

    def why(drinks: tuple[int, ...], won: tuple[int, ...], winner: int) -> str | None:
        return session_winner_reason(t, dataclasses.replace(
            view, drinks=drinks, rubbers_won=won, winner=winner))

    assert why((1, 0, 2), (1, 1, 1), 1) == t("screen.why.drinks", name=names[1], n=0)
    assert why((1, 1, 2), (1, 2, 0), 1) == t(
        "screen.why.rubbers", names=f"{names[0]}, {names[1]}", drinks=1, name=names[1], n=2)
    # Three players with one rubber each (and one round each): the lowest seat wins.
    assert why((1, 1, 1), (1, 1, 1), 0) == t(
        "screen.why.seat", names=", ".join(names), drinks=1, rubbers=1, name=names[0])
    assert why((1, 1, 1), (1, 1, 1), 0) != why((0, 1, 1), (1, 1, 1), 0)
    # Nothing to explain before the end, nor in an elimination session.
    assert session_winner_reason(t, view) is None
    plain = observe(Game.new(Rules.preset("rulebook"), 3, seed=1), 0)
    assert session_winner_reason(t, dataclasses.replace(plain, winner=0)) is None
    # The rules screen states the tie-break for rubber sessions with an end.
    assert t("rules.session.rubber_winner") in rules_summary(t, Rules.preset("classic"), 3)
    assert t("rules.session.rubber_winner") not in rules_summary(
        t, Rules.preset("classic", rubbers=None), 3)
    assert t("rules.session.rubber_winner") not in rules_summary(t, Rules.preset("rulebook"), 3)
