"""Undo in terminal play: back to your previous decision, never across information revealed since.

The policy is Board Game Arena's: a player may take back a move as long as nothing they learned since depends on it
(a card drawn, a character revealed, a sealed bid opened) and no other human has played since.

"Nothing learned" is decided from the rules, not from a list per game: rebuild the position of the player's previous
decision and, in several worlds that player could not tell apart from it (``resample_from_infostate``), play the
same moves again. If in every world the player would now see exactly what they see (observation and log), the moves
since revealed nothing to them; a move that is not even legal in some world depended on something hidden, so it
revealed something too.

Rules: issue "Comfort at the table" (undo for humans, as Board Game Arena's undo policy).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.records import GameRecord
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.i18n import M, Message

WORLDS = 8
"""Worlds tried at the earlier decision (the more, the surer that nothing was revealed)."""


def revealed_since(earlier: State[Any], now: State[Any], seat: int, worlds: int = WORLDS) -> bool:
    """Whether the moves from ``earlier`` to ``now`` told ``seat`` anything it could not know at ``earlier``.

    Args:
        earlier: the position of the seat's earlier decision (a prefix of ``now``'s history).
        now: the current position.
        seat: the player asking.
        worlds: worlds resampled at ``earlier`` for the seat.
    """
    moves = [action for _actor, action in now.history[len(earlier.history) :]]
    seen = now.observation(seat)
    log = now.history_messages(seat)
    for k in range(worlds):
        world = earlier.resample_from_infostate(seat, Rng(k))
        try:
            for action in moves:
                world.apply_action(action)
        except MeepleError:
            return True  # a move that only the real hidden position allows: it depended on something hidden
        if world.observation(seat) != seen or world.history_messages(seat) != log:
            return True
    return False


def undo_target(
    state: State[Any], seat: int, decisions: Sequence[int], humans: Sequence[int]
) -> tuple[State[Any] | None, Message | None]:
    """Return the position of ``seat``'s previous decision, or why it cannot be taken back.

    Args:
        state: the current position.
        seat: the human asking to undo.
        decisions: the history lengths at which ``seat`` chose among several legal moves, oldest first.
        humans: every human seat (another human's move is never taken back).

    Returns:
        ``(position, None)`` to continue from, or ``(None, reason)``.
    """
    earlier_decisions = [d for d in decisions if d < len(state.history)]
    if not earlier_decisions:
        return None, M("you have made no move to take back yet")
    target = earlier_decisions[-1]
    others = {actor for actor, _a in state.history[target:] if actor in humans and actor != seat}
    if others:
        return None, M("seat {seat} has played since: their move cannot be taken back", seat=min(others))
    earlier = GameRecord.from_state(state).replay(target)
    if revealed_since(earlier, state, seat):
        return None, M("something was revealed to you since (a card drawn, a character revealed, a bid opened)")
    return earlier, None
