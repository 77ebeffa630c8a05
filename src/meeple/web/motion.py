"""The others' moves one at a time: the boards a seat saw after each move since a version, with words and marks.

A browser page that falls behind (a bot or another player moved) asks ``GET /tables/{id}/boards?since=V``: for each
move of its reader's log after version ``V`` (a numbered line and the rules' events that followed it), the board as
the reader saw it once that move was played, the move in words ("Ann assassinated the King") and the keys of the
board elements it acted on (``data-key``: a seat, a character, a tower, a zone, a card). The page plays them back at
its pace, marks those elements until its reader's next decision and lists the sentences in a turn summary.

What a reader may see of each board is what it saw then: the position after the move is rebuilt from the event log
(the game master's data), and drawn only through ``observation(seat)`` and the reader's redacted log of that moment,
with no legal move. Which positions are shown depends on the reader's own log alone (:meth:`State.line_ends`: a run
of another seat's hidden steps is one line, so one board, at its end); the words and marks come from the move as
the reader saw it (a move hidden from it marks only its player). ``tests/web/test_motion_frames.py`` re-deals every
board's world for its reader and requires the same frame.

Bounds: at most :data:`MAX_BOARDS` boards per request (older moves come as words and marks only),
:data:`MAX_LINES` lines of the log looked at, ``since`` at most 1,000,000, and ``--boards-per-minute`` requests per
client address (429 with ``Retry-After`` past it; the page waits that long). The route is
:mod:`meeple.web.pages.tables`'s; this module computes its frames.

Rules: issue #43 item 1 (paced moves, marks, the turn summary); docs/web.md.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from meeple.core.records import GameRecord
from meeple.core.state import SPECTATOR, HiddenAction, State
from meeple.core.undo import undo_in_turn
from meeple.i18n import Message, Translator
from meeple.web.games import WebGame

MAX_BOARDS = 24
"""Boards rendered for one request: a longer run of moves shows its last ones as boards, the rest as words."""
MAX_LINES = 200
"""Log lines one request looks at (``since`` older than that is read as the last :data:`MAX_LINES` lines)."""

Render = Callable[[State[Any], Sequence[tuple[int, Message]], str], str]
"""``render(state, log, words)``: the reader's board of ``state`` with ``log`` and no move, ``words`` its prompt."""


@dataclass
class Frame:
    """One move of the reader's log, as the page plays it back.

    Attributes:
        version: the reader's version once the move and its events are in (its log's length).
        actor: the seat that moved (-1 for the rules' own events before any move).
        own: the reader itself moved (shown at once, not marked).
        sentences: the move and its events in words, with the players' names ("Ann assassinated the King").
        marks: the ``data-key`` of every board element the move acted on (its player's seat first).
        board: the board then (HTML), None when the move is too old to be drawn (:data:`MAX_BOARDS`).
    """

    version: int
    actor: int
    own: bool
    sentences: list[str]
    marks: list[str] = field(default_factory=list)
    board: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The frame as ``GET /tables/{id}/boards`` sends it."""
        return {
            "version": self.version,
            "actor": self.actor,
            "own": self.own,
            "sentences": self.sentences,
            "marks": self.marks,
            "board": self.board,
        }


def groups(state: State[Any], perspective: int, since: int) -> list[tuple[int, int, int, int]]:
    """The reader's moves after its version ``since``: ``(first line, end line, history from, history to)`` each.

    A move is a line that is not an event, with the events that followed it; its actions are ``history[from:to]``
    and its board is the position after them (:meth:`State.line_ends`: where each line was complete).
    """
    lines = state.history_messages(perspective)
    ends = state.line_ends(perspective)
    events = {id(m) for _after, _seat, m in state.log_events}
    since = max(since, len(lines) - MAX_LINES, 0)
    out: list[tuple[int, int, int, int]] = []
    k = since
    while k < len(lines):
        end = k + 1
        while end < len(lines) and id(lines[end][1]) in events and ends[end] == ends[k]:
            end += 1
        out.append((k, end, ends[k - 1] if k else 0, ends[end - 1]))
        k = end
    return out


def sentence(web: WebGame, actor: int, message: Message, names: Callable[[int], str], reader: Translator) -> str:
    """A line of the log as a sentence with names: the game's past form ("Ann assassinated the King"), else "Ann: …".

    A ``seat`` argument (a seat counted from 0) reads as that seat's name.
    """
    human = web.human(message)
    past = web.past.get(message.msgid)
    if past is None or actor < 0:
        text = reader.message(human)
        return f"{names(actor)}: {text}" if actor >= 0 else text
    args: dict[str, Any] = {k: v for k, v in human.args.items()}
    if isinstance(message.args.get("seat"), int):
        args["seat"] = names(int(message.args["seat"]))
    singular, plural = (past.msgid, past.plural) if isinstance(past, Message) else (past, None)
    return reader.message(Message(singular, {**args, "actor": names(actor)}, None, plural))


def seen_json(state: State[Any], actor: int, action: Any, perspective: int) -> dict[str, Any] | None:
    """The action's JSON if ``perspective`` saw all of it (None: it saw it redacted)."""
    if isinstance(action, HiddenAction):  # a re-dealt world's stand-in for what the reader saw redacted
        return None
    seen = state.action_message(action, perspective=perspective, actor=actor)
    if seen != state.action_message(action, perspective=None, actor=actor):
        return None
    found: dict[str, Any] = action.to_json()
    return found


