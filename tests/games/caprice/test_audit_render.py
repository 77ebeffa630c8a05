"""Audit: what the terminal shows a player (renderer readability and secrecy)."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from meeple.cli.render.caprice import render
from meeple.games.caprice import Place
from tests.games.caprice.helpers import position

EXAMPLE = ["DR LT DR LR", "DR DT LR LR", "DT LT DT LR", "LR LT DR DT", "LT DT DR", "DR"]
FOUR_FULL = ["DR DR DT DT", "LR LR LT LT", "DR DT LR LT", "LT LR DT DR", "DR DT LR", ""]


def shown(obs: dict[str, Any], seat: int | None, width: int = 80) -> str:
    console = Console(record=True, width=width)
    console.print(render(obs, seat))
    return console.export_text()


def test_reveal_shows_points_per_tower_on_one_line_at_80_columns() -> None:
    state = position(EXAMPLE, players=2, player=1, symbols=["DR DR LT LR", "DT DT LR LT"])
    state.apply_action(Place("DT", "E"))  # the spec's 13-point example
    out = shown(state.observation(1), 1)
    row = next(line for line in out.splitlines() if "●DR ✧LT ●DR ○LR" in line)
    assert "5 2 2 2 1 1" in row and "13" in row  # tower by tower, then the total, on one line
    assert "Tie on" not in out


def test_reveal_explains_a_tie_break() -> None:
    state = position(FOUR_FULL, players=2, player=0, symbols=["DR DT LR LT", "DR DT LR LT"])
    state.apply_action(Place("LT", "E"))
    out = shown(state.observation(0), 0, width=120)
    assert "Tie on" in out and "seat 1 wins" in out and "seat 0, who ended the game" in out


def test_move_step_says_which_piece_cannot_move() -> None:
    state = position(["DR", "LR", "", "", "", ""], marker="A", symbols=["DR DR LT LR", "DT DT LR LT"])
    state.apply_action(Place("LT", "C"))
    out = shown(state.observation(0), 0)
    assert "Just placed on C" in out
    assert "top piece of A was moved last and cannot move" in out


def test_rendering_for_a_seat_never_shows_another_seats_symbols() -> None:
    state = position(["", "", "", "", "", ""], symbols=["LR LR LR LR", "DT DT DT DT"])
    state.supply = [6, 6, 6, 6]
    for seat, mine, theirs in ((0, "LR", "DT"), (1, "DT", "LR")):
        out = shown(state.observation(seat), seat, width=120)
        own_line = next(line for line in out.splitlines() if "Your symbols" in line)
        assert own_line.count(mine) == 4 and theirs not in own_line
        assert "Final reveal" not in out and "Best order" in out
    assert "Your symbols" not in shown(state.observation(None), None)


def test_a_symbol_name_alone_chooses_the_next_symbol_of_a_manual_order() -> None:
    from meeple.cli.render.caprice import parse_input

    legal = ["put DR next in the order", "put LT next in the order"]
    assert parse_input("dr", legal) == ["put DR next in the order"]
    assert parse_input("DT", legal) is None  # not one of the choices: left to the CLI's own message
    assert parse_input("dr", ["place DR on A"]) is None


def test_the_drawn_symbol_is_shown_to_its_drawer_only_on_its_own_line() -> None:
    from tests.games.caprice.helpers import new_state

    state = new_state(3, 11)
    state.symbols[0] = [0, 0]
    state.drawn = 0
    state.edited()
    out = shown(state.observation(0), 0)
    line = next(line for line in out.splitlines() if "Drawn now" in line)
    assert "DR" in line and "you may exchange it" in line
    for seat in (1, 2, None):
        assert "Drawn now" not in shown(state.observation(seat), seat)
    state.symbols[0] = [0, 1]
    assert "nothing to exchange" in shown(state.observation(0), 0)
