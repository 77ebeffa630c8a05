"""A game's direct tensor encoder (read from the state, for speed) equals the encoding of the seat's observation on
every decision of many games and at their end, for every seat: so it shows a seat nothing its observation does not.
Each variant that changes what a seat sees is played (Capitol's face-down discards, Capital Lux 2's solo and random
tiles, Citadels' two-player and three-player variants)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from meeple.core.registry import BUILTIN_GAMES, load_game
from meeple.core.rng import Rng


def _params(name: str, players: int) -> dict[str, Any]:
    return {"players": players, "variant_2p_ffg": True} if name == "citadels" and players == 2 else {"players": players}


@pytest.mark.parametrize(
    ("name", "players", "flags"),
    [("citadels", n, {}) for n in range(2, 8)]
    + [("citadels", 4, {"deck": "en", "great_wall": True}), ("citadels", 3, {"variant_3p_ffg": True})]
    + [(name, 3, {}) for name in sorted(BUILTIN_GAMES) if name != "citadels"]
    + [("caprice", 2, {"symbol_order": "manual"}), ("caprice", 4, {"third_symbol_exchange": "mandatory"})]
    + [("capitol", 2, {"played_card": "face_down"}), ("capitol", 4, {"played_card": "face_down"})]
    + [("capitol", 4, {"exhausted_pile": "shuffle", "end_draw": "refill_to_six", "zero_bid": "no_sale"})]
    + [("capital_lux_2", 1, {}), ("capital_lux_2", 2, {"config": "random"}), ("capital_lux_2", 4, {})]
    + [("capital_lux_2", 1, {"config": "random"})],
)
def test_the_fast_tensor_equals_the_encoded_observation_for_every_seat(
    name: str, players: int, flags: dict[str, Any]
) -> None:
    game = load_game(name, **_params(name, players), **flags)
    buffer = np.zeros((players, game.observation_tensor_size()), np.float32)
    for seed in range(6):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        while True:
            for seat in range(players):
                reference = state.encoded_observation_values(seat)
                assert state.observation_tensor_values(seat) == reference, (seed, len(state.history), seat)
                state.write_observation_tensor(seat, buffer[seat])
                assert np.array_equal(buffer[seat], np.asarray(reference, np.float32))
            if state.is_terminal():
                break
            codes = state.legal_action_codes()
            state.apply_action(codes[rng.randrange(len(codes))])


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_write_observation_tensor_fills_any_float_vector_and_refuses_a_wrong_size(name: str) -> None:
    """A direct encoder writes into a contiguous float32 row; a float64 vector, a strided column or a stale buffer
    get the same values; a buffer of the wrong size raises numpy's error and is left as it was."""
    game = load_game(name, players=3)
    state = game.new_initial_state(5)
    rng = Rng(5)
    for _ in range(25):
        codes = state.legal_action_codes()
        state.apply_action(codes[rng.randrange(len(codes))])
    size = game.observation_tensor_size()
    seat = state.current_player()
    reference = np.asarray(state.encoded_observation_values(seat), np.float32)
    stale = np.full(size, 7.0, np.float32)
    wide = np.zeros(size, np.float64)
    column = np.zeros((size, 2), np.float32)[:, 1]
    for out in (stale, wide, column):
        state.write_observation_tensor(seat, out)
        assert np.array_equal(out.astype(np.float32), reference)
    wrong = np.full(size + 1, 7.0, np.float32)
    with pytest.raises(ValueError):
        state.write_observation_tensor(seat, wrong)
    assert (wrong == 7.0).all()


def test_citadels_memoised_scores_equal_the_score_breakdowns_with_a_haunted_city_built_this_round() -> None:
    """The direct encoder's score memo (keyed by the city's cards, first to complete, the Haunted City's rule) gives
    the rules' totals, including the positions where a Haunted City was built in the round being played."""
    from meeple.games.citadels.data import HAUNTED_CITY
    from meeple.games.citadels.tensor import _scores

    game = load_game("citadels", players=4)
    haunted_this_round = 0
    for seed in range(40):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            assert _scores(state) == [b.total for b in state.score_breakdowns()], (seed, len(state.history))
            haunted_this_round += any(
                game.card_kind[c] == HAUNTED_CITY and state.built_round[c] >= state.round
                for city in state.cities
                for c in city
            )
            codes = state.legal_action_codes()
            state.apply_action(codes[rng.randrange(len(codes))])
    assert haunted_this_round > 0  # the case the memo's key must tell apart was met


