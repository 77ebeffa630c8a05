"""Every observation matches its game's declared type (the TypedDict its state's ``observation`` returns), key for
key and value for value, at every step of seeded random games, for every seat and the spectator.

mypy checks the readers against the types; this test checks the builders against the same types at run time, so
that the two cannot drift apart (a key added, renamed or left out, a value of the wrong type).
"""

from __future__ import annotations

import functools
import importlib
import random
import types
import typing
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from meeple import load_game
from meeple.core.registry import registered_games

BUILTIN = ["capital_lux_2", "capitol", "caprice", "citadels"]


def problems(value: Any, hint: Any, where: str) -> list[str]:
    """Return where ``value`` does not match the type ``hint`` (empty if it matches)."""
    origin = get_origin(hint)
    if hint is Any:
        return []
    if is_typeddict(hint):
        return _typeddict_problems(value, hint, where)
    if origin in (Union, types.UnionType):
        found = [problems(value, option, where) for option in get_args(hint)]
        if any(not f for f in found):
            return []
        typed = [f for option, f in zip(get_args(hint), found, strict=True) if is_typeddict(option)]
        return typed[0] if typed and isinstance(value, dict) else [f"{where}: {value!r} matches none of {hint}"]
    if origin is Literal:
        return [] if value in get_args(hint) else [f"{where}: {value!r} is not one of {get_args(hint)}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__}, not a list"]
        (item,) = get_args(hint)
        return [p for i, v in enumerate(value) for p in problems(v, item, f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not a dict"]
        key_type, item = get_args(hint)
        return [p for k, v in value.items() for p in problems(k, key_type, where) + problems(v, item, f"{where}.{k}")]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not None"]
    if hint is int and isinstance(value, bool):
        return [f"{where}: {value!r} is a bool, not an int"]
    return [] if isinstance(value, hint) else [f"{where}: {value!r} is not a {hint.__name__}"]


@functools.cache
def _fields(hint: Any) -> dict[str, Any]:
    # NotRequired is read from the annotations themselves: with postponed annotations, __required_keys__ misses it
    return get_type_hints(hint, include_extras=True)


def _typeddict_problems(value: Any, hint: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: {type(value).__name__}, not a {hint.__name__}"]
    fields = _fields(hint)
    out = [f"{where}.{k}: not a field of {hint.__name__}" for k in value if k not in fields]
    for key, field in fields.items():
        optional = get_origin(field) is NotRequired
        if key in value:
            out += problems(value[key], get_args(field)[0] if optional else field, f"{where}.{key}")
        elif not optional:
            out.append(f"{where}.{key}: required field missing")
    return out


def observation_type(game_name: str) -> Any:
    """The return type of the game's ``observation`` (named in its package's ``observation`` module)."""
    state_type = type(load_game(game_name).new_initial_state(0))
    package = state_type.__module__.rsplit(".", 1)[0]
    names = vars(importlib.import_module(f"{package}.observation"))
    hints = get_type_hints(state_type.observation, localns=names)
    if "return" not in hints:  # a compiled build (setup.py, MEEPLE_COMPILE=1): mypyc keeps no annotations
        pytest.skip("compiled with mypyc: no annotations to read (the pure-Python run checks the declared type)")
    return hints["return"]


@pytest.mark.parametrize("game_name", BUILTIN)
def test_every_observation_matches_the_declared_type(game_name: str) -> None:
    hint = observation_type(game_name)
    assert is_typeddict(hint), f"{game_name}: observation() must return a TypedDict, not {hint}"
    game_type = type(load_game(game_name))
    for players in range(game_type.min_players, game_type.max_players + 1):
        game = load_game(game_name, players=players)
        for seed in range(1):
            state, rnd = game.new_initial_state(seed), random.Random(seed)
            while True:
                for seat in [*range(players), None]:
                    found = problems(state.observation(seat), hint, f"observation({seat})")
                    assert not found, f"{game_name} {players}p seed {seed} step {len(state.history)}: {found[:5]}"
                if state.is_terminal():
                    break
                state.apply_action(rnd.choice(state.legal_actions()))


class Inner(typing.TypedDict):
    n: int
    tag: NotRequired[Literal["a", "b"]]


class Outer(typing.TypedDict):
    items: list[Inner]
    name: str | None


def test_the_checker_finds_each_kind_of_mismatch() -> None:
    assert problems({"items": [{"n": 1, "tag": "a"}], "name": None}, Outer, "o") == []
    assert problems({"items": [{"n": True}], "name": "x"}, Outer, "o") == ["o.items[0].n: True is a bool, not an int"]
    assert problems({"items": [{"n": 1, "tag": "c"}], "name": "x"}, Outer, "o") == [
        "o.items[0].tag: 'c' is not one of ('a', 'b')"
    ]
    assert problems({"items": [], "name": "x", "extra": 1}, Outer, "o") == ["o.extra: not a field of Outer"]
    assert problems({"items": []}, Outer, "o") == ["o.name: required field missing"]
    assert problems({"items": {}, "name": 3}, Outer, "o") == [
        "o.items: dict, not a list",
        "o.name: 3 matches none of str | None",
    ]


def test_every_builtin_game_is_checked() -> None:
    assert set(BUILTIN) <= set(registered_games())
