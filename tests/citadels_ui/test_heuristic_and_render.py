"""The Citadels heuristic bot and terminal renderer."""

from __future__ import annotations

from collections import Counter

from rich.console import Console

import meeple
from meeple.arena.match import play_bots
from meeple.bots import make_bot
from meeple.cli.render.citadels import render
from meeple.core import SeatView
from meeple.games.citadels.actions import Assassinate, DrawCards, PickCharacter, TakeGold
from meeple.games.citadels.state import CitadelsState


def text_of(obs: dict[str, object], seat: int | None) -> str:
    console = Console(width=160, record=True, color_system=None)
    console.print(render(obs, seat))
    return console.export_text()


def test_heuristic_beats_random_from_every_seat() -> None:
    wins: Counter[str] = Counter()
    games = 24
    for seed in range(games):
        specs = ["random"] * 4
        specs[seed % 4] = "heuristic"
        result = play_bots("citadels", {"players": 4}, seed, specs)
        for spec, r in zip(specs, result.record.returns, strict=True):
            wins[spec] += r > 0
    assert wins["heuristic"] >= games * 0.6  # fair share is 25%


def test_heuristic_plays_every_variant_to_the_end() -> None:
    variants: list[dict[str, object]] = [
        {"players": 2, "variant_2p_ffg": True},
        {"players": 3},
        {"players": 7},
        {"players": 3, "variant_3p_ffg": True},
    ]
    for params in variants:
        n = int(params["players"])
        result = play_bots("citadels", params, 5, ["heuristic"] * n)
        assert result.final_state.is_terminal()


def test_heuristic_picks_characters_for_its_city() -> None:
    state = meeple.load_game("citadels", players=4).new_initial_state(1)
    assert isinstance(state, CitadelsState)
    seat = state.current_player()
    bot = make_bot("heuristic", "citadels", seed=0)
    offered = {a.character for a in state.legal_actions() if isinstance(a, PickCharacter)}
    # give the seat a green city: the Merchant, when offered, is the pick
    state.cities[seat] = [c for c, k in enumerate(state.game.card_kind) if k in (7, 8, 9)][:3]
    for c in state.cities[seat]:
        for hand in state.hands:
            if c in hand:
                hand.remove(c)
        if c in state.deck:
            state.deck.remove(c)
    state.edited()
    choice = bot.select_action(SeatView(state, seat))
    if 6 in offered:
        assert choice == PickCharacter(6)
    else:
        assert isinstance(choice, PickCharacter)


def test_heuristic_never_assassinates_its_own_or_a_faceup_character() -> None:
    for seed in range(6):
        game = meeple.load_game("citadels", players=5)
        state = game.new_initial_state(seed)
        bots = [make_bot("heuristic", "citadels", seed=s) for s in range(5)]
        while not state.is_terminal():
            seat = state.current_player()
            view = SeatView(state, seat)
            action = bots[seat].select_action(view)
            if isinstance(action, Assassinate):
                obs = view.observation()
                assert action.character not in obs["my_characters"]
                assert action.character not in obs["characters"]["faceup"]
            state.apply_action(action)


def test_heuristic_draws_when_its_hand_is_useless() -> None:
    state = meeple.load_game("citadels", players=4).new_initial_state(2)
    assert isinstance(state, CitadelsState)
    bot = make_bot("heuristic", "citadels")

    def mandatory_choice_of_a_powerless_turn() -> bool:
        turn = state.observation(None)["turn"]
        legal = state.legal_actions()
        return turn is not None and turn["character"] > 3 and any(isinstance(a, TakeGold) for a in legal)

    while not mandatory_choice_of_a_powerless_turn():
        state.apply_action(bot.select_action(SeatView(state, state.current_player())))
    seat = state.current_player()
    state.hands[seat] = []
    state.edited()
    assert bot.select_action(SeatView(state, seat)) == DrawCards()


def test_render_shows_my_hand_and_public_facts_only() -> None:
    state = meeple.load_game("citadels", players=4).new_initial_state(3)
    rng = meeple.Rng(1)
    for _ in range(30):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    seat = state.current_player()
    obs = state.observation(seat)
    shown = text_of(obs, seat)
    for card in obs["hand"]:
        assert card["name"] in shown
    assert f"Your hand (seat {seat})" in shown
    assert "Round" in shown and "Characters" in shown
    spectator = text_of(state.observation(None), None)
    assert "Your hand" not in spectator
