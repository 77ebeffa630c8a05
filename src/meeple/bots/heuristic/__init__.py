"""Per-game heuristic bots: each reads only its seat's observation and legal actions."""

from __future__ import annotations

from meeple.bots.base import Bot
from meeple.core.errors import InvalidParameterError
from meeple.core.registry import game_spec


def has_heuristic_bot(game: str) -> bool:
    """Return whether ``game`` declares a heuristic bot (its :class:`~meeple.core.spec.GameSpec`)."""
    return game_spec(game).heuristic_bot is not None


def heuristic_bot(game: str, seed: int = 0) -> Bot:
    """Return the heuristic bot of ``game`` (declared by the game's ``GameSpec.heuristic_bot``).

    Raises:
        InvalidParameterError: unknown game, or the game has no heuristic bot.
    """
    if not has_heuristic_bot(game):
        raise InvalidParameterError(f"there is no heuristic bot for {game!r} yet")
    bot = game_spec(game).load("heuristic_bot")(seed=seed)
    assert isinstance(bot, Bot)
    return bot
