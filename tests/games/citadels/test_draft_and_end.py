"""Scenario tests: the draft for every player count and variant, hidden picks, the end of the game, parameters.

Rules: citadels.md §5.2 rules 1-5, 21-22, 24; §2 (7 players, 2-3 player variants).
"""

from __future__ import annotations

import pytest

from meeple import load_game
from meeple.core import InvalidParameterError
from meeple.games.citadels.actions import DiscardCharacter, PickCharacter
from meeple.games.citadels.data import ASSASSIN, KING
from meeple.games.citadels.state import CitadelsState

from .helpers import play, position


def new(players: int, seed: int = 0, **params: object) -> CitadelsState:
    s = load_game("citadels", players=players, **params).new_initial_state(seed)
    assert isinstance(s, CitadelsState)
    return s


def test_setup_four_cards_two_gold_random_crown() -> None:
    crowns = set()
    for seed in range(12):
        s = new(4, seed)
        assert [len(h) for h in s.hands] == [4] * 4 and s.gold == [2] * 4
        assert len(s.deck) == 65 - 16
        crowns.add(s.crown)
        assert s.current_player() == s.crown
    assert len(crowns) > 1


@pytest.mark.parametrize("players, faceup, offered", [(3, 2, 4), (4, 2, 5), (5, 1, 6), (6, 0, 7), (7, 0, 7)])
def test_removal_table(players: int, faceup: int, offered: int) -> None:
    for seed in range(30):
        s = new(players, seed)
        assert len(s.faceup) == faceup and len(s.facedown) == 1
        assert KING not in s.faceup  # the King is never face up
        assert len(s.pool) == offered
        if players == 3:
            assert ASSASSIN not in s.pool + s.faceup + s.facedown  # no Assassin at 3 players


def test_king_can_be_the_face_down_card() -> None:
    assert any(new(4, seed).facedown == [KING] for seed in range(60))


def test_draft_order_and_last_card_face_down() -> None:
    s = new(4, 3)
    order = [(s.crown + i) % 4 for i in range(4)]
    for seat in order:
        assert s.current_player() == seat
        s.apply_action(s.legal_actions()[0])
    assert s.phase == 1 and len(s.facedown) == 2
    assert all(len(cs) == 1 for cs in s.chars)


def test_seven_players_last_seat_gets_the_face_down_card() -> None:
    s = new(7, 1)
    down = s.facedown[0]
    for _ in range(6):
        s.apply_action(s.legal_actions()[0])
    assert len(s.pool) == 2 and down in s.pool  # one card left + the initial face-down card
    assert s.observation(s.current_player())["draft"]["offered"] == s.pool
    s.apply_action(s.legal_actions()[-1])
    assert s.phase == 1 and len(s.facedown) == 1


def test_picks_are_hidden_from_other_seats() -> None:
    s = new(4, 2)
    picker = s.current_player()
    action = s.legal_actions()[0]
    assert isinstance(action, PickCharacter)
    s.apply_action(action)
    other = (picker + 1) % 4
    assert s.action_to_string(action, perspective=other, actor=picker) == "pick a character"
    assert "pick the" in s.action_to_string(action, perspective=picker, actor=picker)
    assert s.observation(picker)["my_characters"] == [action.character]
    assert s.observation(other)["my_characters"] == []
    assert s.observation(other)["draft"]["offered"] == s.pool  # the next picker sees the rest
    assert s.observation((picker + 2) % 4)["draft"]["offered"] is None
    spectator = s.observation(None)
    assert spectator["hand"] is None and spectator["draft"]["offered"] is None


def test_three_players_first_edition_ends_at_ten() -> None:
    assert load_game("citadels", players=3).threshold == 10
    assert load_game("citadels", players=3, quick_game="7").threshold == 7
    assert load_game("citadels", players=4, quick_game="6").threshold == 6
    assert load_game("citadels", players=3, variant_3p_ffg=True).threshold == 8


def test_two_player_ffg_draft() -> None:
    s = new(2, 5, variant_2p_ffg=True)
    a, b = s.crown, 1 - s.crown
    assert len(s.pool) == 7 and len(s.facedown) == 1
    seq = [
        (a, PickCharacter),
        (b, PickCharacter),
        (b, DiscardCharacter),
        (a, PickCharacter),
        (a, DiscardCharacter),
        (b, PickCharacter),
    ]
    for seat, cls in seq:
        assert s.current_player() == seat
        action = s.legal_actions()[0]
        assert isinstance(action, cls)
        s.apply_action(action)
    assert s.phase == 1
    assert [len(c) for c in s.chars] == [2, 2] and len(s.facedown) == 4
    assert s.observation(b)["my_discarded"] and s.observation(a)["my_discarded"]


