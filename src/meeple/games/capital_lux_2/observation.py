"""Observations of Capital Lux 2: exactly what one seat (or a spectator) may know.

Rules: capital_lux_2.md §16 (hidden information: hands, draft picks, face-down items, Bonus pile contents).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
from meeple.games.capital_lux_2.rules import total

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State

PHASES = ("draft", "play", "resolution", "end")


def card_json(card: int) -> dict[str, Any]:
    """Return ``{"id", "colour", "value", "name"}`` of a citizen card."""
    return {"id": card, "colour": CARD_COLOUR[card], "value": CARD_VALUE[card], "name": card_name(card)}


def _item(item: list[int], player: int | None, revealed: bool) -> dict[str, Any]:
    kind = "modifier" if item[1] == 0 else "card"
    if revealed or (player is not None and item[3] == player):
        value: Any = item[2] if item[1] == 0 else CARD_VALUE[item[2]]
    else:
        value = "hidden"
    return {"kind": kind, "value": value}


def _capital(st: CapitalLux2State, player: int | None) -> list[dict[str, Any]]:
    out = []
    for d in range(4):
        cards = st.capital[d]
        district: dict[str, Any] = {
            "district": COLOUR_NAMES[d],
            "cards": [card_json(c) for c in cards],
            "total": total(cards),
            "face_down": [_item(h, player, False) for h in st.hidden if h[0] == d],
        }
        if st.phase == 2:
            district["revealed"] = [_item(h, player, True) for h in st.revealed if h[0] == d]
            district["max"] = st.res_max[d]
        out.append(district)
    return out


def _tiles(st: CapitalLux2State, player: int | None) -> list[dict[str, Any]]:
    out = []
    for tile in st.tiles:
        info = tile.info()
        info["state"] = tile.observe(st, player)
        out.append(info)
    return out


def _pending(st: CapitalLux2State, player: int | None) -> dict[str, Any] | None:
    if not st.stack:
        return None
    top = st.stack[-1]
    if top.kind == "bonus":
        whose = "ROB's" if st.solo and top.data[1] >= st.n else "your"
        text = f"choose {whose} bonus card among the highest cards of the {COLOUR_NAMES[top.data[0]]} Capital district"
    elif top.kind == "rob_bonus":
        text = "choose ROB's bonus card among the lowest Capital cards"
    else:
        tile = POWERS[top.kind]
        text = tile.describe_decision(top)
        if tile.provisional and text.startswith(tile.name_fr + ":"):
            text = tile.label + text[len(tile.name_fr) :]
    return {"player": top.player, "kind": top.kind, "data": list(top.data), "text": text}


def build_observation(st: CapitalLux2State, player: int | None) -> dict[str, Any]:
    """Return the observation dict of ``player`` (``None``: spectator)."""
    mine = player if player is not None and 0 <= player < st.n else None
    obs: dict[str, Any] = {
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
            {"districts": [[card_json(c) for c in d] for d in st.city[p]], "totals": [total(d) for d in st.city[p]]}
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
    if st.phase == 0:
        obs["draft"] = {
            "stage": st.dstage + 1,
            "pack": [card_json(c) for c in st.packs[mine]] if mine is not None else None,
            "pack_sizes": [len(p) for p in st.packs],
            "first_pick": card_json(st.first[mine]) if mine is not None and st.first[mine] >= 0 else None,
            "picks": st.sealed.view(mine, lambda v: [card_json(c) for c in v]),
            "pick_order": list(st.sealed.order),
        }
    if st.phase == 3:
        obs["scores"] = [st.total_score(p) for p in range(st.np)]
        obs["bonus_piles"] = [[card_json(c) for c in b] for b in st.bonus]
    if st.res_log:
        obs["last_resolution"] = _last_resolution(st)
    if st.solo:
        obs["rob"] = _rob(st)
        if st.phase == 3:
            obs["solo_result"] = {
                "opponent": "ROB",
                "margin": obs["rob"]["margin"],
                "rating": obs["rob"]["rating"],
                "scale": ["lost"] + [name for _, name in SOLO_RATINGS],
            }
    return obs


def _rob(st: CapitalLux2State) -> dict[str, Any]:
    rob_score = st.total_score(1)
    margin = st.total_score(0) - rob_score
    last = st.rob_last
    if last:
        where = {-1: "nowhere", 0: "its City", 1: "the Capital"}[last[2]]
        text = f"ROB flipped {rob_card_name(last[0])}"
        if last[1] >= 0:
            text += f" and played {card_name(last[1])} to {where}"
        if last[3] >= 0:
            text += f", taking {card_name(last[3])} as a bonus"
    else:
        text = ""
    return {
        "hand": [card_json(c) if c >= 0 else None for c in st.rob_hand],
        "reserve": [card_json(c) for c in st.rob_reserve],
        "red_cards": len(st.rob_red),
        "cards_flipped": [rob_card_name(c) for c in st.rob_blue + st.rob_red],
        "deck_left": len(st.rob_deck),
        "bonus": [card_json(c) for c in st.bonus[1]],
        "gold": st.gold[1],
        "score": rob_score,
        "margin": margin,
        "rating": solo_rating(margin),
        "last_move": text,
    }


def _who(st: CapitalLux2State, participant: int) -> str:
    return "ROB" if st.solo and participant >= st.n else f"seat {participant}"


def _last_resolution(st: CapitalLux2State) -> dict[str, Any]:
    """The public record of the last resolution: MAX per district and what happened, in order, in words."""
    head = st.res_log[0]
    events: list[str] = []
    for entry in st.res_log[1:]:
        kind = entry[0]
        if kind == LOG_REVEAL:
            _, d, item, value = entry
            what = f"modifier {value:+d}" if item == 0 else f"card {card_name(value)}"
            events.append(f"revealed on the {COLOUR_NAMES[d]} Capital district: {what}")
        elif kind == LOG_BUST:
            _, p, d, city_total, limit = entry
            events.append(f"{_who(st, p)}'s {COLOUR_NAMES[d]} district ({city_total}) is over its MAX {limit}")
        elif kind == LOG_BONUS:
            _, p, d, card = entry
            events.append(f"{_who(st, p)} takes the {COLOUR_NAMES[d]} bonus: {card_name(card)}")
        elif kind == LOG_TIE:
            d, card, tied = entry[1], entry[2], entry[3:]
            names = " and ".join(_who(st, p) for p in tied)
            lost = f"; {card_name(card)} is discarded from the Capital" if card >= 0 else ""
            events.append(f"tie for the {COLOUR_NAMES[d]} bonus: {names} take 1 gold each{lost}")
    return {"round": head[1] + 1, "max": head[2:6], "events": events}
