"""Scenario tests from explicit positions: placement, move, marker, end of game, tie-break, hidden symbols."""

from __future__ import annotations

import pytest

import meeple
from meeple.games.caprice import Move, OrderSymbol, Place, SkipMove
from meeple.games.caprice.state import MOVE, ORDER, OVER, PLACE
from tests.games.caprice.helpers import new_state, position, texts

EMPTY = ["", "", "", "", "", ""]


# ----------------------------------------------------------------- placement (§6)
def test_placement_any_type_in_supply_on_empty_or_low_towers() -> None:
    state = position(["DR DR DT DT", "LR", "", "", "", ""])
    legal = state.legal_actions()
    assert Place("LT", "A") not in legal  # a full tower takes no piece
    assert Place("LT", "B") in legal and Place("LT", "C") in legal
    assert len(legal) == 4 * 5


def test_placement_only_of_types_left_in_the_supply() -> None:
    state = position(["DR DR DR DR", "DR DR", "", "", "", ""])  # all six DR are on the board
    legal = state.legal_actions()
    assert not any(isinstance(a, Place) and a.piece == "DR" for a in legal)
    assert Place("DT", "B") in legal
    with pytest.raises(meeple.IllegalActionError):
        state.apply_action(Place("DR", "C"))


def test_placement_is_mandatory_no_skip_before_placing() -> None:
    state = position(["DR", "", "", "", "", ""])
    assert SkipMove() not in state.legal_actions()
    assert all(isinstance(a, Place) for a in state.legal_actions())


def test_first_turn_has_no_move() -> None:
    state = new_state(2, 1, third_symbol_exchange="mandatory")
    assert state.phase == PLACE and state.player == 0
    state.apply_action(Place("DT", "C"))
    assert state.phase == PLACE and state.player == 1  # nothing movable: the move step is skipped
    assert state.towers[2] == [1]


def test_placement_removes_the_marker_from_that_tower() -> None:
    state = position(["DR", "LT", "", "", "", ""], marker="B")
    state.apply_action(Place("DT", "B"))
    assert state.marker == -1
    assert Move("B", "A") not in state.legal_actions()  # the placed piece itself cannot move


def test_placement_elsewhere_keeps_the_marker() -> None:
    state = position(["DR", "LT", "", "", "", ""], marker="B")
    state.apply_action(Place("DT", "C"))
    assert state.marker == 1
    assert state.phase == MOVE
    assert [a for a in state.legal_actions() if isinstance(a, Move) and a.source in "BC"] == []


def test_move_step_is_skipped_when_nothing_can_move() -> None:
    state = position(["DR", "", "", "", "", ""], marker="A", players=3, player=2)
    state.apply_action(Place("LT", "B"))  # A is marked, B holds the piece just placed
    assert state.phase == PLACE and state.player == 0
    assert state.marker == 0
    assert [p for p, _ in state.history] == [2]


# ----------------------------------------------------------------- move (§7)
def test_moving_the_piece_just_placed_is_illegal() -> None:
    state = position(["DR", "", "", "", "", ""])
    state.apply_action(Place("LT", "B"))
    legal = state.legal_actions()
    assert state.phase == MOVE
    assert Move("B", "A") not in legal and Move("B", "C") not in legal
    assert Move("A", "B") in legal  # moving onto the placed piece is fine
    with pytest.raises(meeple.IllegalActionError):
        state.apply_action(Move("B", "C"))


def test_placing_on_a_tower_hides_its_old_top_which_cannot_move() -> None:
    state = position(["DR", "LR", "", "", "", ""])
    state.apply_action(Place("LT", "A"))  # A = DR LT, the new piece on top
    assert not any(isinstance(a, Move) and a.source == "A" for a in state.legal_actions())
    assert Move("B", "A") in state.legal_actions()


def test_move_takes_the_top_piece_onto_another_space() -> None:
    state = position(["DR LT", "LR", "", "", "", ""])
    state.apply_action(Place("DT", "C"))
    state.apply_action(Move("A", "D"))
    assert state.tower_names()[:4] == [["DR"], ["LR"], ["DT"], ["LT"]]
    assert state.marker == 3
    assert state.player == 1 and state.phase == PLACE


def test_full_towers_top_can_move_but_full_towers_take_nothing() -> None:
    state = position(["DR DT LR LT", "LR", "DR DR DT DT", "", "", ""])
    state.apply_action(Place("LT", "D"))
    legal = state.legal_actions()
    assert Move("A", "B") in legal  # the top of a full tower may move
    assert Move("B", "A") not in legal and Move("B", "C") not in legal  # no destination of height 4
    state.apply_action(Move("A", "B"))
    assert state.tower_names()[0] == ["DR", "DT", "LR"]
    assert state.tower_names()[1] == ["LR", "LT"]
    assert state.full == 1


