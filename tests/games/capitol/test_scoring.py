"""Pure unit tests of the zone-scoring functions (capitol.md §5.2 Phase 3)."""

from __future__ import annotations

import pytest

from meeple.games.capitol.rules import amphitheatre_bonus, auction_winner, bid_value, score_zone, zone_placings
from tests.games.capitol.helpers import card


def test_single_first_and_single_second() -> None:
    assert zone_placings([5, 3, 0, 1], [3, 3, 0, 1]) == ([0], [1])
    assert score_zone([5, 3, 0, 1], [3, 3, 0, 1], fountains=0, temple=False) == [2, 0, 0, 0]
    assert score_zone([5, 3, 0, 1], [3, 3, 0, 1], fountains=2, temple=False) == [4, 2, 0, 0]


def test_nobody_in_zone_and_alone_in_zone() -> None:
    assert score_zone([0, 0, 0], [0, 0, 0], fountains=3, temple=True) == [0, 0, 0]
    assert score_zone([0, 2, 0], [0, 2, 0], fountains=1, temple=False) == [0, 3, 0]


def test_second_place_tie_is_shared_and_not_broken_by_tallest() -> None:
    # seat 0 first; seats 1 and 2 tie on 3 floors with different tallest buildings: both 2nd
    assert zone_placings([6, 3, 3, 1], [3, 3, 1, 1]) == ([0], [1, 2])
    assert score_zone([6, 3, 3, 1], [3, 3, 1, 1], fountains=1, temple=False) == [3, 1, 1, 0]


def test_first_tie_broken_by_tallest_building_others_second() -> None:
    # equal floors (4); seat 1 has the tallest building (3) -> 1st, seat 0 -> 2nd; seat 2 (fewer floors) nothing
    assert zone_placings([4, 4, 2], [2, 3, 2]) == ([1], [0])
    assert score_zone([4, 4, 2], [2, 3, 2], fountains=1, temple=False) == [1, 3, 0]


def test_three_way_first_tie_with_single_tallest_makes_two_seconds() -> None:
    assert zone_placings([3, 3, 3, 1], [1, 3, 2, 1]) == ([1], [0, 2])


@pytest.mark.parametrize("blocks", [True, False])
def test_shared_first_blocks_second(blocks: bool) -> None:
    # seats 0 and 1: 4 floors, tallest 2 each -> both 1st; seat 2 has 2 floors
    firsts, seconds = zone_placings([4, 4, 2, 0], [2, 2, 2, 0], blocks)
    assert firsts == [0, 1]
    assert seconds == ([] if blocks else [2])
    pts = score_zone([4, 4, 2, 0], [2, 2, 2, 0], fountains=2, temple=False, shared_first_blocks_second=blocks)
    assert pts == [4, 4, 0 if blocks else 2, 0]


@pytest.mark.parametrize("blocks", [True, False])
def test_shared_first_with_a_tied_lower_building(blocks: bool) -> None:
    # three seats with 4 floors; seats 0, 1 tallest 3, seat 2 tallest 2: 0 and 1 share 1st
    firsts, seconds = zone_placings([4, 4, 4, 1], [3, 3, 2, 1], blocks)
    assert firsts == [0, 1]
    assert seconds == ([] if blocks else [2])


def test_temple_doubles_everything() -> None:
    assert score_zone([5, 3], [3, 3], fountains=0, temple=True) == [4, 0]
    assert score_zone([5, 3], [3, 3], fountains=2, temple=True) == [8, 4]
    assert score_zone([4, 4, 1], [2, 3, 1], fountains=1, temple=True) == [2, 6, 0]
    assert score_zone([4, 4, 1], [2, 2, 1], fountains=1, temple=True) == [6, 6, 0]


def test_only_floors_count_not_buildings() -> None:
    # seat 0 has one building of 3, seat 1 three buildings of 1: tie on floors, tallest wins
    assert zone_placings([3, 3], [3, 1]) == ([0], [1])


def test_amphitheatre_bonus_uses_the_same_placings() -> None:
    assert amphitheatre_bonus([5, 3, 3, 0], [3, 2, 1, 0]) == [2, 1, 1, 0]
    assert amphitheatre_bonus([4, 4, 1], [2, 2, 1]) == [2, 2, 0]
    assert amphitheatre_bonus([4, 4, 1], [2, 2, 1], False) == [2, 2, 1]


def test_bid_value_and_winner() -> None:
    # rulebook example: cards 4, 6, 7, 8; a bid of 11 is the 7 and the 4
    bid = (card("roof7"), card("floor4"))
    assert bid_value(bid) == (11, 7)
    assert bid_value(()) == (0, 0)
    other = (card("floor6"), card("floor5"))  # also 11, highest 6
    assert auction_winner([other, bid], consul=0) == 1
    # equal sum and equal highest card: seat order from the Consul
    a, b = (card("floor6"), card("floor5")), (card("permitC1-6"), card("permitC2-5"))
    assert auction_winner([a, b, ()], consul=1) == 1
    assert auction_winner([a, b, ()], consul=2) == 0
    # second-highest cards are never compared: 6+3+2 vs 6+5 -> equal sum 11, equal top -> seat order
    c = (card("floor6"), card("floor3"), card("floor2"))
    assert auction_winner([c, a], consul=1) == 1
    assert auction_winner([(), (), ()], consul=2) == 2
