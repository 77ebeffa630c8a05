"""The words of Citadels, as messages: characters, districts and colours.

The English words (the msgids) are those of the English edition (Fantasy Flight Games); the catalogs give the
French ones exactly as the Citadelles rulebook (1st edition) prints them: Condottiere, Cour des miracles,
Dracoport... (``meeple/locale/fr/LC_MESSAGES/meeple.po``, contexts ``citadels ...``). ``tools/catalogs.py extract``
adds :func:`vocabulary` to the template, so every word is translated once, in one place per language.

Rules: citadels.md §5.1 (district table), §5.2 (characters).
"""

from __future__ import annotations

from typing import Final

from meeple.games.citadels.data import CHARACTER_NAMES, COLOURS, KIND_INDEX, KINDS
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


PURPLE_TEXT: Final[dict[int, Message]] = {
    KIND_INDEX[key]: Message(text, None, "citadels purple card")
    for key, text in (
        (
            "cour_des_miracles",
            "For the final scoring, counts as a district of the colour of your choice; not if you built it in the "
            "last round.",
        ),
        ("donjon", "The Warlord cannot destroy the Keep."),
        ("laboratoire", "Once per turn, you may discard a district card from your hand and receive 1 gold."),
        ("manufacture", "Once per turn, you may pay 3 gold to draw 3 cards."),
        (
            "observatoire",
            "If you choose to draw cards at the start of your turn, draw 3, keep 1 and discard the others.",
        ),
        (
            "cimetiere",
            "When the Warlord destroys a district, you may pay 1 gold to take it into your hand, unless you are the "
            "Warlord.",
        ),
        ("bibliotheque", "If you choose to draw cards at the start of your turn, draw 2 and keep both."),
        ("ecole_de_magie", "For income, counts as a district of the colour of your choice."),
        ("universite", "Costs 6 gold to build but is worth 8 points at the end of the game."),
        ("dracoport", "Costs 6 gold to build but is worth 8 points at the end of the game."),
        ("grande_muraille", "The Warlord pays 1 more gold to destroy any other district in your city."),
    )
}
"""The text of each purple card (citadels.md §5.1; French: the rulebook's card texts)."""


def vocabulary() -> list[Message]:
    """Return every word of Citadels (for the catalogs' template)."""
    return [*CHARACTER[1:], *THE_CHARACTER[1:], *DISTRICT, *COLOUR, *PURPLE_TEXT.values()]
