"""Undo never crosses a reveal (issue #36): the positions of the audit, and one per game where undo stays allowed."""

from __future__ import annotations

import random
from typing import Any

import pytest

import meeple
from meeple.core.records import GameRecord
from meeple.core.state import State
from meeple.core.undo import differs_in_some_world, revealed_since, shown_on_the_way, undo_target


def _played(game: str, players: int, seed: int, moves: int) -> State[Any]:
    """The audit's positions: ``moves`` moves chosen by ``random.Random(seed * 31 + 7)`` from the game's seed."""
    state = meeple.load_game(game, players=players).new_initial_state(seed)
    rng = random.Random(seed * 31 + 7)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(
    ("game", "players", "seed", "decision", "now", "seat"),
    [
        # Capitol: seat 0 bids permitC1-5 for a fountain and seals, seat 1 seals an empty bid, the bids are opened.
        ("capitol", 3, 2, 35, 38, 0),
        # Citadels: seat 0 picks the King; seat 1 picks the Thief (hidden), is called and robs the King.
        ("citadels", 4, 1, 146, 151, 0),
    ],
)
def test_undo_never_crosses_a_hidden_move_shown_since(
    game: str, players: int, seed: int, decision: int, now: int, seat: int
) -> None:
    state = _played(game, players, seed, now)
    assert state.current_player() == seat
    earlier = GameRecord.from_state(state).replay(decision)
    steps = state.history[decision:]
    assert any(actor != seat for actor, _a in steps)
    assert shown_on_the_way(earlier, steps, seat)  # by construction: no sampled world involved
    assert differs_in_some_world(earlier, state, seat)  # the other seat's hidden move is re-chosen in each world
    target, reason = undo_target(state, seat, [decision], [seat])
    assert target is None and reason is not None and "revealed to you" in str(reason)


@pytest.mark.parametrize(
    ("game", "players", "seed", "decision", "now", "seat"),
    [
        ("caprice", 2, 1, 6, 9, 1),  # seat 1 moves a piece, seat 0 places and passes: all public
        ("citadels", 4, 1, 10, 11, 0),  # take 2 gold from the bank, then the build decision
        ("capitol", 3, 2, 25, 27, 2),  # seat 2 plays a roof without its action, seat 0 passes
        ("capital_lux_2", 3, 1, 0, 1, 0),  # the second card kept from the same draft pack
    ],
)
def test_undo_stays_allowed_when_nothing_was_shown(
    game: str, players: int, seed: int, decision: int, now: int, seat: int
) -> None:
    state = _played(game, players, seed, now)
    assert state.current_player() == seat
    earlier = GameRecord.from_state(state).replay(decision)
    assert not revealed_since(earlier, state, seat)
    target, reason = undo_target(state, seat, [decision], [seat])
    assert reason is None and target is not None
    assert target.history == state.history[:decision]
    assert target.observation(seat) == earlier.observation(seat)


def test_a_draw_refuses_undo_by_its_key_alone() -> None:
    """Citadels: the seat's own "draw cards" changes its shown key (cards it now knows), whatever the worlds."""
    state = _played("citadels", 4, 1, 10)
    seat = state.current_player()
    earlier = state.clone()
    draw = next(a for a in state.legal_actions() if a.type_name == "draw_cards")
    state.apply_action(draw)
    assert earlier.shown_key(seat) != state.shown_key(seat)
    assert shown_on_the_way(earlier, state.history[10:], seat)
