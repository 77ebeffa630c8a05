"""Capitol's clone copies every field by its own statement: each name of the state's field lists is copied, lists
are new lists (nested ones too), and no field of a state is left out."""

from __future__ import annotations

from meeple.core.registry import load_game
from meeple.core.rng import Rng
from meeple.games.capitol import state as capitol_state


def test_clone_copies_every_listed_field_and_no_field_is_missing() -> None:
    game = load_game("capitol", players=4, played_card="face_down")
    state = game.new_initial_state(3)
    rng = Rng(3)
    for _ in range(120):
        codes = state.legal_action_codes()
        state.apply_action(codes[rng.randrange(len(codes))])
    other = state.clone()
    listed = (*capitol_state._SCALARS, *capitol_state._FLAT_LISTS)
    nested = (*capitol_state._NESTED_LISTS, *capitol_state._SEEN_LISTS)
    for name in (*listed, *nested):
        assert getattr(other, name) == getattr(state, name), name
    for name in (*capitol_state._FLAT_LISTS, *nested):
        assert getattr(other, name) is not getattr(state, name), name
    for name in nested:
        assert all(a is not b for a, b in zip(getattr(other, name), getattr(state, name), strict=True)), name
    core = {"game", "seed", "rng", "history", "log_events", "_legal", "_redacted_cache"}  # State.clone copies these
    fields = set(vars(state)) - core - {"stack", "bids"}
    assert fields == set(listed) | set(nested)
