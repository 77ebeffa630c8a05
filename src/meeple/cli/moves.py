"""Reading a typed move: a menu number, an action's text, a unique prefix, a command, or a game's shortcut.

Shared by ``meeple play`` at one terminal and at a server's table (:mod:`meeple.cli.online`): both match what the
user typed against the texts of the legal moves they were shown, and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meeple.cli.render import ParseFn

HELP_WORDS = ("help", "h", "?")
QUIT_WORDS = ("quit", "exit", "q")
RULES_WORDS = ("rules",)
BOARD_WORDS = ("board", "show")


@dataclass(frozen=True)
class Command:
    """A command typed instead of a move: ``"help"``, ``"quit"``, ``"rules"`` or ``"board"``."""

    name: str


@dataclass(frozen=True)
class Moves:
    """Action texts to play in order (one for a menu choice; several when a ``parse_input`` hook expands a line)."""

    texts: tuple[str, ...]


@dataclass(frozen=True)
class Problem:
    """Input that is neither a move nor a command; ``message`` says what was wrong and what is allowed."""

    message: str


def allowed(count: int) -> str:
    """What the prompt accepts, for a menu of ``count`` moves."""
    span = "1" if count == 1 else f"1-{count}"
    return f"type a move number ({span}), the text of a move, or help / rules / board / quit"


def interpret(line: str, legal_texts: Sequence[str], parse_input: ParseFn | None = None) -> Command | Moves | Problem:
    """Interpret one typed line against the numbered legal moves.

    Order: the exact text of a move (case-insensitive), a command word, a move number, the game's ``parse_input``
    hook, a unique prefix of a move's text.

    Args:
        line: what the user typed.
        legal_texts: the texts of the legal moves, in menu order (menu number ``k`` is ``legal_texts[k - 1]``).
        parse_input: the game's optional input hook (see :mod:`meeple.cli.render`).

    Returns:
        The moves to play, a command, or a problem to show before asking again.
    """
    text = line.strip()
    lower = text.lower()
    count = len(legal_texts)
    if not text:
        return Problem(f"Nothing typed: {allowed(count)}.")
    for t in legal_texts:
        if t.lower() == lower:
            return Moves((t,))
    for words, name in ((HELP_WORDS, "help"), (QUIT_WORDS, "quit"), (RULES_WORDS, "rules"), (BOARD_WORDS, "board")):
        if lower in words:
            return Command(name)
    if text.isdigit():
        k = int(text)
        if 1 <= k <= count:
            return Moves((legal_texts[k - 1],))
        return Problem(f"{k} is not a legal move number: {allowed(count)}.")
    if parse_input is not None:
        expanded = parse_input(text, list(legal_texts))
        if expanded is not None:
            if not expanded:
                return Problem(f"{text!r} gives no move: {allowed(count)}.")
            return Moves(tuple(expanded))
    matches = [t for t in legal_texts if t.lower().startswith(lower)]
    if len(matches) == 1:
        return Moves((matches[0],))
    if len(matches) > 1:
        shown = "; ".join(matches[:6]) + ("; ..." if len(matches) > 6 else "")
        return Problem(f"{text!r} matches several moves ({shown}): type more of it, or its number.")
    return Problem(f"{text!r} is not a legal move: {allowed(count)}.")
