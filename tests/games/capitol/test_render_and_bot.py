"""Renderer, bid input hook and heuristic bot of Capitol."""

from __future__ import annotations

from rich.console import Console

from meeple.arena.match import play_match
from meeple.bots import make_bot
from meeple.cli.render.capitol import parse_input, render
from meeple.core import Rng, load_game
from meeple.games.capitol.data import CARD_NAME
from tests.games.capitol.helpers import do, fresh, set_hand, texts
from tests.games.capitol.test_improvement import to_auction


def show(obs: dict, seat: int | None) -> str:  # type: ignore[type-arg]
    console = Console(width=160, record=True)
    console.print(render(obs, seat))
    return console.export_text()


def test_render_every_phase_and_no_hidden_card() -> None:
    state = load_game("capitol", players=4).new_initial_state(3)
    rng = Rng(3)
    phases = set()
    step = 0
    while not state.is_terminal():
        seat = state.current_player()
        obs = state.observation(seat)
        phases.add(obs["phase"])
        step += 1
        if step % 4 == 0 or obs["phase"] != "construction":  # keep the test fast: every phase, most steps
            text = show(obs, seat)
            assert "Board" in text and "Z9" in text and f"round {obs['round']}/4" in text
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert phases == {"construction", "improvement", "end"}
    show(state.observation(None), None)


def test_render_hand_only_for_its_owner() -> None:
    s = fresh(3)
    set_hand(s, 1, ["floor8", "roof7"])
    assert "Your hand: roof7 floor8" in show(s.observation(1), 1)
    for seat in (0, 2, None):
        assert "roof7 floor8" not in show(s.observation(seat), seat)


def test_render_auction_in_progress_shows_sealed() -> None:
    s = fresh(2)
    set_hand(s, 0, ["floor8", "roof7"])
    to_auction(s)
    do(s, "bid: add floor8")
    assert "your bid so far: 8 [floor8]" in show(s.observation(0), 0)
    do(s, "seal the bid")
    assert "P0: sealed" in show(s.observation(1), 1)
    panel = show(s.observation(1), 1).split("Improvement")[1].split("Your hand")[0]
    assert "floor8" not in panel and "roof7" not in panel


def test_parse_input_expands_a_bid() -> None:
    s = fresh(2)
    set_hand(s, 0, ["floor4", "floor6", "roof7", "floor8", "floor4", "permitC1-6"])
    to_auction(s)
    legal = texts(s)
    assert parse_input("bid 7 4", legal) == ["bid: add roof7", "bid: add floor4", "seal the bid"]
    assert parse_input("bid floor4 permitC1-6", legal) == ["bid: add floor4", "bid: add permitC1-6", "seal the bid"]
    assert parse_input("bid 6 6", legal) == ["bid: add floor6", "bid: add permitC1-6", "seal the bid"]
    assert parse_input("bid", legal) == ["seal the bid"]
    assert parse_input("bid 3", legal) == []
    assert parse_input("pass", legal) is None
    for t in parse_input("bid 4 4 8", legal) or []:
        do(s, t)
    assert sorted(CARD_NAME[c] for c in s.bids.values[0]) == ["floor4", "floor4", "floor8"]
    assert parse_input("bid 3", ["pass", "play floor3 without its action"]) is None


def test_heuristic_beats_random() -> None:
    wins = 0.0
    games = 24
    for g in range(games):
        seat = g % 4
        bots = [make_bot("heuristic" if s == seat else "random", "capitol", seed=g * 4 + s) for s in range(4)]
        result = play_match("capitol", {"players": 4}, g, bots)
        wins += result.final_state.returns()[seat]
    assert wins >= 0.75 * games  # the fair share is 25%


def test_heuristic_plays_legal_moves_under_variants() -> None:
    for params in ({"floor_placement": "tallest_incomplete_only", "players": 3}, {"zero_bid": "no_sale", "players": 2}):
        bots = [make_bot("heuristic", "capitol", seed=s) for s in range(int(params["players"]))]
        result = play_match("capitol", params, 7, bots)
        assert result.final_state.is_terminal()
