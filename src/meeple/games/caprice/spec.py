"""The caprice game's companions in the upper layers (see :class:`meeple.core.spec.GameSpec`)."""

from __future__ import annotations

from meeple.core.registry import register_spec
from meeple.core.spec import GameSpec

SPEC = register_spec(
    GameSpec(
        name="caprice",
        heuristic_bot="meeple.bots.heuristic.caprice:CapriceHeuristicBot",
        rollout_policy=None,
        renderer="meeple.cli.render.caprice",
        web="meeple.web.games.caprice:WEB",
        balance="meeple.arena.balance.caprice:features",
        balance_question="win rate by seat and turn position, and for the seat that ended the game",
        levels={"hard": "ismcts:2000:prior=heuristic"},
    )
)
"""Registered when the package is imported, next to the game itself."""
