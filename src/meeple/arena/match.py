"""Playing one game between bots (and, through callbacks, humans).

Used by ``meeple simulate``, ``meeple play`` and the tournament runner.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from meeple.bots import Bot, make_bot
from meeple.core.action import Action
from meeple.core.records import GameRecord
from meeple.core.registry import load_game
from meeple.core.rng import derive_seed
from meeple.core.state import State
from meeple.core.view import SeatView


@dataclass
class MatchResult:
    """The outcome of one game.

    Attributes:
        record: the replayable record (players are the bot labels).
        decisions: number of actions played.
        final_state: the terminal state.
    """

    record: GameRecord
    decisions: int
    final_state: State[Any]


def play_match(
    game_name: str,
    params: Mapping[str, Any],
    seed: int,
    bots: Sequence[Bot],
    labels: Sequence[str] | None = None,
    on_action: Callable[[State[Any], int, Action], None] | None = None,
    **meta: Any,
) -> MatchResult:
    """Play one game to the end, each seat's moves chosen by its bot from its :class:`SeatView`.

    Args:
        game_name: registered game name.
        params: game parameters; ``players`` must equal ``len(bots)``.
        seed: initial-state seed.
        bots: one bot per seat.
        labels: a label per seat for the record (default: the bots' names).
        on_action: called before each action is applied, with ``(state, seat, action)``.
        **meta: stored in the record's ``meta``.

    Raises:
        InvalidParameterError: bad game, parameters or bot count.
        IllegalActionError: a bot returned an action that is not legal.
    """
    game = load_game(game_name, **{**params, "players": len(bots)})
    state = game.new_initial_state(seed)
    views = [SeatView(state, seat) for seat in range(len(bots))]
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].select_action(views[seat])
        if on_action is not None:
            on_action(state, seat, action)
        state.apply_action(action, player=seat)
        decisions += 1
    names = list(labels) if labels is not None else [b.name for b in bots]
    return MatchResult(GameRecord.from_state(state, names, **meta), decisions, state)


def play_bots(game_name: str, params: Mapping[str, Any], seed: int, bot_specs: Sequence[str]) -> MatchResult:
    """Play one game between bots named by spec (``"random"``, ``"heuristic"``...), each seeded from ``seed``."""
    bots = [make_bot(spec, game_name, seed=derive_seed(seed, "bot", i)) for i, spec in enumerate(bot_specs)]
    return play_match(game_name, params, seed, bots, labels=list(bot_specs))
