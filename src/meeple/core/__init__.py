"""The core contract shared by every game: actions, games, states, errors, randomness, registry, records."""

from meeple.core.action import Action, ActionCodec
from meeple.core.decisions import SEALED, Decision, SealedCommitments
from meeple.core.errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidParameterError,
    InvalidStateError,
    MeepleError,
    NotYourTurnError,
)
from meeple.core.game import Game, GameInfo
from meeple.core.records import GameRecord, read_records, replay, write_records
from meeple.core.registry import game_class, game_spec, load_game, register_game, register_spec, registered_games
from meeple.core.rng import Rng, derive_seed
from meeple.core.spec import GameSpec
from meeple.core.state import CHANCE, SPECTATOR, TERMINAL, State
from meeple.core.view import SeatView

__all__ = [
    "CHANCE",
    "SEALED",
    "SPECTATOR",
    "TERMINAL",
    "Action",
    "ActionCodec",
    "Decision",
    "Game",
    "GameInfo",
    "GameSpec",
    "GameRecord",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidParameterError",
    "InvalidStateError",
    "MeepleError",
    "NotYourTurnError",
    "Rng",
    "derive_seed",
    "SealedCommitments",
    "SeatView",
    "State",
    "game_class",
    "game_spec",
    "load_game",
    "read_records",
    "register_game",
    "register_spec",
    "registered_games",
    "replay",
    "write_records",
]
