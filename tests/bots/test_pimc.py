"""pimc: legal, seeded, blind to hidden cards; its sampler honours what is public."""

from __future__ import annotations

import random

import pytest

from toepen.bots import make_bot
from toepen.bots.pimc import Knowledge, PimcBot, strength
from toepen.cards import RANK_MASKS, SUIT_MASKS, TEN
from toepen.engine import Game
from toepen.engine.actions import FOLD, KNOCK, STAY
from toepen.rules import Rules
from toepen.view import observe

from .helpers import PRESETS
from .helpers import random_positions as _positions


def _scramble_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy whose hidden cards differ: other active hands swap cards within a suit pool."""
    g = game.clone()
    hands = g.hand_masks()
    others = [s for s in range(g.n) if s != seat and hands[s]]
    pool = [c for s in others for c in range(32) if hands[s] >> c & 1]
    stock = g.stock()
    rng.shuffle(pool)
    # Keep each seat's suit counts (so no public void is contradicted): deal by suit.
    by_suit: dict[int, list[int]] = {}
    for c in pool:
        by_suit.setdefault(c >> 3, []).append(c)
    for s in others:
        new = 0
        for c in range(32):
            if hands[s] >> c & 1:
                new |= 1 << by_suit[c >> 3].pop()
        hands[s] = new
    rng.shuffle(stock)
    g.replace_hidden(hands, stock)
    return g


@pytest.mark.parametrize("preset", PRESETS)
def test_pimc_returns_legal_actions_in_random_positions(preset: str) -> None:
    sizes = Rules.preset(preset).allowed_table_sizes()
    for players in sorted({sizes[0], 4 if 4 in sizes else sizes[-1], sizes[-1]}):
        for i, game in enumerate(_positions(preset, players, seed=players * 7, count=6)):
            bot = PimcBot(seed=i, samples=3)
            action = bot.act(observe(game, game.turn))
            assert action in game.legal_actions()


def test_pimc_plays_whole_sessions_legally() -> None:
    for preset, players in (("rulebook", 3), ("classic", 4), ("teams", 4)):
        game = Game.new(preset, players, seed=5)
        bots = [PimcBot(seed=s, samples=2) for s in range(players)]
        steps = 0
        while not game.is_over and steps < 400:
            seat = game.turn
            game.apply(seat, bots[seat].act(observe(game, seat)))
            steps += 1
        game.check_invariants()


def test_same_seed_same_decisions() -> None:
    for game in _positions("rulebook", 4, seed=3, count=8):
        view = observe(game, game.turn)
        a = make_bot("pimc", seed=9).act(view)
        b = PimcBot(seed=9).act(view)
        assert a == b


def test_decisions_do_not_depend_on_hidden_cards() -> None:
    rng = random.Random(4)
    checked = changed = 0
    for preset in ("rulebook", "classic"):
        for game in _positions(preset, 4, seed=21, count=10):
            seat = game.turn
            view = observe(game, seat)
            before = PimcBot(seed=2, samples=6).act(view)
            poisoned = _scramble_hidden(game, seat, rng)
            changed += poisoned.hand_masks() != game.hand_masks()
            view2 = observe(poisoned, seat)
            assert view2 == view  # nothing hidden leaks into the view
            assert PimcBot(seed=2, samples=6).act(view2) == before
            checked += 1
    assert checked >= 10 and changed >= 5


def test_knowledge_samples_respect_public_facts() -> None:
    rules = Rules.preset("classic")
    rng = random.Random(8)
    for seed in range(30):
        game = Game.new(rules, 4, seed=seed)
        # Random legal play to a point in the card play.
        while not game.is_over and (game.phase.name != "PLAY" or rng.random() < 0.7):
            game.apply(game.turn, rng.choice(game.legal_actions()))
            if game.hand_no > 1:
                break
        if game.turn < 0 or game.hand_no > 1:
            continue
        seat = game.turn
        view = observe(game, seat)
        know = Knowledge.from_view(view)
        mine = sum(1 << c for c in view.hand)
        played = sum(1 << c for _, c in view.played)
        for _ in range(10):
            hands = know.sample(rng)
            assert hands[seat] == mine
            seen = mine | played
            for s in range(4):
                if s == seat or not view.active[s]:
                    continue
                h = hands[s]
                assert h.bit_count() == view.hand_sizes[s]
                assert not h & seen
                for suit in view.voids[s]:
                    assert not h & SUIT_MASKS[suit]
                seen |= h
            for s, count, rank in view.tells:
                if s != seat and view.active[s] and s not in view.exchanged:
                    had = (hands[s] | sum(1 << c for c in view.cards_played_by(s)))
                    assert (had & RANK_MASKS[rank]).bit_count() == count


def test_strength_orders_hands_by_mode() -> None:
    from toepen.cards import mask_of, parse_card

    tens = mask_of(parse_card(c) for c in ("Th", "Ts", "Tc", "Td"))
    jacks = mask_of(parse_card(c) for c in ("Jh", "Js", "Jc", "Jd"))
    assert strength(tens, 0, True) == 1.0 and strength(tens, 0, False) == 0.0
    assert strength(jacks, 0, False) > 0.8 and strength(jacks, 0, True) < 0.2
    assert tens & RANK_MASKS[TEN] == tens


def test_spectator_view_is_refused() -> None:
    game = Game.new("rulebook", 4, seed=1)
    with pytest.raises(ValueError, match="spectator"):
        Knowledge.from_view(observe(game, None))


def _last_lead_with_a_ten(seed: int) -> Game | None:
    """A rulebook hand (no armoede) at the 4th trick whose leader holds a ten and may knock."""
    rng = random.Random(seed)
    game = Game.new(Rules.preset("rulebook", armoede=False), 3, seed=seed)
    start = game.hand_no
    while game.hand_no == start and not game.is_over:
        if game.trick_no == 3 and not game.trick and game.phase.name == "PLAY":
            leader = game.turn
            if game.hand_mask(leader) & RANK_MASKS[TEN] and KNOCK in game.legal_actions():
                return game
            return None
        legal = [a for a in game.legal_actions() if a not in (KNOCK, FOLD)] or list(
            game.legal_actions())
        game.apply(game.turn, rng.choice(legal))
    return None


@pytest.mark.parametrize("bot_name", ["pimc", "expert"])
def test_sure_loser_does_not_knock_and_safe_player_does_not_fold(bot_name: str) -> None:
    """Under ``loses`` a ten led to the last trick surely takes it: its holder must not
    raise the stake, and a player answering that holder's knock is safe and must not fold."""
    found = 0
    for seed in range(400):
        game = _last_lead_with_a_ten(seed)
        if game is None:
            continue
        leader = game.turn
        assert make_bot(bot_name, seed=1).act(observe(game, leader)) != KNOCK
        game.apply(leader, KNOCK)
        answer = make_bot(bot_name, seed=1).act(observe(game, game.turn))
        assert answer in (STAY, KNOCK)
        found += 1
        if found == 6:
            break
    assert found >= 3


