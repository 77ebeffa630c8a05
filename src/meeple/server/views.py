"""What each receiver of a table sees: pure functions of the state and one perspective.

Every payload the server sends about a game is built here from ``observation(seat)``, ``legal_actions(seat)`` and
``history_texts(seat)``, never from the ``State`` itself, so the leak tests of ``tests/server`` can compare the
payloads of worlds a receiver cannot tell apart (``resample_from_infostate``) without a running server.

Rules: architecture "Playing online" (views are computed per receiver); issue "Play online" (hidden information).
"""

from __future__ import annotations

from typing import Any

from meeple.core.state import SPECTATOR, State

LogLine = tuple[int, str]


def perspective_of(seat: int | None) -> int:
    """The ``history_texts`` perspective of a receiver: its seat, or :data:`SPECTATOR` (public view)."""
    return SPECTATOR if seat is None else seat


class LogCache:
    """The redacted log of one perspective, extended incrementally as actions are applied.

    ``lines`` always equals ``state.history_texts(perspective)``: the cache re-reads from the last action it had
    seen, so that a run of another seat's hidden steps collapses across calls exactly as in one call.
    """

    __slots__ = ("perspective", "lines", "upto")

    def __init__(self, perspective: int) -> None:
        self.perspective = perspective
        self.lines: list[LogLine] = []
        self.upto = 0  # actions of the history already read

    def update(self, state: State[Any]) -> list[LogLine]:
        """Bring the cache up to ``state`` and return all of its lines (shared list: do not modify)."""
        end = len(state.history)
        if end < self.upto:  # the table was rebuilt shorter (never in play; a safety net)
            self.lines, self.upto = [], 0
        if end > self.upto:
            if self.upto == 0:
                self.lines = state.history_texts(self.perspective)
            else:
                # the first line re-read is the last action already seen: equal to (or collapsed into) lines[-1]
                self.lines.extend(state.history_texts(self.perspective, self.upto - 1)[1:])
            self.upto = end
        return self.lines


def legal_actions_view(state: State[Any], seat: int | None) -> list[dict[str, Any]]:
    """The legal actions of ``seat`` as ``{"code", "text", "json"}`` (empty for a spectator or another's turn)."""
    if seat is None:
        return []
    encode = state.game.codec.encode
    return [
        {"code": encode(a), "text": state.action_to_string(a, perspective=seat, actor=seat), "json": a.to_json()}
        for a in state.legal_actions(seat)
    ]


def game_view(state: State[Any], seat: int | None, log: list[LogLine]) -> dict[str, Any]:
    """The game part of a ``state`` message for ``seat`` (None: spectator), minus the incremental log.

    Args:
        state: the table's state.
        seat: the receiver's seat, or None for a spectator.
        log: ``state.history_texts(perspective_of(seat))`` (a :class:`LogCache`'s lines).

    Returns:
        ``{"version", "current_player", "observation", "legal_actions", "returns"}`` where ``version`` is
        ``len(log)`` (the receiver's count of the actions, a run of another seat's hidden steps counting once).
    """
    over = state.is_terminal()
    return {
        "version": len(log),
        "current_player": None if over else state.current_player(),
        "observation": dict(state.observation(seat)),
        "legal_actions": legal_actions_view(state, seat),
        "returns": list(state.returns()) if over else None,
    }
