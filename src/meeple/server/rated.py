"""Rated tables: who sits at them, and the server's rules they play by (clock, grace, substitute, claims).

A rated table is created by a logged-in player: one ``human`` seat (theirs) and ``open`` seats for other accounts, no
bots and no guests (:func:`check_rated`). Its clock, ``grace`` and substitute bot are not the creator's to choose:
every rated table plays by the server's :class:`RatedRules` (``meeple serve --rated-clock``, ``--rated-grace``,
``--rated-substitute``, ``--claim-after``), which the lobby and the table page show. A rated request that leaves
them out gets them; one that asks for others is refused (422 naming the rules).

What a rating reflects: only moves made by the account's own human. A rated seat that the substitute must play
(out of time on its clock, or away past its grace), or that another player claims against (:func:`claim_wait`),
*forfeits*: it ranks last for the rating, and the bot finishes the game for the others
(:mod:`meeple.server.endings`). A seat that forfeits before its own first move aborts the table: nobody is rated.

Rules: issue #34 "People at the table" (item 6, rated tables); issue 41, item 7 ("Rated games need rules").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from meeple.core.errors import InvalidParameterError
from meeple.i18n import M, Message
from meeple.server.live import LiveTable
from meeple.server.protocol import ClockSpec, CreateTable

MIN_RATED_GRACE = 60.0
"""Seconds at least that a rated seat's human may be away on their turn before the substitute plays it."""
RATED_PER_MOVE = 120.0
"""Seconds per move of the rated clock by default (``--rated-clock 2m``): a turn that runs out forfeits."""
CLAIM_AFTER = 60.0
"""Seconds the seat to move must have been away during its turn before another player may claim (the default)."""


@dataclass(frozen=True)
class RatedRules:
    """The rules of every rated table on this server (``meeple serve`` options in parentheses).

    Attributes:
        clock: the clock (``--rated-clock``, default two minutes per move, no bank): a turn that runs out is played
            by the substitute and its seat forfeits.
        grace: seconds an away human's turn waits before the substitute plays it and the seat forfeits
            (``--rated-grace``, at least :data:`MIN_RATED_GRACE`); None with a turn-based clock (the clock alone
            ends a turn: its players are away between their moves).
        substitute: the bot that plays a forfeited seat to the end (``--rated-substitute``).
        claim_after: seconds the seat to move must have been away during its turn before another seated account
            may claim against it (``--claim-after``): the seat forfeits at once, without waiting for ``grace``. Not
            on a turn-based table, whose players are away between their moves.
    """

    clock: ClockSpec = field(default_factory=lambda: ClockSpec(per_move=RATED_PER_MOVE))
    grace: float | None = 120.0
    substitute: str = "medium"
    claim_after: float = CLAIM_AFTER

    def apply(self, request: CreateTable) -> CreateTable:
        """``request`` (a rated table) with these rules for its clock, grace and substitute.

        Raises:
            InvalidParameterError: the request asks for another clock, grace or substitute (the message gives the
                server's rules, and says to leave them out).
        """
        given = request.model_fields_set
        wrong = [
            name
            for name, mine in (("clock", self.clock), ("grace", self.grace), ("substitute", self.substitute))
            if name in given and getattr(request, name) != mine
        ]
        if wrong:
            raise InvalidParameterError(
                f"{', '.join(wrong)}: a rated table plays by this server's rules ({self.summary()}); leave clock,"
                " grace and substitute out"
            )
        return request.model_copy(update={"clock": self.clock, "grace": self.grace, "substitute": self.substitute})

    def summary(self) -> str:
        """The rules in one English line, for error messages."""
        c = self.clock
        parts = [f"{c.initial:g} s + {c.increment:g} s a turn"] if c.initial is not None else []
        parts += [f"{c.per_move:g} s per move"] if c.per_move is not None else []
        clock = " and ".join(parts) or "none"
        grace = f"grace {self.grace:g} s" if self.grace is not None else "no grace"
        return f"clock {clock}, {grace}, substitute {self.substitute}"

    @property
    def claims(self) -> bool:
        """Whether players may claim at all: not with a turn-based clock (being away is the norm there)."""
        return not self.clock.turn_based


def check_rated(specs: list[str], account: tuple[int, str] | None) -> None:
    """A rated table is created by a logged-in player: one ``human`` seat (theirs) and ``open`` seats, at least two.

    Raises:
        InvalidParameterError: it is not (the message says what a rated table allows).
    """
    if account is None:
        raise InvalidParameterError("rated: log in to create a rated table (POST /api/session)")
    if specs.count("human") != 1 or len(specs) < 2 or any(p not in ("human", "open") for p in specs):
        raise InvalidParameterError(
            'rated: a rated table has one "human" seat (yours) and "open" seats for logged-in players: no bots, no'
            " guests, at least two players"
        )


class ClaimRefused(Exception):
    """A claim that cannot be made now: ``status`` is the HTTP status, ``retry_after`` the seconds to wait (or None).

    Its ``message`` holds only what the claimant may know: the table's public state (whose turn, who is connected).
    """

    def __init__(self, status: int, message: Message, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def claim_time(live: LiveTable, claimant: int, rules: RatedRules, now: float) -> float:
    """When ``claimant`` may claim against the seat to move of ``live`` (Unix seconds; maybe already past).

    A claim may be made at a live rated table by a seated player whose seat has not forfeited, against the seat to
    move (another one, played by its human, not forfeited), once that seat has been away for
    :attr:`RatedRules.claim_after` seconds of its turn (the server's own outages not counted).

    Raises:
        ClaimRefused: 409, no claim can come of waiting (not rated, not live, the claimant's own turn, the seat to
            move is connected, has forfeited or is a bot's, claims are off at a turn-based table).
    """
    if not live.rated or not rules.claims:
        raise ClaimRefused(409, M("only a rated table's players may claim, and not at a turn-based table"))
    if live.status != "live":
        raise ClaimRefused(409, M("the game is not under way"))
    mover = live.mover()
    if mover is None or mover == claimant:
        raise ClaimRefused(409, M("nobody else is to move"))
    if live.seats[claimant].forfeit is not None:
        raise ClaimRefused(409, M("your seat has forfeited: it cannot claim"))
    seat = live.seats[mover]
    if not seat.is_human or seat.bot_played or seat.forfeit is not None:
        raise ClaimRefused(409, M("a bot plays the seat to move: the game goes on"))
    if seat.connected or seat.arrived is None:
        raise ClaimRefused(409, M("the player to move is connected, or has not come yet: no claim"))
    since = max(seat.away_since, turn_start(live))
    paused = live.health.paused(since, now) if live.health is not None else 0.0
    return since + rules.claim_after + paused


def claim_wait(live: LiveTable, claimant: int, rules: RatedRules, now: float) -> int:
    """The seat a claim by ``claimant`` at ``live`` forfeits now (the seat to move), if it may be made now.

    Raises:
        ClaimRefused: 409 as :func:`claim_time`; with ``retry_after`` when the seat to move has not been away
            :attr:`RatedRules.claim_after` seconds yet.
    """
    left = claim_time(live, claimant, rules, now) - now
    if left > 0:
        wait = int(left) + 1
        raise ClaimRefused(409, M("you may claim in {seconds} s", seconds=wait), wait)
    mover = live.mover()
    assert mover is not None
    return mover


def turn_start(live: LiveTable) -> float:
    """When the running turn began: its clock's start, else the last move or the table's start."""
    started = live.clock.get("turn_started") if live.clock is not None else None
    if started is not None:
        return float(started)
    return max(live.live_at or live.created, live.moved_at or 0.0)
