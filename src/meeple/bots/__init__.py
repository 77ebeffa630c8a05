"""Bots: random, per-game heuristics, and search."""

from meeple.bots.base import Bot, bot_names, make_bot
from meeple.bots.random import RandomBot

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot"]
