"""VectorEnv against fixed opponents: the learner's decisions only, on every game and player count; what the learner
and each opponent get is their own seat's information (compared across re-dealt worlds); every kind of opponent
(bot spec, Bot, view function, batched policy); the learner's seat rotated, fixed or random; bad input refused."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from meeple.adapters.vector import VectorEnv  # noqa: E402
from meeple.bots.random import RandomBot  # noqa: E402
from meeple.core import game_class  # noqa: E402
from meeple.core.errors import IllegalActionError, InvalidParameterError  # noqa: E402
from meeple.core.registry import BUILTIN_GAMES, load_game  # noqa: E402
from meeple.core.rewards import final_rewards  # noqa: E402
from meeple.core.rng import Rng, derive_seed  # noqa: E402
from meeple.core.view import SeatView  # noqa: E402


def _params(name: str, players: int) -> dict[str, Any]:
    return {"players": players, "variant_2p_ffg": True} if name == "citadels" and players == 2 else {"players": players}


CASES = [
    (name, n)
    for name in sorted(BUILTIN_GAMES)
    for n in range(max(2, game_class(name).min_players), game_class(name).max_players + 1)
]


def _random_actions(masks: Any, rng: np.random.Generator) -> Any:
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


class _Recorder:
    """Follows a VectorEnv game by game: the learner's actions sent, and each finished game's history."""

    def __init__(self, venv: VectorEnv) -> None:
        self.venv = venv
        self.sent: list[list[tuple[int, int]]] = [[] for _ in range(venv.num_envs)]
        self.states = list(venv.states)

    def before_step(self, actions: Any) -> None:
        for i, code in enumerate(actions):
            self.sent[i].append((int(self.venv.seats[i]), int(code)))

    def check_game(self, i: int, state: Any, learner: int) -> None:
        """The learner's moves in ``state`` are exactly the actions sent for it, in order; none of the others'."""
        codec = state.game.codec
        mine = [(seat, codec.encode(action)) for seat, action in state.history if seat == learner]
        assert mine == self.sent[i], (i, learner)
        self.sent[i] = []


@pytest.mark.parametrize(("name", "players"), CASES)
def test_a_step_returns_only_the_learners_decisions_with_its_seats_view(name: str, players: int) -> None:
    """Every row is the learner's decision (its seat, its tensor, its mask); the moves the learner made are exactly
    the actions sent for it, never an opponent's; a finished game's reward is the learner's; a row's tensor is the
    same in a world re-dealt from the learner's knowledge."""
    venv = VectorEnv(name, 3, reward="score_margin", opponents="random", **_params(name, players))
    observations, infos = venv.reset(seed=11)
    recorder = _Recorder(venv)
    rng = np.random.default_rng(11)
    ended = 0
    for step in range(250):
        for i, state in enumerate(venv.states):
            learner = venv._learner[i]
            assert infos["seat"][i] == infos["current_player"][i] == learner == state.current_player()
            assert np.array_equal(observations[i], state.observation_tensor(learner))
            assert np.array_equal(infos["action_mask"][i], state.legal_actions_mask(learner))
            if step % 25 == 0:
                world = state.resample_from_infostate(learner, Rng(step + i))
                assert np.array_equal(observations[i], world.observation_tensor(learner))
        actions = _random_actions(infos["action_mask"], rng)
        recorder.before_step(actions)
        before = [(s, venv._learner[i]) for i, s in enumerate(venv.states)]
        observations, rewards, terminations, truncations, infos = venv.step(actions)
        assert not truncations.any()
        for i, (state, learner) in enumerate(before):
            if terminations[i]:
                ended += 1
                assert state.is_terminal() and venv.states[i] is not state
                expected = final_rewards(state, "score_margin")
                assert infos["final_rewards"][i].tolist() == pytest.approx(expected)
                assert rewards[i] == pytest.approx(expected[learner])
                assert np.array_equal(infos["final_obs"][i], state.observation_tensor(learner))
                recorder.check_game(i, state, learner)
            else:
                assert rewards[i] == 0.0 and venv.states[i] is state
        if ended >= 2:
            break
    assert ended >= 1
    for i, state in enumerate(venv.states):
        recorder.check_game(i, state, venv._learner[i])


