from __future__ import annotations

from typing import Any

import meeple
from meeple.games.capital_lux_2.state import CapitalLux2State


def card(colour: int, value: int, k: int = 0) -> int:
    """Card id of the k-th card (0..4) of a colour and value."""
    return 25 * colour + 5 * (value - 2) + k


def new_state(players: int = 3, seed: int = 1, **params: Any) -> CapitalLux2State:
    state = meeple.load_game("capital_lux_2", players=players, **params).new_initial_state(seed)
    assert isinstance(state, CapitalLux2State)
    return state


def blank(players: int = 3, seed: int = 1, turn: int = 0, **params: Any) -> CapitalLux2State:
    """A state in the play phase with an empty table; everything not placed by the test is in the deck."""
    st = new_state(players, seed, **params)
    st.capital = [[], [], [], []]
    st.hidden = []
    st.city = [[[], [], [], []] for _ in range(st.np)]
    st.hand = [[] for _ in range(st.n)]
    st.bonus = [[] for _ in range(st.np)]
    st.gold = [0] * st.np
    st.packs = [[] for _ in range(st.n)]
    st.first = [-1] * st.n
    st.discard = []
    st.stack = []
    st.phase = 1
    st.turn = turn
    st.emperor = 0
    st.ending = False
    st.last_queue = []
    st.round = 0
    if st.solo:
        st.rob_hand = []
        st.rob_reserve = []
    return st


def finish(st: CapitalLux2State) -> None:
    """Put every card not placed by the test into the deck (sorted) and reset caches."""
    st.deck = []
    used = set(all_cards(st))
    st.deck = [c for c in range(100) if c not in used]
    st.edited()


def all_cards(st: CapitalLux2State) -> list[int]:
    """Every citizen card id held anywhere in the state (duplicates kept)."""
    out: list[int] = list(st.deck) + list(st.discard) + list(st.peek)
    for d in st.capital:
        out += d
    out += [h[2] for h in st.hidden if h[1] == 1]
    for c in st.city:
        for d in c:
            out += d
    for h in st.hand:
        out += h
    for b in st.bonus:
        out += b
    for p in st.packs:
        out += p
    out += [f for f in st.first if f >= 0]
    for v in st.sealed.values.values():
        out += v
    out += st.mat.get("infiltre_card", [])
    out += [c for c in st.rob_hand if c >= 0] + list(st.rob_reserve)
    out += [d.data[1] for d in st.stack if d.kind == "etranger" and d.data[0] != "card"]  # the card being given
    return out
