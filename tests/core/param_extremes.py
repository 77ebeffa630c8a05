"""Every game parameter's extremes and the values just past them (issue 41, item 1), for the unit tests of the
parameter layer (tests/core/test_params.py) and the fuzz test through a running server (tests/server/test_params.py).

Integers and tuples are generated from each parameter's declared bounds; strings that expand (a deck, a board) and
the few values that need another parameter set (a seat needs enough players) come from the tables below.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, field
from typing import Any

from meeple.core.registry import game_class, registered_games

BUILTIN = ("capital_lux_2", "capitol", "caprice", "citadels")

CONTEXT: dict[tuple[str, str, Any], dict[str, Any]] = {
    ("citadels", "players", 2): {"variant_2p_ffg": True},
    ("capitol", "first_consul", 3): {"players": 4},
    ("caprice", "first_player", 3): {"players": 4},
    ("capital_lux_2", "tiles", "*"): {"config": "custom"},
    ("capital_lux_2", "rob_deck", "*"): {"players": 1},
    ("capital_lux_2", "agent_modifiers", "*"): {"players": 2},
}
"""(game, parameter, value or ``"*"``) -> the other parameters a valid extreme needs."""

_LAYOUT_MAX = ",".join(f"C{c}:12:4" for c in (1, 1, 1, 2, 2, 2, 3, 3, 3))
_LAYOUT_MIN = ",".join(f"C{c}:1:0" for c in (1, 1, 1, 2, 2, 2, 3, 3, 3))
STRINGS: dict[tuple[str, str], tuple[list[str], list[str]]] = {
    ("capital_lux_2", "rob_deck"): (
        ["left=20/3/0,right=20/0/20", "top=1/0/0", "left=20/20/0,right=0/0/0,top=20/0/20"],
        [
            "left=10000000/0/0",  # the request
            "left=21/0/0",
            "left=20/1/0,right=20/1/0,top=1/1/0",
            "left=0/0/0",
            "left=99999999999999999999999999999999999999999/0/0",
            "top=1/0/0," + "x" * 60,
            "left=1/0/0,left=1/0/0",
        ],
    ),
    ("capitol", "board_layout"): (
        [_LAYOUT_MAX, _LAYOUT_MIN, "provisional_54", " " * 20 + _LAYOUT_MAX],
        [
            _LAYOUT_MAX.replace("C3:12:4", "C3:13:4", 1),
            _LAYOUT_MAX + "," + "C1:12:4",
            " " * 30 + _LAYOUT_MAX,  # 101 characters
            "C1:1:0",
            "9" * 100,
        ],
    ),
    ("capital_lux_2", "tiles"): (
        ["agent,clerc,marchand,savant", "   agent,clerc,marchand,savant" + " " * 34],
        ["agent,clerc,marchand,savant" + " " * 38, "agent," * 11],
    ),
}
"""(game, parameter) -> (values at the edge of what is allowed, values just past it) of a string parameter."""


@dataclass
class Case:
    """One table's parameters and whether the parameter layer accepts them."""

    game: str
    name: str
    value: Any
    valid: bool
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        shown = repr(self.value)
        return f"{self.game}.{self.name}={shown[:30]}{'…' if len(shown) > 30 else ''}({'ok' if self.valid else 'no'})"


def _context(game: str, name: str, value: Any) -> dict[str, Any]:
    exact = CONTEXT.get((game, name, value), {}) if isinstance(value, int | str) else {}
    return {**CONTEXT.get((game, name, "*"), {}), **exact}


def cases(game: str) -> list[Case]:
    """Every bounded parameter of ``game`` at its extremes (valid) and just past them (refused)."""
    out: list[Case] = []
    hints = typing.get_type_hints(game_class(game).params_type)
    for spec in game_class(game).describe_params():
        bounds = spec.bounds
        if bounds is None:
            continue
        origin = typing.get_origin(hints[spec.name]) or hints[spec.name]
        good: list[Any]
        bad: list[Any]
        if origin is int:
            assert bounds.low is not None and bounds.high is not None
            good = [bounds.low, bounds.high]
            bad = [bounds.low - 1, bounds.high + 1, 10**18, -(10**18)]
        elif origin is tuple:
            assert bounds.low is not None and bounds.high is not None and bounds.max_length is not None
            fewest = max(bounds.min_length, 1)
            good = [[bounds.low] * fewest, [bounds.high] * bounds.max_length, [bounds.low, bounds.high]]
            bad = [[bounds.high] * (bounds.max_length + 1), [bounds.high + 1], [bounds.low - 1], [10**18] * 2]
            if bounds.min_length:
                bad.append([])
        else:
            good, bad = STRINGS[(game, spec.name)]
        for value, valid in [(v, True) for v in good] + [(v, False) for v in bad]:
            params = {**_context(game, spec.name, value), spec.name: value}
            out.append(Case(game, spec.name, value, valid, params))
    return out


def all_cases() -> list[Case]:
    """:func:`cases` of every built-in game."""
    assert set(BUILTIN) <= set(registered_games())
    return [case for game in BUILTIN for case in cases(game)]
