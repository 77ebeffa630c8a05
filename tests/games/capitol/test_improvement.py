"""Scenario tests of the Improvement phase: sealed bids, tie-breaks, tiles (capitol.md §5.2 Phase 2)."""

from __future__ import annotations

from meeple.core import SEALED, Rng
from meeple.games.capitol.data import AMPHITHEATRE, FOUNTAIN, TEMPLE
from meeple.games.capitol.state import AUCTION, END, CapitolState
from tests.games.capitol.helpers import do, fresh, names, set_hand, texts


def to_auction(s: CapitolState) -> None:
    while s.phase != AUCTION:
        do(s, "pass")


def test_worked_example_bid_of_eleven_with_4_6_7_8() -> None:
    s = fresh(4)
    set_hand(s, 0, ["floor4", "floor6", "roof7", "floor8"])
    set_hand(s, 1, ["floor6", "floor5", "roof1"])
    to_auction(s)
    assert s.lot == 0 and s.lots()[0] == FOUNTAIN and s.to_move == 0
    do(s, "bid: add roof7", "bid: add floor4")
    assert names(s.observation(0)["auction"]["my_draft"]) == ["floor4", "roof7"]
    do(s, "seal the bid")
    obs1 = s.observation(1)
    assert obs1["auction"]["bids"][0] == SEALED
    assert obs1["auction"]["my_draft"] == []  # seat 1 is now building its own bid
    assert s.observation(2)["auction"]["my_draft"] is None
    assert names(s.observation(0)["auction"]["bids"][0]) == ["floor4", "roof7"]
    assert s.action_to_string(s.legal_actions()[1], perspective=2) == "prepare a sealed bid"
    do(s, "bid: add floor6", "bid: add floor5", "seal the bid")  # 11 too, but highest card 6 < 7
    do(s, "seal the bid", "seal the bid")
    assert s.auction_log[-1][1] == 0
    assert names(s.hands[0]) == ["floor6", "floor8"]
    assert names(s.discards[0][-1:] + s.discards[1][-1:]) == ["floor4", "roof7"]
    assert names(s.hands[1]) == ["floor5", "floor6", "roof1"]
    assert names(s.known[1]) == ["floor5", "floor6"]
    assert names(s.observation(2)["players"][1]["known_cards"]) == ["floor5", "floor6"]
    # the winner must place the fountain: any free small space in any zone
    assert s.to_move == 0 and len(texts(s)) == 9
    do(s, "place the tile in Z8 (C3)")
    assert s.zone_ftiles[7] == 1 and s.tiles[FOUNTAIN] == 7 and s.lot == 1


def test_tie_on_sum_and_top_card_goes_to_seat_order_from_consul() -> None:
    s = fresh(3, first_consul=1)
    set_hand(s, 0, ["floor6", "floor5"])
    set_hand(s, 1, ["roof1"])
    set_hand(s, 2, ["permitC1-6", "permitC2-5"])
    to_auction(s)
    assert s.to_move == 1  # bidding order starts at the Consul
    do(s, "seal the bid")
    do(s, "bid: add permitC1-6", "bid: add permitC2-5", "seal the bid")
    do(s, "bid: add floor6", "bid: add floor5", "seal the bid")
    assert s.auction_log[-1][1] == 2  # seat 2 comes before seat 0 clockwise from the Consul (seat 1)
    assert [names(b) for b in s.auction_log[-1][2]] == [["floor5", "floor6"], [], ["permitC1-6", "permitC2-5"]]


def test_highest_single_card_breaks_a_sum_tie() -> None:
    s = fresh(2)
    set_hand(s, 0, ["floor4", "floor4"])
    set_hand(s, 1, ["floor5", "floor3"])
    to_auction(s)
    do(s, "bid: add floor4", "bid: add floor4", "seal the bid")
    do(s, "bid: add floor5", "bid: add floor3", "seal the bid")
    assert s.auction_log[-1][1] == 1


def test_zero_bids_tie_rule_consul_wins_for_free() -> None:
    s = fresh(3, first_consul=2)
    to_auction(s)
    hands = [list(h) for h in s.hands]
    do(s, "seal the bid", "seal the bid", "seal the bid")
    assert s.auction_log[-1][1] == 2 and s.to_move == 2
    assert s.stack[-1].kind == "tile"
    assert [sorted(h) for h in s.hands] == [sorted(h) for h in hands]


def test_zero_bids_no_sale() -> None:
    s = fresh(3, zero_bid="no_sale")
    to_auction(s)
    do(s, "seal the bid", "seal the bid", "seal the bid")
    assert s.auction_log[-1][1] == -1 and s.removed[FOUNTAIN] == 1 and s.lot == 1 and not s.stack


