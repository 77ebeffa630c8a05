"""The game registry: ``load_game(name, **params)``, ``registered_games()`` and each game's ``game_spec(name)``.

A game package registers its ``Game`` class (:func:`register_game`) and its :class:`~meeple.core.spec.GameSpec`
(:func:`register_spec`) when it is imported. :data:`BUILTIN_GAMES` lists the built-in packages, and the
``meeple.games`` entry point group (name -> package) lists games of other distributions; looking a game up imports
its package on first use.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from meeple.core.errors import InvalidParameterError
from meeple.core.game import Game
from meeple.core.spec import GameSpec
from meeple.i18n.message import M

BUILTIN_GAMES: dict[str, str] = {
    "caprice": "meeple.games.caprice",
    "capitol": "meeple.games.capitol",
    "capital_lux_2": "meeple.games.capital_lux_2",
    "citadels": "meeple.games.citadels",
}
"""Registry name -> package of each built-in game."""

ENTRY_POINT_GROUP = "meeple.games"
"""Entry point group of games in other distributions: ``name = "package"`` (the package registers the game)."""

_GAMES: dict[str, type[Game[Any]]] = {}
_SPECS: dict[str, GameSpec] = {}
_PACKAGES: dict[str, str] | None = None


def _packages() -> dict[str, str]:
    """Return registry name -> package of every known game: the built-in ones and the entry points."""
    global _PACKAGES
    if _PACKAGES is None:
        found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
        _PACKAGES = {**found, **BUILTIN_GAMES}
    return _PACKAGES


def register_spec(spec: GameSpec) -> GameSpec:
    """Register (or replace) the :class:`~meeple.core.spec.GameSpec` of a game; return it."""
    _SPECS[spec.name] = spec
    return spec


def game_spec(name: str) -> GameSpec:
    """Return the companions of game ``name`` (a spec with none if the game declares no spec).

    Raises:
        InvalidParameterError: no game has that name; the message lists the registered ones.
    """
    game_class(name)
    return _SPECS.get(name) or GameSpec(name)


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
    for module in _packages().values():
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
    if name not in _GAMES and name in _packages():
        importlib.import_module(_packages()[name])
    try:
        return _GAMES[name]
    except KeyError:
        raise InvalidParameterError(
            M("unknown game {name!r}; registered games: {games}", name=name, games=", ".join(registered_games()))
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
