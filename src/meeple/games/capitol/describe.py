"""Texts of Capitol actions, redacted for the seats that may not see their hidden part (a sealed bid's steps).

Rules: capitol.md §5.3 (public and private information).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core import Action
from meeple.games.capitol.actions import (
    AddToBid,
    DrawCard,
    Pass,
    PlaceBuilding,
    PlaceFloor,
    PlaceRoof,
    PlaceTile,
    PlayCard,
    SealBid,
)
from meeple.games.capitol.data import CARD_NAME, CARD_TYPE, CARD_TYPES, COLOURS, FLOOR, ROOF, ROOF_NAMES

if TYPE_CHECKING:
    from meeple.games.capitol.game import Capitol

HIDDEN_BID = "prepare a sealed bid"
"""What other seats read for any step of a seat's bid (AddToBid and SealBid alike)."""

_PLAY_VERB = {ROOF: "place a roof", FLOOR: "take floors"}


def describe(game: Capitol, action: Action, actor: int, perspective: int | None) -> str:
    """Return the text of ``action`` by ``actor`` as ``perspective`` sees it (None = full text).

    Texts depend only on the action (never on the current state), so past actions read the same later. Other
    seats see every bid step as :data:`HIDDEN_BID`.
    """
    kind = type(action)
    if kind is PlayCard:
        assert isinstance(action, PlayCard)
        name = CARD_NAME[action.card]
        if not action.act:
            return f"play {name} without its action"
        return f"play {name} and {_PLAY_VERB.get(CARD_TYPE[action.card], 'place a building')}"
    if kind is AddToBid or kind is SealBid:
        if perspective is not None and perspective != actor:
            return HIDDEN_BID
        if isinstance(action, AddToBid):
            return f"bid: add {CARD_NAME[action.card]}"
        return "seal the bid"
    if isinstance(action, PlaceFloor):
        if action.onto == 0:
            return "floor: start a new building"
        return f"floor: add onto the unroofed building of height {action.onto}"
    if isinstance(action, PlaceRoof):
        return f"roof the building of height {action.height} with a {ROOF_NAMES[action.roof]} roof"
    if isinstance(action, PlaceBuilding):
        zone = game.zones[action.zone]
        return (
            f"place the {ROOF_NAMES[action.roof]}-roofed building of height {action.height} "
            f"in {zone.name} ({COLOURS[zone.colour]})"
        )
    if isinstance(action, PlaceTile):
        zone = game.zones[action.zone]
        return f"place the tile in {zone.name} ({COLOURS[zone.colour]})"
    if isinstance(action, DrawCard):
        return f"draw from the {CARD_TYPES[action.pile]} pile"
    if isinstance(action, Pass):
        return "pass"
    raise TypeError(f"not a Capitol action: {action!r}")
