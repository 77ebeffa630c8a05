"""Audit: what the terminal renderer tells a player (previous round's calls, a killed character, face-down discards)."""

from __future__ import annotations

from typing import Any

from rich.console import Console

from meeple import load_game
from meeple.cli.render.citadels import render
from meeple.games.citadels.state import CitadelsState

from .helpers import play, position


def text_of(obs: dict[str, Any], seat: int | None) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(render(obs, seat))
    return console.export_text()


def test_the_previous_round_calls_and_the_killed_holder_are_shown() -> None:
    s = position(chars={0: [1], 1: [4], 2: [6]}, crown=3)
    play(s, "assassinate the Merchant", "take 2 gold", "end the turn")
    during = text_of(s.observation(3), 3)
    assert "Merchant (assassinated: no answer)" not in during  # not called yet
    play(s, "take 2 gold", "end the turn")
    assert s.round == 2
    text = text_of(s.observation(3), 3)
    assert "Round 1 calls: Assassin (seat 0); Thief (nobody)" in text
    assert "King (seat 1)" in text and "Merchant (seat 2, assassinated)" in text


def test_a_killed_character_reads_as_no_answer_during_the_round() -> None:
    s = position(chars={0: [1], 3: [8]})
    play(s, "assassinate the Merchant", "take 2 gold", "end the turn")
    text = text_of(s.observation(1), 1)
    assert "Merchant (assassinated: no answer)" in text and "Merchant (nobody)" not in text


def test_my_face_down_discard_is_shown_in_the_two_player_variant() -> None:
    s = load_game("citadels", players=2, variant_2p_ffg=True).new_initial_state(3)
    assert isinstance(s, CitadelsState)
    for _ in range(2):  # A picks, B picks
        s.apply_action(s.legal_actions()[0])
    b = s.current_player()
    discard = s.legal_actions()[0]
    s.apply_action(discard)
    name = s.action_to_string(discard, perspective=b, actor=b).removeprefix("discard the ").removesuffix(" face down")
    assert f"you put face down: {name}" in text_of(s.observation(b), b)
    assert "you put face down" not in text_of(s.observation(1 - b), 1 - b)


def test_the_colour_income_still_available_is_shown_to_the_player() -> None:
    s = position(chars={0: [4]}, cities={0: ["manoir", "chateau", "ecole_de_magie", "temple"]}, start=4)
    assert "Colour income (yellow) not taken yet: +3 gold" in text_of(s.observation(0), 0)
    assert "Colour income" not in text_of(s.observation(1), 1)
    play(s, "take income")
    assert "Colour income" not in text_of(s.observation(0), 0)
