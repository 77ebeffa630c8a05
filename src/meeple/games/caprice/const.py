"""Constants shared by the Caprice modules: the phases."""

from __future__ import annotations

DRAW, PLACE, MOVE, ORDER, OVER = range(5)
PHASES = ("draw", "place", "move", "order", "over")
"""Phase names, indexed by phase code."""
