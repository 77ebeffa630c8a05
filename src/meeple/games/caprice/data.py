"""Static data of Caprice: piece types, tower spaces and component counts.

Rules: caprice.md §1-3 (components). Piece types are coded as integers 0..3 everywhere in the engine:
0 = DR (dark round), 1 = DT (dark toothed), 2 = LR (light round), 3 = LT (light toothed).
"""

from __future__ import annotations

from typing import Final

PIECE_TYPES: Final[tuple[str, ...]] = ("DR", "DT", "LR", "LT")
"""Short names of the four piece types (and of the symbols that show them), indexed by type code."""

PIECE_NAMES: Final[dict[str, str]] = {
    "DR": "dark round",
    "DT": "dark toothed",
    "LR": "light round",
    "LT": "light toothed",
}
"""Long names of the piece types."""

PIECE_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(PIECE_TYPES)}
"""Short name -> type code."""

SPACES: Final[tuple[str, ...]] = ("A", "B", "C", "D", "E", "F")
"""The six tower spaces of the round board (labels are our choice, §1)."""

SPACE_INDEX: Final[dict[str, int]] = {name: i for i, name in enumerate(SPACES)}
"""Space label -> space index."""

NUM_TYPES: Final[int] = len(PIECE_TYPES)
NUM_SPACES: Final[int] = len(SPACES)
MAX_HEIGHT: Final[int] = 4
"""A tower holds at most 4 pieces (§1)."""
PIECES_PER_TYPE: Final[int] = 6
"""6 pieces of each type in the supply, 24 in all (§2)."""
TOKENS_PER_TYPE: Final[int] = 5
"""5 symbol tokens of each type in the bag, 20 in all (§2)."""
SYMBOLS_PER_PLAYER: Final[int] = 4
"""Each player ends the setup with 4 symbols (§4)."""
TOWERS_TO_END: Final[int] = 5
"""The game ends as soon as this many towers have height 4 (§9)."""
FULL_BONUS: Final[int] = 1
"""Extra point for a complete tower matching the order in full (§11)."""


def _validate() -> None:
    assert len(PIECE_TYPES) == 4 and len(set(PIECE_TYPES)) == 4
    assert set(PIECE_NAMES) == set(PIECE_TYPES)
    assert len(SPACES) == 6 and len(set(SPACES)) == 6
    assert NUM_TYPES * PIECES_PER_TYPE == 24
    assert NUM_TYPES * TOKENS_PER_TYPE == 20
    # 4 players x 4 symbols must leave tokens in the bag for the exchange redraw.
    assert 4 * SYMBOLS_PER_PLAYER < NUM_TYPES * TOKENS_PER_TYPE
    # The supply is enough to complete every tower, so the game always ends (§9).
    assert NUM_TYPES * PIECES_PER_TYPE >= NUM_SPACES * MAX_HEIGHT


_validate()
