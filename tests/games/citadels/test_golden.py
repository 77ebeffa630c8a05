"""Compare a fresh 4-player random game with the checked-in golden playthrough (set MEEPLE_REGEN_GOLDEN=1 to
rewrite it, then review the diff)."""

from __future__ import annotations

import os

from .golden import GOLDEN, playthrough, regenerate


def test_golden_playthrough() -> None:
    if os.environ.get("MEEPLE_REGEN_GOLDEN") == "1":
        regenerate()
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    actual = playthrough().splitlines()
    for i, (a, e) in enumerate(zip(actual, expected, strict=False)):
        assert a == e, f"golden playthrough differs at line {i + 1}"
    assert len(actual) == len(expected)
