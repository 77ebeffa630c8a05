"""Train a small policy on meeple's Citadels (3 players) against heuristic bots with a graded reward.

It is reported the documented way: ``meeple.arena.evaluate`` against ``random`` and against ``heuristic``.

    pip install 'meeple[pettingzoo]' sb3-contrib      # sb3-contrib brings Stable-Baselines3 and PyTorch
    python examples/ppo_citadels.py                    # --steps 800000: about 20 minutes on one CPU core

The learner sits in seat 0 of ``meeple.adapters.pettingzoo.single_agent_env("citadels", players=3)``; the other two
seats are meeple's ``heuristic`` bots (``--opponents``). Its reward is ``rank`` (``--reward``: the share of the other
seats it finished ahead of, so a second place is worth something, unlike ``win``). It sees its seat's observation
tensor only and chooses among the legal moves through the action mask. After training it is evaluated greedily on
``--eval-deals`` paired, seat-rotated deals never seen in training (seeds from 1,000,000), against ``random`` and
against ``heuristic``; the script prints both lines (win share, 95 % Wilson interval, fair share, mean score and
margin) and exits with status 0 when the interval against heuristic lies above the fair share. The trained model
is saved (``--save``, default ``ppo_citadels.zip``) so that the documented command reports it too:

    meeple evaluate examples/ppo_citadels.py:ppo citadels -p 3 -a random,heuristic -n 100 -s 1000000

(``ppo`` loads ``$MEEPLE_PPO_MODEL``, default ``ppo_citadels.zip`` in the working directory.)

docs/research.md shows a run, with its seeds and library versions.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker

from meeple.adapters.pettingzoo import single_agent_env
from meeple.arena.evaluate import evaluate, summary_line

EVAL_SEED = 1_000_000


class TensorOnly(gymnasium.ObservationWrapper):  # type: ignore[type-arg]
    """The observation tensor alone (the mask reaches MaskablePPO through ``ActionMasker``)."""

    def __init__(self, env: gymnasium.Env) -> None:  # type: ignore[type-arg]
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, Any]) -> Any:
        """The float32 tensor of the learner's seat."""
        return observation["observation"]


def make_env(players: int, opponents: str, reward: str) -> gymnasium.Env:  # type: ignore[type-arg]
    """Seat 0 of Citadels against meeple bots, with the action mask for MaskablePPO."""
    env = single_agent_env("citadels", seat=0, opponents=opponents, players=players, reward=reward)
    return ActionMasker(TensorOnly(env), lambda e: e.unwrapped.action_masks())


def greedy(model: MaskablePPO) -> Callable[[Any, Any], int]:
    """The policy ``fn(observation, mask) -> code`` that plays the model's most likely legal action."""

    def policy(observation: Any, mask: Any) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    return policy


def ppo(path: str | None = None) -> Callable[[Any, Any], int]:
    """The saved model as a greedy policy for ``meeple evaluate examples/ppo_citadels.py:ppo ...``.

    Args:
        path: the ``.zip`` written by ``--save``; default ``$MEEPLE_PPO_MODEL``, else ``ppo_citadels.zip``.
    """
    torch.set_num_threads(1)
    return greedy(MaskablePPO.load(path or os.environ.get("MEEPLE_PPO_MODEL", "ppo_citadels.zip"), device="cpu"))


def main() -> int:
    """Train, report against random and heuristic, return 0 when the policy beats heuristic players."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=800_000, help="learner decisions to train on")
    parser.add_argument("--eval-deals", type=int, default=100, help="deals per line-up (x players games)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--opponents", default="heuristic", help="the training opponents' bot spec")
    parser.add_argument("--reward", default="rank", choices=["win", "rank", "score", "score_margin"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", default="ppo_citadels.zip", help="where to save the trained model ('' for nowhere)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    env = make_env(args.players, args.opponents, args.reward)
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, seed=args.seed, verbose=0, device="cpu")
    start = time.perf_counter()
    for quarter in range(1, 5):
        model.learn(args.steps // 4, reset_num_timesteps=False)
        print(f"{quarter * (args.steps // 4):>7} steps, {time.perf_counter() - start:5.0f} s", flush=True)
    if args.save:
        model.save(args.save)
    policy = greedy(model)
    results = {}
    for opponent in ("random", "heuristic"):
        results[opponent] = evaluate(
            policy, "citadels", opponent, deals=args.eval_deals, seed=EVAL_SEED, label="ppo", players=args.players
        )
        print(summary_line(results[opponent]), flush=True)
    beaten = results["heuristic"].low > (results["heuristic"].fair_share or 0.0)
    print("the policy beats heuristic players" if beaten else "the policy does not beat heuristic players")
    return 0 if beaten else 1


if __name__ == "__main__":
    sys.exit(main())
