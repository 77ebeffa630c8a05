"""The words of Capitol, as messages: cards, piles, roofs, tiles and zone colours.

The English words (the msgids) are our choice (there is no English edition); the catalogs give the French ones as
the French rulebook prints them (étage, toit, permis de construire, sénateur, consul, fontaine, amphithéâtre,
temple), contexts ``capitol ...`` in ``meeple/locale/<lang>/LC_MESSAGES/meeple.po``. Card names keep the compact
form the command line accepts (``roof4``, ``floor3``, ``permitC1-5``), translated word by word (``toit4``).

Rules: capitol.md §1 (components and the colour naming schemes).
"""

from __future__ import annotations

from typing import Final

from meeple.games.capitol.data import (
    CARD_COLOUR,
    CARD_TYPE,
    CARD_TYPES,
    CARD_VALUE,
    COLOURS,
    NUM_CARDS,
    PERMIT,
    ROOF_NAMES,
    TILE_NAMES,
)
from meeple.i18n.message import Message

CONTEXT: Final = "capitol"

_CARD_FORMS: Final = ("roof{value}", "floor{value}", "permit{colour}-{value}")


def _card(card: int) -> Message:
    args: dict[str, object] = {"value": CARD_VALUE[card]}
    if CARD_TYPE[card] == PERMIT:
        args["colour"] = COLOURS[CARD_COLOUR[card]]
    return Message(_CARD_FORMS[CARD_TYPE[card]], args, CONTEXT)


CARD: Final[tuple[Message, ...]] = tuple(_card(c) for c in range(NUM_CARDS))
"""A card's compact name by id: ``roof4`` / ``toit4``, ``permitC1-5`` / ``permisC1-5``."""
PILE: Final[tuple[Message, ...]] = tuple(Message(f"the {t} pile", None, CONTEXT) for t in CARD_TYPES)
"""A face-up pile by card type: "the roof pile" / "la pile des toits"."""
CARD_TYPE_NAME: Final[tuple[Message, ...]] = tuple(Message(t, None, CONTEXT) for t in CARD_TYPES)
"""A card type: "roof", "floor", "permit" / "toit", "étage", "permis"."""
ROOF_NAME: Final[tuple[Message, ...]] = tuple(Message(n, None, "capitol roof") for n in ROOF_NAMES)
"""A roof shape: "round", "triangular" / "rond", "triangulaire"."""
TILE_NAME: Final[tuple[Message, ...]] = tuple(Message(n, None, CONTEXT) for n in TILE_NAMES)
"""A tile: "amphitheatre", "temple", "fountain" / "amphithéâtre", "temple", "fontaine"."""


def vocabulary() -> list[Message]:
    """Return every word of Capitol (for the catalogs' template)."""
    cards = {(m.msgid, m.context) for m in CARD}
    return [
        *(Message(msgid, None, ctx) for msgid, ctx in sorted(cards, key=str)),
        *PILE,
        *CARD_TYPE_NAME,
        *ROOF_NAME,
        *TILE_NAME,
    ]
