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


def test_replay_shows_the_seed_of_a_finished_game_only(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "quit.jsonl"
    cli(["play", "toy_auction", "--seed", "123457", "--record", str(path)], input="1\nquit\ny\ny\n")
    out = cli(["replay", str(path), "--seat", "0", "--auto"]).output
    assert "(unfinished)" in out and "123457" not in out
    done = tmp_path / "done.jsonl"
    cli(["play", "toy_auction", "--seed", "123457", "--record", str(done)], input="1\n" * 30)
    assert "seed 123457," in cli(["replay", str(done), "--auto"]).output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "is a directory, not a file of game records"),
        (bytes(range(128, 256)) * 4, "not a text file of game records (not UTF-8)"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (
            b'{"format": "meeple-record/1", "game": "toy_auction", "params": {"players": [2]}, '
            b'"seed": 1, "actions": []}',
            "players",
        ),
        (
            b'{"format": "meeple-record/1", "game": "toy_auction", "params": {}, "seed": 1, "actions": [{"type": []}]}',
            "action 0 cannot be replayed: unknown action type []",
        ),
    ],
)
def test_replay_of_a_bad_file_is_one_error_line(cli: Cli, tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "bad"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    result = cli(["replay", str(path), "--auto"], code=2)
    assert message in result.output and "Traceback" not in result.output
    assert result.output.strip().startswith("Error:") and result.output.strip().count("\n") <= 2
