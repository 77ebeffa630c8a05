"""The words of Capital Lux 2, as messages: colours, citizen cards, power tiles, ROB's cards and the solo ratings.

The English words (the msgids) are our choice where no English edition prints them (tile names: the publisher's
English names where known, else a plain translation; docs/decisions.md); the catalogs give the French ones as the
French rulebook prints them (bleu, rose, jaune, vert; Agent, Clerc, Étranger...), contexts ``capital lux 2 ...``.

Rules: capital_lux_2.md §1 (components), §9 (power tiles), "Solo" (ROB and the rating scale).
"""

from __future__ import annotations

from typing import Final

from meeple.games.capital_lux_2.data import (
    CARD_COLOUR,
    CARD_VALUE,
    COLOUR_NAMES,
    NUM_CARDS,
    ROB_BONUS,
    ROB_KIND_NAMES,
    ROB_RED,
    SOLO_RATINGS,
)
from meeple.games.capital_lux_2.powers import POWERS
from meeple.games.capital_lux_2.powers.base import TILE_CONTEXT
from meeple.i18n.message import M, Message, join

CONTEXT: Final = "capital lux 2"

COLOUR: Final[tuple[Message, ...]] = tuple(Message(c, None, CONTEXT) for c in COLOUR_NAMES)
"""A family's colour by index: "blue" / "bleu"."""
LETTER: Final[tuple[Message, ...]] = tuple(
    Message(letter, None, "capital lux 2 colour letter") for letter in ("B", "P", "Y", "G")
)
"""A colour's letter, shown with it so that colour is never the only carrier: B P Y G / B R J V."""
CARD: Final[tuple[Message, ...]] = tuple(
    M("{colour} {value} (#{id})", colour=COLOUR[CARD_COLOUR[c]], value=CARD_VALUE[c], id=c) for c in range(NUM_CARDS)
)
"""A citizen card by id: "blue 3 (#7)" / "bleu 3 (#7)"."""
TILE_NAME: Final[dict[str, Message]] = {t.tile_id: Message(t.name_en, None, TILE_CONTEXT) for t in POWERS.values()}
"""A power tile's name by id: "Foreigner" / "Étranger"."""
ROB_KIND: Final[tuple[Message, ...]] = tuple(Message(k, None, "capital lux 2 rob") for k in ROB_KIND_NAMES)
RED: Final = Message("red", None, "capital lux 2 rob")
BONUS: Final = Message("bonus", None, "capital lux 2 rob")
DRAFT: Final = Message("draft", None, "capital lux 2 phase")
"""The round's first phase, when the players make up their hands (rulebook: "se composent une main"); a context of
its own, since Citadels' draft is "choix des personnages"."""
RATING: Final[dict[str, Message]] = {
    name: Message(name, None, "capital lux 2 rating") for name in ("lost", *(n for _, n in SOLO_RATINGS))
}
"""A solo rating label (the rulebook's "taux de réussite" scale): "decent" / ..."""


def rob_card(code: int) -> Message:
    """Return a ROB card by code: "left (red, bonus)" / "gauche (rouge, bonus)"."""
    marks = [m for m, bit in ((RED, ROB_RED), (BONUS, ROB_BONUS)) if code & bit]
    kind = ROB_KIND[code & 3]
    return M("{card} ({marks})", card=kind, marks=join(marks)) if marks else kind


def vocabulary() -> list[Message]:
    """Return every word of Capital Lux 2 (for the catalogs' template)."""
    return [*COLOUR, *LETTER, *TILE_NAME.values(), *ROB_KIND, RED, BONUS, *RATING.values(), DRAFT]
