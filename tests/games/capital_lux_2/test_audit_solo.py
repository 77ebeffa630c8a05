"""Audit scenarios: the solo mode against ROB (FR pages 6-8), rule by rule."""

from __future__ import annotations

from meeple.games.capital_lux_2.actions import PlayToCity, TakeCard
from meeple.games.capital_lux_2.data import (
    BLUE,
    GREEN,
    PINK,
    ROB_BONUS,
    ROB_LEFT,
    ROB_RED,
    ROB_RIGHT,
    ROB_TOP,
    YELLOW,
    parse_rob_deck,
)
from meeple.games.capital_lux_2.flow import end_round
from meeple.games.capital_lux_2.state import CapitalLux2State
from tests.games.capital_lux_2.helpers import all_cards, blank, card, finish, new_state


def _rob_table(*rob_cards: int) -> CapitalLux2State:
    """Solo play phase; ``rob_cards`` are flipped in the given order."""
    st = blank(1)
    st.hand[0] = [card(GREEN, 2, 4), card(GREEN, 3, 4), card(GREEN, 4, 4)]
    st.rob_deck = list(reversed(rob_cards))
    st.rob_red = []
    st.rob_blue = []
    return st


def test_default_rob_deck_has_fourteen_cards_four_red_four_bonus() -> None:
    deck = parse_rob_deck(new_state(1).game.params.rob_deck)
    assert len(deck) == 14
    assert sum(1 for c in deck if c & ROB_RED) == 4 and sum(1 for c in deck if c & ROB_BONUS) == 4
    assert sorted(c & 3 for c in deck).count(ROB_TOP) == 4


def test_bonus_symbol_does_nothing_when_the_card_goes_to_robs_city() -> None:
    st = _rob_table(ROB_LEFT | ROB_BONUS)
    st.rob_hand = [card(BLUE, 2), card(PINK, 3)]
    st.capital[BLUE] = [card(BLUE, 6)]
    st.capital[YELLOW] = [card(YELLOW, 2)]
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2, 4)))
    assert st.city[1][BLUE] == [card(BLUE, 2)]
    assert st.bonus[1] == [] and st.capital[YELLOW] == [card(YELLOW, 2)]


def test_bonus_symbol_takes_the_lowest_card_of_the_whole_capital_rulebook_example() -> None:
    # FR example: ROB's left card is a green 4; ROB's green City would exceed the Capital, so it is played to the
    # Capital; the ROB card has the bonus symbol: ROB takes the lowest Capital card (a blue 3).
    st = _rob_table(ROB_LEFT | ROB_BONUS)
    st.rob_hand = [card(GREEN, 4), card(PINK, 6)]
    st.city[1][GREEN] = [card(GREEN, 5)]
    st.capital = [[card(BLUE, 3)], [card(PINK, 5)], [card(YELLOW, 4)], [card(GREEN, 6)]]
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2, 4)))
    assert st.capital[GREEN] == [card(GREEN, 6), card(GREEN, 4)]
    assert st.bonus[1] == [card(BLUE, 3)] and st.capital[BLUE] == []


def test_bonus_symbol_never_takes_the_card_just_played_even_if_it_is_the_lowest() -> None:
    st = _rob_table(ROB_RIGHT | ROB_BONUS)
    st.rob_hand = [card(PINK, 6), card(BLUE, 2)]
    st.capital = [[], [], [card(YELLOW, 5)], []]
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2, 4)))
    assert card(BLUE, 2) in st.capital[BLUE]
    assert st.bonus[1] == [card(YELLOW, 5)]


def test_bonus_symbol_with_no_other_capital_card_takes_nothing() -> None:
    st = _rob_table(ROB_RIGHT | ROB_BONUS)
    st.rob_hand = [card(PINK, 6), card(BLUE, 2)]
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2, 4)))
    assert st.capital[BLUE] == [card(BLUE, 2)] and st.bonus[1] == [] and not st.stack


def test_rob_placement_ignores_the_colour_of_cards_already_in_a_district() -> None:
    st = _rob_table(ROB_LEFT)
    st.rob_hand = [card(PINK, 4), card(BLUE, 6)]
    st.capital[PINK] = [card(GREEN, 6)]  # a green 6 lying in the pink Capital district: pink MAX 6
    st.city[1][PINK] = [card(YELLOW, 2)]  # a yellow 2 in ROB's pink district: 2 + 4 = 6 <= 6
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2, 4)))
    assert st.city[1][PINK] == [card(YELLOW, 2), card(PINK, 4)]


def test_two_red_cards_do_not_end_the_round() -> None:
    st = _rob_table(ROB_LEFT | ROB_RED, ROB_RIGHT | ROB_RED, ROB_TOP)
    st.rob_hand = [card(BLUE, 4), card(PINK, 3)]
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2, 4)))  # ROB flips red 1
    st.apply_action(PlayToCity(card(GREEN, 3, 4)))  # ROB flips red 2
    assert len(st.rob_red) == 2 and not st.ending and st.phase == 1 and st.current_player() == 0


