"""Pure scoring functions: the spec's 13-point example, the best-order search, the tie-break."""

from __future__ import annotations

from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.games.caprice.rules import (
    best_order,
    codes,
    distinct_orders,
    names,
    order_points,
    tie_break_winner,
    tower_points,
)

EXAMPLE_TOWERS = [
    codes(t.split()) for t in ("DR LT DR LR", "DR DT LR LR", "DT LT DT LR", "LR LT DR DT", "LT DT DR DT", "DR")
]
EXAMPLE_SYMBOLS = codes(["DR", "DR", "LT", "LR"])


def test_tower_points_per_position_and_bonus() -> None:
    order = codes(["DR", "LT", "DR", "LR"])
    assert tower_points(order, codes(["DR", "LT", "DR", "LR"])) == 5  # 4 matches + full bonus
    assert tower_points(order, codes(["DR", "DT", "LR", "LR"])) == 2
    assert tower_points(order, codes(["DR", "LT", "DR"])) == 3  # incomplete: no bonus
    assert tower_points(order, codes(["LT"])) == 0
    assert tower_points(order, []) == 0


def test_spec_example_scores_13_per_tower() -> None:
    order = codes(["DR", "LT", "DR", "LR"])
    assert [tower_points(order, t) for t in EXAMPLE_TOWERS] == [5, 2, 2, 2, 1, 1]
    assert order_points(order, EXAMPLE_TOWERS) == 13
    # 21 pieces placed: DR 6, DT 6, LR 5, LT 4
    placed = [p for t in EXAMPLE_TOWERS for p in t]
    assert [placed.count(p) for p in range(4)] == [6, 6, 5, 4]


def test_spec_example_best_order_is_unique() -> None:
    order, points = best_order(EXAMPLE_SYMBOLS, EXAMPLE_TOWERS)
    assert names(order) == ["DR", "LT", "DR", "LR"]
    assert points == 13
    others = [o for o in distinct_orders(tuple(sorted(EXAMPLE_SYMBOLS))) if o != order]
    assert len(others) == 11  # 12 distinct orders of DR DR LT LR
    assert all(order_points(o, EXAMPLE_TOWERS) < 13 for o in others)


def test_distinct_orders_counts() -> None:
    assert len(distinct_orders((0, 1, 2, 3))) == 24
    assert len(distinct_orders((0, 0, 1, 2))) == 12
    assert len(distinct_orders((0, 0, 1, 1))) == 6
    assert len(distinct_orders((0, 0, 0, 1))) == 4
    assert distinct_orders((2, 2, 2, 2)) == ((2, 2, 2, 2),)


def test_best_order_ties_go_to_the_smallest_order() -> None:
    order, points = best_order(codes(["LT", "DR", "DT", "LR"]), [[], [], [], [], [], []])
    assert points == 0
    assert order == (0, 1, 2, 3)


tower_st = st.lists(st.integers(0, 3), min_size=0, max_size=4)


@settings(max_examples=150, deadline=None)
@given(symbols=st.lists(st.integers(0, 3), min_size=4, max_size=4), towers=st.lists(tower_st, min_size=6, max_size=6))
def test_best_order_is_the_maximum_over_all_24_permutations(symbols: list[int], towers: list[list[int]]) -> None:
    order, points = best_order(symbols, towers)
    brute = max(order_points(p, towers) for p in permutations(symbols))
    assert points == brute == order_points(order, towers)
    assert sorted(order) == sorted(symbols)


@pytest.mark.parametrize(
    ("points", "ender", "winner"),
    [
        ([5, 7, 3], 0, 1),  # a clear winner
        ([7, 7, 3], 0, 1),  # the ender loses the tie
        ([7, 7, 3], 1, 0),  # seat 0 comes right after the ender 1 in a 2-way tie (3 players: 2, then 0)
        ([7, 3, 7], 1, 2),  # after ender 1 come 2, 0: seat 2 first
        ([7, 7, 7, 7], 2, 3),  # everyone tied: the seat right after the ender
        ([7, 7, 7, 7], 3, 0),
        ([6, 7, 2, 7], 2, 3),
        ([6, 7, 2, 7], 3, 1),  # after ender 3: 0, 1, 2 -> seat 1 is the first tied one
    ],
)
def test_tie_break_from_the_ender(points: list[int], ender: int, winner: int) -> None:
    assert tie_break_winner(points, ender) == winner
