"""The people at a table: their names, the names shown for bots and unnamed seats, and the cleaning of what they type.

A name or a chat line comes from a stranger: it is bounded, normalised (Unicode NFC), stripped of control and format
characters (C0/C1 controls, bidirectional overrides, zero-width characters) and of surrounding blanks, and its inner
runs of blanks become one space. It stays plain text: every client escapes it where it shows it (the JSON of a frame
is not HTML; the terminal client escapes Rich markup; the web client sets ``textContent``).

Rules: issue #34 "People at the table" (items 1 and 4: names are length-limited, stripped of control characters and
always escaped; chat text is bounded).
"""

from __future__ import annotations

import re
import unicodedata

from meeple.i18n import M, Message, Translator

MAX_NAME = 24
"""Characters of a player's name, after cleaning."""
MAX_CHAT = 500
"""Characters of a chat line, as sent (a longer line is refused, not cut)."""

_BLANKS = re.compile(r"\s+")
BOT_LEVELS = {
    "random": M("random bot"),
    "easy": M("easy bot"),
    "medium": M("medium bot"),
    "hard": M("hard bot"),
}
"""The name shown for a bot seat of each allowed level (translated per receiver)."""


def clean_text(text: str) -> str:
    """``text`` as one line of plain text: NFC, no control or format characters, blanks collapsed and stripped.

    Every character of Unicode category ``C*`` (``Cc`` controls, ``Cf`` format characters such as U+202E RIGHT-TO-LEFT
    OVERRIDE and U+200B ZERO WIDTH SPACE, ``Cs``, ``Co``, ``Cn``) is dropped, except that tabs and line breaks become
    blanks first.
    """
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if ch in "\t\n\r\v\f\x85\u2028\u2029" else ch for ch in text)
    kept = "".join(ch for ch in text if not unicodedata.category(ch).startswith("C"))
    return _BLANKS.sub(" ", kept).strip()


def clean_name(name: str) -> str:
    """A player's name, cleaned (:func:`clean_text`) and checked.

    Raises:
        ValueError: nothing is left once cleaned, or more than :data:`MAX_NAME` characters are (pydantic turns this
            into a 422 naming the field).
    """
    cleaned = clean_text(name)
    if not cleaned:
        raise ValueError("a name needs at least one visible character")
    if len(cleaned) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters")
    return cleaned


def clean_chat(text: str) -> str:
    """A chat line, cleaned (:func:`clean_text`).

    Raises:
        ValueError: nothing is left once cleaned.
    """
    cleaned = clean_text(text)
    if not cleaned:
        raise ValueError("a chat line needs at least one visible character")
    return cleaned


def seat_label(player: str, seat: int) -> Message:
    """What a seat without a chosen name is called, as a message: a bot's level, "open seat" or "Seat N".

    Args:
        player: the seat spec (``human``, ``open``, ``bot:<spec>``).
        seat: the seat's index.
    """
    if player == "open":
        return M("open seat")
    if player.startswith("bot:"):
        spec = player.removeprefix("bot:")
        return BOT_LEVELS.get(spec) or M("bot {spec}", spec=spec)
    return M("Seat {seat}", seat=seat)


SEAT_NUMBER = re.compile(r"\bseat \{(\w+)\}", re.IGNORECASE)
"""A message naming a seat by its index ("Seat {seat}", "it is seat {seat}'s turn, not seat {player}'s")."""


def seats_from_one(message: Message) -> Message:
    """``message`` with every seat it names by index counted from 1, as people count ("Seat 1" for seat 0).

    The protocol and the terminal count seats from 0; the browser page counts them from 1 (issue #33), so the texts a
    page's connection is sent (errors, the chat's names of unnamed seats) are rewritten, nested messages too.
    """
    named = set(SEAT_NUMBER.findall(message.msgid))
    args: dict[str, object] = {}
    changed = False
    for key, value in message.args.items():
        new = seats_from_one(value) if isinstance(value, Message) else value
        if key in named and isinstance(value, int) and not isinstance(value, bool):
            new = value + 1
        changed = changed or new is not value
        args[key] = new
    return Message(message.msgid, args, message.context, message.plural) if changed else message


class PeopleTranslator(Translator):
    """A language whose :meth:`message` counts seats from 1 (:func:`seats_from_one`): the browser page's texts.

    Args:
        base: the language (its catalog is shared).
    """

    def __init__(self, base: Translator) -> None:
        super().__init__(base.lang, base._catalog)

    def message(self, message: Message | str) -> str:
        """Render ``message`` in this language, seats counted from 1."""
        return super().message(message if isinstance(message, str) else seats_from_one(message))

    def __repr__(self) -> str:
        return f"PeopleTranslator({self.lang!r})"


def display_name(player: str, name: str | None, seat: int, translator: Translator) -> str:
    """:func:`seat_label` in ``translator``'s language (a chosen name is never translated)."""
    if name:
        return name
    return translator.message(seat_label(player, seat))


def spectator_name(translator: Translator) -> str:
    """The name under which a spectator's chat line is shown."""
    return translator.message(M("spectator"))
