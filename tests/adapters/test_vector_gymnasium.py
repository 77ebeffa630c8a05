"""VectorEnv and Gymnasium's conventions: ``final_obs``/``final_info`` under same-step autoreset, next-step autoreset,
disabled autoreset with ``reset_mask``; Gymnasium's own vector wrappers (observation, reward, statistics) on it, with
what each computes checked against the env's raw output."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers import vector as wrappers  # noqa: E402

from meeple.adapters.vector import VectorEnv  # noqa: E402
from meeple.core.errors import InvalidParameterError  # noqa: E402
from meeple.core.registry import BUILTIN_GAMES  # noqa: E402
from meeple.core.rewards import final_rewards  # noqa: E402
from meeple.core.state import TERMINAL  # noqa: E402


def _random_actions(masks: Any, rng: np.random.Generator) -> Any:
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


@pytest.mark.parametrize(("name", "opponents"), [(n, None) for n in sorted(BUILTIN_GAMES)] + [("citadels", "random")])
def test_same_step_autoreset_gives_final_obs_and_final_info_as_gymnasium_does(name: str, opponents: Any) -> None:
    """When a game ends, its row is already the next game's first decision; ``infos["final_obs"][i]`` is the deciding
    seat's observation of the finished game and ``infos["final_info"]`` its rewards and seat, with Gymnasium's ``_``
    masks; on steps where nothing ends there is no ``final_obs``."""
    venv = VectorEnv(name, 3, reward="rank", opponents=opponents, players=3)
    assert venv.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    _obs, infos = venv.reset(seed=2)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(3000):
        before = list(venv.states)
        seats = infos["seat"].copy()
        observations, rewards, terminations, _t, infos = venv.step(_random_actions(infos["action_mask"], rng))
        if not terminations.any():
            assert "final_obs" not in infos and "final_info" not in infos
            continue
        assert np.array_equal(infos["_final_obs"], terminations)
        assert np.array_equal(infos["_final_info"], terminations)
        for i in range(3):
            if not terminations[i]:
                assert infos["final_obs"][i] is None
                continue
            ended += 1
            finished, seat = before[i], int(seats[i])
            assert finished.is_terminal() and venv.states[i] is not finished
            assert np.array_equal(infos["final_obs"][i], finished.observation_tensor(seat))
            assert infos["final_info"]["seat"][i] == seat
            assert infos["final_info"]["final_rewards"][i].tolist() == pytest.approx(final_rewards(finished, "rank"))
            assert rewards[i] == pytest.approx(final_rewards(finished, "rank")[seat])
            assert np.array_equal(observations[i], venv.states[i].observation_tensor(int(infos["seat"][i])))
        if ended >= 2:
            return
    raise AssertionError("no game ended")


@pytest.mark.parametrize("opponents", [None, "random"])
def test_next_step_autoreset_shows_the_end_then_deals_again_ignoring_that_action(opponents: Any) -> None:
    venv = VectorEnv("caprice", 3, opponents=opponents, players=2, autoreset_mode="next_step")
    assert venv.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    _obs, infos = venv.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(3000):
        seats = infos["seat"].copy()
        observations, rewards, terminations, _t, infos = venv.step(_random_actions(infos["action_mask"], rng))
        if terminations.any():
            break
    else:
        raise AssertionError("no game ended")
    i = int(np.flatnonzero(terminations)[0])
    finished, seat = venv.states[i], int(seats[i])
    assert finished.is_terminal()
    assert infos["seat"][i] == seat and infos["current_player"][i] == TERMINAL
    assert np.array_equal(observations[i], finished.observation_tensor(seat))
    assert not infos["action_mask"][i].any()
    assert rewards[i] == pytest.approx(final_rewards(finished, "win")[seat])
    assert "final_obs" not in infos
    actions = _random_actions(infos["action_mask"], rng)
    actions[i] = -7  # ignored: the game is dealt again
    observations, rewards, terminations, _t, infos = venv.step(actions)
    fresh = venv.states[i]
    assert fresh is not finished and not fresh.is_terminal() and rewards[i] == 0.0 and not terminations[i]
    assert infos["current_player"][i] == infos["seat"][i] == fresh.current_player()
    assert np.array_equal(observations[i], fresh.observation_tensor(fresh.current_player()))
    assert np.array_equal(infos["action_mask"][i], fresh.legal_actions_mask(fresh.current_player()))


def test_disabled_autoreset_keeps_a_finished_game_until_reset_mask_deals_it_again() -> None:
    venv = VectorEnv("caprice", 3, players=2, autoreset_mode=AutoresetMode.DISABLED)
    _obs, infos = venv.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(3000):
        _obs, _r, terminations, _t, infos = venv.step(_random_actions(infos["action_mask"], rng))
        if terminations.any():
            break
    ended = terminations.copy()  # the env's buffer is rewritten by the next call
    finished = list(venv.states)
    with pytest.raises(RuntimeError, match="reset_mask"):
        venv.step(_random_actions(infos["action_mask"], rng))
    assert [s.to_json() for s in venv.states] == [s.to_json() for s in finished]
    observations, infos = venv.reset(seed=50, options={"reset_mask": ended})
    for i in range(3):
        if ended[i]:
            assert venv.states[i] is not finished[i] and venv.states[i].seed == 50 + i
            assert infos["current_player"][i] == venv.states[i].current_player()
        else:
            assert venv.states[i] is finished[i]
        assert np.array_equal(observations[i], venv.states[i].observation_tensor(int(infos["seat"][i])))
    venv.step(_random_actions(infos["action_mask"], rng))
    for bad in (np.zeros(3, bool), np.ones(2, bool), [True, False, True], np.ones(3, np.int8)):
        with pytest.raises(InvalidParameterError, match="reset_mask"):
            venv.reset(options={"reset_mask": bad})
    with pytest.raises(RuntimeError, match="without a reset_mask"):
        VectorEnv("caprice", 3, players=2).reset(options={"reset_mask": np.ones(3, bool)})


def test_autoreset_modes_seeds_and_actions_are_checked() -> None:
    for value in ("same_step", "NextStep", AutoresetMode.DISABLED):
        VectorEnv("caprice", 1, players=2, autoreset_mode=value)
    with pytest.raises(InvalidParameterError, match="autoreset_mode must be one of same_step, next_step, disabled"):
        VectorEnv("caprice", 1, players=2, autoreset_mode="eventually")
    venv = VectorEnv("caprice", 2, players=2)
    _obs, infos = venv.reset(seed=[7, None])
    assert venv.states[0].seed == 7
    for bad in ([1], [1, -2], -1, "7"):
        with pytest.raises(InvalidParameterError, match="seed"):
            venv.reset(seed=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidParameterError, match="integer action codes"):
        venv.step(np.array([0.5, 1.0]))


def _episode_lengths(venv: VectorEnv, steps: int, rng: np.random.Generator, wrapped: Any) -> None:
    """Step ``wrapped`` (a wrapper of ``venv``); check RecordEpisodeStatistics' episodes against our own count."""
    infos = wrapped.reset(seed=3)[1]
    lengths = np.zeros(venv.num_envs, int)
    returns = np.zeros(venv.num_envs)
    restart = np.zeros(venv.num_envs, bool)
    checked = 0
    for _ in range(steps):
        _obs, rewards, terminations, _t, infos = wrapped.step(_random_actions(venv.masks, rng))
        lengths[~restart] += 1
        returns[~restart] += rewards[~restart]
        lengths[restart], returns[restart] = 0, 0.0
        if terminations.any():
            assert np.array_equal(infos["_episode"], terminations)
            for i in np.flatnonzero(terminations):
                assert infos["episode"]["l"][i] == lengths[i]
                assert infos["episode"]["r"][i] == pytest.approx(returns[i])
                checked += 1
        if venv.autoreset_mode is AutoresetMode.SAME_STEP:
            lengths[terminations], returns[terminations] = 0, 0.0
        else:
            restart = terminations.copy()
    assert checked >= 2


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_record_episode_statistics_counts_each_episodes_decisions_and_reward(mode: str) -> None:
    venv = VectorEnv("caprice", 3, reward="score", players=2, autoreset_mode=mode)
    _episode_lengths(venv, 1500, np.random.default_rng(1), wrappers.RecordEpisodeStatistics(venv))
    fixed = VectorEnv("caprice", 3, reward="score", opponents="random", players=3, autoreset_mode=mode)
    _episode_lengths(fixed, 1500, np.random.default_rng(2), wrappers.RecordEpisodeStatistics(fixed))


