"""The conformance harness over Capitol at 2-4 players and under every variant flag value."""

from __future__ import annotations

from typing import Any

import pytest

from meeple.core import InvalidParameterError, load_game
from meeple.core.testing import check_game

TINY_BOARD = "C1:1:0,C1:1:1,C1:2:0,C2:1:0,C2:2:1,C2:1:0,C3:1:0,C3:2:2,C3:1:0"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_default(players: int) -> None:
    report = check_game("capitol", seeds=range(2), player_counts=[players], check_every=6)
    assert report.games == 2


def test_conformance_every_check_every_step() -> None:
    check_game("capitol", seeds=[11], player_counts=[3], check_every=1)


@pytest.mark.parametrize(
    "params",
    [
        {"end_draw": "refill_to_six"},
        {"floor_placement": "tallest_incomplete_only"},
        {"shared_first_blocks_second": False},
        {"zero_bid": "no_sale"},
        {"fountain_no_space": "award_no_place", "board_layout": TINY_BOARD},
        {"fountain_no_space": "skip_auction", "board_layout": TINY_BOARD},
        {"amph_bonus_timing": "after_all_draws"},
        {"exhausted_pile": "shuffle"},
        {"played_card": "face_down"},
        {"played_card": "face_down", "exhausted_pile": "shuffle", "final_round_end_phase": "play"},
        {"floor_shortage": "take_remaining"},
        {"final_round_end_phase": "play"},
        {"final_tiebreak": "shared"},
        {"board_layout": "provisional_54", "first_consul": 1},
    ],
)
def test_conformance_flags(params: dict[str, Any]) -> None:
    players = 2 + len(str(params)) % 3  # spread the flags over 2, 3 and 4 players
    check_game("capitol", seeds=range(2), player_counts=[players], params=params, check_every=12)


def test_bad_parameters() -> None:
    with pytest.raises(InvalidParameterError):
        load_game("capitol", players=2, first_consul=3)
    with pytest.raises(InvalidParameterError):
        load_game("capitol", players=3, board_layout="C1:5:0")
    with pytest.raises(InvalidParameterError):
        load_game("capitol", players=3, board_layout="C1:5:0," * 8 + "C2:5:0")
    with pytest.raises(InvalidParameterError):
        load_game("capitol", players=5)


def test_rules_summary_lists_every_flag() -> None:
    from meeple.games.capitol import Capitol

    text = Capitol.rules_summary()
    for spec in Capitol.describe_params():
        if spec.name != "players":
            assert spec.name in text
