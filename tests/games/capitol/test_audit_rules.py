"""Audit: scenario tests for rule points of capitol.md §5.1-§5.4 not covered elsewhere."""

from __future__ import annotations

from meeple.games.capitol.data import AMPHITHEATRE, FOUNTAIN, ROUND, TEMPLE, TRIANGULAR
from meeple.games.capitol.state import AUCTION, END, CapitolState
from tests.games.capitol.helpers import card, do, fresh, names, place, set_hand, texts
from tests.games.capitol.test_construction import bld, permit_options

NEW = "floor: start a new building"


def onto(h: int) -> str:
    return f"floor: add onto the unroofed building of height {h}"


def to_auction(s: CapitolState) -> None:
    while s.phase != AUCTION:
        do(s, "pass")


# ---------------------------------------------------------------- floor action (§5.2, §2 b)
def test_it_floor_variant_second_floor_may_go_on_the_building_the_first_started() -> None:
    s = fresh(floor_placement="tallest_incomplete_only")
    s.offboard[0] += [2 * 4, 3 * 4]
    set_hand(s, 0, ["floor1"])
    do(s, "play floor1 and take floors")
    assert texts(s) == [NEW, onto(3)]
    do(s, NEW)  # one new building of two floors is allowed ("start one or two new buildings")
    assert texts(s) == [NEW, onto(1), onto(3)]
    do(s, onto(1))
    assert sorted(c >> 2 for c in s.offboard[0] if c & 3 == 0) == [2, 2, 3]


def test_it_floor_variant_after_extending_the_tallest() -> None:
    s = fresh(floor_placement="tallest_incomplete_only")
    s.offboard[0] += [2 * 4, 3 * 4]
    set_hand(s, 0, ["floor1"])
    do(s, "play floor1 and take floors", onto(3))
    assert texts(s) == [NEW, onto(4)]  # never onto the lower unroofed building (2)
    s = fresh()
    s.offboard[0] += [2 * 4, 3 * 4]
    set_hand(s, 0, ["floor1"])
    do(s, "play floor1 and take floors", onto(3))
    assert texts(s) == [NEW, onto(2), onto(4)]  # free placement (default)


def test_floor_action_both_floors_on_one_existing_building() -> None:
    s = fresh()
    s.offboard[0] += [1 * 4]
    set_hand(s, 0, ["floor3"])
    do(s, "play floor3 and take floors", onto(1), onto(2))
    assert 3 * 4 in s.offboard[0] and 1 * 4 not in s.offboard[0] and s.to_move == 1
    assert s.supply == 90 - 24 - 2


# ---------------------------------------------------------------- roof and permit actions (§5.2)
def test_roof_card_without_an_unroofed_building_has_no_action() -> None:
    s = fresh()
    set_hand(s, 0, ["roof4"])
    assert texts(s) == ["pass", "play roof4 without its action"]


def test_colour_rule_only_when_both_other_zones_share_the_type() -> None:
    s = fresh()
    place(s, 1, 0, 1, ROUND)  # only Z1 is round: Z2 and Z3 may still take either type
    opts = permit_options(s)
    assert {bld(1, "R", 1), bld(1, "T", 1), bld(1, "R", 2), bld(1, "T", 2)} <= opts
    s = fresh()
    place(s, 1, 0, 1, ROUND)
    place(s, 2, 1, 1, TRIANGULAR)  # mixed types in Z1, Z2: Z3 free to take either
    opts = permit_options(s)
    assert {bld(1, "R", 2), bld(1, "T", 2)} <= opts


def test_a_zone_with_only_fountain_tiles_is_still_empty() -> None:
    s = fresh()
    place(s, 1, 0, 1, TRIANGULAR)
    place(s, 2, 1, 1, TRIANGULAR)
    s.zone_ftiles[2] = 6  # Z3: 7 small spaces, 6 fountain tiles, no building
    opts = {t for t in permit_options(s) if t.endswith("Z3 (C1)")}
    assert opts == {bld(1, "R", 2)}  # height 1 only; not triangular (Z1 and Z2 are)


