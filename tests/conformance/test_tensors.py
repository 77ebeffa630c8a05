"""Observation tensors: fixed length per game and parameters, finite, built from the seat's view only, documented.

The conformance harness (``check_game``) already requires, at every checked decision, the tensor's length, finite
values and the same tensor in every world ``resample_from_infostate`` gives the seat; here: the layout's shape, a
tensor that tells the seats apart, and docs/research.md naming every field with its offset and size.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tools.tensor_docs import DOCUMENTED, table

import meeple
from meeple.core.rng import Rng

DOCS = Path(__file__).resolve().parents[2] / "docs" / "research.md"
CASES = [
    ("citadels", {"players": 4}),
    ("citadels", {"players": 7}),
    ("capitol", {"players": 2}),
    ("capitol", {"players": 4}),
    ("capital_lux_2", {"players": 1}),
    ("capital_lux_2", {"players": 3}),
    ("caprice", {"players": 3}),
]


@pytest.mark.parametrize(("name", "params"), CASES)
def test_the_layout_is_contiguous_and_the_tensor_has_its_shape(name: str, params: dict[str, int]) -> None:
    game = meeple.load_game(name, **params)
    layout = game.observation_tensor_layout()
    offset = 0
    for field in layout.fields:
        assert field.offset == offset and field.size >= 1 and field.doc
        offset += field.size
    assert game.observation_tensor_shape() == [offset]
    state = game.new_initial_state(5)
    rng = Rng(5)
    seen: set[bytes] = set()
    while not state.is_terminal():
        seat = state.current_player()
        tensor = state.observation_tensor(seat)
        assert tensor.dtype == np.float32 and tensor.shape == (offset,)
        assert np.isfinite(tensor).all() and -2.0 <= tensor.min() and tensor.max() <= 10.0
        seen.add(tensor.tobytes())
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert len(seen) > 10  # the tensor follows the game


def test_two_seats_see_different_tensors_of_one_state() -> None:
    state = meeple.load_game("citadels", players=4).new_initial_state(2)
    tensors = [state.observation_tensor(seat).tobytes() for seat in range(4)]
    assert len(set(tensors)) == 4


def test_a_hand_changes_only_its_holders_tensor() -> None:
    """Swap one card of seat 0's hand in the real state: seat 0's tensor changes, the others' do not."""
    state = meeple.load_game("citadels", players=4).new_initial_state(2)
    before = [state.observation_tensor(seat) for seat in range(4)]
    hand = state.hands[0]  # type: ignore[attr-defined]
    kinds = state.game.card_kind  # type: ignore[attr-defined]
    other = next(c for c in state.deck if kinds[c] != kinds[hand[0]])  # type: ignore[attr-defined]
    state.deck[state.deck.index(other)], hand[0] = hand[0], other  # type: ignore[attr-defined]
    state.edited()
    after = [state.observation_tensor(seat) for seat in range(4)]
    assert not np.array_equal(before[0], after[0])
    for seat in (1, 2, 3):
        assert np.array_equal(before[seat], after[seat])


@pytest.mark.parametrize(("name", "players"), DOCUMENTED)
def test_docs_research_lists_every_field_with_its_offset_and_size(name: str, players: int) -> None:
    """The tables of docs/research.md are those ``tools/tensor_docs.py`` prints now."""
    assert table(name, players) in DOCS.read_text(), f"{name}: regenerate the table with tools/tensor_docs.py"
