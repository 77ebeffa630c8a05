"""Per-game heuristic bots: each reads only its seat's observation and legal actions."""

from __future__ import annotations

import importlib

from meeple.bots.base import Bot
from meeple.core.errors import InvalidParameterError

HEURISTIC_BOTS: dict[str, str] = {
    "capital_lux_2": "meeple.bots.heuristic.capital_lux_2:CapitalLux2HeuristicBot",
    "citadels": "meeple.bots.heuristic.citadels:CitadelsHeuristicBot",
    "caprice": "meeple.bots.heuristic.caprice:CapriceHeuristicBot",
    "capitol": "meeple.bots.heuristic.capitol:CapitolHeuristicBot",
}
"""Game name -> ``"module:Class"`` of that game's heuristic bot."""


def heuristic_bot(game: str, seed: int = 0) -> Bot:
    """Return the heuristic bot of ``game``.

    Raises:
        InvalidParameterError: the game has no heuristic bot.
    """
    try:
        target = HEURISTIC_BOTS[game]
    except KeyError:
        raise InvalidParameterError(f"there is no heuristic bot for {game!r} yet") from None
    module, cls = target.split(":")
    bot = getattr(importlib.import_module(module), cls)(seed=seed)
    assert isinstance(bot, Bot)
    return bot
