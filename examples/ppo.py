"""Train a small PPO policy on any meeple game against fixed bots, export it as numpy weights, report it.

    pip install 'meeple[pettingzoo]' sb3-contrib          # sb3-contrib brings Stable-Baselines3 and PyTorch
    python examples/ppo.py citadels -p 3 --opponents heuristic --steps 200000 --export citadels-3p-heuristic.npz

The learner is sb3-contrib's ``MaskablePPO`` with its default network (two hidden layers of 64, tanh), on
``--envs`` copies of ``meeple.adapters.pettingzoo.single_agent_env``: env ``i`` puts the learner in seat
``i % players`` (every seat is learnt) and ``--opponents`` bots in the others. It sees its seat's observation tensor
only and chooses among the legal moves through the action mask. Its reward is ``--reward`` (default ``rank``: the
share of the other seats it finished ahead of, so a second place is worth something; Capital Lux 2 solo: beating ROB).

After ``--steps`` learner decisions the policy is written as a numpy checkpoint (``--export``, format
``meeple-policy/1``: :mod:`meeple.bots.checkpoint`, a few hundred kB, played without PyTorch) and checked to choose
exactly the moves the PyTorch network chooses; then it is evaluated greedily through ``meeple.arena.evaluate`` on
``--eval-deals`` paired, seat-rotated deals never seen in training (seeds from 1,000,000) against ``random`` and
``heuristic`` (the game itself in solo). The documented command reports the exported file with the same numbers:

    meeple evaluate citadels-3p-heuristic.npz citadels -p 3 -a random,heuristic -n 100 -s 1000000

``--save`` also keeps the PyTorch model (``.zip``; ``ppo`` below loads it for ``meeple evaluate examples/ppo.py:ppo``).
docs/baselines.md lists the runs, their budgets and what they reach.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.vec_env import DummyVecEnv

from meeple.adapters.pettingzoo import single_agent_env
from meeple.arena.evaluate import evaluate_lineups, summary_line
from meeple.bots.checkpoint import load_checkpoint, save_checkpoint
from meeple.core.registry import load_game

EVAL_SEED = 1_000_000


class TensorOnly(gymnasium.ObservationWrapper):  # type: ignore[type-arg]
    """The observation tensor alone (the mask reaches MaskablePPO through ``ActionMasker``)."""

    def __init__(self, env: gymnasium.Env) -> None:  # type: ignore[type-arg]
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, Any]) -> Any:
        """The float32 tensor of the learner's seat."""
        return observation["observation"]


def make_env(game: str, seat: int, opponents: str, reward: str, params: dict[str, Any]) -> gymnasium.Env:  # type: ignore[type-arg]
    """The learner in ``seat`` against ``opponents``, with the action mask for MaskablePPO."""
    env = single_agent_env(game, seat=seat, opponents=opponents, reward=reward, **params)
    return ActionMasker(TensorOnly(env), lambda e: e.unwrapped.action_masks())


def greedy(model: MaskablePPO) -> Callable[[Any, Any], int]:
    """The policy ``fn(observation, mask) -> code`` that plays the model's most likely legal action."""

    def policy(observation: Any, mask: Any) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    return policy


def ppo(path: str | None = None) -> Callable[[Any, Any], int]:
    """A saved PyTorch model as a greedy policy for ``meeple evaluate examples/ppo.py:ppo ...``.

    Args:
        path: the ``.zip`` written by ``--save``; default ``$MEEPLE_PPO_MODEL``, else ``ppo.zip``.
    """
    torch.set_num_threads(1)
    return greedy(MaskablePPO.load(path or os.environ.get("MEEPLE_PPO_MODEL", "ppo.zip"), device="cpu"))


def layers(model: MaskablePPO) -> list[tuple[Any, Any]]:
    """The policy network's layers as numpy ``(w, b)`` pairs, ``w`` as ``(inputs, outputs)``; logits last."""
    linear = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linear.append(model.policy.action_net)
    return [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linear]


