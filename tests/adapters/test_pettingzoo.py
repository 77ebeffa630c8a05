"""meeple's games in PettingZoo and Gymnasium: the peers' own test suites (``api_test``, ``seed_test``,
``check_env``) on every game and player count, final rewards equal to the engine's returns, and an agent's
observation compared across worlds it cannot tell apart."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from meeple.adapters.pettingzoo import env, single_agent_env  # noqa: E402
from meeple.core import game_class  # noqa: E402
from meeple.core.registry import BUILTIN_GAMES  # noqa: E402
from meeple.core.rng import Rng  # noqa: E402


def _params(name: str, players: int) -> dict[str, Any]:
    return {"players": players, "variant_2p_ffg": True} if name == "citadels" and players == 2 else {"players": players}


CASES = [
    (name, n)
    for name in sorted(BUILTIN_GAMES)
    for n in range(game_class(name).min_players, game_class(name).max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_pettingzoos_api_test_and_seed_test_pass(name: str, players: int) -> None:
    api_test(env(name, **_params(name, players)), num_cycles=400)
    seed_test(lambda: env(name, **_params(name, players)), num_cycles=200)


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_a_whole_game_ends_with_the_engines_returns_shared_among_winners_as_rewards(name: str) -> None:
    e = env(name, players=3)
    e.reset(seed=11)
    rng = np.random.default_rng(11)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _info = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        assert observation["action_mask"].sum() == len(e.state_.legal_actions())
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    from meeple.core.rewards import final_rewards

    returns = e.state_.returns()
    assert [totals[a] for a in e.possible_agents] == pytest.approx(final_rewards(e.state_, "win"))
    winners = sum(1 for r in returns if r == 1.0)
    assert [totals[a] for a in e.possible_agents] == pytest.approx([r / max(winners, 1) for r in returns])


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_an_agents_observation_is_the_same_in_worlds_it_cannot_tell_apart(name: str) -> None:
    e = env(name, players=3)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(30):
        if e.state_.is_terminal():
            break
        agent = e.agent_selection
        seat = e.possible_agents.index(agent)
        real = e.observe(agent)
        world = e.state_.resample_from_infostate(seat, Rng(int(rng.integers(1000))))
        e.state_, saved = world, e.state_
        assert all(np.array_equal(real[k], e.observe(agent)[k]) for k in real)
        e.state_ = saved
        e.step(int(rng.choice(np.flatnonzero(real["action_mask"]))))


@pytest.mark.parametrize(("name", "players"), CASES)
def test_gymnasiums_check_env_passes_against_meeple_bots(name: str, players: int) -> None:
    params = _params(name, players)
    check_env(single_agent_env(name, seat=players - 1, opponents="heuristic", **params), skip_render_check=True)


def test_gymnasiums_vector_envs_run_the_single_agent_env() -> None:
    import gymnasium

    for vector in (gymnasium.vector.SyncVectorEnv, gymnasium.vector.AsyncVectorEnv):
        envs = vector([lambda: single_agent_env("caprice", opponents="heuristic", players=2, reward="rank")] * 2)
        observations, _infos = envs.reset(seed=3)
        assert observations["observation"].shape == (2, envs.single_observation_space["observation"].shape[0])
        rng = np.random.default_rng(3)
        for _ in range(40):
            masks = observations["action_mask"]
            actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
            observations, rewards, terminated, _truncated, _infos = envs.step(actions)
            assert all(0.0 <= r <= 1.0 for r in rewards)
        envs.close()


def test_the_gym_env_plays_a_game_to_the_end_and_refuses_an_illegal_action() -> None:
    g = single_agent_env("caprice", seat=1, opponents=["random"], players=2)
    observation, _ = g.reset(seed=3)
    rng = np.random.default_rng(3)
    done, reward = False, 0.0
    while not done:
        observation, reward, done, _truncated, _info = g.step(int(rng.choice(np.flatnonzero(g.action_masks()))))
    assert reward == g.state.returns()[1]
    g.reset(seed=3)
    illegal = int(np.flatnonzero(g.action_masks() == 0)[0])
    _obs, reward, done, _truncated, info = g.step(illegal)
    assert done and reward == -1.0 and info == {"illegal_action": True}


# ---------------------------------------------------------------- round two


def test_after_an_illegal_action_action_masks_says_what_to_do() -> None:
    g = single_agent_env("caprice", seat=0, opponents="random", players=2)
    with pytest.raises(RuntimeError, match="reset"):
        g.action_masks()
    g.reset(seed=3)
    illegal = int(np.flatnonzero(g.action_masks() == 0)[0])
    _obs, reward, done, _truncated, info = g.step(illegal)
    assert done and info == {"illegal_action": True}
    with pytest.raises(RuntimeError, match=f"illegal action {illegal}.*reset"):
        g.action_masks()
    with pytest.raises(RuntimeError, match="reset"):
        g.step(illegal)
    g.reset(seed=4)
    assert g.action_masks().sum() > 0


def _play_out(e: Any, seed: int) -> dict[str, float]:
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _info = e.last()
        totals[agent] += reward
        e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


@pytest.mark.parametrize("reward", ["win", "rank", "score", "score_margin"])
def test_the_aec_env_gives_the_chosen_final_reward(reward: str) -> None:
    from meeple.core.rewards import final_rewards

    e = env("citadels", players=4, reward=reward)
    totals = _play_out(e, 21)
    state = e.state_
    got = [totals[a] for a in e.possible_agents]
    assert got == pytest.approx(final_rewards(state, reward))
    scores = state.scores()
    if reward == "score":
        assert got == pytest.approx(scores)
    if reward == "score_margin":
        assert got[0] == pytest.approx(scores[0] - max(scores[1:]))
    if reward == "rank":
        assert sorted(got) != [got[0]] * 4 and all(0.0 <= r <= 1.0 for r in got)


def test_a_shared_win_is_split_and_solo_margin_is_against_rob() -> None:
    from meeple.core.rewards import final_rewards

    class Tied:
        game = type("G", (), {"num_players": 3})()

        def is_terminal(self) -> bool:
            return True

        def returns(self) -> list[float]:
            return [1.0, 1.0, 0.0]

        def scores(self) -> list[float]:
            return [20.0, 20.0, 11.0]

        def opponent_score(self) -> None:
            return None

    tied: Any = Tied()
    assert final_rewards(tied, "win") == [0.5, 0.5, 0.0]
    assert final_rewards(tied, "rank") == [0.75, 0.75, 0.0]
    assert final_rewards(tied, "score_margin") == [0.0, 0.0, -9.0]
    e = env("capital_lux_2", players=1, reward="score_margin")
    totals = _play_out(e, 5)
    assert totals["player_0"] == e.state_.scores()[0] - e.state_.opponent_score()


def test_an_unknown_reward_is_refused() -> None:
    from meeple.core.errors import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="win, rank, score, score_margin"):
        env("caprice", reward="points")
    with pytest.raises(InvalidParameterError, match="win, rank, score, score_margin"):
        single_agent_env("caprice", reward=1)


def test_opponents_may_mix_names_bots_and_policy_functions() -> None:
    from meeple.bots import make_bot
    from meeple.core.view import SeatView

    seen: list[str] = []

    def by_view(view: SeatView) -> Any:
        seen.append("view")
        return view.legal_actions()[-1]

    def by_tensor(observation: Any, mask: Any) -> int:
        seen.append("tensor")
        assert observation.dtype == np.float32 and mask.dtype == np.int8
        return int(np.flatnonzero(mask)[0])

    g = single_agent_env(
        "citadels",
        seat=1,
        opponents=["heuristic", make_bot("random", "citadels", seed=1), by_view, by_tensor],
        players=5,
        reward="score",
    )
    check_env(g, skip_render_check=True)
    g.reset(seed=2)
    done, reward = False, 0.0
    while not done:
        _o, reward, done, _t, _i = g.step(int(np.flatnonzero(g.action_masks())[0]))
    assert {"view", "tensor"} <= set(seen) and reward == g.state.scores()[1]


def test_opponents_of_no_accepted_kind_are_refused_at_once() -> None:
    from meeple.core.errors import InvalidParameterError

    with pytest.raises(InvalidParameterError, match="unknown bot"):
        single_agent_env("caprice", opponents="grandmaster")
    with pytest.raises(InvalidParameterError, match="a bot name, a Bot, or a function"):
        single_agent_env("caprice", opponents=[42])
    with pytest.raises(InvalidParameterError, match=r"\(view\) or \(observation, mask\)"):
        single_agent_env("caprice", opponents=lambda a, b, c: 0)
    with pytest.raises(InvalidParameterError, match="one per other seat"):
        single_agent_env("caprice", opponents=["random", "random"], players=2)


def test_self_play_lets_one_policy_play_every_seat() -> None:
    from meeple.adapters.pettingzoo import self_play, self_play_env

    calls: list[int] = []

    def first_legal(observation: Any, mask: Any) -> int:
        calls.append(1)
        return int(np.flatnonzero(mask)[0])

    rewards = self_play("caprice", first_legal, seed=3, players=3, reward="rank")
    assert len(rewards) == 3 and sum(rewards) == pytest.approx(1.5)  # ranks sum to n/2
    assert rewards == self_play("caprice", first_legal, seed=3, players=3, reward="rank")
    g = self_play_env("caprice", first_legal, seat=2, players=3)
    calls.clear()
    g.reset(seed=1)
    assert calls  # seats 0 and 1 moved through the policy before the learner's first turn


@pytest.mark.parametrize("reward", ["win", "rank", "score", "score_margin"])
def test_the_unit_scale_puts_every_kind_in_minus_one_one_in_the_aec_and_gymnasium_envs(reward: str) -> None:
    from meeple.core.rewards import final_rewards, reward_bound

    e = env("capitol", players=3, reward=reward, reward_scale="unit")
    totals = _play_out(e, 4)
    got = [totals[a] for a in e.possible_agents]
    assert got == pytest.approx(final_rewards(e.state_, reward, "unit"))
    assert got == pytest.approx([r / reward_bound(reward, e.game) for r in final_rewards(e.state_, reward)])
    assert all(-1.0 <= r <= 1.0 for r in got)
    g = single_agent_env("capital_lux_2", seat=1, opponents="heuristic", players=2, reward=reward, reward_scale="unit")
    g.reset(seed=3)
    rng = np.random.default_rng(3)
    done, last = False, 0.0
    while not done:
        _observation, last, done, _truncated, _info = g.step(int(rng.choice(np.flatnonzero(g.action_masks()))))
    assert g.state is not None and last == pytest.approx(final_rewards(g.state, reward, "unit")[1])
    assert -1.0 <= last <= 1.0


def test_an_unknown_reward_scale_is_refused_by_every_env() -> None:
    from meeple.adapters.pettingzoo import self_play
    from meeple.core.errors import InvalidParameterError

    for make in (
        lambda: env("caprice", reward_scale="percent"),
        lambda: single_agent_env("caprice", reward_scale="percent"),
        lambda: self_play("caprice", "random", 1, reward_scale="percent"),
    ):
        with pytest.raises(InvalidParameterError, match="reward_scale must be one of raw, unit, not 'percent'"):
            make()
