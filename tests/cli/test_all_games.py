"""The command line works for every registered game through the core contract only."""

from __future__ import annotations

from pathlib import Path

import pytest

import meeple
from meeple.core.records import read_records
from tests.cli.conftest import Cli

GAMES = meeple.registered_games()


@pytest.mark.parametrize("game", GAMES)
def test_rules_and_simulate(cli: Cli, game: str) -> None:
    out = cli(["rules", game]).output
    for spec in meeple.load_game(game).describe_params():
        assert spec.name in out
    out = cli(["simulate", game, "-n", "2", "--bots", "random"]).output
    assert "2 games" in out and "all seats" in out


@pytest.mark.parametrize("game", GAMES)
def test_play_to_the_end_and_replay(cli: Cli, game: str, tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    result = cli(["play", game, "--seed", "3", "--bots", "random", "--record", str(path)], input="1\n" * 3000)
    assert "Seat 0, your move" in result.output
    assert "Game over" in result.output and "Final scores" in result.output
    (record,) = read_records(path)
    assert record.returns and record.players[0] == "human"
    out = cli(["replay", str(path), "--seat", "0", "--auto", "--step", str(len(record.actions) - 1)]).output
    assert "Final scores" in out
