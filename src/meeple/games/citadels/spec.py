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
        # benchmarks/score_bounds.py (400 games per player count): the largest score and margin seen x 1.25, rounded up;
        # the longest game seen (there and in the adapters' earlier length measurements); docs/research.md "Rewards"
        score_bound={2: 69, 3: 68, 4: 58, 5: 57, 6: 57, 7: 53},
        margin_bound={2: 55, 3: 62, 4: 49, 5: 50, 6: 52, 7: 50},
        longest_game={2: 403, 3: 429, 4: 463, 5: 509, 6: 547, 7: 658},
        levels={"hard": "ismcts:100:rollout=heuristic:depth=30:prior=heuristic"},
    )
)
"""Registered when the package is imported, next to the game itself."""
