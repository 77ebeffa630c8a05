"""The research example runs (a few episodes; the full run is in docs/research.md). Skipped without PyTorch, which
the test extra does not install (its CPU build is a large download on most machines)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("tree")
pytest.importorskip("pyspiel")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "dqn_caprice.py"


def test_the_dqn_example_trains_and_evaluates() -> None:
    args = ["--episodes", "30", "--eval-every", "15", "--eval-games", "6"]
    result = subprocess.run([sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=600)
    assert result.returncode in (0, 1), result.stderr  # 1: not yet better than random after 30 episodes
    lines = result.stdout.splitlines()
    assert lines[0].startswith("episode 0: win rate vs random")
    assert any(line.startswith("episode 30 (") for line in lines)
    assert "beats random" in lines[-1] or "does not beat random" in lines[-1]
