"""Fast rollout policies: per-game functions that pick a move straight from a (determinized) state.

A search's rollouts need thousands of moves a second; the heuristic bots read observations and are too slow for that,
and uniformly random play is a poor guide in games where a careless move is punished (a City district busted in
Capital Lux 2). A rollout policy is a function ``policy(state, legal, rnd) -> Action`` that reads the state it is
given directly. It only ever receives the search's own determinizations (``SeatView.determinize``), which hold
nothing the searching seat may not know, so reading them is fair.

``ismcts:...:rollout=policy`` uses the policy the game declares (``GameSpec.rollout_policy``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from meeple.core.action import Action
from meeple.core.errors import InvalidParameterError
from meeple.core.registry import game_spec, registered_games
from meeple.core.state import State

RolloutPolicy = Callable[[State[Any], list[Action], random.Random], Action]
"""``(state, its legal actions (non-empty), generator) -> one of the legal actions``."""


def rollout_policy(game: str) -> RolloutPolicy:
    """Return the fast rollout policy of ``game`` (declared by the game's ``GameSpec.rollout_policy``).

    Raises:
        InvalidParameterError: the game has no rollout policy (the message lists the games that have one).
    """
    if game_spec(game).rollout_policy is None:
        having = [g for g in registered_games() if game_spec(g).rollout_policy is not None]
        raise InvalidParameterError(
            f"there is no fast rollout policy for {game!r}; games with one: {', '.join(having)} "
            "(use rollout=random or rollout=heuristic)"
        )
    policy: RolloutPolicy = game_spec(game).load("rollout_policy")
    return policy
