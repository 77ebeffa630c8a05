"""The shared conformance suite over every registered game (a new game is covered with no change here)."""

from __future__ import annotations

import pytest

import meeple
from meeple.core import game_class
from meeple.core.testing import check_game

CASES = [
    (name, n)
    for name in meeple.registered_games()
    for n in range(game_class(name).min_players, game_class(name).max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_game_passes_the_conformance_harness(name: str, players: int) -> None:
    report = check_game(name, seeds=range(2), player_counts=[players], check_every=3)
    assert report.games == 2
    assert report.player_counts == (players,)
    assert report.decisions > report.games


def test_every_game_describes_its_rules_and_flags() -> None:
    for name in meeple.registered_games():
        cls = game_class(name)
        assert len(cls.rules_summary()) > 200, name
        specs = cls.describe_params()
        assert specs[0].name == "players", name
        assert all(spec.doc for spec in specs), name
