"""Game records as a dataset for behaviour cloning: one row per decision (observation, mask, action, final reward).

The dataset format is the record file of ``meeple simulate --record FILE`` (JSON Lines, one game per line,
``meeple-record/1``; docs/research.md "Datasets" lists its fields): a game is its parameters, its seed and its
actions, so every position is rebuilt exactly by replaying, and tensors are computed when loading (a record stays
small and valid across tensor changes of the same codes). :func:`load_decisions` replays each game and returns, for
every decision (optionally only those of some players' labels):

- ``observations``: float32 ``(N, observation_tensor_size)``: the mover's observation tensor (its view only);
- ``masks``: int8 ``(N, num_distinct_actions)``: its legal actions; ``actions``: int64 ``(N,)``: the code it chose;
- ``rewards``: float32 ``(N,)``: the mover's final reward of its game (``reward=``: :mod:`meeple.core.rewards`);
- ``games``, ``seats``, ``steps``: int64 ``(N,)``: the game's index in the file, the mover, the decision's index;
- ``labels``: the mover's label (``"heuristic"``...) per row.

:meth:`Decisions.to_pandas` gives a pandas ``DataFrame`` (pandas is not a dependency of meeple: install it).

Rules: issue "For researchers, round two" (datasets); meeple.core.records (the record format).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from meeple.core.errors import InvalidParameterError, InvalidStateError
from meeple.core.records import GameRecord, read_records
from meeple.core.registry import load_game
from meeple.core.rewards import check_reward, final_rewards


@dataclass
class Decisions:
    """The decisions of a set of games, as numpy arrays of equal length (see the module docstring)."""

    game: str
    params: dict[str, Any]
    observations: Any
    masks: Any
    actions: Any
    rewards: Any
    games: Any
    seats: Any
    steps: Any
    labels: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    def to_pandas(self) -> Any:
        """A pandas ``DataFrame``, one row per decision.

        Columns: ``game``, ``step``, ``seat``, ``label``, ``action``, ``reward``, and ``observation`` / ``mask`` as
        numpy rows.

        Raises:
            ImportError: pandas is not installed (``pip install pandas``).
        """
        try:
            pd = importlib.import_module("pandas")
        except ImportError as exc:  # pragma: no cover - pandas is installed for the tests
            raise ImportError("to_pandas needs pandas: pip install pandas") from exc
        return pd.DataFrame(
            {
                "game": self.games,
                "step": self.steps,
                "seat": self.seats,
                "label": self.labels,
                "action": self.actions,
                "reward": self.rewards,
                "observation": list(self.observations),
                "mask": list(self.masks),
            }
        )


def load_decisions(
    source: str | Path | Iterable[GameRecord], reward: str = "win", labels: Sequence[str] | None = None
) -> Decisions:
    """Replay every finished game of ``source`` and return its decisions (those of ``labels``' seats only, if given).

    Args:
        source: a record file (``meeple simulate --record``) or records.
        reward: the kind of final reward per row.
        labels: keep only the decisions of seats with these labels (``["heuristic"]`` to clone the heuristic bot).

    Raises:
        InvalidParameterError: an unknown reward; records of different games or parameters (tensors would not have
            the same size: the message names the first record that differs).
        InvalidStateError: a line is not a record, or a record does not replay (its message says where).
    """
    check_reward(reward)
    records = read_records(source) if isinstance(source, str | Path) else source
    keep = None if labels is None else set(labels)
    rows: dict[str, list[Any]] = {k: [] for k in ("obs", "mask", "action", "reward", "game", "seat", "step", "label")}
    first: GameRecord | None = None
    for index, record in enumerate(records):
        if first is None:
            first = record
        elif (record.game, record.params) != (first.game, first.params):
            raise InvalidParameterError(
                f"record {index} is a game of {record.game} {record.params}, not {first.game} {first.params}: "
                "load one game and one set of parameters at a time"
            )
        if not record.returns:
            continue  # an unfinished game has no final reward
        _replay_into(record, index, keep, reward, rows)
    if first is None:
        raise InvalidStateError("no game record to load")
    game = load_game(first.game, **first.params)
    size, actions = game.observation_tensor_size(), game.num_distinct_actions()
    return Decisions(
        game=first.game,
        params=dict(first.params),
        observations=np.asarray(rows["obs"], np.float32).reshape(-1, size),
        masks=np.asarray(rows["mask"], np.int8).reshape(-1, actions),
        actions=np.asarray(rows["action"], np.int64),
        rewards=np.asarray(rows["reward"], np.float32),
        games=np.asarray(rows["game"], np.int64),
        seats=np.asarray(rows["seat"], np.int64),
        steps=np.asarray(rows["step"], np.int64),
        labels=rows["label"],
    )


def _replay_into(
    record: GameRecord, index: int, keep: set[str] | None, reward: str, rows: dict[str, list[Any]]
) -> None:
    state = load_game(record.game, **record.params).new_initial_state(record.seed)
    encode = state.game.codec.encode
    chosen: list[tuple[int, int]] = []
    for step, data in enumerate(record.actions):
        seat = state.current_player()
        label = record.players[seat] if seat < len(record.players) else ""
        try:
            action = state.game.action_from_json(data)
            if keep is None or label in keep:
                rows["obs"].append(state.observation_tensor(seat))
                rows["mask"].append(state.legal_actions_mask(seat))
                rows["action"].append(encode(action))
                rows["game"].append(index)
                rows["seat"].append(seat)
                rows["step"].append(step)
                rows["label"].append(label)
                chosen.append((len(rows["action"]) - 1, seat))
            state.apply_action(action, player=seat)
        except (InvalidParameterError, ValueError) as exc:
            raise InvalidStateError(f"record {index}, action {step}: {exc}") from None
    final = final_rewards(state, reward)
    rows["reward"].extend(final[seat] for _row, seat in chosen)
