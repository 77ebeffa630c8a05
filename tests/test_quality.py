"""Lint, format and types are part of the suite: ruff check and ruff format clean, mypy --strict clean on src/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)


PATHS = ("src", "tests", "benchmarks", "tools", "examples", "setup.py")


def test_ruff_is_clean() -> None:
    result = run(sys.executable, "-m", "ruff", "check", *PATHS)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_applied() -> None:
    result = run(sys.executable, "-m", "ruff", "format", "--check", *PATHS)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    result = run(sys.executable, "-m", "mypy", "--strict", "src")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    command = 'pip install -e ".[test]" && pytest'
    assert command in readme
    assert command in ci.splitlines()