# DtypeObservation's Box warns about its own float64 cast for any float32 Box (Gymnasium's SyncVectorEnv too).
@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:.*precision lowered by casting:UserWarning")
def test_observation_wrappers_need_next_step_autoreset_and_work_with_it() -> None:
    """Gymnasium's observation wrappers refuse same-step autoreset (their rule); with next_step each one transforms
    the env's raw observations as documented."""
    with pytest.raises(ValueError, match="NEXT_STEP"):
        wrappers.NormalizeObservation(VectorEnv("caprice", 2, players=2))

    def size(e: Any) -> int:
        return int(e.single_observation_space.shape[0])

    def doubled(e: Any) -> Any:
        return wrappers.TransformObservation(e, lambda o: 2 * o + 1)

    def wide(e: Any) -> Any:
        return wrappers.DtypeObservation(e, np.float64)

    def unit(e: Any) -> Any:
        return wrappers.RescaleObservation(e, 0.0, 1.0)

    def reshaped(e: Any) -> Any:
        return wrappers.ReshapeObservation(e, (1, size(e)))

    cases: list[tuple[Any, Any]] = [
        (wrappers.NormalizeObservation, None),
        (doubled, lambda raw, out: np.allclose(out, 2 * raw + 1)),
        (wide, lambda raw, out: out.dtype == np.float64 and (out == raw).all()),
        (unit, lambda raw, out: np.allclose(out, (raw + 10) / 20, atol=1e-6)),
        (wrappers.FlattenObservation, lambda raw, out: (out == raw).all()),
        (reshaped, lambda raw, out: (out[:, 0, :] == raw).all()),
    ]
    for name, players, opponents in (("caprice", 2, None), ("citadels", 4, "random")):
        for wrap, check in cases:
            venv = VectorEnv(name, 3, players=players, opponents=opponents, autoreset_mode="next_step")
            wrapped = wrap(venv)
            out, infos = wrapped.reset(seed=1)
            rng = np.random.default_rng(1)
            ends = 0
            for _ in range(400):
                raw = venv.observations.copy()
                if check is None:  # NormalizeObservation: (raw - running mean) / sqrt(running var + epsilon)
                    rms = wrapped.obs_rms
                    assert np.allclose(out, (raw - rms.mean) / np.sqrt(rms.var + wrapped.epsilon), atol=1e-5)
                else:
                    assert check(raw, out)
                out, _r, terminations, _t, infos = wrapped.step(_random_actions(venv.masks, rng))
                ends += int(terminations.sum())
            if name == "caprice":
                assert ends >= 1


