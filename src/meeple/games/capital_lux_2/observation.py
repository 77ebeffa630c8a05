"""Observations of Capital Lux 2: exactly what one seat (or a spectator) may know.

Rules: capital_lux_2.md §16 (hidden information: hands, draft picks, face-down items, Bonus pile contents).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

from meeple.games.capital_lux_2.const import PH_DRAFT, PH_END, PH_RESOLVE, PHASES
from meeple.games.capital_lux_2.data import (
    CARD_COLOUR,
    CARD_VALUE,
    COLOUR_NAMES,
    SOLO_RATINGS,
    card_name,
    rob_card_name,
    solo_rating,
)
from meeple.games.capital_lux_2.flow import LOG_BONUS, LOG_BUST, LOG_REVEAL, LOG_TIE
from meeple.games.capital_lux_2.powers import POWERS
from meeple.games.capital_lux_2.powers.base import TileInfo
from meeple.games.capital_lux_2.rules import solo_wins, total
from meeple.games.capital_lux_2.vocabulary import CARD, COLOUR, RATING, rob_card
from meeple.i18n.message import M, Message

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


class Card(TypedDict):
    """A citizen card."""

    id: int
    colour: int
    """Its district: 0 blue, 1 pink, 2 yellow, 3 green (``COLOUR_NAMES``)."""
    value: int
    name: str


class Item(TypedDict):
    """A face-down item in the Capital (public that it exists). Rules: §16."""

    kind: Literal["modifier", "card"]
    value: int | Literal["hidden"]
    """The modifier or card value: the owner's own items, and every item once revealed; else ``"hidden"``."""


class CapitalDistrict(TypedDict):
    """One district of the Capital (public)."""

    district: str
    cards: list[Card]
    total: int
    face_down: list[Item]
    revealed: NotRequired[list[Item]]
    """During the resolution: the items revealed there."""
    max: NotRequired[int]
    """During the resolution: the district's MAX."""


class Pending(TypedDict):
    """The decision on top of the stack (public)."""

    player: int
    kind: str
    """``"bonus"``, ``"rob_bonus"`` or a power tile's id."""
    data: list[Any]
    """Kind-specific data (the tile's own decision steps)."""
    text: str
    """What the decider must choose, in English words."""
    message: dict[str, Any]
    """The same as a message (``meeple.i18n.Message.to_json``), for the edges to show in the reader's language."""


class City(TypedDict):
    """A participant's City (public): per district its cards and total."""

    districts: list[list[Card]]
    totals: list[int]


class Draft(TypedDict):
    """The draft of a round (only while drafting). Rules: §6."""

    stage: int
    pack: list[Card] | None
    """The pack I pick from (own); None for the spectator."""
    pack_sizes: list[int]
    first_pick: Card | None
    """My first pick (own)."""
    picks: list[list[Card] | str | None]
    """Per seat of ``pick_order``: None (not yet), ``"sealed"``, or my own pick (own)."""
    pick_order: list[int]


class Rob(TypedDict):
    """ROB, the solo opponent (solo only; public). Rules: §15."""

    hand: list[Card | None]
    reserve: list[Card]
    red_cards: int
    cards_flipped: list[str]
    flipped_codes: list[int]
    """The same ROB cards by code (``kind | red | bonus``, data.py), for the renderers' vocabulary."""
    deck_left: int
    bonus: list[Card]
    gold: int
    score: int
    margin: int
    """The player's score minus ROB's."""
    rating: str
    last_move: str
    last_move_message: dict[str, Any] | None
    """``last_move`` as a message (``Message.to_json``), ``None`` before ROB's first move."""
    """ROB's last move in words ("" before its first)."""


class SoloResult(TypedDict):
    """The solo game's result (solo, at the end)."""

    opponent: Literal["ROB"]
    margin: int
    rating: str
    rating_message: dict[str, Any]
    """``rating`` as a message (``Message.to_json``)."""
    scale: list[str]
    """The ratings from worst to best."""


class LastResolution(TypedDict):
    """The public record of the last resolution."""

    round: int
    max: list[int]
    """MAX per district."""
    events: list[str]
    """What happened, in order, in English words."""
    event_messages: list[dict[str, Any]]
    """The same events as messages (``Message.to_json``)."""


