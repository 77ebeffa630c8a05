"""``meeple simulate --record`` files as datasets: one row per decision, equal to what the game shows the mover."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from meeple.adapters.dataset import load_decisions, read_parquet
from meeple.core.errors import InvalidParameterError, InvalidStateError
from meeple.core.records import read_records
from meeple.core.rewards import final_rewards
from tests.cli.conftest import Cli


def _simulate(path: Path, game: str = "caprice", players: str = "3", bots: str = "heuristic,random") -> None:
    Cli()(["simulate", game, "-n", "3", "-p", players, "--bots", bots, "--record", str(path)])


def test_a_record_file_loads_as_one_row_per_decision(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    _simulate(path)
    data = load_decisions(path, reward="score")
    records = list(read_records(path))
    assert len(data) == sum(len(r.actions) for r in records)
    assert data.observations.dtype == np.float32 and data.masks.dtype == np.int8
    assert (data.masks[np.arange(len(data)), data.actions] == 1).all()  # every chosen action was legal
    row = 10
    state = records[int(data.games[row])].replay(int(data.steps[row]))
    seat = int(data.seats[row])
    assert state.current_player() == seat
    assert np.array_equal(data.observations[row], state.observation_tensor(seat))
    final = records[int(data.games[row])].replay()
    assert data.rewards[row] == pytest.approx(final_rewards(final, "score")[seat])
    frame = data.to_pandas(tensors="objects")
    assert len(frame) == len(data) and set(frame.columns) >= {"observation", "mask", "action", "reward", "label"}


def test_only_the_decisions_of_some_labels_can_be_kept(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    _simulate(path)
    everything = load_decisions(path)
    heuristic = load_decisions(path, labels=["heuristic"])
    assert set(heuristic.labels) == {"heuristic"} and 0 < len(heuristic) < len(everything)


def test_bad_files_are_refused_clearly(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    _simulate(a)
    _simulate(b, players="2", bots="random")
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(a.read_text() + b.read_text())
    with pytest.raises(InvalidParameterError, match="record 3 is a game of caprice"):
        load_decisions(mixed)
    with pytest.raises(InvalidParameterError, match="win, rank"):
        load_decisions(a, reward="elo")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(InvalidStateError, match="no game record"):
        load_decisions(empty)
    line = json.loads(a.read_text().splitlines()[0])
    line["actions"][3] = {"type": "nonsense"}
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(line) + "\n")
    with pytest.raises(InvalidStateError, match="record 0, action 3"):
        load_decisions(broken)


def test_forced_rows_are_marked_and_can_be_left_out(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    _simulate(path, game="citadels", players="4", bots="heuristic,random")
    data = load_decisions(path)
    assert data.forced.dtype == bool and data.forced.tolist() == (data.masks.sum(axis=1) == 1).tolist()
    assert 0 < data.forced.sum() < len(data)  # Citadels has forced moves (a lone legal action)
    chosen = load_decisions(path, skip_forced=True)
    assert len(chosen) == len(data) - int(data.forced.sum()) and not chosen.forced.any()
    assert (chosen.masks.sum(axis=1) > 1).all()
    kept = data.without_forced()
    assert np.array_equal(kept.observations, chosen.observations) and kept.labels == chosen.labels
    assert np.array_equal(kept.steps, data.steps[~data.forced])


def test_pandas_gets_fixed_size_tensor_columns_and_arrow_lists(tmp_path: Path) -> None:
    pytest.importorskip("pandas")
    path = tmp_path / "games.jsonl"
    _simulate(path)
    data = load_decisions(path, reward="score_margin", reward_scale="unit")
    frame = data.to_pandas()
    size, actions = data.observations.shape[1], data.masks.shape[1]
    observation = frame.filter(regex="^observation_")
    assert observation.shape == (len(data), size) and (observation.dtypes == np.float32).all()
    assert np.array_equal(observation.to_numpy(), data.observations)
    mask = frame.filter(regex="^mask_")
    assert mask.shape == (len(data), actions) and (mask.dtypes == np.int8).all()
    assert np.array_equal(mask.to_numpy(), data.masks)
    assert frame["forced"].tolist() == data.forced.tolist() and frame["seed"].tolist() == data.seeds.tolist()
    assert (frame["reward"].abs() <= 1.0).all()
    pytest.importorskip("pyarrow")
    arrow = data.to_pandas(tensors="arrow")
    assert str(arrow["observation"].dtype).startswith("fixed_size_list<")
    assert np.array_equal(np.stack(arrow["observation"].to_numpy()), data.observations)
    with pytest.raises(InvalidParameterError, match="tensors must be one of columns, arrow, objects"):
        data.to_pandas(tensors="wide")


def test_parquet_round_trips_and_the_seed_can_be_stripped(tmp_path: Path) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    path = tmp_path / "games.jsonl"
    _simulate(path)
    records = list(read_records(path))
    data = load_decisions(path, reward="rank")
    assert data.seeds.tolist() == [records[g].seed for g in data.games.tolist()]  # the seed deals every hand
    written = data.to_parquet(tmp_path / "d.parquet")
    schema = pyarrow.parquet.read_schema(written)
    assert schema.field("observation").type == pyarrow.list_(pyarrow.float32(), data.observations.shape[1])
    assert schema.field("mask").type == pyarrow.list_(pyarrow.int8(), data.masks.shape[1])
    back = read_parquet(written)
    for name in ("observations", "masks", "actions", "rewards", "games", "seats", "steps", "forced", "seeds"):
        assert np.array_equal(getattr(back, name), getattr(data, name)), name
    assert back.observations.dtype == np.float32 and back.labels == data.labels and back.reward == "rank"
    assert (back.game, back.params) == (data.game, data.params)
    stripped = load_decisions(path, strip_seed=True)
    assert stripped.seeds is None and "seed" not in stripped.to_pandas().columns
    assert "seed" not in pyarrow.parquet.read_schema(stripped.to_parquet(tmp_path / "s.parquet")).names
    assert read_parquet(tmp_path / "s.parquet").seeds is None
    assert data.without_seed().seeds is None and data.seeds is not None
    (tmp_path / "other.parquet").write_bytes(b"")
    pyarrow.parquet.write_table(pyarrow.table({"x": [1]}), tmp_path / "other.parquet")
    with pytest.raises(InvalidStateError, match="not a meeple decisions file"):
        read_parquet(tmp_path / "other.parquet")
