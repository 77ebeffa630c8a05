"""The command line with Citadels: what a human sees, hot seat, simulate, record and replay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import meeple
from meeple.core.records import read_records
from tests.cli.conftest import Cli

pytestmark = pytest.mark.skipif("citadels" not in meeple.registered_games(), reason="citadels is not registered")

PLAY = ["play", "citadels", "--players", "3", "--seed", "1"]


def hands(seed: int = 1, players: int = 3) -> list[set[str]]:
    """The district names in each seat's starting hand, as each seat's own observation shows them."""
    state = meeple.load_game("citadels", players=players).new_initial_state(seed)
    return [{card["name"] for card in state.observation(s)["hand"]} for s in range(players)]


def test_complete_game_against_bots(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "citadels.jsonl"
    script = "xyz\n99\nhelp\n" + "1\n" * 2000
    out = cli([*PLAY, "--humans", "1", "--record", str(path)], input=script).output
    first_turn = out.split("Seat 0, your move:")[0]
    mine, *others = hands()
    for name in mine:
        assert name in first_turn
    for name in set.union(*others) - mine:
        assert name not in first_turn, f"{name} of another seat's hand is shown"
    assert "Your hand (seat 0)" in out and "Your hand (seat 1)" not in out and "Your hand (seat 2)" not in out
    # bots' character picks are redacted, and the moves are numbered
    assert "Seat 1 (heuristic): pick a character" in out
    assert not re.search(r"Seat [12] \(heuristic\): pick the ", out)
    assert re.search(r"^\s+1\. pick the \w+", out, re.M)
    assert "'xyz' is not a legal move" in out and "99 is not a legal move number" in out
    assert "Commands" in out
    assert "Game over" in out and "Final scores" in out and re.search(r"Winners?: Seat", out)
    (record,) = read_records(path)
    final = record.replay()
    assert final.is_terminal() and record.returns == final.returns()
    assert record.players == ["human", "heuristic", "heuristic"]


def _segments(out: str, seat: int) -> list[str]:
    parts = re.split(r"(?=Pass to seat \d)", out)
    return [p.split("Game over")[0] for p in parts if p.startswith(f"Pass to seat {seat}")]


def test_hot_seat_never_shows_a_hand_to_another_human(cli: Cli) -> None:
    out = cli([*PLAY, "--humans", "2", "--bots", "random"], input="1\n" * 3000).output
    seat0, seat1 = _segments(out, 0), _segments(out, 1)
    assert len(seat0) > 3 and len(seat1) > 3
    for part in seat1:
        assert "Your hand (seat 0)" not in part
        assert not re.search(r"Seat 0 \(human\): pick the ", part)
    for part in seat0:
        assert "Your hand (seat 1)" not in part
        assert not re.search(r"Seat 1 \(human\): pick the ", part)
    mine, theirs, _ = hands()
    first_of_seat1 = seat1[0].split("Seat 1, your move:")[0]
    for name in mine - theirs:
        assert name not in first_of_seat1
    assert "Seat 2 (random): pick a character" in out


def test_quit_saves_an_unfinished_record_that_replays(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "quit.jsonl"
    out = cli([*PLAY, "--record", str(path)], input="1\n1\nquit\ny\ny\n").output
    assert "Game abandoned." in out
    (record,) = read_records(path)
    assert record.returns == [] and not record.replay().is_terminal()
    out = cli(["replay", str(path), "--seat", "0", "--auto"]).output
    assert f"Step {len(record.actions)}/{len(record.actions)}" in out
    assert "Your hand (seat 0)" in out and "Your hand (seat 1)" not in out


def test_simulate_jobs_give_the_same_summary(cli: Cli, tmp_path: Path) -> None:
    args = ["simulate", "citadels", "-n", "6", "--players", "4", "--bots", "random,heuristic", "--seed", "3"]
    one = cli([*args, "--jobs", "1"]).output
    two = cli([*args, "--jobs", "2", "--record", str(tmp_path / "sim.jsonl")]).output

    def numbers(text: str) -> list[str]:
        # the progress lines ("simulated 3/6 games in 1 s") carry wall-clock seconds: not the same from run to run
        kept = [line for line in text.splitlines() if not line.startswith(("Speed:", "Saved"))]
        return [re.sub(r"in \d+ s\b", "in N s", line) for line in kept]

    assert numbers(one) == numbers(two)
    assert "random, heuristic, random, heuristic" in one
    assert re.search(r"Mean length: [\d.]+ rounds", one) and re.search(r"Mean length: [\d.]+ decisions", one)
    assert len(list(read_records(tmp_path / "sim.jsonl"))) == 6


def test_rules_lists_the_variant_flags(cli: Cli) -> None:
    out = cli(["rules", "citadels"]).output
    for flag in ("quick_game", "killed_king_takes_crown", "deck"):
        assert flag in out


def test_bad_variant_exits_2(cli: Cli) -> None:
    out = cli([*PLAY, "--variant", "quick_game=sometimes"], code=2).output
    assert "quick_game" in out and "Traceback" not in out
    assert "citadels is played by" in cli(["play", "citadels", "--players", "9"], code=2).output