def frames(
    state: State[Any],
    seat: int | None,
    since: int,
    web: WebGame,
    names: Callable[[int], str],
    reader: Translator,
    render: Render,
    boards: int = MAX_BOARDS,
) -> list[Frame]:
    """Every move of ``seat``'s log after version ``since``, the last ``boards`` of them with their board.

    Args:
        state: the table's state now (the game master's: its history rebuilds the earlier positions).
        seat: the reader (None: a spectator).
        since: the reader's version the page shows.
        web: the game's web companion (words and marks).
        names: a seat's name as the page shows it.
        reader: the page's language.
        render: draws the reader's board of an earlier position (:data:`Render`).
        boards: how many of the last moves get their board (at most :data:`MAX_BOARDS`; 0: words and marks only,
            for a page that shows the others' moves at once).

    Returns:
        The frames, oldest first (the last one is the move that led to ``state``, drawn without the moves).
    """
    perspective = SPECTATOR if seat is None else seat
    found = groups(state, perspective, since)
    lines = state.history_messages(perspective)
    out: list[Frame] = []
    drawn = set(range(max(0, len(found) - min(boards, MAX_BOARDS)), len(found)))
    position: State[Any] | None = None
    done = 0
    for index, (first, end, start, length) in enumerate(found):
        actor = lines[first][0]
        words = [sentence(web, a, m, names, reader) for a, m in lines[first:end]]
        frame = Frame(end, actor, actor == seat, words)
        frame.marks = _marks(state, web, perspective, lines[first:end], start, length, actor)
        if index in drawn:
            if length == len(state.history):
                shown = state  # the move that led here: the position now (drawn without its moves)
            elif position is None:
                shown = position = GameRecord.from_state(state).replay(length)
            else:
                for _actor, action in state.history[done:length]:
                    position.apply_action(action)
                shown = position
            done = length
            frame.board = render(shown, shown.history_messages(perspective), " · ".join(words))
        out.append(frame)
    return out


def _marks(
    state: State[Any],
    web: WebGame,
    perspective: int,
    lines: Sequence[tuple[int, Message]],
    start: int,
    end: int,
    actor: int,
) -> list[str]:
    """The keys of what a move acted on: its player's seat, what its actions name as seen, what its events name."""
    keys = [f"seat-{actor}"] if actor >= 0 else []
    for mover, action in state.history[start:end]:
        data = seen_json(state, mover, action, perspective)
        if data is not None:
            keys += web.marks(data, mover)
    for who, message in lines[1:] if actor >= 0 else lines:
        keys += web.event_marks(message, who)
    return list(dict.fromkeys(keys))


def note_lines(takebacks: Sequence[Any], perspective: int) -> list[tuple[int, int]]:
    """The undos ``perspective`` saw, as ``(lines kept, seat)``: the log shows "took back a move" after that line."""
    return [(note.kept[perspective], note.seat) for note in takebacks if perspective in note.seen]


_OFFERS: weakref.WeakKeyDictionary[Any, dict[int, tuple[int, bool]]] = weakref.WeakKeyDictionary()
"""Per table: each seat's undo offer at the table's version (``undo_offer``), so a board refetched costs none."""


async def undo_offer(live: Any, seat: int | None) -> bool:
    """Whether ``seat`` may undo now (the engine's check, :func:`meeple.core.undo.undo_in_turn`): the board's Undo.

    Computed in a thread once per version of the table (the caller holds ``live.lock``); the server checks again
    when the undo comes.
    """
    if seat is None or live.status != "live" or live.mover() != seat:
        return False
    offers = _OFFERS.setdefault(live, {})
    known = offers.get(seat)
    if known is not None and known[0] == live.version:
        return known[1]
    earlier, _reason = await asyncio.to_thread(undo_in_turn, live.state, seat, list(live.by_bot))
    offers[seat] = (live.version, earlier is not None)
    return earlier is not None
