"""Scenario tests of the Construction phase (capitol.md §5.2 Phase 1 and the permit rules)."""

from __future__ import annotations

import pytest

from meeple.core import IllegalActionError
from meeple.games.capitol.actions import PlayCard
from meeple.games.capitol.data import ROUND, TRIANGULAR
from meeple.games.capitol.state import AUCTION, CONSTRUCTION
from tests.games.capitol.helpers import do, fresh, names, place, set_hand, texts


def bld(h: int, roof: str, z: int) -> str:
    name = "round" if roof == "R" else "triangular"
    colour = "C1" if z < 3 else "C2" if z < 6 else "C3"
    return f"place the {name}-roofed building of height {h} in Z{z + 1} ({colour})"


def permit_options(state, seat=0, permit="permitC1-3"):  # type: ignore[no-untyped-def]
    set_hand(state, seat, [permit, "floor1"])
    do(state, f"play {permit} and place a building")
    return set(texts(state))


def test_setup() -> None:
    s = fresh(4)
    assert [len(h) for h in s.hands] == [8, 8, 8, 8]
    assert [len(p) for p in s.piles] == [14 - 8, 24 - 8, 24 - 16]
    assert s.supply == 90 - 24
    assert s.offboard[0] == sorted([1 * 4 + ROUND, 2 * 4 + ROUND, 1 * 4 + TRIANGULAR, 2 * 4 + TRIANGULAR])
    assert s.reserve == [3, 3] * 4
    assert s.tiles == [0, 2, 2, 8]
    assert s.phase == CONSTRUCTION and s.to_move == 0
    for seat in range(4):
        types = sorted(c // 14 if c < 14 else (1 if c < 38 else 2) for c in s.hands[seat])
        assert types == [0, 0, 1, 1, 2, 2, 2, 2]


def test_random_first_consul_is_seeded() -> None:
    from meeple.core import load_game

    g = load_game("capitol", players=4)
    consuls = {g.new_initial_state(seed).consul for seed in range(20)}
    assert len(consuls) > 1
    assert g.new_initial_state(5).consul == g.new_initial_state(5).consul


def test_permit_zone_colour_and_first_building_height_one() -> None:
    s = fresh()
    opts = permit_options(s)
    assert opts == {bld(1, r, z) for r in "RT" for z in range(3)}
    s = fresh()
    opts = permit_options(s, permit="permitC3-8")
    assert opts == {bld(1, r, z) for r in "RT" for z in range(6, 9)}


def test_roof_type_fixed_by_first_building() -> None:
    s = fresh()
    place(s, 1, 0, 1, ROUND)
    opts = permit_options(s)
    assert bld(1, "R", 0) in opts and bld(2, "R", 0) in opts
    assert bld(1, "T", 0) not in opts and bld(2, "T", 0) not in opts


def test_three_zones_of_a_colour_not_all_one_roof_type() -> None:
    s = fresh()
    place(s, 1, 0, 1, ROUND)
    place(s, 2, 1, 1, ROUND)
    opts = permit_options(s)
    assert bld(1, "T", 2) in opts
    assert bld(1, "R", 2) not in opts


def test_worked_example_zone_with_one_and_two_floors_accepts_only_two_or_three() -> None:
    s = fresh()
    place(s, 1, 0, 1, ROUND)
    place(s, 2, 0, 2, ROUND)
    s.offboard[0] = [1 * 4 + ROUND, 2 * 4 + ROUND, 3 * 4 + ROUND, 4 * 4 + ROUND]
    opts = {t for t in permit_options(s) if t.endswith("Z1 (C1)")}
    assert opts == {bld(2, "R", 0), bld(3, "R", 0)}


def test_free_small_space_required_fountain_tiles_occupy_printed_do_not() -> None:
    s = fresh()
    for seat in (1, 2, 3, 1, 2):  # Z1 has 5 small spaces: full
        place(s, seat, 0, 1, ROUND)
    assert not any(t.endswith("Z1 (C1)") for t in permit_options(s))
    s = fresh()
    for seat in (1, 2, 3, 1):
        place(s, seat, 0, 1, ROUND)
    s.zone_ftiles[0] = 1  # a fountain tile uses the last space
    assert not any(t.endswith("Z1 (C1)") for t in permit_options(s))
    s = fresh()
    for seat in (1, 2, 3, 1, 2):  # Z2: 6 spaces plus 1 printed fountain on an extra square
        place(s, seat, 1, 1, TRIANGULAR)
    assert s.zone_free()[1] == 1
    assert bld(1, "T", 1) in permit_options(s)


def test_only_completed_buildings_are_placed() -> None:
    s = fresh()
    s.offboard[0] = [1 * 4, 2 * 4]  # two unroofed buildings
    set_hand(s, 0, ["permitC1-3"])
    assert texts(s) == ["pass", "play permitC1-3 without its action"]
    with pytest.raises(IllegalActionError):
        s.apply_action(PlayCard(s.hands[0][0], True))


def test_permit_placement_moves_the_building() -> None:
    s = fresh()
    permit_options(s)
    do(s, bld(1, "T", 2))
    assert s.zone_bld[2] == [1 * 4 + 0]
    assert s.zone_roof[2] == TRIANGULAR
    assert 1 * 4 + TRIANGULAR not in s.offboard[0]
    assert s.zone_floors[2 * 4 + 0] == 1 and s.to_move == 1
    assert names(s.discards[2]) == ["permitC1-3"]


def test_floor_action_each_floor_placed_separately() -> None:
    s = fresh()
    set_hand(s, 0, ["floor1", "roof2"])
    do(s, "play floor1 and take floors")
    assert texts(s) == ["floor: start a new building"]
    do(s, "floor: start a new building")
    assert s.to_move == 0 and s.supply == 90 - 24 - 1
    assert texts(s) == ["floor: start a new building", "floor: add onto the unroofed building of height 1"]
    do(s, "floor: add onto the unroofed building of height 1")
    assert 2 * 4 in s.offboard[0] and s.supply == 90 - 24 - 2 and s.to_move == 1
    assert names(s.discards[1]) == ["floor1"]


def test_floor_placement_tallest_incomplete_only() -> None:
    s = fresh(floor_placement="tallest_incomplete_only")
    s.offboard[0] += [1 * 4, 3 * 4]
    set_hand(s, 0, ["floor1"])
    do(s, "play floor1 and take floors")
    assert texts(s) == ["floor: start a new building", "floor: add onto the unroofed building of height 3"]
    s = fresh()
    s.offboard[0] += [1 * 4, 3 * 4]
    set_hand(s, 0, ["floor1"])
    do(s, "play floor1 and take floors")
    assert len(texts(s)) == 3


def test_floor_shortage_takes_what_remains() -> None:
    s = fresh()
    s.supply = 1
    set_hand(s, 0, ["floor1", "floor2"])
    do(s, "play floor1 and take floors", "floor: start a new building")
    assert s.supply == 0 and s.to_move == 1 and not s.stack
    s.to_move = 0
    s.edited()
    assert "play floor2 and take floors" not in texts(s)
    assert "play floor2 without its action" in texts(s)


def test_roof_action() -> None:
    s = fresh()
    s.offboard[0].append(3 * 4)
    s.reserve[0] = 0  # no round roof left
    set_hand(s, 0, ["roof5"])
    do(s, "play roof5 and place a roof")
    assert texts(s) == ["roof the building of height 3 with a triangular roof"]
    do(s, "roof the building of height 3 with a triangular roof")
    assert 3 * 4 + TRIANGULAR in s.offboard[0] and s.reserve[1] == 2


def test_roof_card_without_roofs_can_still_be_played() -> None:
    s = fresh()
    s.reserve[0] = s.reserve[1] = 0
    s.offboard[0].append(1 * 4)
    set_hand(s, 0, ["roof5"])
    assert texts(s) == ["pass", "play roof5 without its action"]
    do(s, "play roof5 without its action")
    assert names(s.discards[0]) == ["roof5"] and s.to_move == 1


def test_identical_cards_are_offered_once() -> None:
    s = fresh()
    set_hand(s, 0, ["floor4", "floor4", "roof1"])
    assert texts(s).count("play floor4 without its action") == 1


def test_pass_is_final_and_empty_hands_pass_automatically() -> None:
    s = fresh(3)
    set_hand(s, 0, ["floor1", "floor2", "floor3"])
    set_hand(s, 1, [])
    set_hand(s, 2, ["roof1"])
    do(s, "play floor1 without its action")
    assert s.to_move == 2  # seat 1 has no card: passed automatically
    do(s, "pass")
    assert s.to_move == 0
    do(s, "play floor2 without its action")
    assert s.to_move == 0  # the only active seat keeps playing
    do(s, "pass")
    assert s.phase == AUCTION and s.to_move == 0
