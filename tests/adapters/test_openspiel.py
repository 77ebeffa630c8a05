"""meeple's games in OpenSpiel: OpenSpiel's own random simulation test (with serialization) on every game and
player count, its MCTS and ISMCTS bots and ``evaluate_bots``, and what a seat gets through pyspiel (tensors, strings)
compared across worlds it cannot tell apart."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from meeple.adapters.openspiel import FreshSearch, deal_digits  # noqa: E402  (importing it registers the games)
from meeple.core import game_class  # noqa: E402
from meeple.core.registry import BUILTIN_GAMES  # noqa: E402


def _spec(name: str, players: int) -> str:
    extra = ",variant_2p_ffg=True" if name == "citadels" and players == 2 else ""
    return f"meeple_{name}(players={players}{extra})"


CASES = [
    (name, n)
    for name in sorted(BUILTIN_GAMES)
    for n in range(game_class(name).min_players, game_class(name).max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_openspiels_random_simulation_test_passes_with_serialization(name: str, players: int) -> None:
    game = pyspiel.load_game(_spec(name, players))
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_every_variant_flag_is_a_game_parameter(name: str) -> None:
    game = pyspiel.load_game(f"meeple_{name}")
    flags = {p.name for p in game_class(name).describe_params()}
    assert set(game.get_parameters()) == flags
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == game.meeple.num_distinct_actions()
    assert game.observation_tensor_shape() == game.meeple.observation_tensor_shape()


def test_a_flag_reaches_the_engine() -> None:
    game = pyspiel.load_game("meeple_capital_lux_2(players=3,agent_modifiers=4;2;-1;-1,clerc_excludes_pink=False)")
    assert game.meeple.params.agent_modifiers == (4, 2, -1, -1)
    assert game.meeple.params.clerc_excludes_pink is False


def _dealt(spec: str, seed: int, steps: int) -> Any:
    game = pyspiel.load_game(spec)
    state = game.new_initial_state()
    for digit in deal_digits(seed):
        state.apply_action(digit)
    assert state.meeple.seed == seed
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return game, state


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_what_a_seat_gets_through_pyspiel_is_the_same_in_worlds_it_cannot_tell_apart(name: str) -> None:
    game, state = _dealt(f"meeple_{name}(players=3)", 7, 25)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0) if hasattr(pyspiel, "UniformProbabilitySampler") else None
    draws = iter(np.random.default_rng(1).random(20))
    for seat in range(3):
        world = state.resample_from_infostate(seat, sampler or (lambda: next(draws)))
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.observation_string(seat) == state.observation_string(seat)
        assert world.observation_tensor(seat) == state.observation_tensor(seat)
        assert world.legal_actions(seat) == state.legal_actions(seat)
    assert np.array_equal(np.array(state.observation_tensor(0)), state.meeple.observation_tensor(0))


def test_a_state_survives_pickle_and_clone_exactly() -> None:
    game, state = _dealt("meeple_citadels(players=4)", 3, 40)
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.history() == state.history()
    clone = state.clone()
    action = clone.legal_actions()[0]
    clone.apply_action(action)
    assert str(clone) != str(state)  # the clone is independent
    assert state.meeple.to_json() == copy.meeple.to_json()


def test_openspiels_mcts_ismcts_and_evaluate_bots_play_a_whole_game() -> None:
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

    game = pyspiel.load_game("meeple_caprice(players=2)")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        FreshSearch(ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=20, random_state=rng)),
        FreshSearch(mcts.MCTSBot(game, uct_c=2.0, max_simulations=20, evaluator=evaluator, random_state=rng)),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 2 and sorted(returns) in ([0.0, 1.0], [0.5, 0.5])
