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
        # benchmarks/score_bounds.py (400 games per player count): the largest score and margin seen x 1.25, rounded up;
        # the longest game seen (there and in the adapters' earlier length measurements); docs/research.md "Rewards"
        score_bound={2: 107, 3: 115, 4: 109},
        margin_bound={2: 100, 3: 103, 4: 102},
        longest_game={2: 233, 3: 324, 4: 412},
        levels={"hard": "ismcts:100:rollout=heuristic:depth=30:prior=heuristic"},
    )
)
"""Registered when the package is imported, next to the game itself."""
