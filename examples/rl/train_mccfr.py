"""Train tabular outcome-sampling MCCFR on a tiny Toepen: two players, one hand, one life.

The game is ``python_toepen`` (OpenSpiel) with 2 players, ``lives=1`` (sudden death: the
hand decides the session) and ``episode=hand``, zero-sum returns. Every few iterations the
script prints how many information states the solver has met and how its average policy
does against the uniform random bot, in both seats (mean return per hand; 0 is even).

    uv run python examples/rl/train_mccfr.py --iterations 2000 --eval-every 500

Toepen has far too many information states for a short run to approach equilibrium; the
point is the plumbing: OpenSpiel's own solver runs on the engine through ``python_toepen``.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import outcome_sampling_mccfr
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

import toepen.rl.openspiel  # noqa: F401  (registers python_toepen)


def play(game: pyspiel.Game, policies: list, rng: np.random.Generator) -> list[float]:
    """One episode; ``policies[p]`` maps a state to {action: probability}."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            probs = policies[state.current_player()](state)
            actions = list(probs)
            p = np.array([probs[a] for a in actions], dtype=float)
            state.apply_action(int(rng.choice(actions, p=p / p.sum())))
    return state.returns()


def uniform(state: pyspiel.State) -> dict[int, float]:
    legal = state.legal_actions()
    return {a: 1.0 / len(legal) for a in legal}


def evaluate(game: pyspiel.Game, solver, games: int, rng: np.random.Generator) -> float:
    """Mean return of the average policy against uniform random, seats alternating."""
    avg = solver.average_policy()

    def learned(state: pyspiel.State) -> dict[int, float]:
        return avg.action_probabilities(state)

    total = 0.0
    for i in range(games):
        seat = i % 2
        policies = [learned, uniform] if seat == 0 else [uniform, learned]
        total += play(game, policies, rng)[seat]
    return total / games


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--eval-every", type=int, default=500)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--preset", default="rulebook")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.eval_every < 1 or args.eval_games < 1:
        parser.error("--iterations, --eval-every and --eval-games must be at least 1")

    game = pyspiel.load_game(
        "python_toepen",
        {"preset": args.preset, "players": 2, "lives": 1, "episode": "hand", "zero_sum": True},
    )
    np.random.seed(args.seed)  # outcome sampling draws from NumPy's global generator
    rng = np.random.default_rng(args.seed + 1)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    print(f"game: {game}")
    print(f"{'iteration':>9}  {'infostates':>10}  {'vs random':>9}  {'seconds':>7}")
    start = time.perf_counter()
    # The bar goes to standard error (and vanishes when done); the table to standard output,
    # printed above the bar when both are the same terminal.
    bar = Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), console=Console(stderr=True), transient=True,
        redirect_stdout=False, redirect_stderr=False,
    )
    on_screen = sys.stdout.isatty() and sys.stderr.isatty()
    with bar:
        task = bar.add_task("MCCFR iterations", total=args.iterations)
        for it in range(1, args.iterations + 1):
            solver.iteration()
            bar.advance(task)
            if it % args.eval_every == 0 or it == args.iterations:
                score = evaluate(game, solver, args.eval_games, rng)
                seen = len(solver._infostates)  # noqa: SLF001 (the solver's own table)
                elapsed = time.perf_counter() - start
                row = f"{it:>9}  {seen:>10}  {score:>+9.3f}  {elapsed:>7.1f}"
                if on_screen:
                    bar.console.print(row, highlight=False)
                else:
                    print(row, flush=True)


if __name__ == "__main__":
    main()
