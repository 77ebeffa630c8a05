"""What each receiver of a table sees: pure functions of the state and one perspective.

Every payload the server sends about a game is built here from ``observation(seat)``, ``legal_actions(seat)`` and
``history_messages(seat)``, never from the ``State`` itself, so the leak tests of ``tests/server`` can compare the
payloads of worlds a receiver cannot tell apart (``resample_from_infostate``) without a running server.

Rules: architecture "Playing online" (views are computed per receiver); issue "Play online" (hidden information).
"""

from __future__ import annotations

from typing import Any

from meeple.core.state import SPECTATOR, State
from meeple.i18n import Message, Translator

LogLine = tuple[int, Message]
"""An action of the log as its receiver saw it: ``(actor, message)``; frames carry it rendered in a language."""


def perspective_of(seat: int | None) -> int:
    """The ``history_messages`` perspective of a receiver: its seat, or :data:`SPECTATOR` (public view)."""
    return SPECTATOR if seat is None else seat


class LogCache:
    """The redacted log of one perspective, extended incrementally as actions are applied.

    ``lines`` always equals ``state.history_messages(perspective)``: the cache re-reads from the last action it had
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
                self.lines = state.history_messages(self.perspective)
            else:
                # the first line re-read is the last action already seen: equal to (or collapsed into) lines[-1];
                # the events that followed it were read with it
                seen_events = sum(1 for after, _seat, _m in reversed(state.log_events) if after == self.upto)
                again = state.history_messages(self.perspective, self.upto - 1)
                self.lines.extend(again[1 + seen_events :])
            self.upto = end
        return self.lines


def log_texts(lines: list[LogLine], translator: Translator) -> list[tuple[int, str]]:
    """The log lines as ``(actor, text)`` in ``translator``'s language (what frames carry)."""
    return [(actor, translator.message(message)) for actor, message in lines]


def legal_actions_view(state: State[Any], seat: int | None, translator: Translator) -> list[dict[str, Any]]:
    """The legal actions of ``seat``: ``{"code", "text", "message", "json"}`` (none for a spectator, another's turn).

    ``text`` is in ``translator``'s language; ``message`` is the same text as a message (``Message.to_json``), from
    which a client renders any language (the English one is ``action_to_string``).
    """
    if seat is None:
        return []
    encode = state.game.codec.encode
    out = []
    for action in state.legal_actions(seat):
        message = state.offer_message(action, perspective=seat)
        out.append(
            {
                "code": encode(action),
                "text": translator.message(message),
                "message": message.to_json(),
                "json": action.to_json(),
            }
        )
    return out


def game_view(state: State[Any], seat: int | None, log: list[LogLine], translator: Translator) -> dict[str, Any]:
    """The game part of a ``state`` message for ``seat`` (None: spectator), minus the incremental log.

    Args:
        state: the table's state.
        seat: the receiver's seat, or None for a spectator.
        log: ``state.history_messages(perspective_of(seat))`` (a :class:`LogCache`'s lines).
        translator: the receiver's language (legal actions' texts).

    Returns:
        ``{"version", "current_player", "observation", "legal_actions", "returns"}`` where ``version`` is
        ``len(log)`` (the receiver's count of the actions, a run of another seat's hidden steps counting once).
    """
    over = state.is_terminal()
    return {
        "version": len(log),
        "current_player": None if over else state.current_player(),
        "observation": dict(state.observation(seat)),
        "legal_actions": legal_actions_view(state, seat, translator),
        "returns": list(state.returns()) if over else None,
    }