def test_reward_wrappers_work_in_both_autoreset_modes() -> None:
    for mode in ("same_step", "next_step"):
        for opponents in (None, "random"):
            venv = VectorEnv("caprice", 4, reward="score_margin", players=2, opponents=opponents, autoreset_mode=mode)
            clipped = wrappers.ClipReward(venv, -1.0, 1.0)
            scaled = wrappers.TransformReward(clipped, lambda r: 0.5 * r)
            normalized = wrappers.NormalizeReward(scaled, gamma=0.99)
            stack = wrappers.RecordEpisodeStatistics(normalized)
            infos = stack.reset(seed=0)[1]
            rng = np.random.default_rng(0)
            nonzero = 0
            for _ in range(600):
                _obs, rewards, terminations, _t, infos = stack.step(_random_actions(venv.masks, rng))
                raw = venv.rewards
                assert np.isfinite(rewards).all()
                assert ((rewards != 0) == (raw != 0)).all()
                assert np.all(np.sign(rewards) == np.sign(np.clip(raw, -1, 1)))
                nonzero += int((raw != 0).sum())
            assert nonzero >= 1 and normalized.return_rms.count > 1


def test_dict_info_to_list_gives_one_info_per_game() -> None:
    venv = VectorEnv("caprice", 3, players=2)
    wrapped = wrappers.DictInfoToList(venv)
    _obs, infos = wrapped.reset(seed=0)
    assert isinstance(infos, list) and len(infos) == 3
    assert infos[1]["seat"] == venv.seats[1]
    assert (infos[1]["action_mask"] == venv.masks[1]).all()
    rng = np.random.default_rng(0)
    for _ in range(3000):
        before = list(venv.states)
        _obs, _r, terminations, _t, infos = wrapped.step(_random_actions(venv.masks, rng))
        if terminations.any():
            i = int(np.flatnonzero(terminations)[0])
            assert np.array_equal(infos[i]["final_obs"], before[i].observation_tensor(infos[i]["final_info"]["seat"]))
            return
    raise AssertionError("no game ended")
