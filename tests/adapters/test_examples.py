"""The research example runs (a few thousand steps against heuristic bots; docs/research.md has the full run).
Skipped without sb3-contrib, which the test extra does not install (it brings PyTorch, a large download on most
machines)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("pettingzoo")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ppo_citadels.py"


def test_the_ppo_example_trains_and_evaluates() -> None:
    args = ["--steps", "2048", "--eval-deals", "2"]
    result = subprocess.run([sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=600)
    assert result.returncode in (0, 1), result.stderr  # 1: not better than heuristic after 2,048 steps
    lines = result.stdout.splitlines()
    assert len(lines) == 7 and lines[0].strip().startswith("512 steps")
    assert "of 6 games against random (fair share 33.3%)" in lines[4]
    assert "of 6 games against heuristic (fair share 33.3%)" in lines[5]
    assert "beats heuristic" in lines[-1] or "does not beat heuristic" in lines[-1]
