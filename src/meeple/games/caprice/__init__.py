"""Caprice (Rolf Rötgers & Oliver Bolten, Goldsieber 1999): towers of four pieces and hidden symbol orders.

Rules: /shared/rules/caprice.md; decisions where it is silent: docs/decisions.md "Caprice".
"""

from meeple.games.caprice.actions import ExchangeSymbol, KeepSymbol, Move, OrderSymbol, Place, SkipMove
from meeple.games.caprice.game import CapriceGame
from meeple.games.caprice.params import CapriceParams
from meeple.games.caprice.rules import best_order, order_points, tie_break_winner, tower_points
from meeple.games.caprice.spec import SPEC
from meeple.games.caprice.state import CapriceState

__all__ = [
    "SPEC",
    "CapriceGame",
    "CapriceParams",
    "CapriceState",
    "ExchangeSymbol",
    "KeepSymbol",
    "Move",
    "OrderSymbol",
    "Place",
    "SkipMove",
    "best_order",
    "order_points",
    "tie_break_winner",
    "tower_points",
]
