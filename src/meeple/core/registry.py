"""The game registry: ``load_game(name, **params)`` and ``registered_games()``.

The built-in games register themselves when their package is imported; :data:`BUILTIN_GAMES` lists those packages
so that looking a game up imports it on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from meeple.core.errors import InvalidParameterError
from meeple.core.game import Game

BUILTIN_GAMES: dict[str, str] = {
    "caprice": "meeple.games.caprice",
    "capitol": "meeple.games.capitol",
    "capital_lux_2": "meeple.games.capital_lux_2",
    "citadels": "meeple.games.citadels",
}
"""Registry name -> package of each built-in game."""

_GAMES: dict[str, type[Game[Any]]] = {}


def register_game(cls: type[Game[Any]]) -> type[Game[Any]]:
    """Register a :class:`Game` subclass under ``cls.name`` (usable as a class decorator).

    Raises:
        ValueError: another class is already registered under that name.
    """
    existing = _GAMES.get(cls.name)
    if existing is not None and existing is not cls:
        raise ValueError(f"a different game is already registered as {cls.name!r}")
    _GAMES[cls.name] = cls
    return cls


def _import_builtins() -> None:
    for module in BUILTIN_GAMES.values():
        importlib.import_module(module)


def registered_games() -> list[str]:
    """Return the names of every registered game, sorted."""
    _import_builtins()
    return sorted(_GAMES)


def game_class(name: str) -> type[Game[Any]]:
    """Return the :class:`Game` subclass registered as ``name``.

    Raises:
        InvalidParameterError: no game has that name; the message lists the registered ones.
    """
    if name not in _GAMES and name in BUILTIN_GAMES:
        importlib.import_module(BUILTIN_GAMES[name])
    try:
        return _GAMES[name]
    except KeyError:
        raise InvalidParameterError(
            f"unknown game {name!r}; registered games: {', '.join(registered_games())}"
        ) from None


def load_game(name: str, **params: Any) -> Game[Any]:
    """Return the game ``name`` with the given parameters (variant flags).

    Args:
        name: a registered game name, e.g. ``"citadels"``.
        **params: parameter values; ``players`` is the player count. Strings are parsed (``"true"``, ``"4"``).

    Raises:
        InvalidParameterError: unknown game, unknown parameter, or a value outside its allowed set.
    """
    return game_class(name)(**params)
