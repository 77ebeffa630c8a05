"""The baseline workload that engine speeds are compared against (see meeple.bench)."""

from __future__ import annotations

import random
from typing import Any


def test_baseline_shuffle_and_scan(benchmark: Any) -> None:
    rng = random.Random(0)
    deck = list(range(65))

    def op() -> int:
        rng.shuffle(deck)
        return sum(1 for c in deck if c & 1)

    assert benchmark(op) == 32
