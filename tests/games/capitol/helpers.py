"""Helpers to build explicit Capitol positions."""

from __future__ import annotations

from typing import Any

from meeple.core import load_game
from meeple.games.capitol.data import CARD_NAME, CARD_TYPE
from meeple.games.capitol.state import CapitolState


def card(name: str, nth: int = 0) -> int:
    """Return the id of the ``nth`` card named ``name`` (e.g. ``floor4``, ``permitC1-6``)."""
    ids = [i for i, n in enumerate(CARD_NAME) if n == name]
    return ids[nth]


def fresh(players: int = 4, seed: int = 0, **params: Any) -> CapitolState:
    """A new state with seat 0 as Consul."""
    params.setdefault("first_consul", 0)
    state = load_game("capitol", players=players, **params).new_initial_state(seed)
    assert isinstance(state, CapitolState)
    return state


def do(state: CapitolState, *texts: str) -> None:
    """Apply actions by their full texts."""
    for text in texts:
        state.apply_action(state.string_to_action(text))


def texts(state: CapitolState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def set_hand(state: CapitolState, seat: int, names: list[str]) -> None:
    """Give ``seat`` exactly these cards, taking them from wherever they are (piles, discards, other hands)."""
    taken = {c for i, h in enumerate(state.hands) if i != seat for c in h}
    wanted: list[int] = []
    for name in names:
        ids = [i for i, n in enumerate(CARD_NAME) if n == name and i not in wanted]
        free = [i for i in ids if i not in taken]
        wanted.append((free or ids)[0])
    for c in wanted:
        for lst in [*state.hands, *state.piles, *state.discards]:
            if c in lst:
                lst.remove(c)
        for kn in state.known:
            if c in kn:
                kn.remove(c)
    old = state.hands[seat]
    state.hands[seat] = sorted(wanted)
    for c in old:  # put displaced cards back under their piles
        state.piles[CARD_TYPE[c]].insert(0, c)
    state.edited()


def place(state: CapitolState, seat: int, zone: int, height: int, roof: int) -> None:
    """Put a building directly on the board (floors taken from the supply)."""
    state.offboard[seat].append(height * 4 + roof)
    state.supply -= height
    state._place_building(seat, height, roof, zone)
    state.edited()


def names(ids: list[int] | tuple[int, ...]) -> list[str]:
    """Sorted card names of card ids."""
    return sorted(CARD_NAME[c] for c in ids)
