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
        # benchmarks/score_bounds.py (400 games per player count): the largest score and margin seen x 1.25, rounded up;
        # the longest game seen (there and in the adapters' earlier length measurements); docs/research.md "Rewards"
        score_bound={2: 32, 3: 29, 4: 32},
        margin_bound={2: 15, 3: 14, 4: 17},
        longest_game={2: 48, 3: 50, 4: 52},
        levels={"hard": "ismcts:2000:prior=heuristic"},
    )
)
"""Registered when the package is imported, next to the game itself."""