def test_fountain_no_space_skip_auction() -> None:
    s = fresh(2)
    s.zone_ftiles = [z.small_spaces for z in s.game.zones]
    to_auction(s)
    assert s.lot == 2 and s.removed[FOUNTAIN] == 2
    assert [e[1] for e in s.auction_log] == [-1, -1]


def test_fountain_no_space_award_no_place() -> None:
    s = fresh(2, fountain_no_space="award_no_place")
    s.zone_ftiles = [z.small_spaces for z in s.game.zones]
    set_hand(s, 0, ["floor3"])
    to_auction(s)
    assert s.lot == 0
    do(s, "bid: add floor3", "seal the bid", "seal the bid")
    assert s.auction_log[-1][1] == 0 and s.hands[0] == [] and s.removed[FOUNTAIN] == 1 and s.lot == 1


def test_amphitheatre_and_temple_go_on_free_large_spaces() -> None:
    s = fresh(2)
    s.zone_large = [TEMPLE] * 8 + [0]
    to_auction(s)
    for _ in range(2):
        do(s, "seal the bid", "seal the bid")
        do(s, texts(s)[0])
    do(s, "seal the bid", "seal the bid")
    assert s.lots()[2] == AMPHITHEATRE
    assert texts(s) == ["place the tile in Z9 (C3)"]
    do(s, "place the tile in Z9 (C3)")
    assert s.zone_large[8] == AMPHITHEATRE and s.phase == END


def test_rounds_three_and_four_sell_a_temple() -> None:
    s = fresh(2)
    s.round = 3
    assert s.lots() == (FOUNTAIN, FOUNTAIN, TEMPLE)


def test_resample_keeps_public_hand_cards_and_redeals_sealed_bids() -> None:
    s = fresh(3)
    set_hand(s, 1, ["floor6", "floor5", "roof1", "permitC2-2"])
    set_hand(s, 2, ["floor8", "roof7", "roof2"])
    to_auction(s)
    do(s, "seal the bid")
    do(s, "bid: add floor6", "bid: add floor5", "seal the bid")
    do(s, "bid: add floor8", "bid: add roof7", "seal the bid")  # seat 2 wins; seat 1's cards are now public
    assert s.auction_log[-1][1] == 2
    do(s, texts(s)[0])
    assert s.to_move == 0
    do(s, "seal the bid")
    do(s, "bid: add roof1", "seal the bid")  # seat 1 seals a one-card bid; seat 2 to bid
    assert s.to_move == 2
    sizes = set()
    for i in range(20):
        other = s.resample_from_infostate(2, Rng(i))
        assert isinstance(other, CapitolState)
        # identical cards get canonical ids in a determinization: the public cards are compared by kind
        assert names(s.known[1]) == names(other.known[1]) and set(other.known[1]) <= set(other.hands[1])
        assert names(s.known[1]) == ["floor5", "floor6"]
        assert set(other.bids.values[1]) <= set(other.hands[1])
        sizes.add(len(other.bids.values[1]))
        assert other.hands[2] == s.hands[2]
        assert other.observation(2) == s.observation(2)
        assert other.information_state_string(2) == s.information_state_string(2)
    assert len(sizes) > 1  # how many cards seat 1 bid is hidden from seat 2


def test_bid_steps_of_another_seat_read_as_one() -> None:
    s = fresh(3)
    set_hand(s, 1, ["floor6", "floor5", "roof1", "permitC2-2"])
    to_auction(s)
    do(s, "seal the bid")
    do(s, "bid: add floor6", "bid: add floor5", "seal the bid")
    seen_by_2 = [text for seat, text in s.history_texts(2) if seat == 1]
    assert seen_by_2[-1:] == ["prepare a sealed bid"] and seen_by_2.count("prepare a sealed bid") == 1
    seen_by_1 = [text for seat, text in s.history_texts(1) if seat == 1]
    assert seen_by_1[-3:] == ["bid: add floor6", "bid: add floor5", "seal the bid"]


def test_resample_while_the_winner_places_its_tile() -> None:
    s = fresh(2)
    set_hand(s, 0, ["floor8", "roof7"])
    to_auction(s)
    do(s, "bid: add floor8", "bid: add roof7", "seal the bid", "seal the bid")
    assert s.hands[0] == [] and s.stack[-1].kind == "tile"
    other = s.resample_from_infostate(1, Rng(0))
    assert other.observation(1) == s.observation(1)
    assert names(s.observation(1)["auction"]["log"][-1]["bids"][0]) == ["floor8", "roof7"]
    assert s.observation(1)["auction"]["bids"] == [None, None]
