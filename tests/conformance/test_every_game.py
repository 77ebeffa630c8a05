"""The shared conformance suite over every registered game (a new game is covered with no change here)."""

from __future__ import annotations

import pytest

import meeple
from meeple.core import game_class
from meeple.core.testing import check_game


@pytest.mark.parametrize("name", meeple.registered_games())
def test_every_game_passes_the_conformance_harness(name: str) -> None:
    cls = game_class(name)
    report = check_game(name, seeds=range(2), check_every=3)
    assert report.games == 2 * len(report.player_counts)
    assert report.player_counts == tuple(range(cls.min_players, cls.max_players + 1)) or name == "citadels"
    assert report.decisions > report.games


def test_every_game_describes_its_rules_and_flags() -> None:
    for name in meeple.registered_games():
        cls = game_class(name)
        assert len(cls.rules_summary()) > 200, name
        specs = cls.describe_params()
        assert specs[0].name == "players", name
        assert all(spec.doc for spec in specs), name
