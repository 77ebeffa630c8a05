"""Caprice's balance features: which seat ended the game (``GameSpec.balance`` of Caprice).

Public information only (:mod:`meeple.arena.balance`). Rules: caprice.md §9 (end) and §14 (ties).
"""

from __future__ import annotations

from meeple.arena.balance import Features
from meeple.games.caprice.state import CapriceState


def features(state: CapriceState) -> Features:
    """Caprice: which seat ended the game (the seat tables answer "by seat")."""
    ender = state.observation(None)["ender"]
    n = state.game.num_players
    return {"seat": {"ended the game": [["ender" if s == ender else "not ender"] for s in range(n)]}}
