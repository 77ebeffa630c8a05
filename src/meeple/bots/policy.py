"""Any policy as a bot: a bot name, a :class:`~meeple.bots.base.Bot`, or a function that chooses an action.

What researchers pass as an opponent, a seat of a self-play game or the policy under evaluation
(``meeple.adapters.pettingzoo``, ``meeple.adapters.vector``, ``meeple.arena.evaluate``):

- a **bot spec** (``"random"``, ``"heuristic"``, ``"hard"``, ``"ismcts:200"``...; :func:`meeple.bots.make_bot`);
- a **Bot** object (its ``select_action(view)`` is called);
- a **function of the seat's view**, ``policy(view: SeatView) -> action`` (one positional parameter);
- a **function of the observation and the mask**, ``policy(observation, mask) -> code`` (two positional
  parameters): ``observation`` is the seat's float32 observation tensor, ``mask`` its int8 legal-action mask
  (``num_distinct_actions``), as a trained network sees them (``lambda o, m: model.predict(o, action_masks=m)[0]``).

A function returns an :class:`~meeple.core.action.Action` or an action code (a numpy integer is fine); an action
that is not legal is refused by the engine (``IllegalActionError`` naming the legal ones).

Rules: issue "For researchers, round two" (opponents as objects); architecture "Layers" (a policy sees a
:class:`SeatView` only).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from meeple.bots.base import Bot
from meeple.bots.factory import make_bot
from meeple.core.action import Action
from meeple.core.errors import InvalidParameterError
from meeple.core.view import SeatView
from meeple.i18n.message import M

Policy = str | Bot | Callable[..., Any]
"""What :func:`as_bot` accepts."""


def _positional(fn: Callable[..., Any]) -> int:
    """The number of positional parameters ``fn`` requires (a bound method's ``self`` not counted)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: assume the view form
        return 1
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in params if p.kind in kinds and p.default is inspect.Parameter.empty)


class PolicyBot(Bot):
    """A function as a bot (see the module docstring for the two forms).

    Args:
        policy: ``policy(view)`` or ``policy(observation, mask)``.
        name: the bot's name in records and reports.

    Raises:
        InvalidParameterError: ``policy`` takes neither one nor two positional parameters.
    """

    def __init__(self, policy: Callable[..., Any], name: str = "policy") -> None:
        super().__init__()
        arity = _positional(policy)
        if arity not in (1, 2):
            raise InvalidParameterError(
                M("a policy function takes (view) or (observation, mask), not {n} positional parameters", n=arity)
            )
        self.policy = policy
        self.tensors = arity == 2
        self.name = name

    def select_action(self, view: SeatView) -> Action:
        """The policy's choice for ``view``'s seat, as the game's action."""
        if self.tensors:
            choice = self.policy(view.observation_tensor(), view.legal_actions_mask())
        else:
            choice = self.policy(view)
        if isinstance(choice, Action):
            return choice
        return view.game.action_from_code(int(choice))


def as_bot(policy: Policy, game: str, seed: int = 0) -> Bot:
    """Return ``policy`` as a bot of ``game``: a spec is built with ``seed``; a Bot is returned as is.

    Raises:
        InvalidParameterError: an unknown bot spec, or something that is not a spec, a Bot or a function (the message
            says what is accepted).
    """
    if isinstance(policy, str):
        return make_bot(policy, game, seed=seed)
    if isinstance(policy, Bot):
        return policy
    if callable(policy):
        return PolicyBot(policy, name=getattr(policy, "__name__", "policy"))
    raise InvalidParameterError(
        M(
            "a policy is a bot name, a Bot, or a function of (view) or (observation, mask), not {kind}",
            kind=type(policy).__name__,
        )
    )