class CapitalLux2Observation(TypedDict):
    """What ``player`` may know of a Capital Lux 2 position (``observation(player)``).

    Public unless marked *own*; the optional keys appear only when they apply (own keys: not for the spectator).
    """

    game: Literal["capital_lux_2"]
    seat: int | None
    """``player``; None for the spectator."""
    players: int
    solo: bool
    round: int
    """Round 1-3."""
    phase: Literal["draft", "play", "resolution", "end"]
    current_player: int
    emperor: int
    """The seat holding the Emperor."""
    turn: int
    ending: bool
    tiles: list[TileInfo]
    capital: list[CapitalDistrict]
    cities: list[City]
    """Per participant (ROB included in solo)."""
    hand_sizes: list[int]
    gold: list[int]
    bonus_counts: list[int]
    deck_size: int
    discard: list[Card]
    pending: Pending | None
    hand: NotRequired[list[Card]]
    """My hand (own)."""
    bonus: NotRequired[list[Card]]
    """My Bonus pile (own)."""
    peek: NotRequired[list[Card]]
    """Cards a power lets me look at now (own)."""
    draft: NotRequired[Draft]
    scores: NotRequired[list[int]]
    """At the end."""
    bonus_piles: NotRequired[list[list[Card]]]
    """At the end, every Bonus pile."""
    last_resolution: NotRequired[LastResolution]
    rob: NotRequired[Rob]
    solo_result: NotRequired[SoloResult]


def card_json(card: int) -> Card:
    """Return ``{"id", "colour", "value", "name"}`` of a citizen card."""
    return {"id": card, "colour": CARD_COLOUR[card], "value": CARD_VALUE[card], "name": card_name(card)}


def _item(item: list[int], player: int | None, revealed: bool) -> Item:
    if revealed or (player is not None and item[3] == player):
        value: int | Literal["hidden"] = item[2] if item[1] == 0 else CARD_VALUE[item[2]]
    else:
        value = "hidden"
    return {"kind": "modifier" if item[1] == 0 else "card", "value": value}


def _capital(st: CapitalLux2State, player: int | None) -> list[CapitalDistrict]:
    out = []
    for d in range(4):
        cards = st.capital[d]
        district: CapitalDistrict = {
            "district": COLOUR_NAMES[d],
            "cards": [card_json(c) for c in cards],
            "total": total(cards),
            "face_down": [_item(h, player, False) for h in st.hidden if h[0] == d],
        }
        if st.phase == PH_RESOLVE:
            district["revealed"] = [_item(h, player, True) for h in st.revealed if h[0] == d]
            district["max"] = st.res_max[d]
        out.append(district)
    return out


def _tiles(st: CapitalLux2State, player: int | None) -> list[TileInfo]:
    out = []
    for tile in st.tiles:
        info = tile.info()
        info["state"] = tile.observe(st, player)
        out.append(info)
    return out


def _pending(st: CapitalLux2State, player: int | None) -> Pending | None:
    if not st.stack:
        return None
    top = st.stack[-1]
    if top.kind == "bonus":
        colour = COLOUR[top.data[0]]
        if st.solo and top.data[1] >= st.n:
            text = M("choose ROB's bonus card among the highest cards of the {colour} Capital district", colour=colour)
        else:
            text = M("choose your bonus card among the highest cards of the {colour} Capital district", colour=colour)
    elif top.kind == "rob_bonus":
        text = M("choose ROB's bonus card among the lowest Capital cards")
    else:
        text = POWERS[top.kind].describe_decision(top)
    return {
        "player": top.player,
        "kind": top.kind,
        "data": list(top.data),
        "text": str(text),
        "message": text.to_json(),
    }


def build_observation(st: CapitalLux2State, player: int | None) -> CapitalLux2Observation:
    """Return the observation dict of ``player`` (``None``: spectator)."""
    mine = player if player is not None and 0 <= player < st.n else None
    obs: CapitalLux2Observation = {
        "game": "capital_lux_2",
        "seat": mine,
        "players": st.n,
        "solo": st.solo,
        "round": min(st.round + 1, 3),
        "phase": PHASES[st.phase],
        "current_player": st.current_player(),
        "emperor": st.emperor,
        "turn": st.turn,
        "ending": st.ending,
        "tiles": _tiles(st, mine),
        "capital": _capital(st, mine),
        "cities": [
            City(districts=[[card_json(c) for c in d] for d in st.city[p]], totals=[total(d) for d in st.city[p]])
            for p in range(st.np)
        ],
        "hand_sizes": [len(h) for h in st.hand],
        "gold": list(st.gold),
        "bonus_counts": [len(b) for b in st.bonus],
        "deck_size": len(st.deck),
        "discard": [card_json(c) for c in st.discard],
        "pending": _pending(st, mine),
    }
    if mine is not None:
        obs["hand"] = [card_json(c) for c in st.hand[mine]]
        obs["bonus"] = [card_json(c) for c in st.bonus[mine]]
        if st.peek_owner == mine:
            obs["peek"] = [card_json(c) for c in st.peek]
    if st.phase == PH_DRAFT:
        obs["draft"] = {
            "stage": st.dstage + 1,
            "pack": [card_json(c) for c in st.packs[mine]] if mine is not None else None,
            "pack_sizes": [len(p) for p in st.packs],
            "first_pick": card_json(st.first[mine]) if mine is not None and st.first[mine] >= 0 else None,
            "picks": st.sealed.view(mine, lambda v: [card_json(c) for c in v]),
            "pick_order": list(st.sealed.order),
        }
    if st.phase == PH_END:
        obs["scores"] = [st.total_score(p) for p in range(st.np)]
        obs["bonus_piles"] = [[card_json(c) for c in b] for b in st.bonus]
    if st.res_log:
        obs["last_resolution"] = _last_resolution(st)
    if st.solo:
        obs["rob"] = rob = _rob(st)
        if st.phase == PH_END:
            obs["solo_result"] = {
                "opponent": "ROB",
                "margin": rob["margin"],
                "rating": rob["rating"],
                "rating_message": RATING[rob["rating"]].to_json(),
                "scale": ["lost"] + [name for _, name in SOLO_RATINGS],
            }
    return obs


