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
from meeple.games.capitol.data import CARD_COLOUR, CARD_TYPE, COLOURS, FLOOR, ROOF
from meeple.games.capitol.vocabulary import CARD, CARD_TYPE_NAME, PILE, ROOF_NAME
from meeple.i18n.message import M, Message

if TYPE_CHECKING:
    from meeple.games.capitol.game import Capitol

HIDDEN_BID = M("prepare a sealed bid")
"""What other seats read for any step of a seat's bid (AddToBid and SealBid alike)."""


def _face_down(action: PlayCard) -> Message:
    """What the other seats read of a card played face down: its type, and a permit's colour when it acts.

    Rules: ``played_card=face_down`` (capitol.md §2 row n, FR reading; docs/decisions.md "Capitol").
    """
    t = CARD_TYPE[action.card]
    if not action.act:
        return M("play a {type} card face down, without its action", type=CARD_TYPE_NAME[t])
    if t == ROOF:
        return M("play a roof card face down and place a roof")
    if t == FLOOR:
        return M("play a floor card face down and take floors")
    return M("play a {colour} permit face down and place a building", colour=COLOURS[CARD_COLOUR[action.card]])


def describe(game: Capitol, action: Action, actor: int, perspective: int | None) -> Message:
    """Return the text of ``action`` by ``actor`` as ``perspective`` sees it (None = full text).

    Texts depend only on the action (never on the current state), so past actions read the same later. Other
    seats see every bid step as :data:`HIDDEN_BID`.
    """
    other = perspective is not None and perspective != actor
    if isinstance(action, AddToBid | SealBid) and other:
        return HIDDEN_BID
    if isinstance(action, PlayCard) and other and game.params.played_card == "face_down":
        return _face_down(action)
    match action:
        case PlayCard(card=card, act=act):
            if not act:
                return M("play {card} without its action", card=CARD[card])
            if CARD_TYPE[card] == ROOF:
                return M("play {card} and place a roof", card=CARD[card])
            if CARD_TYPE[card] == FLOOR:
                return M("play {card} and take floors", card=CARD[card])
            return M("play {card} and place a building", card=CARD[card])
        case AddToBid(card=card):
            return M("bid: add {card}", card=CARD[card])
        case SealBid():
            return M("seal the bid")
        case PlaceFloor(onto=0):
            return M("floor: start a new building")
        case PlaceFloor(onto=onto):
            return M("floor: add onto the unroofed building of height {height}", height=onto)
        case PlaceRoof(height=height, roof=roof):
            return M("roof the building of height {height} with a {roof} roof", height=height, roof=ROOF_NAME[roof])
        case PlaceBuilding(height=height, roof=roof, zone=z):
            zone = game.zones[z]
            return M(
                "place the {roof}-roofed building of height {height} in {zone} ({colour})",
                roof=ROOF_NAME[roof],
                height=height,
                zone=zone.name,
                colour=COLOURS[zone.colour],
            )
        case PlaceTile(zone=z):
            zone = game.zones[z]
            return M("place the tile in {zone} ({colour})", zone=zone.name, colour=COLOURS[zone.colour])
        case DrawCard(pile=pile):
            return M("draw from {pile}", pile=PILE[pile])
        case Pass():
            return M("pass")
    raise TypeError(f"not a Capitol action: {action!r}")
