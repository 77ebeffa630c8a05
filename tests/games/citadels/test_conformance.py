"""The core conformance harness over Citadels at every player count and under every variant flag."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core.testing import check_game


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_conformance_player_counts(players: int) -> None:
    report = check_game("citadels", seeds=range(4), player_counts=[players], check_every=11)
    assert report.games == 4


@pytest.mark.parametrize(
    "players, params",
    [
        (2, {"variant_2p_ffg": True}),
        (3, {"variant_3p_ffg": True}),
        (4, {"quick_game": "7"}),
        (5, {"quick_game": "6"}),
        (4, {"killed_king_takes_crown": True}),
        (6, {"killed_king_takes_crown": True}),
        (4, {"deck": "en"}),
        (5, {"deck": "en", "great_wall": True}),
        (3, {"quick_game": "6", "killed_king_takes_crown": True}),
        (7, {"deck": "en", "great_wall": True, "quick_game": "7"}),
    ],
)
def test_conformance_variants(players: int, params: dict[str, Any]) -> None:
    seeds = [players, 100 + players]
    report = check_game("citadels", seeds=seeds, player_counts=[players], params=params, check_every=9)
    assert report.games == 2


def test_many_seeds_light_checks() -> None:
    report = check_game("citadels", seeds=range(10, 30), player_counts=[3, 4, 5, 6, 7], check_every=200)
    assert report.games == 100