def _rob(st: CapitalLux2State) -> Rob:
    rob_score = st.total_score(1)
    margin = st.total_score(0) - rob_score
    won = solo_wins(st.total_score(0), st.gold[0], rob_score, st.gold[1])  # if the game ended now
    message = _rob_move(st.rob_last)
    return {
        "hand": [card_json(c) if c >= 0 else None for c in st.rob_hand],
        "reserve": [card_json(c) for c in st.rob_reserve],
        "red_cards": len(st.rob_red),
        "cards_flipped": [rob_card_name(c) for c in st.rob_blue + st.rob_red],
        "flipped_codes": list(st.rob_blue + st.rob_red),
        "deck_left": len(st.rob_deck),
        "bonus": [card_json(c) for c in st.bonus[1]],
        "gold": st.gold[1],
        "score": rob_score,
        "margin": margin,
        "rating": solo_rating(margin, won),
        "last_move": "" if message is None else str(message),
        "last_move_message": None if message is None else message.to_json(),
    }


def _rob_move(last: list[int] | tuple[int, ...] | None) -> Message | None:
    """ROB's last move in words: the card flipped, the citizen card played and where, the bonus taken."""
    if not last:
        return None
    flipped = rob_card(last[0])
    if last[1] < 0:
        move = M("ROB flipped {rob_card}", rob_card=flipped)
    elif last[2] == 0:
        move = M("ROB flipped {rob_card} and played {card} to its City", rob_card=flipped, card=CARD[last[1]])
    elif last[2] == 1:
        move = M("ROB flipped {rob_card} and played {card} to the Capital", rob_card=flipped, card=CARD[last[1]])
    else:
        move = M("ROB flipped {rob_card} and played {card} nowhere", rob_card=flipped, card=CARD[last[1]])
    if last[3] >= 0:
        return M("{move}, taking {card} as a bonus", move=move, card=CARD[last[3]])
    return move


def _who(st: CapitalLux2State, participant: int) -> Message:
    return M("ROB") if st.solo and participant >= st.n else M("seat {seat}", seat=participant)


def _last_resolution(st: CapitalLux2State) -> LastResolution:
    """The public record of the last resolution: MAX per district and what happened, in order, in words."""
    head = st.res_log[0]
    events: list[Message] = []
    for entry in st.res_log[1:]:
        kind = entry[0]
        if kind == LOG_REVEAL:
            _, d, item, value = entry
            what = M("modifier {value:+d}", value=value) if item == 0 else M("card {card}", card=CARD[value])
            events.append(M("revealed on the {colour} Capital district: {what}", colour=COLOUR[d], what=what))
        elif kind == LOG_BUST:
            _, p, d, city_total, limit = entry
            events.append(
                M(
                    "{who}'s {colour} district ({total}) is over its MAX {limit}",
                    who=_who(st, p),
                    colour=COLOUR[d],
                    total=city_total,
                    limit=limit,
                )
            )
        elif kind == LOG_BONUS:
            _, p, d, card = entry
            events.append(
                M("{who} takes the {colour} bonus: {card}", who=_who(st, p), colour=COLOUR[d], card=CARD[card])
            )
        elif kind == LOG_TIE:
            d, card, tied = entry[1], entry[2], entry[3:]
            names = _who(st, tied[0])
            for p in tied[1:]:
                names = M("{names} and {who}", names=names, who=_who(st, p))
            if card >= 0:
                events.append(
                    M(
                        "tie for the {colour} bonus: {names} take 1 gold each; {card} is discarded from the Capital",
                        colour=COLOUR[d],
                        names=names,
                        card=CARD[card],
                    )
                )
            else:
                events.append(M("tie for the {colour} bonus: {names} take 1 gold each", colour=COLOUR[d], names=names))
    return {
        "round": head[1] + 1,
        "max": head[2:6],
        "events": [str(e) for e in events],
        "event_messages": [e.to_json() for e in events],
    }