def test_random_opponents_play_exactly_as_their_bots_would() -> None:
    """The env plays a ``random`` opponent through the engine's fast path: the same moves as RandomBot seeded
    ``derive_seed(deal, "bot", seat)`` choosing through its SeatView (the games replayed move by move)."""
    venv = VectorEnv("citadels", 2, opponents="random", players=4, seat=1)
    _obs, infos = venv.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(50):
        _obs, _r, terminations, _t, infos = venv.step(_random_actions(infos["action_mask"], rng))
        assert not terminations.any()
    game = load_game("citadels", players=4)
    for i, state in enumerate(venv.states):
        replay = game.new_initial_state(3 + i)
        bots = {s: RandomBot(seed=derive_seed(3 + i, "bot", s)) for s in range(4) if s != 1}
        for seat, action in state.history:
            if seat != 1:
                assert bots[seat].select_action(SeatView(replay, seat)) == action
            replay.apply_action(action, player=seat)
        assert replay.to_json() == state.to_json()


def test_batched_opponents_get_their_own_seats_tensors_and_masks_once_per_round() -> None:
    """A batched policy is called with the tensors and masks of its own seat in each waiting game (the same in a
    world re-dealt from that seat's knowledge), once for all of them; bots get their own seat's view."""
    calls: list[int] = []
    seen_views: list[tuple[int, int]] = []

    class Watcher(RandomBot):
        def select_action(self, view: SeatView) -> Any:
            seen_views.append((view.seat, view.current_player()))
            return super().select_action(view)

    venv: VectorEnv

    def batched(observations: Any, masks: Any) -> Any:
        waiting = [
            i
            for i, s in enumerate(venv.states)
            if not s.is_terminal() and (s.current_player() - venv._learner[i]) % 4 == 2
        ]
        assert len(waiting) == len(observations) == len(masks)
        calls.append(len(waiting))
        for row, i in enumerate(waiting):
            state = venv.states[i]
            seat = state.current_player()
            assert np.array_equal(masks[row], state.legal_actions_mask(seat))
            world = state.resample_from_infostate(seat, Rng(len(calls)))
            assert np.array_equal(observations[row], world.observation_tensor(seat))
        return np.argmax(masks, axis=1)

    venv = VectorEnv("citadels", 6, opponents=["random", batched, Watcher(5)], players=4)
    _obs, infos = venv.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(40):
        _obs, _r, _t, _tr, infos = venv.step(_random_actions(infos["action_mask"], rng))
    assert calls and max(calls) > 1  # one call for several games
    assert seen_views and all(seat == mover for seat, mover in seen_views)


def test_every_kind_of_opponent_and_a_mix_of_them() -> None:
    def by_view(view: SeatView) -> Any:
        return view.legal_actions()[0]

    def batched(observations: Any, masks: Any) -> Any:
        return [int(np.flatnonzero(m)[-1]) for m in masks]

    made: list[RandomBot] = []

    def factory() -> RandomBot:  # a fresh bot for each game and deal (a bot that keeps a game of its own)
        made.append(RandomBot(0))
        return made[-1]

    for opponents in ("heuristic", RandomBot(4), factory, by_view, batched, ["random", by_view, batched]):
        venv = VectorEnv("caprice", 2, opponents=opponents, players=4 if isinstance(opponents, list) else 3)
        _obs, infos = venv.reset(seed=1)
        rng = np.random.default_rng(1)
        for _ in range(60):
            _obs, _r, _t, _tr, infos = venv.step(_random_actions(infos["action_mask"], rng))
            assert (infos["current_player"] == infos["seat"]).all()
    assert len(made) >= 1 + 2 * 2  # one to check the factory, then one per game and other seat
    assert len({id(b) for b in made}) == len(made)
    assert made[1].rng is not made[2].rng


def test_the_learners_seat_rotates_is_fixed_or_random() -> None:
    rotated = VectorEnv("caprice", 5, opponents="random", players=3)
    _obs, infos = rotated.reset(seed=0)
    assert rotated._learner == [0, 1, 2, 0, 1]
    rng = np.random.default_rng(0)
    seats_per_game: list[list[int]] = [[s] for s in rotated._learner]
    for _ in range(400):
        _obs, _r, terminations, _t, infos = rotated.step(_random_actions(infos["action_mask"], rng))
        for i in np.flatnonzero(terminations):
            seats_per_game[i].append(rotated._learner[i])
    for i, seats in enumerate(seats_per_game):
        assert len(seats) >= 2
        assert seats == [(i + k) % 3 for k in range(len(seats))]
    fixed = VectorEnv("caprice", 3, opponents="random", players=3, seat=2)
    _obs, infos = fixed.reset(seed=0)
    assert (infos["seat"] == 2).all()
    drawn = VectorEnv("caprice", 30, opponents="random", players=3, seat="random")
    _obs, infos = drawn.reset(seed=0)
    assert set(infos["seat"].tolist()) == {0, 1, 2}