def test_printed_fountains_are_not_small_spaces() -> None:
    for tiles, free in ((1, False), (0, True)):
        s = fresh()
        for seat in (1, 2, 3, 1, 2):
            place(s, seat, 7, 1, ROUND)  # Z8: 6 small spaces (+2 printed fountains on extra squares)
        s.zone_ftiles[7] = tiles
        assert s.zone_free()[7] == 1 - tiles
        assert (bld(1, "R", 7) in permit_options(s, permit="permitC3-1")) is free


def test_lower_or_much_taller_buildings_are_refused() -> None:
    s = fresh()
    place(s, 1, 0, 1, ROUND)
    place(s, 2, 0, 2, ROUND)
    place(s, 3, 0, 3, ROUND)  # H = 3: only 3 or 4
    s.offboard[0] = [h * 4 + ROUND for h in (1, 2, 3, 4, 5)]
    opts = {t for t in permit_options(s) if t.endswith("Z1 (C1)")}
    assert opts == {bld(3, "R", 0), bld(4, "R", 0)}


# ---------------------------------------------------------------- improvement (§5.2 Phase 2)
def test_winner_cards_go_to_the_discard_pile_of_each_type_losers_keep_theirs() -> None:
    s = fresh(2)
    set_hand(s, 0, ["roof2", "floor3", "permitC2-4", "floor1"])
    set_hand(s, 1, ["floor8"])
    to_auction(s)
    before = [len(d) for d in s.discards]
    do(s, "bid: add permitC2-4", "bid: add roof2", "bid: add floor3", "seal the bid")
    do(s, "bid: add floor8", "seal the bid")
    assert s.auction_log[-1][1] == 0  # 9 > 8
    assert [len(d) - b for d, b in zip(s.discards, before, strict=True)] == [1, 1, 1]
    assert names([s.discards[0][-1], s.discards[1][-1], s.discards[2][-1]]) == ["floor3", "permitC2-4", "roof2"]
    assert names(s.hands[0]) == ["floor1"] and names(s.hands[1]) == ["floor8"]
    assert names(s.observation(0)["players"][1]["known_cards"]) == ["floor8"]


def test_zero_bids_with_an_empty_handed_consul_still_give_the_consul_the_tile() -> None:
    s = fresh(3, first_consul=1)
    set_hand(s, 1, [])
    to_auction(s)
    assert s.to_move == 2  # the Consul's empty bid (STOP) was sealed automatically
    do(s, "seal the bid", "seal the bid")
    assert s.auction_log[-1][1] == 1 and s.to_move == 1 and s.stack[-1].kind == "tile"


def test_winner_must_place_the_tile_no_other_move() -> None:
    s = fresh(2)
    to_auction(s)
    do(s, "seal the bid", "seal the bid")
    legal = texts(s)
    assert legal and all(t.startswith("place the tile in ") for t in legal)


def test_fountain_no_space_second_fountain_skipped_after_the_last_space_is_used() -> None:
    s = fresh(2)
    s.zone_ftiles = [z.small_spaces for z in s.game.zones]
    s.zone_ftiles[4] -= 1  # one free small space left, in Z5
    to_auction(s)
    assert s.lot == 0
    do(s, "seal the bid", "seal the bid")
    assert texts(s) == ["place the tile in Z5 (C2)"]
    do(s, "place the tile in Z5 (C2)")
    assert s.lot == 2 and s.removed[FOUNTAIN] == 1 and s.auction_log[1][1] == -1  # not held
    assert s.tiles[FOUNTAIN] == 6


def test_fountain_no_space_award_no_place_winner_pays() -> None:
    s = fresh(2, fountain_no_space="award_no_place")
    s.zone_ftiles = [z.small_spaces for z in s.game.zones]
    set_hand(s, 0, ["floor3"])
    set_hand(s, 1, ["floor2"])
    to_auction(s)
    do(s, "bid: add floor3", "seal the bid", "bid: add floor2", "seal the bid")
    assert s.auction_log[0][1] == 0 and s.hands[0] == [] and names(s.hands[1]) == ["floor2"]
    assert s.lot == 1 and not s.stack and s.removed[FOUNTAIN] == 1