def test_capitol_buffer_rounds_a_zone_of_seven_buildings_like_the_reference() -> None:
    """``zone_buildings`` sums 1/5 per building: summed in a float32 buffer, seven of them would round off by one unit
    in the last place; the direct encoder sums in Python floats as the reference does."""
    game = load_game("capitol", players=3)
    state = game.new_initial_state(0)
    zone = max(range(len(game.zones)), key=lambda z: game.zones[z].small_spaces)
    assert game.zones[zone].small_spaces == 7
    state.zone_bld[zone] = [1 * 4 + 1] * 7  # seven one-floor buildings of seat 1 (height * 4 + owner)
    state.edited()
    buffer = np.zeros(game.observation_tensor_size(), np.float32)
    for seat in range(3):
        reference = state.encoded_observation_values(seat)
        state.write_observation_tensor(seat, buffer)
        assert np.array_equal(buffer, np.asarray(reference, np.float32))
        assert state.observation_tensor_values(seat) == reference


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_a_batch_of_rows_equals_each_seats_tensor(name: str) -> None:
    """``Game.write_observations`` and ``Game.row_writer`` (the vector environments' batched writers) write each row
    as ``observation_tensor`` of its seat; rows not asked for are left alone; a wrong shape is refused."""
    game = load_game(name, players=3)
    states = []
    for seed in range(8):
        state = game.new_initial_state(seed)
        rng = Rng(seed)
        for _ in range(seed * 9):
            if state.is_terminal():
                break
            codes = state.legal_action_codes()
            state.apply_action(codes[rng.randrange(len(codes))])
        states.append(state)
    seats = [s % 3 for s in range(8)]
    out = np.full((10, game.observation_tensor_size()), 7.0, np.float32)
    game.write_observations(states, seats, out)
    for row, (state, seat) in enumerate(zip(states, seats, strict=True)):
        assert np.array_equal(out[row], state.observation_tensor(seat))
    assert (out[8:] == 7.0).all()
    write = game.row_writer(out)
    out[:] = 0.0  # the writer's contract: rows zeroed by the caller, then each written once
    for row in (3, 0):
        write(states[row], 2, row)
    out[3] = 0.0
    write(states[3], 2, 3)  # a row written again (its slice made once)
    for row in (0, 3):
        assert np.array_equal(out[row], states[row].observation_tensor(2))
    wide = np.zeros((8, game.observation_tensor_size()), np.float64)
    game.write_observations(states, seats, wide)
    for row, (state, seat) in enumerate(zip(states, seats, strict=True)):
        assert np.array_equal(wide[row].astype(np.float32), state.observation_tensor(seat))
    with pytest.raises(ValueError, match="columns"):
        game.row_writer(np.zeros((2, 3), np.float32))
    with pytest.raises(ValueError, match="fewer than"):
        game.write_observations(states, seats, out[:2])
    with pytest.raises(ValueError, match="one player per state"):
        game.write_observations(states, seats[:2], out)


def test_the_tensor_modules_are_typed_with_their_games_classes() -> None:
    """No parameter or result of a game's tensor module is typed ``Any``, and each game declares its
    ``direct_tensor`` as a ``DirectTensor`` of its own state class, so mypy --strict checks every read of the state
    and of the observation (issue "The server's front door", item 6)."""
    import ast
    from pathlib import Path

    from meeple.core import game_class

    src = Path(__file__).resolve().parents[2] / "src" / "meeple" / "games"
    for name in sorted(BUILTIN_GAMES):
        tree = ast.parse((src / name / "tensor.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                annotations = [a.annotation for a in node.args.args + node.args.kwonlyargs] + [node.returns]
                for annotation in annotations:
                    assert annotation is not None, (name, node.name)
                    assert "Any" not in ast.unparse(annotation), (name, node.name, ast.unparse(annotation))
        state_class = type(load_game(name, players=game_class(name).max_players).new_initial_state(0)).__name__
        assert game_class(name).__annotations__["direct_tensor"] == f"ClassVar[DirectTensor[{state_class}]]"


def test_mypy_refuses_a_tensor_module_given_another_games_state(tmp_path: Any) -> None:
    """What the typing buys: mypy --strict refuses Citadels' encoder called with a Caprice state, and a game whose
    direct_tensor is another game's module."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    snippet = tmp_path / "wrong_tensor.py"
    snippet.write_text(
        "from typing import ClassVar\n"
        "from meeple.core.tensor import DirectTensor\n"
        "from meeple.games.caprice import tensor as caprice_tensor\n"
        "from meeple.games.caprice.state import CapriceState\n"
        "from meeple.games.citadels import tensor\n"
        "from meeple.games.citadels.game import Citadels\n"
        "from meeple.games.citadels.state import CitadelsState\n\n\n"
        "def read(state: CapriceState) -> list[float]:\n"
        "    return tensor.values_from_state(state, 0, tensor.layout(4))\n\n\n"
        "class Mixed(Citadels):\n"
        "    direct_tensor: ClassVar[DirectTensor[CitadelsState]] = caprice_tensor\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", str(snippet)],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=900,
    )
    assert 'Argument 1 to "values_from_state" has incompatible type "CapriceState"; expected "CitadelsState"' in (
        result.stdout
    ), result.stdout + result.stderr
    assert "wrong_tensor.py:15: error: Incompatible types in assignment" in result.stdout, result.stdout
