"""The research example runs (a few thousand steps against heuristic bots; docs/research.md has the full run), and
the model it saves is reported by ``meeple evaluate`` as the docs say. Skipped without sb3-contrib, which the test
extra does not install (it brings PyTorch, a large download on most machines)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")
pytest.importorskip("pettingzoo")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "ppo_citadels.py"


def test_the_ppo_example_trains_saves_and_evaluates(tmp_path: Path) -> None:
    model = tmp_path / "model.zip"
    args = ["--steps", "2048", "--eval-deals", "2", "--save", str(model)]
    result = subprocess.run([sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=600)
    assert result.returncode in (0, 1), result.stderr  # 1: not better than heuristic after 2,048 steps
    lines = result.stdout.splitlines()
    assert len(lines) == 7 and lines[0].strip().startswith("512 steps")
    assert "of 6 games against random (fair share 33.3%)" in lines[4]
    assert "of 6 games against heuristic (fair share 33.3%)" in lines[5]
    assert "beats heuristic" in lines[-1] or "does not beat heuristic" in lines[-1]
    assert model.is_file()

    # The documented report: `meeple evaluate examples/ppo_citadels.py:ppo ...` gives the same games and numbers.
    command = [sys.executable, "-m", "meeple", "evaluate", f"{EXAMPLE}:ppo", "citadels", "-p", "3", "-n", "2"]
    command += ["-s", "1000000", "--json"]
    env = {**os.environ, "MEEPLE_PPO_MODEL": str(model)}
    report = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    rows = [json.loads(line) for line in report.stdout.splitlines()]
    assert [(r["opponent"], r["games"], r["policy"]) for r in rows] == [("random", 6, "ppo"), ("heuristic", 6, "ppo")]
    for row, line in zip(rows, lines[4:6], strict=True):
        assert f"wins {100 * row['win_share']:.1f}%" in line