def test_the_same_seed_gives_the_same_games_against_every_kind_of_opponent() -> None:
    bot = RandomBot(0)

    def batched(observations: Any, masks: Any) -> Any:
        return np.argmax(masks, axis=1)

    runs = []
    for _ in range(2):
        venv = VectorEnv("citadels", 3, opponents=["random", bot, batched], players=4, seat="random")
        observations, infos = venv.reset(seed=21)
        rng = np.random.default_rng(21)
        trace = [observations.copy()]
        for _ in range(150):
            observations, rewards, terminations, _t, infos = venv.step(_random_actions(infos["action_mask"], rng))
            trace.append(np.concatenate([observations.ravel(), rewards, terminations]))
        runs.append(trace)
    for a, b in zip(*runs, strict=True):
        assert np.array_equal(a, b)


def test_bad_opponents_and_seats_are_refused_when_the_env_is_made() -> None:
    with pytest.raises(InvalidParameterError, match="one opponent, or 3"):
        VectorEnv("citadels", 2, opponents=["random", "random"], players=4)
    with pytest.raises(InvalidParameterError, match="unknown bot"):
        VectorEnv("citadels", 2, opponents="grandmaster", players=4)
    with pytest.raises(InvalidParameterError, match="a policy is a bot name"):
        VectorEnv("citadels", 2, opponents=[42, "random", "random"], players=4)
    with pytest.raises(InvalidParameterError, match="makes a Bot for each game, not int"):
        VectorEnv("citadels", 2, opponents=lambda: 42, players=4)
    with pytest.raises(InvalidParameterError, match="solo game has no other seat"):
        VectorEnv("capital_lux_2", 2, opponents="random", players=1)
    for seat in (4, -1, "left", True):
        with pytest.raises(InvalidParameterError, match="seat must be"):
            VectorEnv("citadels", 2, opponents="random", players=4, seat=seat)  # type: ignore[arg-type]
    solo = VectorEnv("capital_lux_2", 2, opponents=[], players=1)
    _obs, infos = solo.reset(seed=0)
    assert (infos["seat"] == 0).all()


def test_an_opponents_bad_move_is_refused_and_the_env_must_be_reset() -> None:
    def cheat(observations: Any, masks: Any) -> Any:
        return np.argmin(masks, axis=1)  # an illegal code in every row

    def wrong_shape(observations: Any, masks: Any) -> Any:
        return np.zeros((len(masks), 2), np.int64)

    for policy, error, match in (
        (cheat, IllegalActionError, "opponent 0 .* not legal"),
        (wrong_shape, InvalidParameterError, "one integer action code per row"),
    ):
        venv = VectorEnv("caprice", 2, opponents=[policy, "random"], players=3, seat=0)
        with pytest.raises(error, match=match):
            _obs, infos = venv.reset(seed=0)
            for _ in range(5):
                _obs, _r, _t, _tr, infos = venv.step(_random_actions(infos["action_mask"], np.random.default_rng(0)))
        if venv.states:
            with pytest.raises(RuntimeError, match="call reset"):
                venv.step(np.zeros(2, np.int64))


class _FailsLater(RandomBot):
    """A random bot that crashes at its 30th move."""

    def __init__(self) -> None:
        super().__init__(0)
        self.moves = 0

    def select_action(self, view: SeatView) -> Any:
        self.moves += 1
        if self.moves >= 30:
            raise RuntimeError("the bot crashed")
        return super().select_action(view)


def test_a_failing_bot_leaves_the_env_needing_a_reset() -> None:
    bot = _FailsLater()
    venv = VectorEnv("caprice", 2, opponents=[bot, "random"], players=3)
    _obs, infos = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    with pytest.raises(RuntimeError, match="the bot crashed"):
        for _ in range(200):
            _obs, _r, _t, _tr, infos = venv.step(_random_actions(infos["action_mask"], rng))
    with pytest.raises(RuntimeError, match="half-stepped .* call reset"):
        venv.step(_random_actions(infos["action_mask"], rng))
    bot.moves = -1000
    _obs, infos = venv.reset(seed=1)
    venv.step(_random_actions(infos["action_mask"], rng))


def test_the_vector_env_imports_and_runs_without_pettingzoo() -> None:
    """OBS_BOUND lives in meeple.core.tensor: the vector env needs gymnasium and numpy, not PettingZoo."""
    code = (
        "import sys; sys.modules['pettingzoo'] = None\n"
        "from meeple.adapters.vector import VectorEnv\n"
        "from meeple.core.tensor import OBS_BOUND\n"
        "v = VectorEnv('caprice', 2, players=2); v.reset(seed=0)\n"
        "assert v.single_observation_space.high.max() == OBS_BOUND\n"
        "assert 'pettingzoo' not in {m.split('.')[0] for m in sys.modules if sys.modules[m] is not None}\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
