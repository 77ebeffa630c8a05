"""The bot interface and the bot registry.

Rules: architecture "Layers" — bots see a game only through a :class:`~meeple.core.view.SeatView`: the seat's
observation, legal actions and information state, never the ``State`` itself.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod

from meeple.core.action import Action
from meeple.core.errors import InvalidParameterError
from meeple.core.rng import Rng
from meeple.core.view import SeatView


class Bot(ABC):
    """A player program.

    Args:
        seed: seed of the bot's own random generator (decisions are reproducible for a fixed seed).
    """

    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    @abstractmethod
    def select_action(self, view: SeatView) -> Action:
        """Return one of ``view.legal_actions()`` (called only when it is this bot's seat to move)."""

    def __repr__(self) -> str:
        return self.name


HEURISTIC_BOTS: dict[str, str] = {
    "capital_lux_2": "meeple.bots.heuristic.capital_lux_2:CapitalLux2HeuristicBot",
    "citadels": "meeple.bots.heuristic.citadels:CitadelsHeuristicBot",
    "caprice": "meeple.bots.heuristic.caprice:CapriceHeuristicBot",
    "capitol": "meeple.bots.heuristic.capitol:CapitolHeuristicBot",
}
"""Game name -> ``"module:Class"`` of that game's heuristic bot."""


def _heuristic(game: str, seed: int) -> Bot:
    try:
        target = HEURISTIC_BOTS[game]
    except KeyError:
        raise InvalidParameterError(f"there is no heuristic bot for {game!r} yet") from None
    module, cls = target.split(":")
    bot = getattr(importlib.import_module(module), cls)(seed=seed)
    assert isinstance(bot, Bot)
    return bot


def bot_names() -> list[str]:
    """Return the bot kinds :func:`make_bot` accepts."""
    return ["random", "heuristic", "ismcts", "easy", "medium", "hard"]


def make_bot(spec: str, game: str, seed: int = 0) -> Bot:
    """Build a bot from its name.

    Args:
        spec: a bot kind from :func:`bot_names`, optionally with options after a colon: ``"ismcts:1000"``
            (iterations), ``"ismcts:time=0.5"`` (seconds per move), ``"ismcts:1000:rollout=heuristic"``;
            ``"easy"``, ``"medium"``, ``"hard"`` are the difficulty levels of :mod:`meeple.bots.levels`.
        game: the registered game name (heuristic bots are per game).
        seed: seed of the bot's random generator.

    Raises:
        InvalidParameterError: unknown bot kind or bad options; the message lists the known kinds.
    """
    kind, _, _options = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "random":
        from meeple.bots.random import RandomBot

        return RandomBot(seed=seed)
    if kind == "heuristic":
        return _heuristic(game, seed)
    if kind == "ismcts":
        from meeple.bots.ismcts import parse_ismcts_spec

        return parse_ismcts_spec(_options, seed)
    if kind in ("easy", "medium", "hard"):
        from meeple.bots.levels import level_bot

        return level_bot(kind, game, seed)
    raise InvalidParameterError(f"unknown bot {spec!r}; known bots: {', '.join(bot_names())}")
