"""The bot interface: a player program that chooses one of a seat's legal actions.

Build bots by name with :func:`meeple.bots.make_bot` (module :mod:`meeple.bots.factory`).

Rules: architecture "Layers" — bots see a game only through a :class:`~meeple.core.view.SeatView`: the seat's
observation, legal actions and information state, never the ``State`` itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from meeple.core.action import Action
from meeple.core.rng import Rng
from meeple.core.view import SeatView


class Bot(ABC):
    """A player program.

    Args:
        seed: seed of the bot's own random generator (decisions are reproducible for a fixed seed).
    """

    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    @abstractmethod
    def select_action(self, view: SeatView) -> Action:
        """Return one of ``view.legal_actions()`` (called only when it is this bot's seat to move)."""

    def __repr__(self) -> str:
        return self.name
