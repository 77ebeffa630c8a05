"""Train OpenSpiel's DQN (PyTorch) on meeple's Caprice, 2 players, and measure it against a random player.

    pip install 'meeple[openspiel]' torch dm-tree
    python examples/dqn_caprice.py --episodes 6000        # about 5 minutes on one CPU core

Two DQN agents learn, one per seat, each against OpenSpiel's ``RandomAgent`` in the other seat (a best response to
random play), from the seat's observation tensor (legal actions masked by OpenSpiel's DQN itself). Every
``--eval-every`` episodes, each agent plays ``--eval-games`` games against ``RandomAgent`` in its own seat,
greedily; the script prints the win rates with a 95 % interval (Wilson) and exits with status 0 only if, at the
end, both agents' intervals lie above the 50 % a random player would get.

docs/research.md shows a run. Rules of the environment: ``meeple.adapters.openspiel`` (the deal as chance nodes).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent
from open_spiel.python.pytorch import dqn

import meeple.adapters.openspiel  # noqa: F401  (registers meeple_caprice)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a win rate ``wins / n``."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(env: rl_environment.Environment, agents: list, learn: bool) -> list[float]:
    """One episode; returns the final rewards."""
    time_step = env.reset()
    while not time_step.last():
        player = time_step.observations["current_player"]
        output = agents[player].step(time_step, is_evaluation=not learn)
        time_step = env.step([output.action])
    for agent in agents:
        agent.step(time_step, is_evaluation=not learn)
    return list(time_step.rewards)


def evaluate(env: rl_environment.Environment, learners: list, games: int) -> list[tuple[float, float, float]]:
    """Each learner in its seat against a random agent: (win rate, low, high)."""
    out = []
    for seat, learner in enumerate(learners):
        opponent = random_agent.RandomAgent(player_id=1 - seat, num_actions=env.action_spec()["num_actions"])
        agents = [learner, opponent] if seat == 0 else [opponent, learner]
        wins = sum(play(env, agents, learn=False)[seat] for _ in range(games))
        low, high = wilson(wins, games)
        out.append((wins / games, low, high))
    return out


def main() -> int:
    """Train, evaluate every ``--eval-every`` episodes, and return 0 when both seats beat random."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=6000)
    parser.add_argument("--eval-every", type=int, default=1000)
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = pyspiel.load_game("meeple_caprice(players=2)")
    env = rl_environment.Environment(game, observation_type=rl_environment.ObservationType.OBSERVATION)
    env.seed(args.seed)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    learners = [
        dqn.DQN(
            player_id=seat,
            state_representation_size=size,
            num_actions=actions,
            hidden_layers_sizes=[128, 128],
            replay_buffer_capacity=50_000,
            batch_size=128,
            learning_rate=0.001,
            optimizer_str="adam",
            epsilon_decay_duration=args.episodes * 10,
            epsilon_decay_schedule_str="linear",
            min_buffer_size_to_learn=1000,
            seed=args.seed + seat,
        )
        for seat in range(2)
    ]
    start = time.perf_counter()
    result = evaluate(env, learners, args.eval_games)
    print(f"episode 0: win rate vs random, seat 0 {result[0][0]:.1%}, seat 1 {result[1][0]:.1%}", flush=True)
    randoms = [random_agent.RandomAgent(player_id=seat, num_actions=actions) for seat in range(2)]
    for episode in range(1, args.episodes + 1):
        seat = episode % 2
        agents = [learners[0], randoms[1]] if seat == 0 else [randoms[0], learners[1]]
        play(env, agents, learn=True)
        if episode % args.eval_every == 0 or episode == args.episodes:
            result = evaluate(env, learners, args.eval_games)
            minutes = (time.perf_counter() - start) / 60
            shown = ", ".join(f"seat {s} {r:.1%} [{lo:.1%}, {hi:.1%}]" for s, (r, lo, hi) in enumerate(result))
            print(f"episode {episode} ({minutes:.1f} min): win rate vs random, {shown}", flush=True)
    beaten = all(low > 0.5 for _rate, low, _high in result)
    print("DQN beats random in both seats" if beaten else "DQN does not beat random in both seats (yet)")
    return 0 if beaten else 1


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    sys.exit(main())
