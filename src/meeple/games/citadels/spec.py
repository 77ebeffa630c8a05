"""The citadels game's companions in the upper layers (see :class:`meeple.core.spec.GameSpec`)."""

from __future__ import annotations

from meeple.core.registry import register_spec
from meeple.core.spec import GameSpec

SPEC = register_spec(
    GameSpec(
        name="citadels",
        heuristic_bot="meeple.bots.heuristic.citadels:CitadelsHeuristicBot",
        rollout_policy=None,
        renderer="meeple.cli.render.citadels",
        web="meeple.web.games.citadels:WEB",
        balance="meeple.arena.balance.citadels:features",
        balance_question="win rate by character played (any round) and by district in the final city",
        levels={"hard": "ismcts:100:rollout=heuristic:depth=30:prior=heuristic"},
    )
)
"""Registered when the package is imported, next to the game itself."""
