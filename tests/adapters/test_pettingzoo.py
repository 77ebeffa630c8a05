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
def test_a_whole_game_ends_with_the_engines_returns_as_rewards(name: str) -> None:
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
    returns = e.state_.returns()
    assert [totals[a] for a in e.possible_agents] == pytest.approx(returns)


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


@pytest.mark.parametrize(("name", "players"), [("citadels", 4), ("capitol", 3), ("capital_lux_2", 1), ("caprice", 2)])
def test_gymnasiums_check_env_passes_against_meeple_bots(name: str, players: int) -> None:
    check_env(single_agent_env(name, seat=0, opponents="heuristic", players=players), skip_render_check=True)


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
