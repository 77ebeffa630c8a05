"""A table as one server process holds it: its state (a cache of the event log), seats, clock and connections.

Also the checks of a move that need no database (:func:`check_move`) and the errors of the table master.

Rules: issue "Play online" (guarantees); architecture "Playing online".
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.state import State
from meeple.i18n import DEFAULT_LANGUAGE, M, Message, Translator, translator
from meeple.server import clock as clocks
from meeple.server.health import Health
from meeple.server.people import display_name
from meeple.server.views import LogCache, LogLine, perspective_of

BOT_WATCHDOG = 5.0
"""Seconds after which a bot's move not yet played is asked again (by any process): covers a crashed process or a
bot loop that gave up. A process whose bot is still thinking ignores it; another process may think too, and the
version check drops the slower answer."""


class TableNotFound(MeepleError, LookupError):
    """No table has this id."""


class TableRefused(TableNotFound):
    """A stored table this server will not load: its parameters are outside their ranges (issue 41, item 1).

    A :class:`TableNotFound` (the table cannot be played here); its message says why.
    """


class MoveRefused(MeepleError, ValueError):
    """A move the table refuses; ``code`` is the protocol's error code (``stale_version``, ``not_your_turn``...)."""

    def __init__(self, code: str, message: Message | str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class SeatState:
    """A seat as the cache holds it: who plays it, whether a bot replaces its human, its presence and name."""

    player: str
    bot_played: bool = False
    reason: str | None = None
    connected: bool = False
    away_since: float = 0.0
    name: str | None = None
    """The name its human gave (already cleaned), or None."""
    account: str | None = None
    """The username of the account the seat is bound to (public: its profile link), or None."""
    arrived: float | None = None
    """When its human first connected or moved (None: never came; such a seat is never bot-played)."""
    moved: float | None = None
    """When its human first made a move of their own (None: never)."""
    forfeit: str | None = None
    """Why this seat of a rated table ranks last for the rating (``time``, ``away``, ``claim``...), or None."""
    rating: float | None = None
    """At a rated table, its account's rating at the game (``mu - 3 sigma``), else None (issue #44, item 7)."""
    provisional: bool = False
    """Its rating is provisional: its account has played few rated games of the game."""
    invited: str | None = None
    """The username an open seat is reserved for (an invitation, a rematch's account seat), or None."""

    @property
    def resigned(self) -> bool:
        """Its player resigned (``POST /api/tables/{id}/resign``): the bot plays it to the end, for good."""
        return self.reason == "resign"

    @property
    def is_open(self) -> bool:
        """A free seat of a waiting table (``"open"``): anyone may take it."""
        return self.player == "open"

    @property
    def is_human(self) -> bool:
        """A seat created as ``"human"``."""
        return self.player == "human"

    @property
    def bot_spec(self) -> str | None:
        """The spec of the bot that plays this seat now, or None when its human plays it."""
        if self.player.startswith("bot:"):
            return self.player.removeprefix("bot:")
        return None

    def public(self, seat: int, reader: Translator | None = None) -> dict[str, Any]:
        """The ``SeatInfo`` payload, the names of bots and unnamed seats in ``reader``'s language (default English)."""
        return {
            "seat": seat,
            "player": self.player,
            "name": display_name(self.player, self.name, seat, reader or translator(DEFAULT_LANGUAGE)),
            "open": self.is_open,
            "connected": self.connected or self.player.startswith("bot:"),
            "bot_played": self.bot_played,
            "reason": self.reason,
            "account": self.account,
            "forfeit": self.forfeit,
            "rating": self.rating,
            "provisional": self.provisional if self.rating is not None else None,
            "invited": self.invited,
        }


@dataclass(eq=False)
class LiveTable:
    """One table in this process: its state rebuilt from the event log, its seats and clock, its connections."""

    id: str
    game: str
    params: dict[str, Any]
    seed: int
    created: float
    grace: float | None
    substitute: str
    state: State[Any]
    seats: list[SeatState]
    clock: dict[str, Any] | None = None
    status: str = "live"
    rated: bool = False
    """A rated table: its end updates the seats' accounts' ratings (:mod:`meeple.server.ratings`)."""
    version: int = 0
    rev: int = -1
    stale: bool = False
    logs: dict[int, LogCache] = field(default_factory=dict)
    conns: set[Any] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    seats_dirty: set[int] = field(default_factory=set)
    """Seats whose ``bot_played``/``reason`` changed in the transaction under way (written by _finish_change)."""
    health: Health | None = None
    """The process's health: its outages do not count in a grace period, and no deadline falls while it settles."""
    notices: list[Any] = field(default_factory=list)
    """Turn e-mails (``notify.TurnNotice``) decided by the transaction under way, sent once it committed."""
    used: float = 0.0
    """When this process last looked the table up (Unix seconds): unused tables leave memory."""
    by_bot: list[bool] = field(default_factory=list)
    """Per action of ``state.history``: a bot played it (undo takes back only a human's own moves)."""
    takebacks: list[Any] = field(default_factory=list)
    """The undos of the log so far (:class:`meeple.server.undo.Takeback`), oldest first: the log's notes."""
    creator: str | None = None
    """The hashed creator address (``tables.creator``; None: the operator's table): its bots' lane and CPU budget."""
    live_at: float | None = None
    """When the game went live (None: still waiting)."""
    moved_at: float | None = None
    """When the last move was made (by anyone; None: no move yet)."""
    ended: str | None = None
    """Why an ``aborted`` table was aborted (:data:`meeple.server.endings.ABORTS`), else None."""
    ended_at: float | None = None
    """When it was aborted."""
    no_start: float | None = None
    """Seconds a seat that never came may keep its turn before the table is aborted (None: it waits; the operator's
    tables)."""
    bots_wait: float | None = None
    """Until when this table's bots wait for its creator's bot CPU budget (Unix seconds; None: they do not)."""
    rematch: dict[str, Any] | None = None
    """A finished table's rematch as its players see it (:func:`meeple.server.rematch.rematch_view`), or None."""
    rematch_of: str | None = None
    """The finished table this one is the rematch of (its offer's seats are reserved), or None."""

    @property
    def over(self) -> bool:
        """The game is over (``finished``, ``abandoned`` or ``aborted``): its record (seed, hidden moves) may open.

        A ``waiting`` table is not over: its deal is dealt already and stays secret.
        """
        return self.status in ("finished", "abandoned", "aborted")

    def log_of(self, seat: int | None) -> list[LogLine]:
        """The redacted log of ``seat`` (None: spectator), kept up to date incrementally."""
        p = perspective_of(seat)
        cache = self.logs.get(p)
        if cache is None:
            cache = self.logs[p] = LogCache(p)
        return cache.update(self.state)

    def mover(self) -> int | None:
        """The seat to move, or None once the game is over."""
        return None if self.state.is_terminal() else self.state.current_player()

    def bot_to_move(self) -> str | None:
        """The bot spec that must play now (a bot seat, or the substitute of a bot-played human), else None."""
        m = self.mover()
        if m is None or self.status != "live":
            return None
        seat = self.seats[m]
        return seat.bot_spec or (self.substitute if seat.bot_played else None)

    def clocked_seat(self) -> int | None:
        """The seat whose clock runs now: the mover if its human plays it, else None."""
        m = self.mover()
        if m is None or self.clock is None:
            return None
        seat = self.seats[m]
        return m if self.status == "live" and seat.is_human and not seat.bot_played else None

    def deadline(self, now: float) -> float | None:
        """When this table must be looked at again.

        A turn or a grace period runs out, a bot move is overdue (or its creator's bot budget has room again), a seat
        that never came has had its no-start window.
        """
        m = self.mover()
        if m is None or self.status != "live":
            return None
        if self.bot_to_move() is not None:
            return max(now, self.bots_wait or 0.0) + BOT_WATCHDOG
        times = []
        if self.never_came(m):  # neither its clock nor a grace period brings a bot: only the no-start window counts
            if (at := self.no_show_at(now)) is not None:
                times.append(at)
        else:
            if self.clock is not None and (d := clocks.turn_deadline(self.clock)) is not None:
                times.append(d)
            if self.grace is not None and not self.seats[m].connected:
                times.append(self.away_until(m, now))
        if not times:
            return None
        settle = self.health.settle_until() if self.health is not None else None
        return max(min(times), settle) if settle is not None else min(times)

    def never_came(self, seat: int) -> bool:
        """Whether ``seat`` is a human seat, played by its human, whose human never connected nor moved."""
        state = self.seats[seat]
        return state.is_human and not state.bot_played and state.arrived is None and not state.connected

    def no_show_at(self, now: float | None = None) -> float | None:
        """When this table is aborted because the seat to move never came (None: it came, or the table waits for it).

        That is :attr:`no_start` seconds after the later of the game's start and the last move, and no earlier than
        the running turn's clock deadline (a turn-based table gives its time per move); plus the server's own
        outages meanwhile.
        """
        m = self.mover()
        if m is None or self.status != "live" or self.no_start is None or not self.never_came(m):
            return None
        since = max(self.live_at or self.created, self.moved_at or 0.0)
        at = since + self.no_start
        if self.clock is not None and (d := clocks.turn_deadline(self.clock)) is not None:
            at = max(at, d)
        if self.health is not None:
            at += self.health.paused(since, now if now is not None else self.health.now())
        return at

    def away_until(self, seat: int, now: float | None = None) -> float:
        """When a disconnected ``seat``'s grace period ends (Unix seconds).

        That is ``away_since + grace``, plus the time the process was degraded meanwhile: its players could not
        move (issue "Survive the database and the other process").
        """
        state = self.seats[seat]
        grace = self.grace if self.grace is not None else 0.0
        if self.health is None:
            return state.away_since + grace
        end = now if now is not None else self.health.now()
        return state.away_since + grace + self.health.paused(state.away_since, end)

    def public_seats(self, reader: Translator | None = None) -> list[dict[str, Any]]:
        """The ``SeatInfo`` payloads of every seat (names of bots and unnamed seats in ``reader``'s language)."""
        return [s.public(i, reader) for i, s in enumerate(self.seats)]

    def name_of(self, seat: int, reader: Translator) -> str:
        """What ``seat`` is called, in ``reader``'s language (its human's name, a bot's level, "Seat N")."""
        s = self.seats[seat]
        return display_name(s.player, s.name, seat, reader)


def check_move(live: LiveTable, seat: int, version: int, by_bot: bool) -> None:
    """Status, turn and version checks of a move, before its legality; raises :class:`MoveRefused`.

    The messages hold only what the sender may know: the seat to move (public) and the sender's own version.

    Args:
        live: the table (up to date).
        seat: the sender's seat.
        version: the sender's view version (a human) or the table's version (a bot).
        by_bot: the move comes from the server's bot for that seat.
    """
    if live.status == "waiting":
        raise MoveRefused("not_started", M("the game starts when every open seat is taken"))
    if live.status != "live":
        raise MoveRefused("game_over", M("the game is over: no more moves"))
    if not by_bot and live.seats[seat].resigned:
        raise MoveRefused("not_your_turn", M("you resigned: a bot plays your seat to the end"))
    mover = live.mover()
    if by_bot:
        if version != live.version or live.bot_to_move() is None or mover != seat:
            raise MoveRefused("stale_version", M("the table moved on while the bot was thinking"))
        return
    if mover != seat:
        raise MoveRefused("not_your_turn", M("it is seat {seat}'s turn, not seat {player}'s", seat=mover, player=seat))
    seen = len(live.log_of(seat))
    if version != seen:
        raise MoveRefused(
            "stale_version",
            M("your move was made at version {version}; the table is at version {seen}", version=version, seen=seen),
        )
