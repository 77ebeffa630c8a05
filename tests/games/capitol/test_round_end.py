"""Scenario tests of Scoring and the End phase (capitol.md §5.2 Phases 3-4, §5.3)."""

from __future__ import annotations

import pytest

from meeple.core.errors import InvalidStateError
from meeple.games.capitol.data import AMPHITHEATRE, CARD_REP, ROUND, TEMPLE, TRIANGULAR
from meeple.games.capitol.state import CONSTRUCTION, END, OVER, PILE_PUBLIC, PILE_SHUFFLED, CapitolState
from tests.games.capitol.helpers import do, fresh, names, place, set_hand, texts


def to_end_phase(s: CapitolState) -> None:
    """Everyone passes, every bid is empty, tiles go to the first legal zone."""
    while s.phase not in (END, OVER):
        legal = texts(s)
        if "pass" in legal:
            do(s, "pass")
        elif "seal the bid" in legal:
            do(s, "seal the bid")
        else:
            do(s, legal[-1])  # place tiles in the last free zone (Z9 first)


def test_scoring_in_game_with_fountains_and_temple() -> None:
    s = fresh(3)
    place(s, 0, 0, 1, ROUND)  # Z1: seat 0 has 1+2 floors, seat 1 has 2
    place(s, 1, 0, 2, ROUND)
    place(s, 0, 0, 2, ROUND)
    place(s, 2, 3, 1, TRIANGULAR)  # Z4: seat 2 alone
    s.zone_large[3] = TEMPLE
    place(s, 1, 1, 1, ROUND)  # Z2 (1 printed fountain): seats 1 and 2 tie on 1 floor, equal tallest
    place(s, 2, 1, 1, ROUND)
    to_end_phase(s)
    # Z1: seat 0 first (2), seat 1 second (0 fountains); Z4: seat 2 first, doubled (4); Z2: shared first (2+1 each);
    # tiles were placed by the Consul in Z9 (two fountains, nobody there) and the amphitheatre in Z9.
    assert s.points == [2, 3, 4 + 3]
    # the breakdown by zone and seat is public, in the observation of every seat and the spectator
    (scoring,) = s.observation(None)["scorings"]
    assert scoring["round"] == 1 and scoring["total"] == [2, 3, 7]
    assert scoring["zones"][0] == [2, 0, 0] and scoring["zones"][1] == [0, 3, 3] and scoring["zones"][3] == [0, 0, 4]
    assert all(z == [0, 0, 0] for i, z in enumerate(scoring["zones"]) if i not in (0, 1, 3))
    assert s.observation(1)["scorings"] == s.observation(None)["scorings"]
    copy = type(s).restore(s.game, s.to_json())  # kept in snapshots, checked against the points
    assert copy.observation(None)["scorings"] == [scoring]


def test_a_snapshot_whose_scorings_do_not_add_up_is_refused() -> None:
    s = fresh(3)
    to_end_phase(s)
    data = s.to_json()
    data["body"]["scorings"][0][0] += 1
    with pytest.raises(InvalidStateError, match="scorings"):
        s.game.state_from_json(data)


def test_end_phase_draws_six_one_at_a_time_consul_first() -> None:
    s = fresh(2)
    set_hand(s, 0, [])
    set_hand(s, 1, [])
    to_end_phase(s)
    assert s.phase == END and s.to_move == 0
    assert s.draw_queue == [(0, 6), (1, 6)]
    top = s.piles[1][-1]
    do(s, "draw from the floor pile")
    assert s.hands[0] == [top] and s.known[0] == [top] and s.to_move == 0
    for _ in range(5):
        do(s, "draw from the roof pile")
    assert s.to_move == 1 and len(s.hands[0]) == 6
    for _ in range(6):
        do(s, "draw from the permit pile")
    assert s.phase == CONSTRUCTION and s.round == 2 and s.consul == 1 and s.to_move == 1


def test_no_hand_limit_and_refill_to_six() -> None:
    s = fresh(2)
    to_end_phase(s)
    assert s.draw_queue == [(0, 6), (1, 6)]  # 8 cards in hand, still draws 6
    s = fresh(2, end_draw="refill_to_six")
    set_hand(s, 0, ["floor1", "floor2", "floor3", "floor4"])
    to_end_phase(s)
    assert s.draw_queue == [(0, 2), (1, 0)]
    do(s, "draw from the floor pile", "draw from the floor pile")
    assert s.phase == CONSTRUCTION and s.consul == 1


def amph_position(**params: object) -> CapitolState:
    s = fresh(3, **params)
    place(s, 0, 0, 1, ROUND)
    place(s, 0, 0, 2, ROUND)
    place(s, 1, 0, 2, ROUND)
    s.zone_large[0] = AMPHITHEATRE
    place(s, 2, 3, 1, ROUND)
    s.zone_large[3] = AMPHITHEATRE
    return s


def test_amphitheatre_bonus_with_own_draw() -> None:
    s = amph_position()
    to_end_phase(s)
    assert s.bonus == [2, 1, 2]
    assert s.draw_queue == [(0, 8), (1, 7), (2, 8)]