def test_a_false_claim_shown_after_a_redeal_is_known_and_a_genuine_one_is_not() -> None:
    from toepen.cards import mask_of, parse_card
    from toepen.engine.actions import CHALLENGE, CLAIM, PASS

    def deck(first: dict[int, str]) -> list[int]:
        """A deck whose positions ``first`` hold the given cards, the rest in id order."""
        fixed = {pos: parse_card(c) for pos, c in first.items()}
        rest = iter(c for c in range(32) if c not in fixed.values())
        return [fixed[p] if p in fixed else next(rest) for p in range(32)]

    # Dealer 0 deals seats 1, 2, 0 in turn: seat 1 gets positions 0, 3, 6, 9.
    genuine = deck({0: "Ac", 3: "Kc", 6: "Qc", 9: "Jc"})
    bluff = deck({1: "Th", 4: "Ah", 7: "Kh", 10: "Qh"})  # seat 2's hand
    game = Game(Rules.preset("rulebook"), 3, decks=[genuine, bluff, genuine])
    game.apply(1, CLAIM)
    game.apply(2, CHALLENGE)  # genuine: seat 2 pays, redeal
    game.apply(2, CLAIM)      # seat 1 already claimed: seat 2 is asked first
    game.apply(0, CHALLENGE)  # false: seat 2 pays, it keeps its hand
    game.apply(0, PASS)
    view = observe(game, 0)
    assert view.phase == "play"
    assert view.deal_start == 2
    know = Knowledge.from_view(view)
    shown = mask_of(parse_card(c) for c in ("Th", "Ah", "Kh", "Qh"))
    assert know.known[2] == shown and not know.known[1]
    rng = random.Random(1)
    for _ in range(5):
        assert know.sample(rng)[2] == shown
