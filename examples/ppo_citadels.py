"""Train a small policy on meeple's Citadels (3 players) with sb3-contrib's MaskablePPO, and beat random players.

    pip install 'meeple[pettingzoo]' sb3-contrib      # sb3-contrib brings Stable-Baselines3 and PyTorch
    python examples/ppo_citadels.py                    # about 2 minutes on one CPU core

The learner sits in seat 0 of ``meeple.adapters.pettingzoo.single_agent_env("citadels", players=3)``; the other two
seats are meeple's ``random`` bots. It sees its seat's observation tensor only (what a human in its seat sees) and
chooses among the legal moves through the action mask. Before training and after every quarter of ``--steps``
decisions, it plays ``--eval-games`` new deals greedily; the script prints its win rate with a 95 % interval
(Wilson) against the 1/3 a random player gets, and exits with status 0 when the final interval lies above 1/3.

docs/research.md shows a run.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

from meeple.adapters.pettingzoo import single_agent_env


class TensorOnly(gymnasium.ObservationWrapper):  # type: ignore[type-arg]
    """The observation tensor alone (the mask reaches MaskablePPO through ``ActionMasker``)."""

    def __init__(self, env: gymnasium.Env) -> None:  # type: ignore[type-arg]
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, Any]) -> Any:
        """The float32 tensor of the learner's seat."""
        return observation["observation"]


def make_env(players: int, opponents: str) -> gymnasium.Env:  # type: ignore[type-arg]
    """Seat 0 of Citadels against meeple bots, with the action mask for MaskablePPO."""
    env = single_agent_env("citadels", seat=0, opponents=opponents, players=players)
    return ActionMasker(TensorOnly(env), lambda e: e.unwrapped.action_masks())


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of the rate ``wins / n``."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def evaluate(model: MaskablePPO, env: gymnasium.Env, games: int) -> float:  # type: ignore[type-arg]
    """Total return (wins; a shared win counts its share) over ``games`` deals never seen in training."""
    wins = 0.0
    for game in range(games):
        observation, _ = env.reset(seed=1_000_000 + game)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(observation, action_masks=env.unwrapped.action_masks(), deterministic=True)
            observation, reward, done, _, _ = env.step(int(action))
        wins += float(reward)
    return wins


def main() -> int:
    """Train, report the win rate against random players, return 0 when it is above their 1/3 share."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=100_000, help="learner decisions to train on")
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(1)
    fair = 1 / args.players
    model = MaskablePPO(
        "MlpPolicy", make_env(args.players, "random"), n_steps=1024, batch_size=256, seed=args.seed, verbose=0
    )
    evaluation = make_env(args.players, "random")
    start = time.perf_counter()
    low = 0.0
    for quarter in range(5):
        if quarter:
            model.learn(args.steps // 4, reset_num_timesteps=False)
        wins = evaluate(model, evaluation, args.eval_games)
        low, high = wilson(wins, args.eval_games)
        print(
            f"{quarter * (args.steps // 4):>7} steps, {time.perf_counter() - start:5.0f} s: "
            f"wins {wins / args.eval_games:.1%} [{low:.1%}, {high:.1%}] of {args.eval_games} games "
            f"against random (fair share {fair:.1%})",
            flush=True,
        )
    beaten = low > fair
    print("the policy beats random players" if beaten else "the policy does not beat random players (yet)")
    return 0 if beaten else 1


if __name__ == "__main__":
    sys.exit(main())
