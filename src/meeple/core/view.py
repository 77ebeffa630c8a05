"""A seat's view of a game: the only door through which bots see a state.

Rules: architecture "Layers" — a bot never reads hidden fields of a ``State``. A :class:`SeatView` exposes what a
human in that seat may know (observation, information state, legal actions, redacted history) and can make
determinized copies of the game through ``resample_from_infostate``, which depend only on that knowledge.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.core.action import Action
from meeple.core.game import Game
from meeple.core.rng import Rng
from meeple.core.state import State


class SeatView:
    """What seat ``seat`` may know of ``state``.

    Args:
        state: the real state (kept private).
        seat: the seat whose view this is.
    """

    __slots__ = ("__state", "seat")

    def __init__(self, state: State[Any], seat: int) -> None:
        self.__state = state
        self.seat = seat

    @property
    def game(self) -> Game[Any]:
        """The game (parameters and static information: public)."""
        game: Game[Any] = self.__state.game
        return game

    def current_player(self) -> int:
        """The seat to move."""
        return self.__state.current_player()

    def observation(self) -> Mapping[str, Any]:
        """This seat's observation (``state.observation(seat)``)."""
        return self.__state.observation(self.seat)

    def observation_tensor(self) -> Any:
        """This seat's observation tensor (``state.observation_tensor(seat)``: float32, needs numpy)."""
        return self.__state.observation_tensor(self.seat)

    def legal_actions_mask(self) -> Any:
        """This seat's legal action mask (``state.legal_actions_mask(seat)``: int8, all zeros off its turn)."""
        return self.__state.legal_actions_mask(self.seat)

    def information_state_string(self) -> str:
        """This seat's perfect-recall information state."""
        return self.__state.information_state_string(self.seat)

    def legal_actions(self) -> list[Action]:
        """The legal actions of this seat (empty when it is not this seat's turn)."""
        return self.__state.legal_actions(self.seat)

    def action_to_string(self, action: Action, actor: int | None = None) -> str:
        """The text of ``action`` as this seat sees it."""
        return self.__state.action_to_string(action, perspective=self.seat, actor=actor)

    def history(self) -> list[str]:
        """Every action so far as ``"seat: text"`` lines as this seat saw them (see ``State.history_texts``)."""
        return [f"{p}: {text}" for p, text in self.__state.history_texts(self.seat)]

    def move_number(self) -> int:
        """How many actions this seat has seen played (a run of another seat's hidden steps counts once)."""
        return len(self.__state.history_texts(self.seat))

    def determinize(self, rng: Rng) -> State[Any]:
        """Return a full state consistent with this seat's knowledge, hidden parts re-dealt from ``rng``."""
        return self.__state.resample_from_infostate(self.seat, rng)
