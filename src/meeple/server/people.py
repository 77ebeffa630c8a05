"""The people at a table: their names, the names shown for bots and unnamed seats, and the cleaning of what they type.

A name or a chat line comes from a stranger: it is normalised (Unicode NFC), stripped of control and format
characters (C0/C1 controls, bidirectional overrides, zero-width characters) and of every other invisible character
(Unicode's default-ignorable code points: variation selectors, tags, the combining grapheme joiner...), its blank-
looking fillers (U+3164 HANGUL FILLER and its kin, U+2800 BRAILLE PATTERN BLANK) are blanks, its surrounding blanks
go and its inner runs of blanks become one space. It is bounded once cleaned (NFC may make a text longer: U+FB2C is
three characters once normalised), holds a visible character (a letter, digit, punctuation or symbol), and stacks at
most :data:`MAX_MARKS` combining marks on one character (no "Zalgo" text spilling over its neighbours). It stays
plain text: every client escapes it where it shows it (the JSON of a frame is not HTML; the terminal client escapes
Rich markup; the web client sets ``textContent``).

Rules: issue #34 "People at the table" (items 1 and 4: names are length-limited, stripped of control characters and
always escaped; chat text is bounded); issue #41 (item 13: bounded after cleaning; item 15: invisible and Zalgo
names).
"""

from __future__ import annotations

import re
import unicodedata

import regex

from meeple.core.errors import MeepleError
from meeple.i18n import M, Message, Translator

MAX_NAME = 24
"""Characters of a player's name, after cleaning."""
MAX_CHAT = 500
"""Characters of a chat line, after cleaning (a longer line is refused, not cut)."""
RAW_FACTOR = 4
"""The raw input of a name or chat line may be this many times its bound: cleaning drops and composes characters."""
MAX_MARKS = 4
"""Combining marks (Unicode ``Mn``, ``Me``) stacked on one character at most, once normalised: Vietnamese, Thai,
Arabic, Hebrew with its points and Devanagari need fewer; "Zalgo" text stacks dozens."""

_BLANKS = re.compile(r"\s+")
_INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
"""Characters that are never drawn (Unicode's derived property; the ``regex`` library knows it, ``re`` does not)."""
_FILLERS = str.maketrans(dict.fromkeys("\u115f\u1160\u3164\uffa0\u2800", " "))
"""Fillers drawn as a blank (the Hangul fillers, the blank Braille pattern): blanks, not letters or symbols."""
_LINE_BREAKS = str.maketrans(dict.fromkeys("\t\n\r\v\f\x85\u2028\u2029", " "))
_VISIBLE = frozenset("LNPS")
"""Unicode categories (their first letter) of characters that show something: letters, digits, punctuation, symbols."""
BOT_LEVELS = {
    "random": M("random bot"),
    "easy": M("easy bot"),
    "medium": M("medium bot"),
    "hard": M("hard bot"),
}
"""The name shown for a bot seat of each allowed level (translated per receiver)."""


def clean_text(text: str) -> str:
    """``text`` as one line of plain text: NFC, nothing invisible, blanks collapsed and stripped.

    Every character of Unicode category ``C*`` (``Cc`` controls, ``Cf`` format characters such as U+202E RIGHT-TO-LEFT
    OVERRIDE and U+200B ZERO WIDTH SPACE, ``Cs``, ``Co``, ``Cn``) and every default-ignorable code point (variation
    selectors, tags, U+034F COMBINING GRAPHEME JOINER...) is dropped; tabs, line breaks and the blank-looking fillers
    (U+3164 HANGUL FILLER, U+115F, U+1160, U+FFA0, U+2800 BRAILLE PATTERN BLANK) become blanks first.
    """
    text = unicodedata.normalize("NFC", text).translate(_LINE_BREAKS).translate(_FILLERS)
    kept = "".join(ch for ch in _INVISIBLE.sub("", text) if not unicodedata.category(ch).startswith("C"))
    return _BLANKS.sub(" ", kept).strip()


class TextRefused(MeepleError, ValueError):
    """A name or a chat line refused once cleaned; its message (a :class:`Message`) says why and what is allowed.

    A ``ValueError``: pydantic turns it into a 422 naming the field; the pages and the WebSocket show its message in
    the reader's language.
    """


TEXT_PROBLEMS = {
    "name": (
        M("a name needs at least one visible character"),
        M("a name has at most {n} characters"),
        M("a name has at most {n} accents or marks stacked on one character"),
    ),
    "chat": (
        M("a chat line needs at least one visible character"),
        M("a chat line has at most {n} characters"),
        M("a chat line has at most {n} accents or marks stacked on one character"),
    ),
}
"""What is wrong with a name or a chat line: nothing visible, too long, marks stacked (:func:`check_text`)."""


def check_text(cleaned: str, kind: str, limit: int) -> str:
    """``cleaned`` (:func:`clean_text`'s) if it is within ``limit`` characters, shows something and is no Zalgo.

    Args:
        cleaned: the cleaned text.
        kind: what it is, ``name`` or ``chat`` (the errors of :data:`TEXT_PROBLEMS`).
        limit: its most characters.

    Raises:
        TextRefused: more than ``limit`` characters, none visible, or more than :data:`MAX_MARKS` combining marks on
            one character (the message says which, and what is allowed).
    """
    invisible, long, stacked_marks = TEXT_PROBLEMS[kind]
    if not any(unicodedata.category(ch)[0] in _VISIBLE for ch in cleaned):
        raise TextRefused(invisible)
    if len(cleaned) > limit:
        raise TextRefused(Message(long.msgid, {"n": limit}))
    stacked = 0
    for ch in cleaned:
        stacked = stacked + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        if stacked > MAX_MARKS:
            raise TextRefused(Message(stacked_marks.msgid, {"n": MAX_MARKS}))
    return cleaned


def clean_name(name: str) -> str:
    """A player's name, cleaned (:func:`clean_text`) and checked (:func:`check_text`) once cleaned.

    Raises:
        TextRefused: nothing visible is left once cleaned, more than :data:`MAX_NAME` characters are, or marks are
            stacked (pydantic turns this into a 422 naming the field).
    """
    return check_text(clean_text(name), "name", MAX_NAME)


def clean_chat(text: str) -> str:
    """A chat line, cleaned (:func:`clean_text`) and checked (:func:`check_text`) once cleaned.

    Raises:
        TextRefused: nothing visible is left once cleaned, more than :data:`MAX_CHAT` characters are, or marks are
            stacked.
    """
    return check_text(clean_text(text), "chat", MAX_CHAT)


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
