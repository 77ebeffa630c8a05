"""Fast rollout policies: per-game functions that pick a move straight from a (determinized) state.

A search's rollouts need thousands of moves a second; the heuristic bots read observations and are too slow for that,
and uniformly random play is a poor guide in games where a careless move is punished (a City district busted in
Capital Lux 2). A rollout policy is a function ``policy(state, legal, rnd) -> Action`` that reads the state it is
given directly. It only ever receives the search's own determinizations (``SeatView.determinize``), which hold
nothing the searching seat may not know, so reading them is fair.

``ismcts:...:rollout=policy`` uses the game's policy from :data:`ROLLOUT_POLICIES`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from meeple.core.action import Action
from meeple.core.errors import InvalidParameterError
from meeple.core.state import State

RolloutPolicy = Callable[[State[Any], list[Action], random.Random], Action]
"""``(state, its legal actions (non-empty), generator) -> one of the legal actions``."""

ROLLOUT_POLICIES: dict[str, str] = {
    "capital_lux_2": "meeple.bots.rollout.capital_lux_2:rollout_policy",
}
"""Game name -> ``"module:function"`` of that game's fast rollout policy."""


def rollout_policy(game: str) -> RolloutPolicy:
    """Return the fast rollout policy of ``game``.

    Raises:
        InvalidParameterError: the game has no rollout policy (the message lists the games that have one).
    """
    try:
        target = ROLLOUT_POLICIES[game]
    except KeyError:
        raise InvalidParameterError(
            f"there is no fast rollout policy for {game!r}; games with one: {', '.join(sorted(ROLLOUT_POLICIES))} "
            "(use rollout=random or rollout=heuristic)"
        ) from None
    module, name = target.split(":")
    policy: RolloutPolicy = getattr(importlib.import_module(module), name)
    return policy