def test_third_red_card_gives_the_player_exactly_one_last_turn() -> None:
    st = _rob_table(ROB_LEFT | ROB_RED, ROB_RIGHT | ROB_RED, ROB_TOP | ROB_RED, ROB_LEFT, ROB_RIGHT)
    st.rob_hand = [card(BLUE, 4), card(PINK, 3)]
    st.hand[0] = [card(GREEN, 2, 4), card(GREEN, 3, 4), card(GREEN, 4, 4), card(GREEN, 5, 4), card(GREEN, 6, 4)]
    st.capital[GREEN] = [card(GREEN, 6, 0), card(GREEN, 6, 1), card(GREEN, 6, 2), card(GREEN, 5, 0), card(GREEN, 5, 1)]
    finish(st)
    st.apply_action(PlayToCity(card(GREEN, 2, 4)))
    st.apply_action(PlayToCity(card(GREEN, 3, 4)))
    assert not st.ending
    st.apply_action(PlayToCity(card(GREEN, 4, 4)))  # ROB then flips its third red card
    assert st.ending and st.current_player() == 0 and len(st.rob_red) == 3
    flipped = len(st.rob_deck)
    st.apply_action(PlayToCity(card(GREEN, 5, 4)))  # the player's last turn; ROB does not play again
    while st.stack:  # a bonus choice among equal cards, if any
        st.apply_action(st.legal_actions()[0])
    assert st.round == 1 and st.phase == 0
    assert flipped == 2  # ROB had cards left but did not flip another one
    assert card(GREEN, 6, 4) in st.city[0][GREEN]  # the leftover card went to the City


def test_robs_hand_is_not_deposited_at_round_end_and_the_reserve_stays_topped_up() -> None:
    st = blank(1)
    st.rob_hand = [card(BLUE, 6), card(PINK, 6)]
    st.rob_reserve = [card(YELLOW, 6), card(GREEN, 2)]
    st.capital[GREEN] = [card(GREEN, 4)]
    finish(st)
    end_round(st)
    assert st.rob_hand == [card(BLUE, 6), card(PINK, 6)]
    assert st.city[1][GREEN] == [card(GREEN, 2)]  # the reserve card that fits was placed...
    assert st.rob_reserve[0] == card(YELLOW, 6) and len(st.rob_reserve) == 5  # ...the other stays; topped up to 5
    assert sorted(all_cards(st)) == list(range(100))


def test_rob_reserve_is_placed_after_the_players_leftover_cards_and_before_resolution() -> None:
    st = blank(1)
    st.capital[BLUE] = [card(BLUE, 5)]
    st.hand[0] = [card(BLUE, 2)]
    st.rob_reserve = [card(BLUE, 4)]
    finish(st)
    end_round(st)
    # ROB's blue 4 fits (4 <= 5); the player's leftover blue 2 went to its City; ROB has the higher total
    assert st.city[0][BLUE] == [card(BLUE, 2)] and st.city[1][BLUE] == [card(BLUE, 4)]
    assert st.bonus[1] == [card(BLUE, 5)]


def test_rob_city_busts_at_resolution_like_a_player_face_down_modifier() -> None:
    st = blank(1)
    st.capital[YELLOW] = [card(YELLOW, 6)]
    st.city[1][YELLOW] = [card(YELLOW, 4), card(YELLOW, 2)]  # 6 <= 6 visibly...
    st.hidden = [[YELLOW, 0, -3, 0]]  # ...but the player's -3 makes MAX 3
    st.city[0][YELLOW] = [card(YELLOW, 3)]
    finish(st)
    end_round(st)
    assert st.city[1][YELLOW] == []
    assert card(YELLOW, 4) in st.discard and card(YELLOW, 2) in st.discard
    assert st.bonus[0] == [card(YELLOW, 6)]


def test_rob_reserve_ignores_face_down_modifiers_and_can_bust_because_of_them() -> None:
    st = blank(1)
    st.capital[PINK] = [card(PINK, 5)]
    st.hidden = [[PINK, 0, -1, 0]]
    st.rob_reserve = [card(PINK, 5, 1)]
    finish(st)
    end_round(st)
    assert st.city[1][PINK] == []  # placed (5 <= 5 visible), then busted (5 > 4)
    assert card(PINK, 5, 1) in st.discard


def test_rob_and_the_player_tie_both_take_gold_and_the_highest_capital_card_is_discarded() -> None:
    st = blank(1)
    st.capital[GREEN] = [card(GREEN, 6), card(GREEN, 3)]
    st.city[0][GREEN] = [card(GREEN, 5)]
    st.city[1][GREEN] = [card(GREEN, 2), card(GREEN, 3, 1)]
    finish(st)
    end_round(st)
    assert st.gold == [1, 1]
    assert st.capital[GREEN] == [card(GREEN, 3)] and card(GREEN, 6) in st.discard
    assert st.bonus == [[], []]


def test_rob_score_counts_city_bonus_and_gold_and_the_player_chooses_robs_equal_bonus_card() -> None:
    st = blank(1)
    st.round = 2
    a, b = card(BLUE, 5, 0), card(BLUE, 5, 1)
    st.capital[BLUE] = [a, b]
    st.city[1][BLUE] = [card(BLUE, 3)]
    st.city[1][GREEN] = [card(GREEN, 2)]
    st.capital[GREEN] = [card(GREEN, 2, 1)]
    st.bonus[1] = [card(PINK, 4)]
    st.gold[1] = 2
    finish(st)
    end_round(st)
    pending = st.observation(0)["pending"]
    assert pending is not None and pending["text"].startswith("choose ROB's bonus card")
    st.apply_action(TakeCard(a))
    assert st.bonus[1] == [card(PINK, 4), a, card(GREEN, 2, 1)]
    # City 3 + 2, bonus 4 + 5 + 2, gold 2 x 2
    assert st.rob_score() == 3 + 2 + 4 + 5 + 2 + 4
    assert st.observation(0)["rob"]["margin"] == -st.rob_score()


def test_player_bonus_choice_text_says_your() -> None:
    st = blank(1)
    a, b = card(BLUE, 5, 0), card(BLUE, 5, 1)
    st.capital[BLUE] = [a, b]
    st.city[0][BLUE] = [card(BLUE, 3)]
    finish(st)
    end_round(st)
    assert st.observation(0)["pending"]["text"].startswith("choose your bonus card")
