"""Table clocks: a bank per seat with a Fischer increment and an optional cap per turn (pure functions).

A *turn* is a run of consecutive decisions of one seat; it starts when that seat becomes the seat to move. When the
turn passes, the seat's bank loses the time the turn took and gains the increment (once per turn, so the number of
hidden steps in a turn changes nothing anyone sees). A turn runs out at ``turn_started + paused + min(bank,
per_move)``: ``paused`` is the time of the server's own outages during the turn (:func:`credit_outage`), which is
never charged to the player.

Only human seats played by their human have a running clock: bots and bot-played seats are never charged.

A clock without a bank (``initial`` None) gives each turn ``per_move`` seconds and charges nothing: with an hour or
more per move it is *turn-based* (:func:`is_turn_based`; issue #34 item 7). Its deadline is stored with the table
like any other, so a restart loses no turn.

Rules: issue "Play online" (leavers and clocks); docs/decisions.md "Server".
"""

from __future__ import annotations

from typing import Any

from meeple.server.protocol import TURN_BASED, ClockSpec

RETURN_BANK = 60.0
"""Seconds a returning human's empty bank is refilled to (at most the initial bank), so that they can play again."""


def new_clock(spec: ClockSpec, players: int) -> dict[str, Any]:
    """The JSON clock state of a new table: every bank full, no turn running yet."""
    return {
        "spec": spec.model_dump(),
        "banks": [spec.initial if spec.initial is not None else spec.per_move] * players,
        "turn_seat": None,
        "turn_started": None,
        "paused": 0.0,
        "paused_to": None,
    }


TURN_BASED_CHOICES = (86_400, 3 * 86_400, 7 * 86_400)
"""Seconds per move the lobby's form and ``meeple serve --clock`` offer for turn-based play: 1, 3 and 7 days."""
_UNITS = {"s": 1, "m": 60, "h": 3_600, "d": 86_400}


def parse_clock(text: str) -> ClockSpec:
    """A clock from ``meeple serve --clock``: ``INITIAL[+INCREMENT]`` in seconds, or a time per move (``3d``, ``2m``).

    Args:
        text: ``600+10`` (a 600 s bank, 10 s added per turn), or a time per move with no bank: ``90s``, ``2m``,
            ``12h``, ``1d``, ``3d`` (turn-based when an hour or more), also with a fraction (``1.5d``).

    Raises:
        ValueError: not one of these forms, or outside the bounds of :class:`ClockSpec` (the message says which).
    """
    text = text.strip().lower()
    if text[-1:] in _UNITS:
        return ClockSpec(per_move=float(text[:-1]) * _UNITS[text[-1]])
    initial, _plus, increment = text.partition("+")
    return ClockSpec(initial=float(initial), increment=float(increment or 0))


def has_bank(clock: dict[str, Any]) -> bool:
    """Whether the clock has a bank per seat (``initial``); without one, each turn has ``per_move`` seconds."""
    return clock["spec"].get("initial") is not None


def is_turn_based(clock: dict[str, Any] | None) -> bool:
    """Whether a table's clock (JSON state, or None) is turn-based: no bank, an hour or more per move."""
    if clock is None or has_bank(clock):
        return False
    per_move = clock["spec"].get("per_move")
    return per_move is not None and float(per_move) >= TURN_BASED


def turn_deadline(clock: dict[str, Any]) -> float | None:
    """When the running turn times out (Unix seconds), or None if no clocked turn is running."""
    seat = clock["turn_seat"]
    if seat is None or clock["turn_started"] is None:
        return None
    per_move = clock["spec"].get("per_move")
    limit = max(0.0, float(clock["banks"][seat])) if has_bank(clock) else float(per_move)
    if per_move is not None:
        limit = min(limit, float(per_move))
    return float(clock["turn_started"]) + float(clock.get("paused") or 0.0) + limit


def pass_turn(clock: dict[str, Any], to_seat: int | None, now: float) -> None:
    """Charge the running turn (if any) and start ``to_seat``'s (None: no clocked turn; the game is over).

    Args:
        clock: the JSON clock state (changed in place).
        to_seat: the seat whose clocked turn starts now, or None (a bot, a bot-played seat, the game over).
        now: the current Unix time.
    """
    seat = clock["turn_seat"]
    if seat is not None and seat == to_seat:
        return
    if seat is not None and clock["turn_started"] is not None and has_bank(clock):
        spent = max(0.0, now - float(clock["turn_started"]) - float(clock.get("paused") or 0.0))
        clock["banks"][seat] = max(0.0, float(clock["banks"][seat]) - spent) + float(clock["spec"]["increment"])
    clock["turn_seat"] = to_seat
    clock["turn_started"] = None if to_seat is None else now
    clock["paused"], clock["paused_to"] = 0.0, None


def time_out(clock: dict[str, Any]) -> None:
    """The running turn ran out: its seat's bank is empty and no clocked turn runs (a bot plays it)."""
    seat = clock["turn_seat"]
    if seat is not None and has_bank(clock):
        clock["banks"][seat] = 0.0
    clock["turn_seat"] = None
    clock["turn_started"] = None
    clock["paused"], clock["paused_to"] = 0.0, None


def credit_outage(clock: dict[str, Any], start: float, end: float) -> bool:
    """Credit the running turn with the part of the server's outage ``[start, end]`` it has not been credited yet.

    Two processes may report overlapping outages: the part before ``paused_to`` (the end of the last outage
    credited to this turn) is not credited twice. Returns whether the clock changed.

    Rules: issue "Survive the database and the other process" (clocks do not run while the server is degraded).
    """
    if clock["turn_seat"] is None or clock["turn_started"] is None:
        return False
    paused_to = clock.get("paused_to")
    begin = max(start, float(clock["turn_started"]), float(paused_to) if paused_to is not None else start)
    if end <= begin:
        return False
    clock["paused"] = float(clock.get("paused") or 0.0) + (end - begin)
    clock["paused_to"] = end
    return True


def refill_on_return(clock: dict[str, Any], seat: int) -> None:
    """A human takes their seat back: an empty bank gets :data:`RETURN_BANK` seconds (at most the initial bank)."""
    if not has_bank(clock):
        return  # each turn has per_move seconds anyway
    floor = min(RETURN_BANK, float(clock["spec"]["initial"]))
    clock["banks"][seat] = max(float(clock["banks"][seat]), floor)


def clock_view(clock: dict[str, Any] | None) -> dict[str, Any] | None:
    """The public clock payload (``protocol.ClockView``): banks, the seat whose turn runs, its deadline."""
    if clock is None:
        return None
    return {
        "spec": clock["spec"],
        "banks": [round(float(b), 3) for b in clock["banks"]],
        "turn_seat": clock["turn_seat"],
        "deadline": turn_deadline(clock),
    }
