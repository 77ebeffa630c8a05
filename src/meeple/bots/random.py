"""The uniform random bot."""

from __future__ import annotations

from meeple.bots.base import Bot
from meeple.core.action import Action
from meeple.core.view import SeatView


class RandomBot(Bot):
    """Plays uniformly at random among the legal actions (seeded)."""

    name = "random"

    def select_action(self, view: SeatView) -> Action:
        """Return a uniformly random legal action. Raises ``ValueError`` if there is none."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (it is not its turn)")
        return legal[self.rng.randrange(len(legal))]
