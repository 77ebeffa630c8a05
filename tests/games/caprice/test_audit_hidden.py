"""Audit: hidden symbols never leak before the final reveal (caprice.md §4-5, §10).

Two positions that differ only in what seat ``q`` holds (or is drawing, or has ordered so far) must look the same
to every other seat and to a spectator: observation, information state, the texts of actions and error messages.
"""

from __future__ import annotations

import json

import pytest

import meeple
from meeple.core import Rng
from meeple.games.caprice import ExchangeSymbol, KeepSymbol, OrderSymbol, Place
from meeple.games.caprice.data import PIECE_TYPES
from meeple.games.caprice.state import DRAW, ORDER, CapriceState
from tests.games.caprice.helpers import new_state, position

FOUR_FULL = ["DR DR DT DT", "LR LR LT LT", "DR DT LR LT", "LT LR DT DR", "DR DT LR", ""]


def views(state: CapriceState, seat: int | None) -> tuple[str, str]:
    obs = json.dumps(state.observation(seat), sort_keys=True)
    info = state.information_state_string(seat) if seat is not None else ""
    return obs, info


def drawing_state(hand: list[int], drawn: int) -> CapriceState:
    """Seat 0 of 3 looks at its third draw; seat 1 and 2 hold fixed tokens; the bag is consistent."""
    state = new_state(3, 11)
    assert state.phase == DRAW and state.current_player() == 0 and len(state.symbols[0]) == 2
    state.symbols[0] = list(hand)
    state.symbols[1] = [1, 2]
    state.symbols[2] = [3, 3]
    state.drawn = drawn
    held = [*hand, 1, 2, 3, 3, drawn]
    state.bag = [5 - held.count(t) for t in range(4)]
    state.edited()
    return state


def test_a_possible_exchange_is_invisible_to_the_other_seats() -> None:
    third = drawing_state([0, 0], 0)  # DR DR, draws a third DR: may exchange
    plain = drawing_state([0, 1], 2)  # DR DT, draws LR: nothing to exchange
    assert third.legal_actions() == [KeepSymbol(), ExchangeSymbol()]
    assert plain.legal_actions() == [KeepSymbol()]
    assert sum(third.bag) == sum(plain.bag)
    for seat in (1, 2, None):
        assert views(third, seat) == views(plain, seat)
    for seat in (1, 2):
        assert third.legal_actions(seat) == plain.legal_actions(seat) == []
    # Keeping the third copy still looks like any other keep.
    third.apply_action(KeepSymbol())
    plain.apply_action(KeepSymbol())
    for seat in (1, None):
        t_obs = third.observation(seat)
        p_obs = plain.observation(seat)
        for key in ("symbol_counts", "exchanges", "bag", "log", "current_player", "phase"):
            assert t_obs[key] == p_obs[key]
    assert third.history_texts(1) == plain.history_texts(1)


def test_the_exchange_prompt_and_texts_name_no_symbol() -> None:
    state = drawing_state([0, 0], 0)
    for action in state.legal_actions():
        for perspective in (0, 1, None):
            text = state.action_to_string(action, perspective=perspective)
            assert not any(name in text for name in PIECE_TYPES), text
    state.apply_action(ExchangeSymbol())
    for seat in (1, 2, None):
        obs = state.observation(seat)
        assert obs["exchanges"][0] == [{"draw": 3, "set_aside": state.exchanges[0][0][1]}]
        if seat != state.current_player():  # seat 1 now looks at its own third draw
            assert obs["drawn_symbol"] is None and obs["can_exchange"] is False
        assert obs["reveal"] is None and obs["best_order"] is None and obs["points"] is None


def test_error_messages_to_other_seats_reveal_nothing() -> None:
    state = drawing_state([0, 0], 0)
    with pytest.raises(meeple.NotYourTurnError) as info:
        state.apply_action(KeepSymbol(), player=1)
    assert not any(name in str(info.value) for name in PIECE_TYPES)
    with pytest.raises(meeple.IllegalActionError) as illegal:
        state.apply_action(Place("DR", "A"))
    # The message goes to the drawer (seat 0) and names only its own choices.
    assert "keep the drawn symbol" in str(illegal.value)
    assert not any(name in str(illegal.value).replace("place DR on A", "") for name in PIECE_TYPES)


def ordering_state(first_choice: str) -> CapriceState:
    state = position(
        FOUR_FULL, players=3, player=2, symbols=["DR DT LR LT", "DT DT LR LR", "LT LT DR DR"], symbol_order="manual"
    )
    state.apply_action(Place("LT", "E"))  # seat 2 ends the game: seat 0 orders first
    assert state.phase == ORDER and state.current_player() == 0
    state.apply_action(OrderSymbol(first_choice))
    return state


def test_a_chosen_order_is_hidden_until_the_reveal() -> None:
    a = ordering_state("DR")
    b = ordering_state("LT")
    for seat in (1, 2, None):
        assert views(a, seat) == views(b, seat)
    for actor_action in a.legal_actions():
        assert a.action_to_string(actor_action, perspective=1) == "choose the next symbol of the order"


@pytest.mark.parametrize(
    "params",
    [
        {"third_symbol_exchange": "optional", "symbol_order": "manual"},
        {"third_symbol_exchange": "mandatory", "symbol_order": "best"},
    ],
)
def test_every_seat_keeps_its_view_through_a_resample(params: dict[str, str]) -> None:
    """The harness checks the seat to move; this checks every seat, at every decision of a few games."""
    changed = 0
    for seed in range(4):
        state = meeple.load_game("caprice", players=3, **params).new_initial_state(seed)
        assert isinstance(state, CapriceState)
        rng = Rng(seed)
        step = 0
        while not state.is_terminal():
            if step % 2 == 0:
                for seat in range(3):
                    before = views(state, seat)
                    other = state.resample_from_infostate(seat, Rng(step * 7 + seat))
                    assert isinstance(other, CapriceState)
                    assert views(other, seat) == before
                    assert other.symbols[seat] == state.symbols[seat]
                    changed += other.symbols != state.symbols
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            step += 1
    assert changed > 20  # the hidden hands really are re-dealt


def test_a_resample_depends_only_on_what_the_seat_knows() -> None:
    pairs = [
        (drawing_state([0, 0], 0), drawing_state([0, 1], 2), (1, 2)),
        (ordering_state("DR"), ordering_state("LT"), (1, 2)),
    ]
    for a, b, seats in pairs:
        for seat in seats:
            for k in range(3):
                ra = a.resample_from_infostate(seat, Rng(k))
                rb = b.resample_from_infostate(seat, Rng(k))
                assert json.dumps(ra.to_json(), sort_keys=True) == json.dumps(rb.to_json(), sort_keys=True)
