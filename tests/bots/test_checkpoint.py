"""Trained policies as numpy checkpoints (meeple.bots.checkpoint): written, read and played without PyTorch, refused
clearly when broken or made for another game; ``meeple evaluate`` takes one as the policy or as a line-up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from meeple.arena.evaluate import evaluate
from meeple.bots.checkpoint import load_checkpoint, save_checkpoint
from meeple.core.errors import InvalidParameterError
from meeple.core.registry import load_game
from tests.cli.conftest import Cli

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINTS = ROOT / "examples" / "checkpoints"


def _weights(game: str, players: int, seed: int = 0, hidden: int = 16) -> list[tuple[np.ndarray, np.ndarray]]:
    loaded = load_game(game, players=players)
    rng = np.random.default_rng(seed)
    sizes = [loaded.observation_tensor_size(), hidden, hidden, loaded.num_distinct_actions()]
    return [
        (rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32))
        for a, b in zip(sizes, sizes[1:], strict=False)
    ]


def test_a_checkpoint_round_trips_and_plays_the_legal_action_of_highest_logit(tmp_path: Path) -> None:
    weights = _weights("caprice", 3)
    path = save_checkpoint(tmp_path / "p.npz", "caprice", {"players": 3}, weights, training={"steps": 1})
    policy = load_checkpoint(path)
    assert policy.game == "caprice" and policy.params["players"] == 3 and policy.meta["training"] == {"steps": 1}
    state = load_game("caprice", players=3).new_initial_state(4)
    while not state.is_terminal():
        seat = state.current_player()
        observation, mask = state.observation_tensor(seat), state.legal_actions_mask(seat)
        x = observation
        for i, (w, b) in enumerate(weights):
            x = x @ w + b
            x = np.tanh(x) if i < len(weights) - 1 else x
        expected = int(np.flatnonzero(mask)[np.argmax(x[mask == 1])])
        assert policy(observation, mask) == expected
        state.apply_action(expected)
    batch = policy.act(np.zeros((2, 200), np.float32), np.ones((2, 61), np.int8))
    assert batch.shape == (2,)


def test_broken_files_and_another_games_checkpoint_are_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(InvalidParameterError, match="no policy checkpoint at"):
        load_checkpoint(tmp_path / "missing.npz")
    (tmp_path / "text.npz").write_text("not numpy")
    with pytest.raises(InvalidParameterError, match="is not a meeple policy checkpoint"):
        load_checkpoint(tmp_path / "text.npz")
    bad = _weights("caprice", 2)
    bad[1] = (bad[1][0][:5], bad[1][1])
    with pytest.raises(InvalidParameterError, match="layer 1 has weights"):
        save_checkpoint(tmp_path / "bad.npz", "caprice", {"players": 2}, bad)
    good = save_checkpoint(tmp_path / "good.npz", "caprice", {"players": 2}, _weights("caprice", 2))
    with np.load(good) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta["observation_size"] = 999
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "tampered.npz", **arrays)
    with pytest.raises(InvalidParameterError, match="layer 0 has weights"):
        load_checkpoint(tmp_path / "tampered.npz")
    policy = load_checkpoint(good)
    with pytest.raises(InvalidParameterError, match="trained for caprice"):
        policy.check_game(load_game("caprice", players=4))
    size = load_game("caprice", players=2).observation_tensor_size()
    with pytest.raises(InvalidParameterError, match=f"reads {size} observation values and 61 actions, not 460 and 268"):
        policy(np.zeros(460, np.float32), np.ones(268, np.int8))
    with pytest.raises(InvalidParameterError, match="allows no action"):
        policy(np.zeros(size, np.float32), np.zeros(61, np.int8))


def test_meeple_evaluate_takes_a_checkpoint_as_the_policy_and_as_a_lineup(tmp_path: Path) -> None:
    cli = Cli()
    path = save_checkpoint(tmp_path / "mine.npz", "caprice", {"players": 2}, _weights("caprice", 2))
    output = cli(["evaluate", str(path), "caprice", "-a", f"random,{path}", "-n", "2", "--json"]).output
    rows = [json.loads(line) for line in output.splitlines()]
    assert [r["policy"] for r in rows] == [str(path)] * 2 and [r["opponent"] for r in rows] == ["random", str(path)]
    assert rows[1]["win_share"] == pytest.approx(0.5)  # the same greedy policy in both seats of each deal
    direct = evaluate(load_checkpoint(path), "caprice", "random", deals=2, players=2)
    assert (direct.win_share, direct.mean_margin) == (rows[0]["win_share"], rows[0]["mean_margin"])
    refused = cli(["evaluate", "random", "caprice", "-p", "3", "-a", str(path)], code=2).output
    assert "trained for caprice" in refused
    module = tmp_path / "opponents.py"
    module.write_text("import numpy as np\n\ndef last(observation, mask):\n    return int(np.flatnonzero(mask)[-1])\n")
    output = cli(["evaluate", "random", "caprice", "-a", f"{module}:last", "-n", "1", "--json"]).output
    assert json.loads(output)["opponent"] == "last"  # labelled by its name, as a policy is
    assert "no policy checkpoint at" in cli(["evaluate", str(module) + ".npz", "caprice"], code=2).output
    (tmp_path / "broken.npz").write_bytes(b"PK\x03\x04 not a zip")
    broken = cli(["evaluate", str(tmp_path / "broken.npz"), "caprice"], code=2).output
    assert "is not a meeple policy checkpoint" in broken


COMMITTED = sorted(CHECKPOINTS.glob("*.npz"))


def test_the_committed_checkpoints_are_small_and_play_without_torch() -> None:
    assert COMMITTED  # up to 31: 16 configurations x (against random, against heuristic), solo once
    assert all(p.stat().st_size < 400_000 for p in COMMITTED) and sum(p.stat().st_size for p in COMMITTED) < 8_000_000
    script = (
        "import sys, json\n"
        "sys.modules['torch'] = None  # importing torch now fails\n"
        "from meeple.bots.checkpoint import load_checkpoint\n"
        "from meeple.arena.evaluate import evaluate\n"
        "for path in sys.argv[1:]:\n"
        "    policy = load_checkpoint(path)\n"
        "    result = evaluate(policy, policy.game, 'random', deals=1, **policy.params)\n"
        "    print(json.dumps([path, result.games]))\n"
        "assert sys.modules['torch'] is None\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *map(str, COMMITTED)],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert done.returncode == 0, done.stderr
    played = [json.loads(line) for line in done.stdout.splitlines()]
    assert [p for p, _games in played] == list(map(str, COMMITTED))
    assert all(games >= 1 for _p, games in played)
