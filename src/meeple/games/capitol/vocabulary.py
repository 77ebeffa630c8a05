"""The words of Capitol, as messages: cards, piles, roofs, tiles and zone colours.

The English words (the msgids) are our choice (there is no English edition); the catalogs give the French ones as
the French rulebook prints them (étage, toit, permis de construire, sénateur, consul, fontaine, amphithéâtre,
temple), contexts ``capitol ...`` in ``meeple/locale/<lang>/LC_MESSAGES/meeple.po``. Card names keep the compact
form the command line accepts (``roof4``, ``floor3``, ``permitC1-5``), translated word by word (``toit4``).

Rules: capitol.md §1 (components and the colour naming schemes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from meeple.games.capitol.data import (
    CARD_COLOUR,
    CARD_TYPE,
    CARD_TYPES,
    CARD_VALUE,
    COLOUR_NAMES,
    COLOUR_SOURCES,
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

COLOUR_WORD: Final[dict[str, Message]] = {
    w: Message(w, None, "capitol colour") for w in sorted({w for names in COLOUR_NAMES.values() for w in names})
}
"""A colour group's display word: "blue", "pink", "mauve", "white", "red", "black" / "bleu", "rose"..."""
COLOUR_SOURCE: Final[dict[str, Message]] = {
    "fr_board": Message("French rulebook, board", None, CONTEXT),
    "it_board": Message("Italian rulebook, board", None, CONTEXT),
    "fr_permits": Message("French rulebook, permit cards", None, CONTEXT),
}
"""Where a colour naming comes from (:data:`COLOUR_SOURCES` keys)."""
_LEGEND_LINE: Final = Message("{source}: {names}", None, "capitol colour legend")


def colour_word(colour: str, source: str = COLOUR_SOURCES[0]) -> Message:
    """The display word of colour group ``colour`` (``"C1"``...) in ``source``; Rules: capitol.md §1 "Colours"."""
    return COLOUR_WORD[COLOUR_NAMES[source][COLOURS.index(colour)]]


def colour_legend(render: Callable[[Message], str]) -> list[str]:
    """One line per source: ``"French rulebook, board: C1 blue, C2 pink, C3 mauve"``, words by ``render``."""
    return [
        render(_LEGEND_LINE).format(
            source=render(COLOUR_SOURCE[src]), names=", ".join(f"{c} {render(colour_word(c, src))}" for c in COLOURS)
        )
        for src in COLOUR_SOURCES
    ]


def vocabulary() -> list[Message]:
    """Return every word of Capitol (for the catalogs' template)."""
    cards = {(m.msgid, m.context) for m in CARD}
    return [
        *(Message(msgid, None, ctx) for msgid, ctx in sorted(cards, key=str)),
        *PILE,
        *CARD_TYPE_NAME,
        *ROOF_NAME,
        *TILE_NAME,
        *COLOUR_WORD.values(),
        *COLOUR_SOURCE.values(),
        _LEGEND_LINE,
    ]
