"""Why a Capitol move is refused, in words the seat to move may read (``State.why_illegal``).

Each reason names the rule that stops the move, from what the seat to move knows (its hand, its buildings, the
board): a card it does not hold, an empty supply, a permit's colour, a zone's roof type or height rule, a full zone.
Rules: capitol.md §5.2 (Construction, Floor, Roof and Permit actions; Improvement; End phase).
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
from meeple.games.capitol.const import AUCTION, CONSTRUCTION, END
from meeple.games.capitol.data import CARD_COLOUR, CARD_REP, CARD_TYPE, COLOURS, FLOOR, FOUNTAIN, PERMIT, ROOF
from meeple.games.capitol.vocabulary import CARD, PILE, ROOF_NAME
from meeple.i18n.message import M, Message

if TYPE_CHECKING:
    from meeple.games.capitol.state import CapitolState


_NOT_NOW = M("this move is not possible now")
"""The last resort: every rule above was checked and none names the refusal."""


def why_illegal(st: CapitolState, action: Action) -> Message:
    """Return why ``action`` (not legal now) is refused: the action under way or the phase, then the move's rule."""
    if st.stack:
        return _why_decision(st, action)
    match action:
        case PlayCard(card=card, act=act):
            return _why_play(st, card, act) or _NOT_NOW
        case AddToBid(card=card):
            return _why_bid(st, card) or _NOT_NOW
        case SealBid():
            return M("bids are sealed in the Improvement phase, while a lot is auctioned")
        case Pass():
            if st.phase == AUCTION:
                return M("in an auction nobody passes: seal your bid (an empty bid bids nothing)")
            return M("in the end phase every seat draws its cards: nobody passes")
        case DrawCard(pile=pile):
            if st.phase != END:
                return M("cards are drawn in the end phase of a round")
            return M("{pile} is empty", pile=PILE[pile])
        case PlaceFloor():
            return M("floors are placed after playing a floor card with its action")
        case PlaceRoof():
            return M("a roof is placed after playing a roof card with its action")
        case PlaceBuilding(height=height, roof=roof, zone=zone):
            return _why_building(st, height, roof, zone) or _NOT_NOW
        case PlaceTile(zone=zone):
            return _why_tile(st, zone) or _NOT_NOW
    return _NOT_NOW


def _why_decision(st: CapitolState, action: Action) -> Message:
    """An action under way (a floor, roof or permit action, a won tile) is finished before anything else."""
    top = st.stack[-1]
    p = st.to_move
    if top.kind == "floor":
        if isinstance(action, PlaceFloor):
            return M("you have no unroofed building of height {height}", height=action.onto)
        return M("first place the floors you took (start a building or add onto an unroofed one)")
    if top.kind == "roof":
        if isinstance(action, PlaceRoof):
            if not any(c == action.height * 4 for c in st.offboard[p]):
                return M("you have no unroofed building of height {height}", height=action.height)
            return M("you have no {roof} roof left", roof=ROOF_NAME[action.roof])
        return M("first place the roof of your roof action on one of your unroofed buildings")
    if top.kind == "permit":
        if isinstance(action, PlaceBuilding):
            return _why_building(st, action.height, action.roof, action.zone) or _NOT_NOW
        return M("first place a completed building with your permit")
    if isinstance(action, PlaceTile):
        return _why_tile(st, action.zone) or _NOT_NOW
    return M("first the winner of the auction places the tile")


def _held(st: CapitolState, card: int) -> int:
    """How many copies of the kind ``card`` the seat to move holds."""
    return sum(CARD_REP[c] == card for c in st.hands[st.to_move])


def _why_play(st: CapitolState, card: int, act: bool) -> Message | None:
    if st.phase != CONSTRUCTION:
        return M("cards are played one at a time in the Construction phase, when no action is under way")
    if not _held(st, card):
        return M("no {card} in your hand", card=CARD[card])
    p, t = st.to_move, CARD_TYPE[card]
    if act and t == FLOOR and st.supply == 0:
        return M("the floor supply is empty")
    if act and t == ROOF:
        if not any(c & 3 == 0 for c in st.offboard[p]):
            return M("you have no unroofed building to roof")
        if st.reserve[2 * p] + st.reserve[2 * p + 1] == 0:
            return M("you have no roof left")
    if act and t == PERMIT:
        return M("none of your completed buildings may go in a {colour} zone now", colour=COLOURS[CARD_COLOUR[card]])
    return None


def _why_bid(st: CapitolState, card: int) -> Message | None:
    if st.phase != AUCTION:
        return M("cards are bid in the Improvement phase, while a lot is auctioned")
    if not _held(st, card):
        return M("no {card} in your hand", card=CARD[card])
    if sum(CARD_REP[c] == card for c in st.draft) >= _held(st, card):
        return M("every {card} you hold is already in your bid", card=CARD[card])
    return None


def _why_building(st: CapitolState, height: int, roof: int, z: int) -> Message | None:
    top = st.stack[-1] if st.stack else None
    if top is None or top.kind != "permit":
        return M("a building is placed after playing a permit card with its action")
    game, p = st.game, st.to_move
    zone = game.zones[z]
    colour = top.data[0]
    if zone.colour != colour:
        return M(
            "{zone} is a {zone_colour} zone; your permit is {colour}",
            zone=zone.name,
            zone_colour=COLOURS[zone.colour],
            colour=COLOURS[colour],
        )
    if height * 4 + roof not in st.offboard[p]:
        return M(
            "you have no completed building of height {height} with a {roof} roof",
            height=height,
            roof=ROOF_NAME[roof],
        )
    if st.zone_free()[z] <= 0:
        return M("{zone} has no free small space", zone=zone.name)
    zone_roof, tallest = st.zone_roof[z], st.zone_top[z]
    if zone_roof == 0:
        if height != 1:
            return M("the first building of {zone} has 1 floor", zone=zone.name)
        a, b = game.sibling_zones[z]
        if st.zone_roof[a] == roof and st.zone_roof[b] == roof:
            return M(
                "the three {colour} zones may not all have {roof} roofs", colour=COLOURS[colour], roof=ROOF_NAME[roof]
            )
        return None
    if zone_roof != roof:
        return M("the buildings of {zone} have {roof} roofs", zone=zone.name, roof=ROOF_NAME[zone_roof])
    if height not in (tallest, tallest + 1):
        return M(
            "a building in {zone} has height {tallest} or {next} (its tallest is {tallest})",
            zone=zone.name,
            tallest=tallest,
            next=tallest + 1,
        )
    return None


def _why_tile(st: CapitolState, z: int) -> Message | None:
    top = st.stack[-1] if st.stack else None
    if top is None or top.kind != "tile":
        return M("a tile is placed by the winner of its auction")
    zone = st.game.zones[z]
    if top.data[0] == FOUNTAIN:
        return M("{zone} has no free small space", zone=zone.name) if st.zone_free()[z] <= 0 else None
    return M("the large space of {zone} is taken", zone=zone.name) if st.zone_large[z] else None
