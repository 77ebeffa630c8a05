"""The words of Citadels, as messages: characters, districts and colours.

The English words (the msgids) are those of the English edition (Fantasy Flight Games); the catalogs give the
French ones exactly as the Citadelles rulebook (1st edition) prints them: Condottiere, Cour des miracles,
Dracoport... (``meeple/locale/fr/LC_MESSAGES/meeple.po``, contexts ``citadels ...``). ``tools/catalogs.py extract``
adds :func:`vocabulary` to the template, so every word is translated once, in one place per language.

Rules: citadels.md §5.1 (district table), §5.2 (characters).
"""

from __future__ import annotations

from typing import Final

from meeple.games.citadels.data import CHARACTER_NAMES, COLOURS, KINDS
from meeple.i18n.message import Message

CHARACTER_CONTEXT: Final = "citadels character"
DISTRICT_CONTEXT: Final = "citadels district"
COLOUR_CONTEXT: Final = "citadels colour"

CHARACTER: Final[tuple[Message, ...]] = tuple(Message(n or "—", None, CHARACTER_CONTEXT) for n in CHARACTER_NAMES)
"""A character's name by number, e.g. ``CHARACTER[8]`` reads Warlord / Condottiere (index 0: "—")."""
THE_CHARACTER: Final[tuple[Message, ...]] = tuple(
    Message(f"the {n}" if n else "—", None, CHARACTER_CONTEXT) for n in CHARACTER_NAMES
)
"""A character's name with its definite article: "the Warlord" / "le Condottiere", "l'Assassin"."""
DISTRICT: Final[tuple[Message, ...]] = tuple(Message(k.name, None, DISTRICT_CONTEXT) for k in KINDS)
"""A district's name by kind, e.g. "Dragon Gate" / "Dracoport"."""
COLOUR: Final[tuple[Message, ...]] = tuple(Message(c, None, COLOUR_CONTEXT) for c in COLOURS)
"""A colour's name by colour index: "blue" / "bleu"."""


def vocabulary() -> list[Message]:
    """Return every word of Citadels (for the catalogs' template)."""
    return [*CHARACTER[1:], *THE_CHARACTER[1:], *DISTRICT, *COLOUR]
