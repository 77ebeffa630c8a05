"""A refused placement or move says why (issue "Comfort": a full tower, an empty supply, a marked piece...)."""

from __future__ import annotations

import meeple
from meeple.games.caprice.actions import Move, Place
from meeple.games.caprice.const import MOVE, PLACE


def _state():  # type: ignore[no-untyped-def]
    state = meeple.load_game("caprice", players=2).new_initial_state(1)
    while state.phase != PLACE:  # type: ignore[attr-defined]
        state.apply_action(state.legal_actions()[0])
    return state


def test_a_full_tower_and_an_empty_supply_are_named() -> None:
    state = _state()
    state.towers[0] = [0, 1, 2, 3]  # type: ignore[attr-defined]
    state.supply[2] = 0  # type: ignore[attr-defined]
    state.edited()
    assert str(state.why_illegal(Place("DR", "A"))) == "tower A is full (4 pieces)"
    assert str(state.why_illegal(Place("LR", "B"))) == "no light round piece is left in the supply"
    assert state.why_illegal(Place("DR", "B")) is None  # legal: nothing to explain
    assert str(state.why_illegal(Move("A", "B"))) == "now is not the time to move a piece"


def test_a_marked_or_just_placed_piece_cannot_move() -> None:
    state = _state()
    state.towers[1] = [0]  # type: ignore[attr-defined]
    state.towers[2] = [1]  # type: ignore[attr-defined]
    state.supply[0] -= 1  # type: ignore[attr-defined]
    state.supply[1] -= 1  # type: ignore[attr-defined]
    state.phase, state.placed, state.marker = MOVE, 1, 2  # type: ignore[attr-defined]
    state.edited()
    assert "was just placed" in str(state.why_illegal(Move("B", "D")))
    assert "moved last (the red marker)" in str(state.why_illegal(Move("C", "D")))
    assert str(state.why_illegal(Move("E", "D"))) == "there is no piece on E"
    message = state.action_message(Move("C", "D"))
    refusal = None
    try:
        state.apply_action(Move("C", "D"))
    except meeple.core.errors.IllegalActionError as exc:
        refusal = str(exc)
    assert refusal is not None and f"{message} is not legal now for seat" in refusal and "red marker" in refusal
