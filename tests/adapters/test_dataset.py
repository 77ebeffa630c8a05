"""``meeple simulate --record`` files as datasets: one row per decision, equal to what the game shows the mover."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from meeple.adapters.dataset import load_decisions
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
    frame = data.to_pandas()
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
