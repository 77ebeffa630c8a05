"""The research examples: docs/baselines.md lists every command of examples/baselines.py and its tables are the
committed results, a row is reproduced by its command; the PPO example trains, exports a checkpoint that plays the
network's moves without PyTorch, and ``meeple evaluate`` reports it with the script's numbers (that part is skipped
without sb3-contrib, which the test extra does not install: it brings PyTorch)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "ppo.py"
DOC = ROOT / "docs" / "baselines.md"


def _baselines() -> ModuleType:
    spec = importlib.util.spec_from_file_location("baselines", ROOT / "examples" / "baselines.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_baselines_doc_lists_every_command_and_shows_the_committed_results() -> None:
    baselines = _baselines()
    text = DOC.read_text()
    commands = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "baselines.py"), "commands"], capture_output=True, text=True
    ).stdout.splitlines()
    assert len(commands) == 31 + 16 * 7 - 1  # 31 trainings, then 7 rows per configuration (6 in solo)
    missing = [c for c in commands if c not in text]
    assert missing == []
    assert baselines.table(baselines.CONFIGS) in text  # the tables are the results, as committed
    assert f"<!-- size -->{baselines.sizes()}<!-- /size -->" in text  # the committed checkpoints' sizes
    done = [
        (game, players, label)
        for game, players, _flags in baselines.CONFIGS
        for label, _policy in baselines.policies(game, players)
        if baselines.result_file(game, players, label).is_file()
    ]
    # Every row is measured or says it is not (docs/baselines.md: the shared machine did not finish every run).
    assert len(done) + text.count("| (not run) |") == 16 * 7 - 1


def test_a_ppo_row_of_the_baselines_is_reproduced_by_its_command() -> None:
    baselines = _baselines()
    game, players, flags = baselines.CONFIGS[0]  # Caprice, 2 players: the quickest configuration
    label, policy = next(row for row in baselines.policies(game, players) if row[0] == "ppo-random")
    command = baselines.evaluate_command(game, players, flags, label, policy)
    assert command[:2] == ["meeple", "evaluate"]
    done = subprocess.run(
        [sys.executable, "-m", "meeple", *command[1:]], capture_output=True, text=True, cwd=ROOT, timeout=900
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == baselines.result_file(game, players, label).read_text()


def test_the_ppo_example_trains_exports_and_is_reported_alike(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("pettingzoo")
    exported, model = tmp_path / "p.npz", tmp_path / "p.zip"
    args = ["caprice", "-p", "2", "--steps", "1024", "--envs", "2", "--eval-deals", "1"]
    args += ["--export", str(exported), "--save", str(model)]
    result = subprocess.run([sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=900)
    assert result.returncode in (0, 1), result.stderr  # 1: not better than heuristic after 1,024 steps
    lines = result.stdout.splitlines()
    assert lines[0].strip().endswith(" s") and "steps" in lines[0]
    assert "0 of 200 moves differ" in lines[4]  # the numpy checkpoint plays exactly the PyTorch network's moves
    assert "of 2 games against random (fair share 50.0%)" in lines[5]
    assert "of 2 games against heuristic (fair share 50.0%)" in lines[6]
    assert exported.is_file() and model.is_file()

    # The documented report of the checkpoint, and of the PyTorch model through `examples/ppo.py:ppo`: same numbers.
    for policy, env in ((str(exported), {}), (f"{EXAMPLE}:ppo", {"MEEPLE_PPO_MODEL": str(model)})):
        command = [sys.executable, "-m", "meeple", "evaluate", policy, "caprice", "-p", "2", "-n", "1"]
        command += ["-s", "1000000", "--json"]
        report = subprocess.run(
            command, capture_output=True, text=True, timeout=600, env={**os.environ, **env}, cwd=tmp_path
        )
        assert report.returncode == 0, report.stderr
        rows = [json.loads(line) for line in report.stdout.splitlines()]
        assert [(r["opponent"], r["games"]) for r in rows] == [("random", 2), ("heuristic", 2)]
        for row, line in zip(rows, lines[5:7], strict=True):
            assert f"wins {100 * row['win_share']:.1f}%" in line and f"mean margin {row['mean_margin']:+.2f}" in line
