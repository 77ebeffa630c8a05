"""The capital_lux_2 game's companions in the upper layers (see :class:`meeple.core.spec.GameSpec`)."""

from __future__ import annotations

from meeple.core.registry import register_spec
from meeple.core.spec import GameSpec

SPEC = register_spec(
    GameSpec(
        name="capital_lux_2",
        heuristic_bot="meeple.bots.heuristic.capital_lux_2:CapitalLux2HeuristicBot",
        rollout_policy="meeple.bots.rollout.capital_lux_2:rollout_policy",
        renderer="meeple.cli.render.capital_lux_2",
        web="meeple.web.games.capital_lux_2:WEB",
        balance="meeple.arena.balance.capital_lux_2:features",
        balance_question=(
            "win rate by the power tile a seat used most (cards played to the Capital under it), the tiles and "
            "configuration in play (seat 0 win rate and winning score per label), and the solo rating against ROB"
        ),
        # benchmarks/score_bounds.py (400 games per player count): the largest score and margin seen x 1.25, rounded up;
        # the longest game seen (there and in the adapters' earlier length measurements); docs/research.md "Rewards"
        score_bound={1: 133, 2: 145, 3: 152, 4: 152},
        margin_bound={1: 150, 2: 115, 3: 118, 4: 127},
        longest_game={1: 61, 2: 90, 3: 128, 4: 161},
        levels={"hard": "ismcts:1000:prior=heuristic", "hard@1": "ismcts:1000:rollout=policy"},
    )
)
"""Registered when the package is imported, next to the game itself."""
