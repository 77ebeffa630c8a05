"""Game records as a dataset for behaviour cloning: one row per decision (observation, mask, action, final reward).

The dataset format is the record file of ``meeple simulate --record FILE`` (JSON Lines, one game per line,
``meeple-record/1``; docs/research.md "Datasets" lists its fields): a game is its parameters, its seed and its
actions, so every position is rebuilt exactly by replaying, and tensors are computed when loading (a record stays
small and valid across tensor changes of the same codes). :func:`load_decisions` replays each game and returns, for
every decision (optionally only those of some players' labels, optionally without the forced ones):

- ``observations``: float32 ``(N, observation_tensor_size)``: the mover's observation tensor (its view only);
- ``masks``: int8 ``(N, num_distinct_actions)``: its legal actions; ``actions``: int64 ``(N,)``: the code it chose;
- ``rewards``: float32 ``(N,)``: the mover's final reward of its game (``reward=``, ``reward_scale=``:
  :mod:`meeple.core.rewards`);
- ``forced``: bool ``(N,)``: the mover had one legal action only (nothing to learn from; 9-15 % of the rows of a
  game between bots); ``skip_forced=True`` or :meth:`Decisions.without_forced` drops them;
- ``games``, ``seats``, ``steps``: int64 ``(N,)``: the game's index in the file, the mover, the decision's index;
- ``seeds``: int64 ``(N,)``: the seed of the row's game, or None once stripped (below);
- ``labels``: the mover's label (``"heuristic"``...) per row.

**The seed reveals every hand.** A record's seed deals the whole game: with it and the actions anyone rebuilds
every card drawn, every hidden character or symbol, every seat's hand at every step. That is what makes a record
small and exact, and it is harmless for training on games between bots; but a record file, or a dataset that keeps
the ``seed`` column, is the complete game, hidden information included. Where a dataset is published for others
(a benchmark whose task is to infer what is hidden, games played by people), strip the seed:
``load_decisions(..., strip_seed=True)`` or :meth:`Decisions.without_seed` leaves only what each mover saw (its
observation tensor and mask) and the public facts of the row; the record file itself must then stay private.

Exports: :meth:`Decisions.to_pandas` (pandas; tensors as fixed-size float32 and int8 columns ``observation_0`` ...
and ``mask_0`` ..., or as Arrow fixed-size lists with ``tensors="arrow"``) and :meth:`Decisions.to_parquet` /
:func:`read_parquet` (pyarrow: tensors as ``fixed_size_list`` columns, read back as 2-D arrays). pandas and pyarrow
are optional: ``pip install 'meeple[dataset]'``.

Rules: issues "For researchers, round two" (datasets) and "round three" (forced rows, fixed-size tensors, the
seed); meeple.core.records (the record format).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from meeple.core.errors import InvalidParameterError, InvalidStateError
from meeple.core.records import GameRecord, read_records
from meeple.core.registry import load_game
from meeple.core.rewards import check_reward, check_reward_scale, final_rewards

PARQUET_FORMAT = "meeple-decisions/1"
"""The ``format`` in a Parquet file's metadata (:meth:`Decisions.to_parquet`)."""
TENSOR_LAYOUTS = ("columns", "arrow", "objects")
"""How :meth:`Decisions.to_pandas` stores the tensors."""


def _optional(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"this export needs {module}: pip install 'meeple[dataset]'") from exc


