"""Legal-action generation for a character's turn and for the pending decisions (the hot path).

Rules: citadels.md §5.2 rules 7-11 (turn), 12-19 (powers and purple districts); docs/decisions.md (order in a turn:
building and ending the turn only after the mandatory action; powers, income, Laboratory and Smithy at any time).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core import Action, Decision
from meeple.games.citadels.const import (
    D_DESTROY,
    D_EXCHANGE,
    D_KEEP,
    F_ACTION,
    F_CANCELLED,
    F_INCOME,
    F_LAB,
    F_POWER,
    F_SMITHY,
    LAB_BIT,
    SMITHY_BIT,
)
from meeple.games.citadels.data import ASSASSIN, CHARACTER_COLOUR, KIND_COST, MAGICIAN, THIEF

if TYPE_CHECKING:
    from meeple.games.citadels.state import CitadelsState


def turn_actions(state: CitadelsState) -> list[Action]:
    """Return the legal actions of the character playing, in a fixed order (mandatory action first)."""
    g = state.game
    seat = state.turn_seat
    flags = state.flags
    hand = state.hands[seat]
    mask = state.masks[seat]
    kinds = g.card_kind
    out: list[Action] = []
    hand_kinds = sorted({kinds[c] for c in hand})
    if not flags & F_ACTION:
        buildable = any(not (mask >> k) & 1 for k in hand_kinds)
        if state.deck:
            out = [g.a_take_gold, g.a_draw] if buildable else [g.a_draw, g.a_take_gold]
        else:
            out = [g.a_take_gold]
    elif state.builds:
        gold = state.gold[seat]
        build = g.a_build
        out = [build[k] for k in hand_kinds if KIND_COST[k] <= gold and not (mask >> k) & 1]
    char = state.calling
    if not flags & F_INCOME and CHARACTER_COLOUR[char] >= 0 and state.income(seat, char):
        out.append(g.a_income)
    if not flags & F_POWER:
        if char == ASSASSIN:
            out.extend(g.a_assassinate[2:9])
        elif char == THIEF:
            killed = state.killed
            rob = g.a_rob
            out.extend(rob[c] for c in range(3, 9) if c != killed)
        elif char == MAGICIAN:
            swap = g.a_swap
            out.extend(swap[s] for s in range(g.num_players) if s != seat)
            if hand and not flags & F_CANCELLED:
                out.append(g.a_exchange)
    if mask & LAB_BIT and not flags & F_LAB and hand:
        lab = g.a_lab
        out.extend(lab[k] for k in hand_kinds)
    if mask & SMITHY_BIT and not flags & F_SMITHY and state.gold[seat] >= 3 and state.deck:
        out.append(g.a_smithy)
    if flags & F_ACTION:
        out.append(g.a_end)
    return out


def decision_actions(state: CitadelsState, top: Decision) -> list[Action]:
    """Return the legal answers to the pending decision ``top`` (its kinds and data: ``const.py``)."""
    g = state.game
    kind = top.kind
    kinds = g.card_kind
    if kind == D_KEEP:
        keep = g.a_keep
        return [keep[k] for k in sorted({kinds[c] for c in top.data[0]})]
    if kind == D_EXCHANGE:
        player = top.player
        selected = top.data[0]
        counts: dict[int, int] = {}
        for c in state.hands[player]:
            if c not in selected:
                k = kinds[c]
                counts[k] = counts.get(k, 0) + 1
        select = g.a_select
        out: list[Action] = [select[k] for k in sorted(counts)]
        if selected:
            out.append(g.a_confirm)
        out.append(g.a_cancel)
        return out
    if kind == D_DESTROY:
        destroy = g.a_destroy
        return [g.a_decline_destroy] + [destroy[s][k] for s, k in state.destroy_targets()]
    return [g.a_recover, g.a_decline_recover]
