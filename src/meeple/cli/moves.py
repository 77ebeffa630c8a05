"""Reading a typed move: a menu number, an action's text, a unique prefix, a command, or a game's shortcut.

Shared by ``meeple play`` at one terminal and at a server's table (:mod:`meeple.cli.online`): both match what the
user typed against the texts of the legal moves they were shown, and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meeple.cli.render import InputProblem, ParseFn
from meeple.i18n import _

HELP_WORDS = ("help", "h", "?", "aide")
QUIT_WORDS = ("quit", "exit", "q", "quitter")
RULES_WORDS = ("rules", "règles", "regles")
BOARD_WORDS = ("board", "show", "plateau")
UNDO_WORDS = ("undo", "u", "annuler")


@dataclass(frozen=True)
class Command:
    """A command typed instead of a move: ``"help"``, ``"quit"``, ``"rules"``, ``"board"`` or ``"undo"``."""

    name: str


@dataclass(frozen=True)
class Moves:
    """Action texts to play in order (one for a menu choice; several when a ``parse_input`` hook expands a line)."""

    texts: tuple[str, ...]


@dataclass(frozen=True)
class Problem:
    """Input that is neither a move nor a command; ``message`` says what was wrong and what is allowed."""

    message: str


COMMAND_WORDS = (*HELP_WORDS[:1], *QUIT_WORDS[:1], *RULES_WORDS[:1], *BOARD_WORDS[:1], *UNDO_WORDS[:1])
"""The commands offered by completion (one word each; the others are aliases)."""


def completions(text: str, moves: Sequence[str]) -> list[str]:
    """The move texts and command words that begin with ``text`` (case-insensitive), for Tab completion."""
    lower = text.lower()
    return sorted({w for w in (*moves, *COMMAND_WORDS) if w.lower().startswith(lower)}, key=str.lower)


def allowed(count: int) -> str:
    """What the prompt accepts, for a menu of ``count`` moves (in the current language)."""
    span = "1" if count == 1 else f"1-{count}"
    return _("type a move number ({span}), the text of a move, or help / rules / board / undo / quit").format(span=span)


def interpret(
    line: str,
    legal_texts: Sequence[str],
    parse_input: ParseFn | None = None,
    source_texts: Sequence[str] | None = None,
) -> Command | Moves | Problem:
    """Interpret one typed line against the numbered legal moves.

    Order: the exact text of a move (case-insensitive), a command word, a move number, the game's ``parse_input``
    hook, a unique prefix of a move's text. A move may be typed in the language shown or in English (issue "French
    and English everywhere": a move typed in either language is understood).

    Args:
        line: what the user typed.
        legal_texts: the texts of the legal moves as shown, in menu order (menu number ``k`` is
            ``legal_texts[k - 1]``).
        parse_input: the game's optional input hook (see :mod:`meeple.cli.render`); it reads the English texts.
        source_texts: the same moves' English texts (``action_to_string``), default ``legal_texts``.

    Returns:
        The moves to play (texts as shown, or English texts from the hook), a command, or a problem to show before
        asking again.
    """
    english = list(legal_texts if source_texts is None else source_texts)
    shown = list(legal_texts)
    text = line.strip()
    lower = text.lower()
    count = len(shown)
    if not text:
        return Problem(_("Nothing typed: {allowed}.").format(allowed=allowed(count)))
    for texts in (shown, english):
        for t in texts:
            if t.lower() == lower:
                return Moves((t,))
    commands = ((HELP_WORDS, "help"), (QUIT_WORDS, "quit"), (RULES_WORDS, "rules"), (BOARD_WORDS, "board"))
    for words, name in (*commands, (UNDO_WORDS, "undo")):
        if lower in words:
            return Command(name)
    if text.isdigit():
        k = int(text)
        if 1 <= k <= count:
            return Moves((shown[k - 1],))
        return Problem(_("{k} is not a legal move number: {allowed}.").format(k=k, allowed=allowed(count)))
    if parse_input is not None:
        try:
            expanded = parse_input(text, english)
        except InputProblem as problem:
            return Problem(str(problem))
        if expanded is not None:
            if not expanded:
                return Problem(_("{text!r} gives no move: {allowed}.").format(text=text, allowed=allowed(count)))
            return Moves(tuple(expanded))
    for texts in (shown, english):
        matches = [t for t in texts if t.lower().startswith(lower)]
        if len(matches) == 1:
            return Moves((matches[0],))
        if len(matches) > 1:
            listed = "; ".join(matches[:6]) + ("; ..." if len(matches) > 6 else "")
            return Problem(
                _("{text!r} matches several moves ({listed}): type more of it, or its number.").format(
                    text=text, listed=listed
                )
            )
    return Problem(_("{text!r} is not a legal move: {allowed}.").format(text=text, allowed=allowed(count)))