def same_moves(model: MaskablePPO, path: str, game: str, params: dict[str, Any], samples: int = 200) -> int:
    """Moves where the exported checkpoint and the PyTorch model disagree, over ``samples`` random positions."""
    exported = load_checkpoint(path)
    state_game = load_game(game, **params)
    rng = np.random.default_rng(0)
    differ, seed = 0, EVAL_SEED * 2
    while samples > 0:
        state = state_game.new_initial_state(seed)
        seed += 1
        while not state.is_terminal() and samples > 0:
            seat = state.current_player()
            observation, mask = state.observation_tensor(seat), state.legal_actions_mask(seat)
            mine = greedy(model)(observation, mask)
            differ += int(mine != exported(observation, mask))
            samples -= 1
            codes = state.legal_action_codes()
            state.apply_action(codes[int(rng.integers(len(codes)))])
    return differ


def parse_flags(values: list[str]) -> dict[str, Any]:
    """``["variant_2p_ffg=true", ...]`` as game parameters (strings: ``load_game`` parses them)."""
    out: dict[str, Any] = {}
    for text in values:
        key, eq, value = text.partition("=")
        if not eq:
            raise SystemExit(f"--flag takes NAME=VALUE, not {text!r}")
        out[key.strip()] = value.strip()
    return out


def main() -> int:
    """Train, export, check the export, report against random and heuristic; 0 when it beats heuristic players."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="citadels")
    parser.add_argument("-p", "--players", type=int, default=3)
    parser.add_argument("--flag", action="append", default=[], help="a game parameter NAME=VALUE (repeatable)")
    parser.add_argument("--steps", type=int, default=200_000, help="learner decisions to train on")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--opponents", default="heuristic", help="the training opponents' bot spec")
    parser.add_argument("--reward", default="rank", choices=["win", "rank", "score", "score_margin"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--eval-deals", type=int, default=100, help="deals per line-up (x players games); 0: no evaluation"
    )
    parser.add_argument("--export", default="ppo.npz", help="the numpy checkpoint to write")
    parser.add_argument("--save", default="", help="also save the PyTorch model (.zip) here")
    args = parser.parse_args()
    torch.set_num_threads(1)
    params = {**parse_flags(args.flag), "players": args.players}
    players = load_game(args.game, **params).num_players
    envs = DummyVecEnv(
        [
            (lambda seat=i % players: make_env(args.game, seat, args.opponents, args.reward, params))
            for i in range(args.envs)
        ]
    )
    envs.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy", envs, n_steps=max(64, 2048 // args.envs), batch_size=256, seed=args.seed, verbose=0, device="cpu"
    )
    start, cpu = time.perf_counter(), time.process_time()
    for quarter in range(1, 5):
        chunk = args.steps * quarter // 4 - model.num_timesteps
        if chunk > 0:
            model.learn(chunk, reset_num_timesteps=False)
        print(f"{model.num_timesteps:>8} steps, {time.perf_counter() - start:6.0f} s", flush=True)
    cpu_seconds = time.process_time() - cpu
    if args.save:
        model.save(args.save)
    training = {
        "algorithm": "sb3-contrib MaskablePPO, MlpPolicy (64, 64, tanh)",
        "steps": int(model.num_timesteps),
        "envs": args.envs,
        "opponents": args.opponents if players > 1 else "ROB (the rules)",
        "reward": args.reward,
        "seed": args.seed,
        "cpu_seconds": round(cpu_seconds),
        "versions": {"torch": torch.__version__, "sb3_contrib": _version("sb3_contrib"), "numpy": np.__version__},
    }
    Path(args.export).parent.mkdir(parents=True, exist_ok=True)
    save_checkpoint(args.export, args.game, params, layers(model), "tanh", training)
    differ = same_moves(model, args.export, args.game, params)
    print(f"exported {args.export}: {os.path.getsize(args.export):,} bytes; {differ} of 200 moves differ", flush=True)
    if args.eval_deals < 1:
        return 0 if differ == 0 else 1
    policy = load_checkpoint(args.export)
    results = evaluate_lineups(
        policy, args.game, ("random", "heuristic"), deals=args.eval_deals, seed=EVAL_SEED, label=policy.name, **params
    )
    for result in results:
        print(summary_line(result), flush=True)
    last = results[-1]
    beaten = last.fair_share is not None and last.low > last.fair_share
    print("the policy beats heuristic players" if beaten else "the policy does not beat heuristic players")
    return 0 if beaten and differ == 0 else 1


def _version(module: str) -> str:
    from importlib.metadata import version

    return version(module.replace("_", "-"))


if __name__ == "__main__":
    sys.exit(main())
