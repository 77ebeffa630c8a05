"""Audit scenarios: base-game rules not (fully) pinned by the other test files."""

from __future__ import annotations

from meeple.games.capital_lux_2.actions import KeepCard, PlayToCapital, PlayToCity, TakeCard
from meeple.games.capital_lux_2.data import BLUE, GREEN, PINK, YELLOW
from meeple.games.capital_lux_2.flow import end_round
from tests.games.capital_lux_2.helpers import blank, card, finish, new_state


def _resolve(st) -> None:  # type: ignore[no-untyped-def]
    finish(st)
    for s in range(st.n):
        st.hand[s] = []
    end_round(st)


# ---------------------------------------------------------------- draft and turn order


def test_round_two_is_drafted_and_played_from_the_new_emperor() -> None:
    st = new_state(3, seed=2)
    first = st.emperor
    assert first == 2
    assert list(st.sealed.order) == [first, (first + 1) % 3, (first + 2) % 3]
    while st.phase == 0:
        st.apply_action(st.legal_actions()[0])
    assert st.turn == first  # the Emperor plays first
    while st.round == 0:
        st.apply_action(st.legal_actions()[0])
    assert st.emperor == (first + 1) % 3  # passed left
    assert st.phase == 0 and st.sealed.order[0] == st.emperor
    while st.phase == 0:
        st.apply_action(st.legal_actions()[0])
    assert st.turn == st.emperor


def test_draft_pick_of_a_seat_is_not_applied_before_everybody_has_picked() -> None:
    st = new_state(2, seed=3)
    a = st.current_player()
    b = 1 - a
    pack_b = list(st.packs[b])
    st.apply_action(KeepCard(st.packs[a][0]))
    st.apply_action(KeepCard(st.packs[a][0]))
    # a's picks are sealed: not yet in a's hand, a's remaining pack not passed yet; b still sees its own pack
    assert st.hand[a] == [] and st.packs[b] == pack_b and len(st.packs[a]) == 4
    st.apply_action(KeepCard(st.packs[b][0]))
    st.apply_action(KeepCard(st.packs[b][0]))
    assert len(st.hand[a]) == 2 and len(st.hand[b]) == 2
    assert len(st.packs[a]) == 4 and len(st.packs[b]) == 4  # the 4 left-over cards changed hands


def test_final_draft_stage_the_last_two_cards_are_kept_without_a_choice() -> None:
    st = new_state(4, seed=5)
    for _ in range(2):  # two stages of 4 seats x 2 picks
        for _ in range(8):
            st.apply_action(st.legal_actions()[0])
    assert st.phase == 1
    assert [len(h) for h in st.hand] == [6, 6, 6, 6]
    assert st.packs == [[], [], [], []]


# ---------------------------------------------------------------- playing, powers mandatory unless impossible


def test_a_possible_power_is_mandatory_no_other_move_until_it_is_resolved() -> None:
    st = blank(2)
    st.capital[YELLOW] = [card(YELLOW, 3)]
    st.hand = [[card(PINK, 4), card(GREEN, 6)], [card(BLUE, 2)]]
    finish(st)
    st.apply_action(PlayToCapital(card(PINK, 4)))
    legal = st.legal_actions()
    assert legal == [TakeCard(card(YELLOW, 3))]  # the Clerc must be applied; no play, no skip
    assert st.current_player() == 0
    st.apply_action(legal[0])
    assert st.city[0][YELLOW] == [card(YELLOW, 3)] and st.turn == 1


def test_clerc_is_impossible_when_every_non_pink_capital_district_is_empty() -> None:
    st = blank(2)
    st.capital[PINK] = [card(PINK, 2)]  # only pink cards in the Capital: nothing to take
    st.hand = [[card(PINK, 4), card(GREEN, 6)], [card(BLUE, 2)]]
    finish(st)
    st.apply_action(PlayToCapital(card(PINK, 4)))
    assert not st.stack and st.turn == 1
    assert st.capital[PINK] == [card(PINK, 2), card(PINK, 4)]


def test_savant_is_impossible_with_no_deck_and_no_discards() -> None:
    st = blank(2)
    st.hand = [[card(GREEN, 4), card(BLUE, 6)], [card(BLUE, 2)]]
    finish(st)
    st.deck = []
    st.apply_action(PlayToCapital(card(GREEN, 4)))
    assert st.hand[0] == [card(BLUE, 6)] and st.capital[GREEN] == [card(GREEN, 4)] and st.turn == 1


def test_a_savant_draw_on_the_last_card_keeps_the_round_going() -> None:
    st = blank(2)
    st.hand = [[card(GREEN, 4)], [card(BLUE, 2), card(BLUE, 3)]]
    finish(st)
    st.apply_action(PlayToCapital(card(GREEN, 4)))
    assert len(st.hand[0]) == 1 and not st.ending and st.turn == 1  # not empty at the end of the turn


def test_a_card_always_goes_to_the_district_of_its_own_colour() -> None:
    st = blank(2)
    st.hand = [[card(YELLOW, 4), card(GREEN, 6)], [card(BLUE, 2), card(BLUE, 3)]]
    finish(st)
    st.apply_action(PlayToCity(card(YELLOW, 4)))
    st.apply_action(PlayToCapital(card(BLUE, 2)))  # Agent
    st.apply_action(st.legal_actions()[0])
    assert st.city[0] == [[], [], [card(YELLOW, 4)], []]
    assert st.capital[BLUE] == [card(BLUE, 2)]


# ---------------------------------------------------------------- last turns


