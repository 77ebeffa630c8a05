"""meeple.adapters.vector.VectorEnv: many games at once in numpy buffers, equal to stepping the games one by one;
what a row holds is its mover's view only; auto-reset; bad input refused before any game moves."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from meeple.adapters.vector import VectorEnv  # noqa: E402
from meeple.core.errors import IllegalActionError, InvalidParameterError  # noqa: E402
from meeple.core.registry import BUILTIN_GAMES, load_game  # noqa: E402
from meeple.core.rewards import final_rewards  # noqa: E402
from meeple.core.rng import Rng  # noqa: E402


def _random_actions(masks: Any, rng: np.random.Generator) -> Any:
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


@pytest.mark.parametrize(("name", "players"), [(n, 3) for n in sorted(BUILTIN_GAMES)] + [("capital_lux_2", 1)])
def test_the_vector_env_equals_the_games_played_one_by_one(name: str, players: int) -> None:
    venv = VectorEnv(name, 3, reward="score_margin", players=players)
    observations, infos = venv.reset(seed=40)
    game = load_game(name, players=players)
    states = [game.new_initial_state(40 + i) for i in range(3)]
    rng = np.random.default_rng(0)
    ended = 0
    saved: dict[int, tuple[list[float], int]] = {}
    for _ in range(400):
        for i, state in enumerate(states):
            seat = state.current_player()
            assert infos["current_player"][i] == seat
            assert np.array_equal(observations[i], state.observation_tensor(seat))
            assert np.array_equal(infos["action_mask"][i], state.legal_actions_mask(seat))
        actions = _random_actions(infos["action_mask"], rng)
        for i, state in enumerate(states):
            actor = state.current_player()
            state.apply_action(int(actions[i]))
            if state.is_terminal():
                expected = final_rewards(state, "score_margin")
                saved[i] = (expected, actor)
        observations, rewards, terminations, truncations, infos = venv.step(actions)
        assert not truncations.any()
        for i in np.flatnonzero(terminations):
            ended += 1
            expected, actor = saved.pop(int(i))
            assert infos["final_rewards"][i].tolist() == pytest.approx(expected)
            assert rewards[i] == pytest.approx(expected[actor])
            states[i] = venv.states[i].clone()  # the new deal: followed from here
        if ended >= 2:
            break
    assert ended >= 1


def test_the_same_seed_gives_the_same_games() -> None:
    runs = []
    for _ in range(2):
        venv = VectorEnv("caprice", 4, players=2)
        observations, infos = venv.reset(seed=5)
        rng = np.random.default_rng(1)
        trace = []
        for _ in range(150):
            observations, rewards, terminations, _t, infos = venv.step(_random_actions(infos["action_mask"], rng))
            trace.append((observations.copy(), rewards.copy(), terminations.copy()))
        runs.append(trace)
    for (o1, r1, t1), (o2, r2, t2) in zip(*runs, strict=True):
        assert np.array_equal(o1, o2) and np.array_equal(r1, r2) and np.array_equal(t1, t2)


def test_an_illegal_action_is_refused_before_any_game_moves() -> None:
    venv = VectorEnv("citadels", 3, players=4)
    _obs, infos = venv.reset(seed=2)
    before = [s.to_json() for s in venv.states]
    actions = _random_actions(infos["action_mask"], np.random.default_rng(2))
    actions[1] = int(np.flatnonzero(infos["action_mask"][1] == 0)[0])
    with pytest.raises(IllegalActionError, match="game 1: action"):
        venv.step(actions)
    actions[1] = 10**9
    with pytest.raises(IllegalActionError, match="game 1"):
        venv.step(actions)
    with pytest.raises(InvalidParameterError, match="one action per game"):
        venv.step(actions[:2])
    assert [s.to_json() for s in venv.states] == before


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(InvalidParameterError, match="num_envs"):
        VectorEnv("caprice", 0)
    with pytest.raises(InvalidParameterError, match="num_envs"):
        VectorEnv("caprice", 10**6)
    with pytest.raises(InvalidParameterError, match="win, rank"):
        VectorEnv("caprice", 2, reward="elo")
    with pytest.raises(RuntimeError, match="reset"):
        VectorEnv("caprice", 2).step([0, 0])


def test_a_row_holds_only_what_its_mover_may_see() -> None:
    venv = VectorEnv("citadels", 2, players=4)
    _obs, infos = venv.reset(seed=9)
    rng = np.random.default_rng(9)
    for _ in range(60):
        _obs, _r, _t, _tr, infos = venv.step(_random_actions(infos["action_mask"], rng))
    for i, state in enumerate(venv.states):
        seat = int(infos["current_player"][i])
        world = state.resample_from_infostate(seat, Rng(77))
        assert np.array_equal(venv.observations[i], world.observation_tensor(seat))


def test_gymnasium_vector_wrappers_accept_it() -> None:
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    venv = RecordEpisodeStatistics(VectorEnv("caprice", 2, players=2))
    _obs, infos = venv.reset(seed=0)
    assert venv.observation_space.shape == (2, venv.unwrapped.game.observation_tensor_size())
    rng = np.random.default_rng(0)
    for _ in range(200):
        _obs, _r, _t, _tr, infos = venv.step(_random_actions(infos["action_mask"], rng))


def test_the_unit_scale_reaches_the_vector_envs_rewards() -> None:
    from meeple.core.rewards import reward_bound

    venv = VectorEnv("caprice", 4, reward="score_margin", reward_scale="unit", players=2)
    raw = VectorEnv("caprice", 4, reward="score_margin", players=2)
    observations, infos = venv.reset(seed=5)
    raw.reset(seed=5)
    rng = np.random.default_rng(5)
    ended = 0
    bound = reward_bound("score_margin", venv.game)
    while ended < 4:
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in infos["action_mask"]])
        _obs, rewards, terminations, _truncations, infos = venv.step(actions)
        _raw_obs, raw_rewards, _t, _tr, raw_infos = raw.step(actions)
        assert np.allclose(rewards, raw_rewards / bound)
        assert np.allclose(infos["final_rewards"], raw_infos["final_rewards"] / bound)
        assert (np.abs(infos["final_rewards"]) <= 1.0).all()
        ended += int(terminations.sum())
    with pytest.raises(InvalidParameterError, match="reward_scale must be one of raw, unit"):
        VectorEnv("caprice", 2, reward_scale="percent")
