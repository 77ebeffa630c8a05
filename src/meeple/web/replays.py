"""The replay's steps: one per numbered log line its reader sees, so that "Move n" on the slider is line n of the log.

The slider of ``/tables/ID/replay-view`` counts what the log counts (:func:`meeple.web.boards.log_lines`): the
numbered lines of the reader's log (a seat's, or the spectator's for the full view). A run of another seat's hidden
steps is one line, so one step; a public event (a character revealed) is part of its move's step. Issue #33
(item 8: "replay that helps"; item 5: "real move numbers").
"""

from __future__ import annotations

from typing import Any

from meeple.core.records import GameRecord, replay
from meeple.server.views import LogCache


def numbered_lines(state: Any, perspective: int) -> int:
    """How many numbered lines (moves, not the rules' public events) the log of ``perspective`` holds at ``state``."""
    events = {id(m) for _after, _seat, m in state.log_events}
    return sum(1 for _actor, message in state.history_messages(perspective) if id(message) not in events)


def replay_steps(record: GameRecord, perspective: int) -> list[int]:
    """The version shown at each step: ``steps[n]`` actions, the last state whose log has ``n`` numbered lines.

    Args:
        record: a finished game's record.
        perspective: the reader's seat, or :data:`meeple.core.state.SPECTATOR` for the full view.

    Returns:
        ``steps`` with ``steps[0]`` the last version before the reader's first numbered line (0 if that line is the
        first action's) and ``steps[-1] == len(record.actions)``; one entry per numbered line after the first.
    """
    state = replay(record.game, record.params, record.seed, [])
    cache = LogCache(perspective)
    events: set[int] = set()
    numbered = counted = 0
    counts = [0]
    for action in record.actions:
        state.apply_action(action)
        lines = cache.update(state)
        events.update(id(m) for _after, _seat, m in state.log_events[len(events) :])
        numbered += sum(1 for _actor, message in lines[counted:] if id(message) not in events)
        counted = len(lines)
        counts.append(numbered)
    steps = [0] * (numbered + 1)
    for version, n in enumerate(counts):
        steps[n] = version  # the last version with n numbered lines
    return steps


def step_of(steps: list[int], version: int) -> int:
    """The step showing ``version`` actions: the first step whose version is at least ``version`` (clamped)."""
    for n, shown in enumerate(steps):
        if shown >= version:
            return n
    return len(steps) - 1