def test_last_turns_go_clockwise_from_the_player_who_emptied_the_hand_and_each_plays_once() -> None:
    st = blank(4, turn=2)
    st.capital = [[card(BLUE, 6, 4)], [], [], []]
    st.hand = [
        [card(BLUE, 2, 0), card(BLUE, 2, 1)],
        [card(BLUE, 3, 0), card(BLUE, 3, 1)],
        [card(BLUE, 4, 0)],
        [card(BLUE, 5, 0), card(BLUE, 5, 1)],
    ]
    finish(st)
    st.apply_action(PlayToCity(card(BLUE, 4, 0)))  # seat 2 empties its hand
    order = []
    while st.phase == 1:
        order.append(st.turn)
        st.apply_action(st.legal_actions()[0])
    assert order == [3, 0, 1]
    # each of them kept one card, which went to its City at the end of the round (before the resolution)
    assert st.round == 1


# ---------------------------------------------------------------- resolution and bonuses


def test_bonus_card_may_be_of_another_colour_than_its_district() -> None:
    st = blank(2)
    st.capital[BLUE] = [card(BLUE, 3), card(GREEN, 6)]  # a green 6 lying in the blue district
    st.city[0][BLUE] = [card(BLUE, 5)]
    st.city[1][BLUE] = [card(BLUE, 2)]
    _resolve(st)
    assert st.bonus[0] == [card(GREEN, 6)] and st.capital[BLUE] == [card(BLUE, 3)]
    assert st.capital[GREEN] == []


def test_tie_discards_only_one_highest_card_and_gold_only_for_the_tied_leaders() -> None:
    st = blank(4)
    st.capital[PINK] = [card(PINK, 6, 0), card(PINK, 6, 1), card(PINK, 3)]
    st.city[0][PINK] = [card(PINK, 5)]
    st.city[1][PINK] = [card(PINK, 2), card(PINK, 2, 1)]
    st.city[2][PINK] = [card(PINK, 5, 1)]
    st.city[3][PINK] = [card(PINK, 4)]
    _resolve(st)
    assert st.gold == [1, 0, 1, 0]
    assert st.capital[PINK] == [card(PINK, 6, 0), card(PINK, 3)]  # the 6 placed last was discarded
    assert card(PINK, 6, 1) in st.discard and st.bonus == [[], [], [], []]


def test_a_busted_district_does_not_count_for_the_bonus_even_if_it_was_highest() -> None:
    st = blank(3)
    st.capital[GREEN] = [card(GREEN, 5), card(GREEN, 2)]  # MAX 7
    st.city[0][GREEN] = [card(GREEN, 6), card(GREEN, 2, 1)]  # 8: busts
    st.city[1][GREEN] = [card(GREEN, 3)]
    st.city[2][GREEN] = [card(GREEN, 3, 1)]  # 3 = 3: tie between seats 1 and 2 after the discard
    _resolve(st)
    assert st.city[0][GREEN] == []
    assert st.gold == [0, 1, 1] and st.capital[GREEN] == [card(GREEN, 2)]


def test_a_modifier_only_affects_the_district_it_lies_on_and_max_can_rise() -> None:
    st = blank(2)
    st.capital[BLUE] = [card(BLUE, 3)]
    st.capital[PINK] = [card(PINK, 3)]
    st.hidden = [[BLUE, 0, 4, 1]]
    st.city[0][BLUE] = [card(BLUE, 6)]  # 6 <= 3 + 4: kept
    st.city[0][PINK] = [card(PINK, 4)]  # 4 > 3: discarded
    _resolve(st)
    assert st.city[0][BLUE] == [card(BLUE, 6)] and st.city[0][PINK] == []
    assert st.bonus[0] == [card(BLUE, 3)]


def test_resolution_happens_in_every_district_and_the_capital_stays_for_the_next_round() -> None:
    st = blank(2)
    st.capital = [[card(BLUE, 4)], [card(PINK, 4)], [card(YELLOW, 4), card(YELLOW, 2)], [card(GREEN, 4)]]
    st.city[0] = [[card(BLUE, 2)], [card(PINK, 5)], [card(YELLOW, 3)], [card(GREEN, 2)]]
    st.city[1] = [[], [card(PINK, 2)], [card(YELLOW, 3, 1)], [card(GREEN, 5)]]
    _resolve(st)
    assert st.city[0][PINK] == [] and st.city[1][GREEN] == []
    assert st.bonus[0] == [card(BLUE, 4), card(GREEN, 4)]
    assert st.bonus[1] == [card(PINK, 4)]
    assert st.gold == [1, 1] and st.capital == [[], [], [card(YELLOW, 2)], []]
    assert st.city[0][YELLOW] == [card(YELLOW, 3)]  # Cities stay as they are


def test_final_score_city_plus_bonus_plus_two_per_gold() -> None:
    st = blank(2)
    st.round = 2
    st.city[0] = [[card(BLUE, 2)], [], [], [card(GREEN, 6)]]
    st.bonus[0] = [card(PINK, 5)]
    st.gold = [3, 0]
    st.capital[BLUE] = [card(BLUE, 2, 1)]
    st.capital[GREEN] = [card(GREEN, 6, 1)]
    _resolve(st)
    # blue 2 <= 2 and green 6 <= 6 are kept; the two bonuses (2 and 6) go to seat 0: 8 + 5 + 8 + 6 = 27
    assert st.scores() == [27.0, 0.0]
    assert st.observation(None)["scores"] == [27, 0]
