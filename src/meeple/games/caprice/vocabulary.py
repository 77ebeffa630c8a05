"""The words of Caprice, as messages: the pieces (and the symbols, which show them).

A piece keeps its code in every language (``DR``, ``DT``, ``LR``, ``LT``: what a player types and what the towers
show); its name in words is a vocabulary word. The French names follow the French rulebook, which speaks of dark
("noirs") and light ("clairs") pieces of two shapes; it does not name the shapes, so "rond" and "dentelé" are our
choice, like the English "round" and "toothed" (from Luding; caprice.md §1).

Rules: caprice.md §1-2 (components).
"""

from __future__ import annotations

from typing import Final

from meeple.games.caprice.data import PIECE_NAMES, PIECE_TYPES
from meeple.i18n.message import Message

CONTEXT: Final = "caprice piece"

PIECE: Final[dict[str, Message]] = {code: Message(PIECE_NAMES[code], None, CONTEXT) for code in PIECE_TYPES}
"""A piece's name in words by code: ``PIECE["DT"]`` reads "dark toothed" / "noir dentelé"."""


def vocabulary() -> list[Message]:
    """Return every word of Caprice (for the catalogs' template)."""
    return list(PIECE.values())
