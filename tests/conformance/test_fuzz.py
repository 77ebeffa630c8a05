"""Property-based fuzzing of the refusal contract over every registered game and player count (hypothesis).

- ``apply_action`` with anything (JSON of any shape, foreign and placeholder actions, legal actions with one field
  changed) either applies a legal action or raises a ``MeepleError`` and leaves the state byte-identical.
- ``string_to_action`` of any text (a move typed or sent by a client) returns one of the game's actions or raises
  a ``MeepleError``, the state unchanged.
- ``state_from_json`` of a snapshot with one place changed to any JSON value refuses it with ``InvalidStateError``
  (a complete history), or loads a position that plays on without crashing (a resampled state).

The positions are reached by seeded random play; the inputs and tamperings are drawn by hypothesis:
``EXAMPLES`` per game and player count and per test (``MEEPLE_FUZZ_EXAMPLES`` sets it for a longer run).
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple.core import MeepleError, Rng, State, game_class
from meeple.core.testing import bad_inputs, random_position, refusal_problem, restore_problem

EXAMPLES = int(os.environ.get("MEEPLE_FUZZ_EXAMPLES", "150"))
CASES = [
    (name, n)
    for name in meeple.registered_games()
    for n in range(game_class(name).min_players, game_class(name).max_players + 1)
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)

_POSITIONS: dict[tuple[str, int, int, int], State[Any]] = {}


def position(name: str, players: int, seed: int, steps: int) -> State[Any]:
    """The state after ``steps`` seeded random decisions (or the end), cached."""
    key = (name, players, seed, steps)
    if key not in _POSITIONS:
        _POSITIONS[key] = random_position(meeple.load_game(name, players=players), seed, steps)
    return _POSITIONS[key]


def _input_for(state: State[Any], data: st.DataObject) -> Any:
    """An arbitrary input: a JSON value, a legal action's JSON with one field replaced, or a listed bad input."""
    kind = data.draw(st.sampled_from(["json", "typed", "field", "listed"]))
    if kind == "json":
        return data.draw(json_values)
    types = state.game.codec.type_names
    if kind == "typed":
        fields = data.draw(st.dictionaries(st.text(max_size=8), json_values, max_size=3))
        return {**fields, "type": data.draw(st.sampled_from(types) | json_values)}
    legal = state.legal_actions()
    if kind == "field" and legal:
        wire = data.draw(st.sampled_from(legal)).to_json()
        key = data.draw(st.sampled_from(sorted(wire)))
        return {**wire, key: data.draw(json_values)}
    options = bad_inputs(state, Rng(0))
    return options[data.draw(st.integers(0, len(options) - 1))]


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 3), steps=st.integers(0, 120), data=st.data())
def test_apply_action_refuses_every_bad_input_cleanly(
    name: str, players: int, seed: int, steps: int, data: st.DataObject
) -> None:
    state = position(name, players, seed, steps)
    if state.is_terminal():
        value = _input_for(meeple.load_game(name, players=players).new_initial_state(seed), data)
    else:
        value = _input_for(state, data)
    problem = refusal_problem(state, value)
    assert problem is None, problem


def _paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    out: list[tuple[Any, ...]] = []
    for key, value in items:
        out.append((*path, key))
        out += _paths(value, (*path, key))
    return out


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 3), steps=st.integers(0, 80), resampled=st.booleans(), data=st.data())
def test_state_from_json_refuses_every_tampered_snapshot(
    name: str, players: int, seed: int, steps: int, resampled: bool, data: st.DataObject
) -> None:
    state = position(name, players, seed, steps)
    if resampled and not state.is_terminal():
        state = state.resample_from_infostate(state.current_player(), Rng(seed + steps))
    original = json.loads(json.dumps(state.to_json()))
    paths = [p for p in _paths(original) if p[0] != "history" or len(p) > 1]
    path = data.draw(st.sampled_from(paths))
    value = data.draw(json_values)
    tampered = json.loads(json.dumps(original))
    node = tampered
    for key in path[:-1]:
        node = node[key]
    if node[path[-1]] == value and type(node[path[-1]]) is type(value):
        return  # not a change
    node[path[-1]] = value
    problem = restore_problem(state.game, tampered, original)
    assert problem is None, problem


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 3), steps=st.integers(0, 120), data=st.data())
def test_string_to_action_refuses_every_bad_text_cleanly(
    name: str, players: int, seed: int, steps: int, data: st.DataObject
) -> None:
    state = position(name, players, seed, steps)
    legal = state.legal_actions()
    texts = [state.action_to_string(a) for a in legal]
    text = data.draw(
        st.text(max_size=40)
        | st.sampled_from(texts or ["x"]).map(lambda t: t.upper() + data.draw(st.text(max_size=3)))
        | json_values.map(json.dumps)
        | st.integers(-(2**70), 2**70).map(str)
    )
    before = json.dumps(state.to_json(), sort_keys=True)
    try:
        action = state.string_to_action(text)
    except MeepleError as exc:
        assert str(exc)
    else:
        assert action in state.game.codec.all_actions
    assert json.dumps(state.to_json(), sort_keys=True) == before
