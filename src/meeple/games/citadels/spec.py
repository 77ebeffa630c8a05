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
        score_bound={2: 60, 3: 60, 4: 60, 5: 50, 6: 50, 7: 50},  # benchmarks/score_bounds.py: the largest seen x 1.25, rounded up to 5
        margin_bound={2: 50, 3: 50, 4: 45, 5: 40, 6: 40, 7: 45},
        longest_game={2: 403, 3: 429, 4: 463, 5: 509, 6: 547, 7: 658},
        levels={"hard": "ismcts:100:rollout=heuristic:depth=30:prior=heuristic"},
    )
)
"""Registered when the package is imported, next to the game itself."""
