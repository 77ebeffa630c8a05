"""What a stranger may ask of the server: the seats and bots of a new table, and the bounds of a bot's move.

By default a table's seats are an allow-list (``human`` and the four bot levels) and at least one seat is human; the
operator widens it with ``meeple serve --allow-bot-specs`` (any bot spec of :func:`meeple.bots.make_bot`, within the
bounds below) and ``--allow-bot-tables`` (tables of bots only). Whatever the policy, the server stops a bot's move
at :attr:`SeatPolicy.move_seconds` of wall-clock time (:class:`meeple.server.bots.BotPool`). A table's ``grace`` is
at least :attr:`SeatPolicy.min_grace` seconds (``--min-grace``), so that nobody makes a bot table of a human seat
left alone for a moment.

Rules: issue "Safe on the open internet" (seat specs from the network are an allow-list; bots cannot starve the
server); issue 41, item 2 (a minimum grace).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from meeple.bots.base import Bot
from meeple.bots.factory import make_bot
from meeple.bots.ismcts import ISMCTSBot
from meeple.core.errors import InvalidParameterError, MeepleError

ALLOWED_BOTS = ("random", "easy", "medium", "hard")
"""The bots a table may seat without ``--allow-bot-specs``: ``bot:random`` and the difficulty levels."""
ALLOWED_SEATS = ("human", "open", *(f"bot:{b}" for b in ALLOWED_BOTS))
"""The seat specs a table may have without ``--allow-bot-specs``."""
MAX_SPEC_LENGTH = 64
"""Characters of a seat or substitute spec, with ``--allow-bot-specs`` too (the seat is sent in every frame)."""
MAX_ITERATIONS = 20_000
"""ISMCTS iterations per move a wider spec may ask for (``hard`` uses 100 to 2,000)."""


@dataclass(frozen=True)
class SeatPolicy:
    """The seats and bots a server accepts for a new table.

    Attributes:
        any_bot: accept any bot spec of :func:`make_bot` (bounded: :data:`MAX_SPEC_LENGTH`, ISMCTS with at most
            :data:`MAX_ITERATIONS` iterations, a finite time of at most ``move_seconds``, one worker).
        bot_tables: accept tables without a human seat.
        move_seconds: the wall-clock seconds a bot may think about one move before the server stops it.
        min_grace: the shortest ``grace`` a new table may ask for, in seconds (``--min-grace``; ``null``, no
            grace at all, is always allowed).
    """

    any_bot: bool = False
    bot_tables: bool = False
    move_seconds: float = 10.0
    min_grace: float = 30.0

    def check_grace(self, grace: float | None) -> None:
        """Check a new table's ``grace`` (seconds, or None: an away human's turn waits for them).

        Raises:
            InvalidParameterError: a grace shorter than :attr:`min_grace` (the message gives the bound).
        """
        if grace is not None and grace < self.min_grace:
            raise InvalidParameterError(
                f"grace: at least {self.min_grace:g} seconds on this server (or null: a bot never plays an away"
                " human's turn)"
            )

    def check_table(self, seats: Sequence[str], substitute: str, game: str) -> None:
        """Check a new table's seats and substitute bot.

        Raises:
            InvalidParameterError: a seat or substitute outside the policy; the message names the field and the
                values allowed.
        """
        for i, player in enumerate(seats):
            if player in ("human", "open"):
                continue
            if not player.startswith("bot:"):
                allowed = self.allowed_seats()
                raise InvalidParameterError(f"seats[{i}]: {_cut(player)} is not a seat; allowed: {allowed}")
            self.check_bot(player.removeprefix("bot:"), game, f"seats[{i}]")
        self.check_bot(substitute, game, "substitute")
        if not self.bot_tables and "human" not in seats and "open" not in seats:
            raise InvalidParameterError('seats: a table needs at least one "human" or "open" seat on this server')

    def check_bot(self, spec: str, game: str, where: str) -> None:
        """Check one bot spec (without its ``bot:`` prefix) for the field ``where``.

        Raises:
            InvalidParameterError: the spec is not allowed, not a bot, or asks for more than the bounds.
        """
        if not self.any_bot:
            if spec not in ALLOWED_BOTS:
                allowed = self.allowed_seats() if where.startswith("seats") else ", ".join(ALLOWED_BOTS)
                raise InvalidParameterError(f"{where}: {_cut(spec)} is not allowed; allowed: {allowed}")
            return
        if len(spec) > MAX_SPEC_LENGTH:
            raise InvalidParameterError(f"{where}: a bot spec has at most {MAX_SPEC_LENGTH} characters")
        try:
            bot = make_bot(spec, game, 0)
        except (MeepleError, ValueError) as exc:
            raise InvalidParameterError(f"{where}: {_cut(str(exc), 200)}") from None
        problem = self.unbounded(bot)
        if problem:
            raise InvalidParameterError(f"{where}: {problem}")

    def unbounded(self, bot: Bot) -> str | None:
        """Why ``bot`` asks for more than a server gives one move, or None."""
        if not isinstance(bot, ISMCTSBot):
            return None
        if bot.workers != 1:
            return "a bot searches with one worker on this server (no workers= option)"
        if bot.iterations is not None and bot.iterations > MAX_ITERATIONS:
            return f"at most {MAX_ITERATIONS} ismcts iterations per move"
        limit = bot.time_limit
        if limit is not None and (not math.isfinite(limit) or limit > self.move_seconds):
            return f"at most time={self.move_seconds:g} seconds per move"
        return None

    def allowed_seats(self) -> str:
        """The seat specs allowed, for messages."""
        if self.any_bot:
            return '"human", "open" or "bot:<spec>"'
        return ", ".join(ALLOWED_SEATS)


def _cut(text: str, limit: int = 40) -> str:
    """``text`` quoted, cut to ``limit`` characters (an error never echoes a long input)."""
    return repr(text if len(text) <= limit else text[:limit] + "…")