def test_move_is_optional() -> None:
    state = position(["DR", "LR", "", "", "", ""], marker="A")
    state.apply_action(Place("LT", "C"))
    assert SkipMove() in state.legal_actions()
    state.apply_action(SkipMove())
    assert state.player == 1 and state.phase == PLACE
    assert state.marker == 0  # no move: the marker stays where it is


def test_move_to_the_same_space_does_not_exist() -> None:
    with pytest.raises(ValueError, match="different space"):
        Move("A", "A")
    state = position(["DR", "", "", "", "", ""])
    with pytest.raises(meeple.InvalidActionError):
        state.apply_action({"type": "move", "source": "A", "target": "A"})


# ----------------------------------------------------------------- marker (§8)
def test_marked_piece_cannot_move() -> None:
    state = position(["DR", "LR", "", "", "", ""], marker="A")
    state.apply_action(Place("LT", "C"))
    legal = state.legal_actions()
    assert not any(isinstance(a, Move) and a.source == "A" for a in legal)
    assert Move("B", "A") in legal


def test_marker_passes_to_the_newly_moved_piece() -> None:
    state = position(["DR", "LR", "", "", "", ""], marker="A")
    state.apply_action(Place("LT", "C"))
    state.apply_action(Move("B", "D"))
    assert state.marker == 3
    state.apply_action(Place("DT", "E"))
    legal = state.legal_actions()
    assert Move("A", "B") in legal  # the old marked piece is free again
    assert not any(isinstance(a, Move) and a.source == "D" for a in legal)


def test_moving_onto_the_marked_tower_takes_the_marker_to_the_new_top() -> None:
    state = position(["DR", "LR", "", "", "", ""], marker="A")
    state.apply_action(Place("LT", "C"))
    state.apply_action(Move("B", "A"))  # onto the marked piece: that marker comes off, the new piece gets it
    assert state.marker == 0
    assert state.tower_names()[0] == ["DR", "LR"]
    state.apply_action(Place("DT", "D"))
    assert not any(isinstance(a, Move) and a.source == "A" for a in state.legal_actions())


def test_marker_is_public() -> None:
    state = position(["DR", "LR", "", "", "", ""], marker="B")
    for seat in (0, 1, None):
        assert state.observation(seat)["marker"] == "B"


# ----------------------------------------------------------------- end of the game (§9)
FOUR_FULL = ["DR DR DT DT", "LR LR LT LT", "DR DT LR LT", "LT LR DT DR", "DR DT LR", ""]


def test_game_ends_at_once_on_a_completing_placement() -> None:
    state = position(FOUR_FULL, players=3, player=1)
    state.apply_action(Place("LT", "E"))
    assert state.is_terminal() and state.phase == OVER
    assert state.ender == 1
    assert state.legal_actions() == []  # no move after the completing placement
    assert sum(state.returns()) == 1.0


def test_game_does_not_end_with_four_full_towers() -> None:
    state = position(FOUR_FULL, players=3, player=1)
    state.apply_action(Place("LT", "F"))
    assert not state.is_terminal() and state.phase == MOVE


def test_game_ends_at_once_on_a_completing_move() -> None:
    towers = ["DR DR DT DT", "LR LR LT LT", "DR DT LR LT", "LT LR DT", "DR DT LR", "DR"]
    state = position(towers, players=3, player=2)
    state.apply_action(Place("LT", "D"))  # the fourth full tower: the game goes on
    assert state.full == 4 and state.phase == MOVE and not state.is_terminal()
    state.apply_action(Move("F", "E"))  # the fifth full tower, by a move
    assert state.is_terminal()
    assert state.ender == 2
    assert state.tower_names()[4] == ["DR", "DT", "LR", "DR"]
    assert state.tower_names()[5] == []


def test_towers_drop_below_four_and_the_count_is_rechecked() -> None:
    state = position(FOUR_FULL, players=2, player=0)
    assert state.full == 4
    state.apply_action(Place("DT", "F"))
    state.apply_action(Move("A", "E"))  # E: 3 -> 4, A: 4 -> 3, so still four full towers
    assert state.full == 4 and not state.is_terminal()
    assert [len(t) for t in state.towers] == [3, 4, 4, 4, 4, 1]
    assert state.observation(None)["full_towers"] == 4
    state.apply_action(Place("DR", "F"))  # seat 1: F = DT DR, not complete
    assert not state.is_terminal()
    state.apply_action(SkipMove())
    state.apply_action(Place("LT", "A"))  # seat 0 refills A: the fifth full tower
    assert state.is_terminal() and state.ender == 0
    assert state.tower_names()[0] == ["DR", "DR", "DT", "LT"]


def test_game_always_ends_by_the_23rd_placement() -> None:
    for seed in range(20):
        state = new_state(4, seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[(seed * 7 + len(state.history)) % len(legal)])
        assert 20 <= state.placements <= 23
        assert state.full == 5  # each action changes the count by at most one


