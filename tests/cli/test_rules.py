from __future__ import annotations

import re

import meeple
from tests.cli.conftest import Cli


def test_version(cli: Cli) -> None:
    assert cli(["--version"]).output.strip() == f"meeple {meeple.__version__}"


def test_games_lists_player_counts(cli: Cli) -> None:
    out = cli(["games"]).output
    assert re.search(r"toy_auction\s+│\s+Toy sealed auction\s+│\s+2-4", out)


def test_rules_lists_every_flag(cli: Cli) -> None:
    out = cli(["rules", "toy_auction"]).output
    assert "Toy sealed auction" in out and "Players: 2 to 4" in out
    for spec in meeple.load_game("toy_auction").describe_params():
        assert re.search(rf"│ {spec.name}\s+│", out), spec.name
    assert "starting coins" in out and "2..4" in out


def test_rules_unknown_game(cli: Cli) -> None:
    assert "unknown game 'go'" in cli(["rules", "go"], code=2).output


def test_help_lists_the_commands(cli: Cli) -> None:
    out = cli(["--help"]).output
    for command in ("play", "simulate", "replay", "rules", "games"):
        assert command in out


def test_play_help_with_a_game_lists_that_games_flags_as_options(cli: Cli) -> None:
    out = cli(["play", "caprice", "--help"]).output
    assert "--symbol-order" in out and "--third-symbol-exchange" in out and "manual" in out
    assert "--great-wall" not in out  # a Citadels flag, not a Caprice one
    assert "--great-wall" in cli(["play", "citadels", "--help"]).output
    assert "variant flags, as options" not in cli(["play", "--help"]).output  # no game named: no table


def test_a_table_written_to_a_pipe_is_not_cut_at_80_columns() -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    done = subprocess.run(
        [sys.executable, "-m", "meeple", "rules", "caprice"], capture_output=True, text=True, env=env, check=True
    )
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) > 80
    assert any("'mandatory' = it is always set aside" in line for line in lines)  # a description in one piece
