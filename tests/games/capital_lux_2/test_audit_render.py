"""Audit: what a player reads — the resolution record, draft status, tile state and decision texts."""

from __future__ import annotations

from rich.console import Console

from meeple.cli.render.capital_lux_2 import render
from meeple.games.capital_lux_2.data import BLUE, GREEN, PINK, YELLOW
from meeple.games.capital_lux_2.flow import end_round
from tests.games.capital_lux_2.helpers import blank, card, finish, new_state


def _text(obs: dict, seat: int | None) -> str:  # type: ignore[type-arg]
    console = Console(width=200, record=True)
    console.print(render(obs, seat))
    return console.export_text()


def test_the_last_resolution_is_recorded_in_words_for_everybody() -> None:
    st = blank(3)
    st.capital[BLUE] = [card(BLUE, 4)]
    st.hidden = [[BLUE, 0, -1, 0]]
    st.capital[PINK] = [card(PINK, 6), card(PINK, 3)]
    st.capital[YELLOW] = [card(YELLOW, 5)]
    st.city[0][BLUE] = [card(BLUE, 4, 1)]  # 4 > 3: over the MAX
    st.city[1][PINK] = [card(PINK, 5)]
    st.city[0][YELLOW] = [card(YELLOW, 2)]
    st.city[2][YELLOW] = [card(YELLOW, 2, 1)]
    finish(st)
    end_round(st)
    for seat in (None, 0, 1, 2):
        res = st.observation(seat)["last_resolution"]
        assert res["round"] == 1 and res["max"] == [3, 9, 5, 0]
        assert res["events"] == [
            "revealed on the blue Capital district: modifier -1",
            "seat 0's blue district (4) is over its MAX 3",
            f"seat 1 takes the pink bonus: pink 6 (#{card(PINK, 6)})",
            f"tie for the yellow bonus: seat 0 and seat 2 take 1 gold each; yellow 5 (#{card(YELLOW, 5)}) is "
            "discarded from the Capital",
        ]
    text = _text(st.observation(1), 1)
    assert "Resolution of round 1" in text and "is over its MAX 3" in text
    copy = st.game.state_from_json(st.to_json(), check_history=False)  # an explicit position: no history
    assert copy.observation(0)["last_resolution"] == st.observation(0)["last_resolution"]  # type: ignore[attr-defined]


def test_solo_resolution_names_rob_and_the_rob_bonus_choice_is_worded_for_rob() -> None:
    st = blank(1)
    a, b = card(GREEN, 6, 0), card(GREEN, 6, 1)
    st.capital[GREEN] = [a, b]
    st.city[1][GREEN] = [card(GREEN, 4)]
    finish(st)
    end_round(st)
    text = _text(st.observation(0), 0)
    assert "You must decide: choose ROB's bonus card" in text
    st.apply_action(st.legal_actions()[0])
    assert st.observation(0)["last_resolution"]["events"] == [f"ROB takes the green bonus: green 6 (#{a})"]


def test_draft_status_names_seats_in_pick_order_and_tile_state_is_in_words() -> None:
    st = new_state(3, seed=2)  # the Emperor is seat 2: it picks first
    st.apply_action(st.legal_actions()[0])
    st.apply_action(st.legal_actions()[0])
    obs = st.observation(0)
    assert obs["draft"]["pick_order"] == [2, 0, 1]
    text = _text(obs, 0)
    assert "seat 2 has picked, seat 0 still choosing, seat 1 still choosing" in text
    assert "modifiers left in the pile: 4" in text
    assert "Variant" not in text  # variant rules are not shown when they are off
    flagged = new_state(3, seed=2, merchant_gold_covers_excess=True, clerc_excludes_pink=False)
    text = _text(flagged.observation(0), 0)
    assert "gold may pay the excess" in text and "pink district may be chosen" in text
