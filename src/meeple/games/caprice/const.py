"""Constants shared by the Caprice modules: the phases."""

from __future__ import annotations

from typing import Literal

DRAW, PLACE, MOVE, ORDER, OVER = range(5)
PHASES: tuple[Literal["draw", "place", "move", "order", "over"], ...] = ("draw", "place", "move", "order", "over")
"""Phase names, indexed by phase code."""