def test_three_player_ffg_two_characters_each_with_the_assassin() -> None:
    for seed in range(10):
        s = new(3, seed, variant_3p_ffg=True)
        assert ASSASSIN in s.pool + s.facedown
        while s.phase == 0:
            s.apply_action(s.legal_actions()[0])
        assert [len(c) for c in s.chars] == [2, 2, 2] and len(s.facedown) == 2


def test_end_of_game_finishes_the_round_and_bonuses() -> None:
    seven = ["temple", "eglise", "monastere", "manoir", "chateau", "taverne", "marche"]
    s = position(
        chars={0: [4], 1: [6], 2: [8]},
        cities={0: seven, 1: [*seven[:6], "prison"]},
        hands={0: ["port"], 1: ["caserne"]},
        gold={0: 10, 1: 10, 2: 0},
        start=4,
    )
    play(s, "take 2 gold", "build Harbor", "end the turn")
    assert not s.is_terminal() and s.ending  # the round is finished
    play(s, "take 2 gold", "build Battlefield", "end the turn")
    assert s.current_player() == 2  # the Warlord still plays; complete cities are immune
    play(s, "take 2 gold", "end the turn")
    assert s.is_terminal()
    b = s.score_breakdowns()
    assert b[0].first_complete == 4 and b[0].complete == 0
    assert b[1].first_complete == 0 and b[1].complete == 2
    assert b[1].five_colours == 0 and b[0].five_colours == 0
    obs = s.observation(None)
    assert obs["phase"] == "end" and obs["winners"] == s.winners()
    assert s.returns()[s.winners()[0]] == 1.0


def test_tie_break_on_district_values_then_gold() -> None:
    five = ["temple", "manoir", "taverne", "prison", "donjon"]  # 10 + 3 (five colours) = 13
    s = position(chars={0: [4]}, cities={0: five, 1: ["cathedrale", "palais", "monastere"]}, gold={0: 9, 1: 0})
    s.phase = 2
    assert s.scores()[:2] == [13.0, 13.0]
    assert s.winners() == [1]  # same points, more district value
    s2 = position(chars={0: [4]}, cities={0: ["port"], 1: ["chateau"]}, gold={0: 0, 1: 3})
    s2.phase = 2
    assert s2.winners() == [1] and s2.returns() == [0.0, 1.0, 0.0, 0.0]  # then more gold
    s3 = position(chars={0: [4]}, cities={0: ["port"], 1: ["chateau"]}, gold={0: 2, 1: 2})
    s3.phase = 2
    assert s3.winners() == [0, 1] and s3.returns() == [1.0, 1.0, 0.0, 0.0]  # shared win


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2},
        {"players": 8},
        {"players": 4, "variant_2p_ffg": True},
        {"players": 4, "variant_3p_ffg": True},
        {"players": 4, "great_wall": True},
        {"players": 4, "deck": "de"},
        {"players": 4, "quick_game": "5"},
        {"players": 4, "max_rounds": 0},
    ],
)
def test_invalid_parameters(params: dict[str, object]) -> None:
    with pytest.raises(InvalidParameterError):
        load_game("citadels", **params)


def test_two_players_message_names_the_variant() -> None:
    with pytest.raises(InvalidParameterError, match="variant_2p_ffg"):
        load_game("citadels", players=2)


def test_en_deck_profile() -> None:
    g = load_game("citadels", players=4, deck="en")
    assert len(g.card_kind) == 65
    assert len(load_game("citadels", players=4, deck="en", great_wall=True).card_kind) == 66


def test_max_rounds_caps_the_game() -> None:
    s = new(4, 0, max_rounds=1)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[-1])
    assert s.round == 1


VARIANTS: list[tuple[int, dict[str, object]]] = [
    (3, {}),
    (4, {}),
    (5, {}),
    (6, {}),
    (7, {}),
    (2, {"variant_2p_ffg": True}),
    (3, {"variant_3p_ffg": True}),
]


@pytest.mark.parametrize("players, params", VARIANTS)
def test_first_legal_action_policy_ends_the_game(players: int, params: dict[str, object]) -> None:
    for seed in range(4):
        s = new(players, seed, **params)
        steps = 0
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
            steps += 1
        assert s.round < 40 and steps < s.game.info.max_game_length
        assert any(len(c) >= s.game.threshold for c in s.cities)


def test_last_legal_action_policy_never_builds_and_stops_at_the_round_cap() -> None:
    s = new(4, 0, max_rounds=12)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[-1])
    assert s.round == 12 and not any(s.cities)