@dataclass
class Decisions:
    """The decisions of a set of games, as numpy arrays of equal length (see the module docstring).

    Attributes:
        game: the game's name.
        params: every game parameter.
        reward: the reward's kind of ``rewards``; reward_scale: its scale.
        seeds: the seed of each row's game (int64), None when stripped.
    """

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
    forced: Any = None
    seeds: Any = None
    reward: str = "win"
    reward_scale: str = "raw"

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    def select(self, rows: Any) -> Decisions:
        """The rows where the boolean array ``rows`` is true (or the rows of an index array), in order."""
        index = np.flatnonzero(rows) if np.asarray(rows).dtype == bool else np.asarray(rows, np.int64)
        arrays = {
            f.name: getattr(self, f.name)[index]
            for f in dataclasses.fields(self)
            if isinstance(getattr(self, f.name), np.ndarray)
        }
        return dataclasses.replace(self, labels=[self.labels[i] for i in index.tolist()], **arrays)

    def without_forced(self) -> Decisions:
        """The rows where the mover had a choice (``forced`` false)."""
        return self.select(~self.forced)

    def without_seed(self) -> Decisions:
        """The same rows without the games' seeds (what the seed reveals: see the module docstring)."""
        return dataclasses.replace(self, seeds=None)

    def _columns(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.games,
            "step": self.steps,
            "seat": self.seats,
            "label": self.labels,
            "action": self.actions,
            "reward": self.rewards,
            "forced": self.forced,
        }
        if self.seeds is not None:
            out["seed"] = self.seeds
        return out

    def to_pandas(self, tensors: str = "columns") -> Any:
        """A pandas ``DataFrame``, one row per decision.

        Columns: ``game``, ``step``, ``seat``, ``label``, ``action``, ``reward``, ``forced``, ``seed`` (unless
        stripped), then the tensors as ``tensors`` says:

        - ``"columns"`` (default): one float32 column per observation value, ``observation_0`` ...
          ``observation_{size-1}``, and one int8 column per action, ``mask_0`` ...: fixed-size, numeric columns
          (``frame.filter(regex="^observation_").to_numpy()`` is the 2-D array back);
        - ``"arrow"``: two columns ``observation`` and ``mask`` of Arrow fixed-size lists (``pd.ArrowDtype``; needs
          pyarrow);
        - ``"objects"``: two columns holding one numpy row each (the format before; slow to store).

        Raises:
            ImportError: pandas (or, for ``"arrow"``, pyarrow) is not installed.
            InvalidParameterError: ``tensors`` is none of :data:`TENSOR_LAYOUTS`.
        """
        if tensors not in TENSOR_LAYOUTS:
            raise InvalidParameterError(f"tensors must be one of {', '.join(TENSOR_LAYOUTS)}, not {tensors!r}")
        pd = _optional("pandas")
        frame = pd.DataFrame(self._columns())
        if tensors == "objects":
            frame["observation"] = list(self.observations)
            frame["mask"] = list(self.masks)
            return frame
        if tensors == "arrow":
            pa = _optional("pyarrow")
            for name, values in (("observation", self.observations), ("mask", self.masks)):
                array = _fixed_size_list(pa, values)
                frame[name] = pd.Series(array, dtype=pd.ArrowDtype(array.type), index=frame.index)
            return frame
        size, actions = self.observations.shape[1], self.masks.shape[1]
        wide = {f"observation_{i}": self.observations[:, i] for i in range(size)}
        wide.update({f"mask_{i}": self.masks[:, i] for i in range(actions)})
        return pd.concat([frame, pd.DataFrame(wide, index=frame.index)], axis=1)

    def to_parquet(self, path: str | Path) -> Path:
        """Write the rows to a Parquet file: tensors as ``fixed_size_list`` columns, the game in the metadata.

        The file's metadata (``meeple``) holds the format, the game, its parameters and the reward; the ``seed``
        column is written only if the seeds were not stripped. :func:`read_parquet` reads it back.

        Raises:
            ImportError: pyarrow is not installed.
        """
        pa = _optional("pyarrow")
        parquet = _optional("pyarrow.parquet")
        columns = {k: pa.array(v) for k, v in self._columns().items()}
        columns["observation"] = _fixed_size_list(pa, self.observations)
        columns["mask"] = _fixed_size_list(pa, self.masks)
        meta = {
            "format": PARQUET_FORMAT,
            "game": self.game,
            "params": self.params,
            "reward": self.reward,
            "reward_scale": self.reward_scale,
        }
        table = pa.table(columns).replace_schema_metadata({"meeple": json.dumps(meta, sort_keys=True)})
        target = Path(path)
        parquet.write_table(table, target)
        return target


def _fixed_size_list(pa: Any, values: Any) -> Any:
    """A 2-D numpy array as an Arrow ``fixed_size_list`` array (one list per row)."""
    return pa.FixedSizeListArray.from_arrays(pa.array(values.reshape(-1)), values.shape[1])


