"""Table clocks: Fischer increments once per turn, the cap per turn, time-out and return (meeple.server.clock)."""

from __future__ import annotations

import pytest

from meeple.server.clock import clock_view, new_clock, pass_turn, refill_on_return, time_out, turn_deadline
from meeple.server.protocol import ClockSpec


def test_a_turn_is_charged_once_with_one_increment_however_many_steps_it_has() -> None:
    clock = new_clock(ClockSpec(initial=100, increment=5), 3)
    assert turn_deadline(clock) is None
    pass_turn(clock, 0, now=1000.0)
    assert turn_deadline(clock) == 1100.0
    pass_turn(clock, 0, now=1010.0)  # seat 0's next step of the same turn: nothing charged yet
    assert clock["banks"] == [100, 100, 100]
    pass_turn(clock, 1, now=1030.0)
    assert clock["banks"][0] == pytest.approx(100 - 30 + 5)
    assert turn_deadline(clock) == 1130.0
    pass_turn(clock, None, now=1031.0)  # a bot's turn: no clock runs
    assert clock["banks"][1] == pytest.approx(100 - 1 + 5) and turn_deadline(clock) is None


def test_the_cap_per_turn_and_a_time_out_then_a_return() -> None:
    clock = new_clock(ClockSpec(initial=20, increment=0, per_move=8), 2)
    pass_turn(clock, 1, now=0.0)
    assert turn_deadline(clock) == 8.0
    clock["banks"][1] = 3.0
    assert turn_deadline(clock) == 3.0  # the bank is shorter than the cap
    time_out(clock)
    assert clock["banks"][1] == 0 and turn_deadline(clock) is None
    refill_on_return(clock, 1)
    assert clock["banks"][1] == 20  # refilled to 60 s, at most the initial bank
    view = clock_view(clock)
    assert view is not None and view["deadline"] is None and view["banks"] == [20, 20]
