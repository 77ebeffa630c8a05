"""Constants shared by the Caprice modules: the phases and the kinds of the action decode table."""

from __future__ import annotations

DRAW, PLACE, MOVE, ORDER, OVER = range(5)
PHASES = ("draw", "place", "move", "order", "over")
"""Phase names, indexed by phase code."""

# Kind codes of the action decode table built by the game.
K_PLACE, K_MOVE, K_SKIP, K_KEEP, K_EXCHANGE, K_ORDER = range(6)
