from __future__ import annotations

import random

from rich.console import Console

from meeple.arena.match import play_match
from meeple.bots import make_bot
from meeple.bots.heuristic.capital_lux_2 import CapitalLux2HeuristicBot
from meeple.bots.random import RandomBot
from meeple.cli.render.capital_lux_2 import parse_input, render
from tests.games.capital_lux_2.helpers import new_state


def test_heuristic_bot_beats_random_at_three_players() -> None:
    wins = 0.0
    games = 30
    for g in range(games):
        seat = g % 3
        bots = [RandomBot(seed=g * 10 + i) for i in range(3)]
        bots[seat] = CapitalLux2HeuristicBot(seed=g)
        result = play_match("capital_lux_2", {"players": 3}, g, bots)
        wins += result.final_state.returns()[seat]
    assert wins >= 18  # random would win about 10


def test_heuristic_bot_plays_every_power_configuration() -> None:
    for g, config in enumerate("BCD"):
        bots = [CapitalLux2HeuristicBot(seed=g), RandomBot(seed=g)]
        play_match("capital_lux_2", {"players": 2, "config": config, "provisional_powers": True}, g, bots)
    assert isinstance(make_bot("heuristic", "capital_lux_2"), CapitalLux2HeuristicBot)


def test_heuristic_bot_in_solo_does_better_than_random() -> None:
    def margin(bot_cls: type) -> float:
        total = 0
        for g in range(8):
            res = play_match("capital_lux_2", {"players": 1}, g, [bot_cls(seed=g)])
            total += res.final_state.observation(0)["rob"]["margin"]
        return total / 8

    assert margin(CapitalLux2HeuristicBot) > margin(RandomBot)


def _text(obs: dict, seat: int | None) -> str:  # type: ignore[type-arg]
    console = Console(width=160, record=True)
    console.print(render(obs, seat))
    return console.export_text()


def test_render_every_seat_and_solo() -> None:
    st = new_state(3, seed=1, config="C", provisional_powers=True)
    rng = random.Random(0)
    for _ in range(25):
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
    text = _text(st.observation(0), 0)
    assert "Capital" in text and "Recruiter (provisional)" in text and "Your hand" in text
    assert "Cities" in text and "seat 2" in text
    assert "Your hand" not in _text(st.observation(None), None)
    solo = new_state(1, seed=1)
    text = _text(solo.observation(0), 0)
    assert "ROB" in text and "reserve" in text and "red cards" in text and "Draft" in text
    while not solo.is_terminal():
        legal = solo.legal_actions()
        solo.apply_action(legal[rng.randrange(len(legal))])
    assert "Final scores" in _text(solo.observation(None), None)


def test_parse_input_expands_draft_picks() -> None:
    legal = ["keep blue 2 (#0)", "keep pink 3 (#30)", "keep green 6 (#99)"]
    assert parse_input("0 99", legal) == ["keep blue 2 (#0)", "keep green 6 (#99)"]
    assert parse_input("play", legal) is None
    assert parse_input("0 7", legal) is None
