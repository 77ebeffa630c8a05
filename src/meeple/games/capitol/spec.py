"""The capitol game's companions in the upper layers (see :class:`meeple.core.spec.GameSpec`)."""

from __future__ import annotations

from meeple.core.registry import register_spec
from meeple.core.spec import GameSpec

SPEC = register_spec(
    GameSpec(
        name="capitol",
        heuristic_bot="meeple.bots.heuristic.capitol:CapitolHeuristicBot",
        rollout_policy=None,
        renderer="meeple.cli.render.capitol",
        web="meeple.web.games.capitol:WEB",
        balance="meeple.arena.balance.capitol:features",
        balance_question="win rate by auction tile won (fountain / amphitheatre / temple) and by number of tiles won",
        score_bound={2: 110, 3: 115, 4: 110},  # benchmarks/score_bounds.py: the largest seen x 1.25, rounded up to 5
        margin_bound={2: 100, 3: 105, 4: 105},
        longest_game={2: 233, 3: 324, 4: 412},
        levels={"hard": "ismcts:100:rollout=heuristic:depth=30:prior=heuristic"},
    )
)
"""Registered when the package is imported, next to the game itself."""
