"""Bots built by name: ``make_bot("hard", "citadels")``, ``make_bot("ismcts:1000:rollout=heuristic", game)``.

The one module that knows every kind of bot; the kinds themselves (random, heuristic, ISMCTS, levels) know only the
bot interface, so the bot modules import each other in one direction.
"""

from __future__ import annotations

from meeple.bots.base import Bot
from meeple.bots.heuristic import heuristic_bot
from meeple.bots.ismcts import parse_ismcts_spec
from meeple.bots.levels import LevelBot, NoisyBot, depends_on_players, level_spec
from meeple.bots.random import RandomBot
from meeple.core.errors import InvalidParameterError


def bot_names() -> list[str]:
    """Return the bot kinds :func:`make_bot` accepts."""
    return ["random", "heuristic", "ismcts", "easy", "medium", "hard"]


def make_bot(spec: str, game: str, seed: int = 0) -> Bot:
    """Build a bot from its name, parsed strictly.

    Args:
        spec: a bot kind from :func:`bot_names`; ``ismcts`` optionally with options after colons: ``"ismcts:1000"``
            (iterations), ``"ismcts:time=0.5"`` (seconds per move), ``"ismcts:1000:rollout=heuristic"``, every number
            finite and within :data:`meeple.bots.ismcts.RANGES`; ``"easy"``, ``"medium"``, ``"hard"`` are the
            difficulty levels of :mod:`meeple.bots.levels`. The other kinds take no options.
        game: the registered game name (heuristic bots are per game).
        seed: seed of the bot's random generator.

    Raises:
        InvalidParameterError: unknown bot kind, options given to a kind that takes none (``hard:junk``), or bad
            options (unknown, repeated, malformed, a number out of its range such as ``ismcts:c=nan``); the
            message lists what is allowed (issue 41, item 15: the CLI and the server refuse alike).
    """
    kind, colon, options = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "ismcts":
        if colon and not options.strip():
            raise InvalidParameterError(f"{_cut(spec)}: an option must follow ':' (e.g. ismcts:1000)")
        return parse_ismcts_spec(options, seed)
    if kind in bot_names() and colon:
        raise InvalidParameterError(
            f"bot {kind!r} takes no options, not {_cut(options)}; only ismcts does (ismcts:1000:rollout=heuristic)"
        )
    if kind == "random":
        return RandomBot(seed=seed)
    if kind == "heuristic":
        return heuristic_bot(game, seed)
    if kind in ("easy", "medium", "hard"):
        return level_bot(kind, game, seed)
    raise InvalidParameterError(f"unknown bot {_cut(spec)}; known bots: {', '.join(bot_names())}")


def _cut(text: str, limit: int = 40) -> str:
    """``text`` quoted, cut to ``limit`` characters (an error never echoes a long input)."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def level_bot(level: str, game: str, seed: int = 0) -> Bot:
    """Build the bot of a difficulty level for a game (a :class:`LevelBot` if the level depends on the player count).

    Raises:
        InvalidParameterError: an unknown level.
    """
    spec = level_spec(level, game)
    if depends_on_players(level, game):
        return LevelBot(level.lower(), game, build_level_spec, seed)
    return build_level_spec(spec, game, seed)


def build_level_spec(spec: str, game: str, seed: int) -> Bot:
    """Build the bot of a level's spec: ``noisy:P`` (the heuristic bot with random moves) or any bot spec."""
    kind, _, options = spec.partition(":")
    if kind == "noisy":
        return NoisyBot(heuristic_bot(game, seed=seed), float(options), seed=seed + 1)
    return make_bot(spec, game, seed)