# ----------------------------------------------------------------- scoring and tie-break (§10-14)
def test_final_scores_use_each_players_best_order() -> None:
    towers = ["DR LT DR LR", "DR DT LR LR", "DT LT DT LR", "LR LT DR DT", "LT DT DR", "DR"]
    state = position(towers, players=2, player=1, symbols=["DR DR LT LR", "DT DT LR LT"])
    state.apply_action(Place("DT", "E"))  # fifth full tower: the end; example towers of the spec
    assert state.is_terminal()
    assert state.scores()[0] == 13.0
    assert state.orders[0] == [0, 3, 0, 2]
    obs = state.observation(1)
    assert obs["reveal"]["symbols"][0] == ["DR", "DR", "LT", "LR"]
    assert obs["reveal"]["orders"][0] == ["DR", "LT", "DR", "LR"]
    assert obs["winner"] == state.winner


def test_tie_goes_to_the_player_after_the_ender() -> None:
    # Both players hold the same symbols, so they tie; the ender (seat 0) loses.
    state = position(FOUR_FULL, players=2, player=0, symbols=["DR DT LR LT", "DR DT LR LT"])
    state.apply_action(Place("LT", "E"))
    assert state.is_terminal() and state.ender == 0
    assert state.scores()[0] == state.scores()[1]
    assert state.returns() == [0.0, 1.0]


def test_tie_break_with_three_players_and_an_untied_third() -> None:
    state = position(FOUR_FULL, players=3, player=1, symbols=["DR DT LR LT", "DR DT LR LT", "LT LT LT LR"])
    state.apply_action(Place("LT", "E"))
    pts = state.scores()
    assert pts[0] == pts[1] > pts[2]
    assert state.ender == 1
    assert state.returns() == [1.0, 0.0, 0.0]  # after ender 1 comes 2 (not tied), then 0


def test_unplaced_pieces_do_not_score_and_scores_are_hidden_before_the_end() -> None:
    state = position(FOUR_FULL, players=2, player=0, symbols=["DR DT LR LT", "LT LT LR LR"])
    assert state.scores() == [0.0, 0.0] and state.returns() == [0.0, 0.0]
    assert sum(state.supply) == 24 - 19


# ----------------------------------------------------------------- manual order variant (§13)
def test_manual_order_is_chosen_symbol_by_symbol_and_scored() -> None:
    state = position(FOUR_FULL, players=2, player=1, symbols=["DR DR LT LR", "DT DT DT DT"], symbol_order="manual")
    state.apply_action(Place("LT", "E"))  # seat 1 ends the game: seat 0 orders first
    assert state.phase == ORDER and state.ender == 1
    assert state.current_player() == 0
    assert state.legal_actions() == [OrderSymbol("DR"), OrderSymbol("LR"), OrderSymbol("LT")]
    assert state.action_to_string(OrderSymbol("LT"), perspective=1, actor=0) == "choose the next symbol of the order"
    state.apply_action(OrderSymbol("LT"))
    assert state.observation(1)["orders_done"] == [1, 0]
    assert state.observation(0)["order_chosen"] == ["LT"]
    assert state.observation(1)["order_chosen"] == []
    assert state.observation(1)["reveal"] is None
    state.apply_action(OrderSymbol("DR"))
    state.apply_action(OrderSymbol("LR"))  # the last DR is filled in
    assert state.orders[0] == [3, 0, 2, 0]
    # Seat 1 holds four DT: its three choices are forced but still asked, so they reveal nothing.
    for _ in range(3):
        assert state.current_player() == 1
        assert state.legal_actions() == [OrderSymbol("DT")]
        state.apply_action(OrderSymbol("DT"))
    assert state.is_terminal()
    assert state.orders[1] == [1, 1, 1, 1]
    from meeple.games.caprice.rules import order_points

    assert state.scores()[0] == order_points([3, 0, 2, 0], state.towers)
    assert state.observation(1)["reveal"]["orders"][0] == ["LT", "DR", "LR", "DR"]


# ----------------------------------------------------------------- first player and parameters
def test_first_player_parameter() -> None:
    for fp in range(3):
        state = new_state(3, 5, first_player=fp, third_symbol_exchange="mandatory")
        assert state.current_player() == fp and state.first == fp
    seen = {meeple.load_game("caprice", players=4).new_initial_state(s).first for s in range(30)}
    assert seen == {0, 1, 2, 3}
    with pytest.raises(meeple.InvalidParameterError, match="first_player"):
        meeple.load_game("caprice", players=2, first_player=2)
    with pytest.raises(meeple.InvalidParameterError):
        meeple.load_game("caprice", players=5)
    with pytest.raises(meeple.InvalidParameterError):
        meeple.load_game("caprice", third_symbol_exchange="never")


def test_legal_action_texts_and_rules_summary() -> None:
    state = position(["DR", "", "", "", "", ""])
    assert "place LT on B" in texts(state)
    state.apply_action(Place("LT", "B"))
    assert "do not move" in texts(state)
    assert "move the top piece of A to C" in texts(state)
    summary = meeple.core.game_class("caprice").rules_summary()
    assert "third_symbol_exchange" in summary and "symbol_order" in summary and "first_player" in summary