# ---------------------------------------------------------------- end phase (§5.2 Phase 4)
def test_amphitheatre_won_this_round_gives_its_bonus_in_this_end_phase() -> None:
    s = fresh(2)
    place(s, 1, 0, 1, ROUND)  # seat 1 alone in Z1
    set_hand(s, 0, [])
    set_hand(s, 1, ["floor8"])
    to_auction(s)
    assert s.to_move == 1  # seat 0 (Consul, no card) bid nothing automatically
    for _ in range(2):  # two fountains: nobody bids, the Consul (seat 0) places them in Z9
        do(s, "seal the bid", "place the tile in Z9 (C3)")
    assert s.lots()[s.lot] == AMPHITHEATRE
    do(s, "bid: add floor8", "seal the bid")
    assert s.to_move == 1
    do(s, "place the tile in Z1 (C1)")
    assert s.phase == END and s.bonus == [0, 2]
    assert s.draw_queue == [(0, 6), (1, 8)]


def test_refill_to_six_still_adds_the_amphitheatre_bonus() -> None:
    s = fresh(2, end_draw="refill_to_six")
    place(s, 1, 0, 1, ROUND)
    s.zone_large[0] = AMPHITHEATRE
    while s.phase not in (END,):
        legal = texts(s)
        do(s, "pass" if "pass" in legal else "seal the bid" if "seal the bid" in legal else legal[-1])
    assert [len(h) for h in s.hands] == [8, 8]
    assert s.draw_queue == [(1, 2)]  # seat 0 draws 0 (already 8), seat 1 only its bonus


def test_discards_turned_over_in_the_order_they_were_played() -> None:
    s = fresh(2)
    set_hand(s, 0, ["roof7", "roof1", "roof3"])
    rest = [c for c in range(14) if c not in s.hands[0]]  # every other roof card goes to seat 1's hand
    for lst in (s.piles[0], s.discards[0]):
        lst[:] = [c for c in lst if c not in rest]
    s.hands[1] = sorted(set(s.hands[1]) | set(rest))
    s.edited()
    do(s, "play roof7 without its action", "pass", "play roof1 without its action", "play roof3 without its action")
    while s.phase != END:
        legal = texts(s)
        do(s, "seal the bid" if "seal the bid" in legal else legal[0])
    # the roof pile ran out; its discard pile is turned over: the oldest discard (roof7) is the new top
    assert names(s.piles[0]) == ["roof1", "roof3", "roof7"] and s.discards[0] == []
    order = ["roof7", "roof1", "roof3"]
    for name in order:
        assert s.observation(1)["piles"][0]["top"] == card(name)
        do(s, "draw from the roof pile")
        assert names(s.hands[0][-1:]) == [name]
    assert s.observation(1)["piles"][0]["top"] is None and "draw from the roof pile" not in texts(s)


def test_consul_passes_left_and_wraps_round() -> None:
    s = fresh(3, first_consul=2)
    for seat in range(3):
        set_hand(s, seat, [])
    for t in range(3):
        s.piles[t] = []
        s.discards[t] = []
    s.edited()
    do(s, "pass")  # the Consul passes; the others hold no card: they pass and bid nothing automatically
    assert s.phase == AUCTION
    for _ in range(3):
        assert s.to_move == 2 and s.round == 1
        do(s, texts(s)[0])  # the Consul wins each lot for free and places the tile
    # no card to draw: the End phase is empty and the Consul marker passes left, from seat 2 to seat 0
    assert s.round == 2 and s.consul == 0 and s.to_move == 0 and s.phase == AUCTION


def test_scoring_counts_printed_fountains_and_fountain_tiles_and_temple() -> None:
    from tests.games.capitol.test_round_end import to_end_phase

    s = fresh(3)
    place(s, 0, 1, 2, ROUND)  # Z2 (1 printed fountain) + 1 tile: F = 2; seat 0 1st, seat 1 2nd
    place(s, 1, 1, 1, ROUND)
    s.zone_ftiles[1] = 1
    place(s, 2, 7, 1, TRIANGULAR)  # Z8 (2 printed) + 1 tile + temple: seat 2 alone, (2 + 3) * 2
    s.zone_ftiles[7] = 1
    s.zone_large[7] = TEMPLE
    to_end_phase(s)
    assert s.points == [2 + 2, 2, 10]
