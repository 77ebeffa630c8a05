from __future__ import annotations

import re
from pathlib import Path

import pytest

from meeple.core.records import read_records
from tests.cli.conftest import Cli


@pytest.fixture
def recorded(cli: Cli, tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    cli(["play", "toy_auction", "--players", "3", "--seed", "1", "--record", str(path)], input="1\n" * 30)
    return path


def test_replay_auto_from_a_seat_shows_that_seat_only(cli: Cli, recorded: Path) -> None:
    (record,) = read_records(recorded)
    n = len(record.actions)
    out = cli(["replay", str(recorded), "--seat", "1", "--auto"]).output
    assert f"Step 0/{n}" in out and f"Step {n}/{n}" in out
    assert "Initial position" in out and "Final scores" in out
    assert "Seat 1's view" in out and "Seat 0's view" not in out and "Seat 2's view" not in out
    # other seats' bids are redacted from seat 1's view
    assert "Seat 0 (human): seal a bid" in out
    assert not re.search(r"Seat [02] \([a-z]+\): bid \d", out)


def test_replay_full_view_shows_everything(cli: Cli, recorded: Path) -> None:
    out = cli(["replay", str(recorded), "--full", "--auto", "--step", "2"]).output
    assert "Step 0/" not in out and "Step 2/" in out
    assert "Public view" in out and "Seat 0's view" in out and "Seat 2's view" in out
    assert re.search(r"Seat 1 \(random\): bid \d", out)


def test_replay_interactive_keys(cli: Cli, recorded: Path) -> None:
    out = cli(["replay", str(recorded), "--seat", "0"], input="\n\nb\n5\nxx\nb\nq\n").output
    steps = re.findall(r"Step (\d+)/", out)
    assert steps == ["0", "1", "2", "1", "5", "4"]
    assert "'xx' is not a command" in out


def test_replay_of_a_simulation_file(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "sim.jsonl"
    cli(["simulate", "toy_auction", "-n", "3", "--record", str(path)])
    out = cli(["replay", str(path), "--game-index", "2", "--auto"]).output
    assert "seed 2" in out and "(finished)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game-index", "3"], "out of range"),
        (["--seat", "5"], "--seat must be from 0 to 2"),
        (["--seat", "1", "--full"], "not both"),
        (["--step", "999"], "--step must be from 0 to"),
    ],
)
def test_replay_bad_options(cli: Cli, recorded: Path, args: list[str], message: str) -> None:
    assert message in cli(["replay", str(recorded), *args], code=2).output


def test_replay_bad_files(cli: Cli, tmp_path: Path) -> None:
    assert "no such file" in cli(["replay", str(tmp_path / "none.jsonl")], code=2).output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"hello": 1}\n')
    assert "not a meeple game record" in cli(["replay", str(bad)], code=2).output
