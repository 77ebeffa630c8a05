"""Constants shared by the Capitol state modules: the phases of a round and the kinds of draw pile."""

from __future__ import annotations

CONSTRUCTION = 0
AUCTION = 1
END = 2
OVER = 3
PHASE_NAMES = ("construction", "improvement", "end", "over")

PILE_HIDDEN = 0
"""A draw pile in its dealt order: only its top card is public (its other cards pool with unseen hand cards)."""
PILE_PUBLIC = 1
"""A draw pile made by turning a discard pile over: its whole order follows from public history."""
PILE_SHUFFLED = 2
"""A draw pile made by shuffling a discard pile: its contents are public, its order (but the top) is not."""