def read_parquet(path: str | Path) -> Decisions:
    """Read a file written by :meth:`Decisions.to_parquet` back (tensors as 2-D arrays).

    Raises:
        ImportError: pyarrow is not installed.
        InvalidStateError: the file is not a meeple decisions file (no or another ``format``).
    """
    parquet = _optional("pyarrow.parquet")
    table = parquet.read_table(path)
    raw = (table.schema.metadata or {}).get(b"meeple")
    meta = json.loads(raw) if raw else {}
    if meta.get("format") != PARQUET_FORMAT:
        raise InvalidStateError(f"{path} is not a meeple decisions file (format {PARQUET_FORMAT})")

    def matrix(name: str, dtype: Any) -> Any:
        column = table.column(name).combine_chunks()
        return column.flatten().to_numpy().astype(dtype).reshape(len(column), column.type.list_size)

    def vector(name: str, dtype: Any) -> Any:
        return table.column(name).to_numpy().astype(dtype)

    return Decisions(
        game=meta["game"],
        params=meta["params"],
        observations=matrix("observation", np.float32),
        masks=matrix("mask", np.int8),
        actions=vector("action", np.int64),
        rewards=vector("reward", np.float32),
        games=vector("game", np.int64),
        seats=vector("seat", np.int64),
        steps=vector("step", np.int64),
        labels=[str(x) for x in table.column("label").to_pylist()],
        forced=vector("forced", bool),
        seeds=vector("seed", np.int64) if "seed" in table.column_names else None,
        reward=meta["reward"],
        reward_scale=meta["reward_scale"],
    )


def load_decisions(
    source: str | Path | Iterable[GameRecord],
    reward: str = "win",
    labels: Sequence[str] | None = None,
    reward_scale: str = "raw",
    skip_forced: bool = False,
    strip_seed: bool = False,
) -> Decisions:
    """Replay every finished game of ``source`` and return its decisions (those of ``labels``' seats only, if given).

    Args:
        source: a record file (``meeple simulate --record``) or records.
        reward: the kind of final reward per row.
        labels: keep only the decisions of seats with these labels (``["heuristic"]`` to clone the heuristic bot).
        reward_scale: ``"raw"`` or ``"unit"`` (:mod:`meeple.core.rewards`).
        skip_forced: drop the rows where the mover had one legal action only.
        strip_seed: leave the games' seeds out (``seeds`` None; see the module docstring).

    Raises:
        InvalidParameterError: an unknown reward or scale; records of different games or parameters (tensors would
            not have the same size: the message names the first record that differs).
        InvalidStateError: a line is not a record, or a record does not replay (its message says where).
    """
    check_reward(reward)
    check_reward_scale(reward_scale)
    records = read_records(source) if isinstance(source, str | Path) else source
    keep = None if labels is None else set(labels)
    names = ("obs", "mask", "action", "reward", "game", "seat", "step", "label", "forced", "seed")
    rows: dict[str, list[Any]] = {k: [] for k in names}
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
        _replay_into(record, index, keep, (reward, reward_scale), rows)
    if first is None:
        raise InvalidStateError("no game record to load")
    game = load_game(first.game, **first.params)
    size, actions = game.observation_tensor_size(), game.num_distinct_actions()
    data = Decisions(
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
        forced=np.asarray(rows["forced"], bool),
        seeds=None if strip_seed else np.asarray(rows["seed"], np.int64),
        reward=reward,
        reward_scale=reward_scale,
    )
    return data.without_forced() if skip_forced else data


def _replay_into(
    record: GameRecord, index: int, keep: set[str] | None, reward: tuple[str, str], rows: dict[str, list[Any]]
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
                mask = state.legal_actions_mask(seat)
                rows["obs"].append(state.observation_tensor(seat))
                rows["mask"].append(mask)
                rows["action"].append(encode(action))
                rows["game"].append(index)
                rows["seat"].append(seat)
                rows["step"].append(step)
                rows["label"].append(label)
                rows["forced"].append(int(mask.sum()) == 1)
                rows["seed"].append(record.seed)
                chosen.append((len(rows["action"]) - 1, seat))
            state.apply_action(action, player=seat)
        except (InvalidParameterError, ValueError) as exc:
            raise InvalidStateError(f"record {index}, action {step}: {exc}") from None
    final = final_rewards(state, *reward)
    rows["reward"].extend(final[seat] for _row, seat in chosen)
