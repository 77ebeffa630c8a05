"""VectorEnv against the PettingZoo env of the issue's time (commit 83a9d5d), each run in its own process on its own
code, each as a multiple of the same CPU-time baseline workload measured in that process (alternated slices, the
best of four): the ratio of the two multiples is the speed-up, with no stand-in for the old env.

    git archive 83a9d5d src | tar -x -C /tmp/issue_time          # the issue-time code, once
    PYTHONPATH=/tmp/issue_time/src python benchmarks/vector_vs_issue_time.py pz
    PYTHONPATH=src python benchmarks/vector_vs_issue_time.py vector
    # speed-up = (vector's "x baseline") / (pz's "x baseline"); repeat both and give the range

Citadels at 4 players, random legal actions, an observation and a mask for the mover at every step (the issue's
target: >= 3x). ``benchmarks/adapters.py --vector`` measures the same in one process, against today's env with the
reference tensors as the stand-in.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np


def cpu_baseline(seconds: float) -> float:
    """Ops per CPU second of ``meeple.bench``'s baseline workload (shuffle a 65-card deck and scan it), inlined so that
    both versions of the code run the same workload."""
    rng = random.Random(0)
    deck = list(range(65))
    ops, start = 0, time.process_time()
    while True:
        for _ in range(200):
            rng.shuffle(deck)
            sum(1 for c in deck if c & 1)
        ops += 200
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return ops / elapsed


def rate(run: Callable[[int], int], seconds: float) -> float:
    """Steps per CPU second of ``run(seed)`` (returns its steps) over about ``seconds``."""
    steps, seed, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        steps += run(seed)
        seed += 1
    return steps / (time.process_time() - start)


def pettingzoo_run() -> Callable[[int], int]:
    """One call: a whole game through the PettingZoo env, reading ``last()`` at every step."""
    from meeple.adapters.pettingzoo import env as pz_env
    from meeple.core.rng import Rng

    e = pz_env("citadels", players=4)

    def run(seed: int) -> int:
        e.reset(seed=seed)
        rng, steps = Rng(seed), 0
        for _agent in e.agent_iter():
            observation, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps

    return run


def vector_run() -> Callable[[int], int]:
    """One call: 200 steps of a VectorEnv of 64 games (returns 200 x 64)."""
    from meeple.adapters.vector import VectorEnv

    venv = VectorEnv("citadels", 64, players=4)
    kept: dict[str, Any] = {}

    def run(seed: int) -> int:
        if not kept:
            kept["infos"] = venv.reset(seed=seed)[1]
            kept["rng"] = np.random.default_rng(seed)
        for _ in range(200):
            masks = kept["infos"]["action_mask"]
            kept["infos"] = venv.step(np.argmax(kept["rng"].random(masks.shape) * masks, axis=1))[4]
        return 200 * 64

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env", choices=["pz", "vector"])
    parser.add_argument("--seconds", type=float, default=1.5, help="CPU seconds per slice")
    args = parser.parse_args()
    run = pettingzoo_run() if args.env == "pz" else vector_run()
    base = steps = 0.0
    for _ in range(4):
        base = max(base, cpu_baseline(args.seconds / 2))
        steps = max(steps, rate(run, args.seconds))
    print(f"{args.env}: {steps:,.0f} steps/s, baseline {base:,.0f} ops/s, x baseline {steps / base:.4f}")


if __name__ == "__main__":
    main()
