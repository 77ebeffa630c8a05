"""meeple: rules engines, bots and tools for Capitol, Citadels, Capital Lux 2 and Caprice.

The core contract uses OpenSpiel's names::

    game = meeple.load_game("citadels", players=4)
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()
"""

from meeple.core import (
    CHANCE,
    SPECTATOR,
    TERMINAL,
    Action,
    Game,
    GameInfo,
    GameRecord,
    IllegalActionError,
    InvalidActionError,
    InvalidParameterError,
    InvalidStateError,
    MeepleError,
    NotYourTurnError,
    Rng,
    SeatView,
    State,
    load_game,
    registered_games,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "SPECTATOR",
    "TERMINAL",
    "Action",
    "Game",
    "GameInfo",
    "GameRecord",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidParameterError",
    "InvalidStateError",
    "MeepleError",
    "NotYourTurnError",
    "Rng",
    "SeatView",
    "State",
    "__version__",
    "load_game",
    "registered_games",
    "replay",
]
