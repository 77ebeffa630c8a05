"""Bots: random, per-game heuristics, search (ISMCTS) and difficulty levels, built by name with ``make_bot``."""

from meeple.bots.base import Bot
from meeple.bots.factory import bot_names, make_bot
from meeple.bots.heuristic import has_heuristic_bot, heuristic_bot
from meeple.bots.random import RandomBot

__all__ = ["Bot", "RandomBot", "bot_names", "has_heuristic_bot", "heuristic_bot", "make_bot"]
