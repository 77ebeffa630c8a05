"""The replay's slider and the log count the same things: "Move n" of the slider shows the log's line n last.

Issue #33 (item 8 and item 5): the slider steps over the numbered lines its reader sees (a seat's log, or the
spectator's for the full view), never over hidden steps, so the numbers a reader sees agree.
"""

from __future__ import annotations

import re

import pytest

from meeple.core.records import GameRecord
from meeple.core.registry import load_game
from meeple.core.rng import Rng
from meeple.core.state import SPECTATOR
from meeple.i18n import translator
from meeple.web.render import render_board
from meeple.web.replays import numbered_lines, replay_steps, step_of

GAMES = [("citadels", 4), ("capitol", 3), ("capital_lux_2", 3), ("capital_lux_2", 1), ("caprice", 2)]


def _finished(name: str, players: int, seed: int) -> GameRecord:
    state = load_game(name, players=players).new_initial_state(seed)
    rng = Rng(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return GameRecord.from_state(state)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_step_n_is_the_last_state_whose_log_has_n_numbered_lines(name: str, players: int) -> None:
    record = _finished(name, players, 3)
    for perspective in (SPECTATOR, 0):
        steps = replay_steps(record, perspective)
        assert steps[-1] == len(record.actions) and steps == sorted(steps)
        for n, version in enumerate(steps):
            assert numbered_lines(record.replay(version), perspective) == n, (perspective, n)
            if version < len(record.actions):  # one more action: the next line appears
                assert numbered_lines(record.replay(version + 1), perspective) == n + 1, (perspective, n)
            assert step_of(steps, version) == n
        seat = None if perspective == SPECTATOR else perspective
        for n in (1, len(steps) // 2, len(steps) - 1):  # the board shown reads "Log (n moves)", its last line is n
            state = record.replay(steps[n])
            html = render_board(state, seat, state.history_messages(perspective), translator("en"))
            assert re.search(rf"Log \({n} moves?\)", html), (perspective, n)
            numbers = [int(x) for x in re.findall(r'<span class="move-number">(\d+)\.</span>', html)]
            assert max(numbers) == n


def test_a_hidden_run_of_another_seat_is_one_step() -> None:
    """Capitol's sealed bids are entered card by card: a seat's replay has fewer steps than actions."""
    record = _finished("capitol", 3, 3)
    steps = replay_steps(record, 0)
    assert len(steps) - 1 < len(record.actions)
    assert len(replay_steps(record, SPECTATOR)) - 1 < len(record.actions)