def test_amphitheatre_bonus_after_all_draws() -> None:
    s = amph_position(amph_bonus_timing="after_all_draws")
    to_end_phase(s)
    assert s.draw_queue == [(0, 6), (1, 6), (2, 6), (0, 2), (1, 1), (2, 2)]
    for _ in range(18):
        do(s, "draw from the floor pile" if s.piles[1] else texts(s)[0])
    assert s.to_move == 0 and s.draw_queue[0] == (0, 2)


def test_exhausted_pile_flips_without_shuffle_oldest_on_top() -> None:
    s = fresh(2)
    to_end_phase(s)
    roofs = s.piles[0]
    last, older = roofs[-1], roofs[:-1]
    s.piles[0] = [last]
    s.discards[0] = list(older)  # oldest first
    s.edited()
    do(s, "draw from the roof pile")
    assert s.hands[0][-1] == last
    assert s.piles[0] == list(reversed(older)) and s.piles[0][-1] == older[0]
    assert s.discards[0] == [] and s.pile_mode[0] == PILE_PUBLIC
    assert s.observation(1)["piles"][0]["top"] == CARD_REP[older[0]]  # public cards are shown by kind


def test_exhausted_pile_shuffle() -> None:
    s = fresh(2, exhausted_pile="shuffle", seed=3)
    to_end_phase(s)
    roofs = s.piles[0]
    last, older = roofs[-1], roofs[:-1]
    s.piles[0] = [last]
    s.discards[0] = list(older)
    s.edited()
    do(s, "draw from the roof pile")
    assert sorted(s.piles[0]) == sorted(older) and s.pile_mode[0] == PILE_SHUFFLED


def test_empty_pile_refilled_at_the_start_of_the_end_phase() -> None:
    s = fresh(2)
    permits = list(s.piles[2])
    s.discards[2] = s.piles[2]
    s.piles[2] = []
    s.edited()
    to_end_phase(s)
    assert s.piles[2] == list(reversed(permits)) and s.discards[2] == [] and "draw from the permit pile" in texts(s)


def test_all_piles_empty_stops_drawing() -> None:
    s = fresh(2)
    keep = s.piles[1][-1:]
    for t in range(3):
        s.piles[t] = []
    s.piles[1] = keep
    s.edited()
    to_end_phase(s)
    do(s, "draw from the floor pile")
    assert s.phase == CONSTRUCTION and s.round == 2 and s.consul == 1 and names(s.hands[0])[-1:] != []


def test_final_round_end_phase_skip_and_play() -> None:
    s = fresh(2)
    s.round = 4
    to_end_phase(s)
    assert s.phase == OVER and s.is_terminal() and s.draw_queue == []
    s = fresh(2, final_round_end_phase="play")
    s.round = 4
    to_end_phase(s)
    assert s.phase == END
    while not s.is_terminal():
        do(s, texts(s)[0])
    assert s.round == 4


def test_final_tie_is_shared() -> None:
    s = fresh(3)
    s.round = 4
    s.points = [10, 10, 3]
    to_end_phase(s)
    assert s.returns() == [1.0, 1.0, 0.0]
    assert s.scores() == [10.0, 10.0, 3.0]


def test_hidden_information_in_observations() -> None:
    s = fresh(3)
    obs = s.observation(1)
    assert obs["hand"] == sorted(s.hands[1])
    assert all(p["known_cards"] == [] for p in obs["players"])
    assert [p["hand_size"] for p in obs["players"]] == [8, 8, 8]
    assert s.observation(None)["hand"] is None
    text = str(s.observation(1))
    assert all(p["top"] == CARD_REP[s.piles[i][-1]] for i, p in enumerate(obs["piles"]))
    assert "hands" not in text


def test_shared_first_blocks_second_flag_is_wired_into_scoring() -> None:
    for blocks, expected in ((True, [3, 3, 0]), (False, [3, 3, 1])):
        s = fresh(3, shared_first_blocks_second=blocks)
        place(s, 0, 1, 1, ROUND)  # Z2 (1 printed fountain): seats 0 and 1 share 1st with 2 floors each
        place(s, 1, 1, 1, ROUND)
        place(s, 2, 1, 1, ROUND)
        place(s, 0, 1, 1, ROUND)
        place(s, 1, 1, 1, ROUND)
        to_end_phase(s)
        assert s.points == expected


def test_custom_board_layout() -> None:
    layout = "C2:2:0,C1:3:1,C1:3:0,C1:4:0,C2:5:0,C2:6:0,C3:7:0,C3:8:1,C3:9:2"
    s = fresh(2, board_layout=layout)
    zones = s.observation(0)["zones"]
    assert [z["colour"] for z in zones[:4]] == ["C2", "C1", "C1", "C1"]
    assert [z["small_spaces"] for z in zones] == [2, 3, 3, 4, 5, 6, 7, 8, 9]
    assert sum(z["printed_fountains"] for z in zones) == 4
    set_hand(s, 0, ["permitC2-1"])
    do(s, "play permitC2-1 and place a building")
    assert {t.split(" in ")[1] for t in texts(s)} == {"Z1 (C2)", "Z5 (C2)", "Z6 (C2)"}
