from __future__ import annotations

from meeple.core.decisions import SEALED
from meeple.games.capital_lux_2.actions import KeepCard, PlayToCapital, PlayToCity, TakeCard
from meeple.games.capital_lux_2.data import BLUE, GREEN, PINK, YELLOW
from meeple.games.capital_lux_2.flow import end_round
from tests.games.capital_lux_2.helpers import all_cards, blank, card, finish, new_state

# ---------------------------------------------------------------- setup and draft


def test_setup_three_capital_cards_six_card_packs_and_tiles_a() -> None:
    st = new_state(3, seed=4)
    assert sum(len(d) for d in st.capital) == 3
    for d in range(4):
        assert all(c // 25 == d for c in st.capital[d])
    assert [len(p) for p in st.packs] == [6, 6, 6]
    assert st.tile_ids == ["agent", "clerc", "marchand", "savant"]
    assert sorted(all_cards(st)) == list(range(100))


def test_draft_keep_two_pass_left_keep_two_pass_keep_last_two() -> None:
    st = new_state(3, seed=2)
    first = st.sealed.order[0]
    assert first == st.emperor
    packs0 = [list(p) for p in st.packs]
    kept: dict[int, list[int]] = {}
    for _ in range(3):
        seat = st.current_player()
        picks = st.packs[seat][:2]
        kept[seat] = picks
        st.apply_action(KeepCard(picks[0]))
        st.apply_action(KeepCard(picks[1]))
    for s in range(3):
        assert st.hand[s] == sorted(kept[s])
        left_over = [c for c in packs0[(s - 1) % 3] if c not in kept[(s - 1) % 3]]
        assert st.packs[s] == left_over  # the pack came from the right-hand neighbour (passed left)
    second: dict[int, list[int]] = {}
    for _ in range(3):
        seat = st.current_player()
        picks = st.packs[seat][-2:]
        second[seat] = picks
        st.apply_action(KeepCard(picks[0]))
        st.apply_action(KeepCard(picks[1]))
    assert st.phase == 1 and st.turn == st.emperor
    for s in range(3):
        assert len(st.hand[s]) == 6
        assert set(kept[s] + second[s]) <= set(st.hand[s])


def test_draft_picks_are_sealed_until_everyone_has_chosen() -> None:
    st = new_state(3, seed=2)
    seat = st.current_player()
    other = (seat + 1) % 3
    c1, c2 = st.packs[seat][:2]
    st.apply_action(KeepCard(c1))
    assert st.current_player() == seat
    assert st.action_to_string(KeepCard(c1), perspective=other, actor=seat) == "keep a draft card"
    obs_other = st.observation(other)
    assert obs_other["draft"]["first_pick"] is None
    st.apply_action(KeepCard(c2))
    assert st.hand[seat] == []
    view = st.observation(other)["draft"]["picks"]
    assert view[0] == SEALED
    assert st.observation(seat)["draft"]["picks"][0] is not None


def test_solo_draft_three_times_draw_three_keep_two() -> None:
    st = new_state(1, seed=3)
    discards = []
    for _ in range(3):
        assert len(st.packs[0]) == 3
        a, b, c = st.packs[0]
        st.apply_action(KeepCard(a))
        st.apply_action(KeepCard(c))
        discards.append(b)
    assert len(st.hand[0]) == 6
    assert all(d in st.discard for d in discards)


# ---------------------------------------------------------------- plays and end of round


def test_play_to_city_or_capital_uses_the_matching_district() -> None:
    st = blank(3)
    st.hand = [[card(PINK, 4), card(YELLOW, 3)], [card(BLUE, 2)], [card(BLUE, 3)]]
    finish(st)
    st.apply_action(PlayToCity(card(PINK, 4)))
    assert st.city[0][PINK] == [card(PINK, 4)]
    assert st.turn == 1


def test_capital_play_triggers_the_power() -> None:
    st = blank(3)
    st.hand[0] = [card(YELLOW, 3), card(BLUE, 2)]
    finish(st)
    st.apply_action(PlayToCapital(card(YELLOW, 3)))
    assert st.capital[YELLOW] == [card(YELLOW, 3)]
    assert st.gold[0] == 1  # Marchand


def test_last_turn_rule_and_remaining_cards_go_to_the_city() -> None:
    st = blank(3)
    st.capital = [[card(BLUE, 6, 4), card(BLUE, 5, 3)], [card(PINK, 6, 4), card(PINK, 5, 3)], [], []]
    st.hand = [[card(BLUE, 2)], [card(BLUE, 3), card(PINK, 2)], [card(PINK, 3), card(BLUE, 4)]]
    finish(st)
    st.apply_action(PlayToCity(card(BLUE, 2)))  # seat 0 ends its turn with an empty hand
    assert st.ending and st.turn == 1
    st.apply_action(PlayToCity(card(BLUE, 3)))
    assert st.turn == 2
    st.apply_action(PlayToCity(card(PINK, 3)))
    # the round is over: leftovers were deposited, resolution ran, round 2 draft started
    assert st.round == 1 and st.phase == 0
    assert card(PINK, 2) in st.city[1][PINK]
    assert card(BLUE, 4) in st.city[2][BLUE]
    assert st.emperor == 1  # the Emperor passed left


def test_a_seat_without_cards_is_skipped_in_the_last_turns() -> None:
    st = blank(3)
    st.capital = [[card(BLUE, 6, 4)] * 1, [], [], []]
    st.hand = [[card(BLUE, 2)], [], [card(BLUE, 3)]]
    finish(st)
    st.apply_action(PlayToCity(card(BLUE, 2)))
    assert st.turn == 2


# ---------------------------------------------------------------- resolution


def _resolve(st):  # type: ignore[no-untyped-def]
    finish(st)
    for s in range(st.n):
        st.hand[s] = []
    end_round(st)


def test_a_city_district_over_max_is_discarded_equal_is_kept() -> None:
    st = blank(2)
    st.capital[BLUE] = [card(BLUE, 5)]
    st.city[0][BLUE] = [card(BLUE, 2), card(BLUE, 4)]  # 6 > 5: discarded
    st.city[1][BLUE] = [card(BLUE, 2, 1), card(BLUE, 3)]  # 5 = 5: kept
    _resolve(st)
    assert st.city[0][BLUE] == []
    assert card(BLUE, 2) in st.discard and card(BLUE, 4) in st.discard
    assert st.city[1][BLUE] == [card(BLUE, 2, 1), card(BLUE, 3)]


def test_districts_count_cards_of_any_colour() -> None:
    st = blank(2)
    st.capital[BLUE] = [card(BLUE, 3), card(GREEN, 2)]  # a green card in the blue Capital district: MAX 5
    st.city[0][BLUE] = [card(PINK, 6)]  # a pink card in the blue City district: 6 > 5
    st.city[1][BLUE] = [card(YELLOW, 5)]
    _resolve(st)
    assert st.city[0][BLUE] == []
    assert st.city[1][BLUE] == [card(YELLOW, 5)]


def test_agent_modifiers_are_revealed_and_added_to_max() -> None:
    st = blank(2)
    st.capital[PINK] = [card(PINK, 6)]
    st.hidden = [[PINK, 0, -3, 0]]
    st.city[0][PINK] = [card(PINK, 4)]  # 4 > 6 - 3
    st.city[1][PINK] = [card(PINK, 3)]
    _resolve(st)
    assert st.city[0][PINK] == []
    assert st.city[1][PINK] == [card(PINK, 3)]
    assert sorted(st.mat["agent_pile"]) == [-3, -1, 2, 4]  # gathered and reshuffled


def test_bonus_strict_highest_takes_the_highest_capital_card() -> None:
    st = blank(3)
    st.capital[GREEN] = [card(GREEN, 6), card(GREEN, 3), card(GREEN, 5)]
    st.city[0][GREEN] = [card(GREEN, 4)]
    st.city[1][GREEN] = [card(GREEN, 2)]
    _resolve(st)
    assert st.bonus[0] == [card(GREEN, 6)]
    assert st.capital[GREEN] == [card(GREEN, 3), card(GREEN, 5)]
    assert st.gold == [0, 0, 0]


def test_bonus_tie_gives_gold_and_discards_the_last_placed_highest_card() -> None:
    st = blank(3)
    first, last = card(YELLOW, 6, 0), card(YELLOW, 6, 1)
    st.capital[YELLOW] = [first, card(YELLOW, 2), last]
    st.city[0][YELLOW] = [card(YELLOW, 4)]
    st.city[1][YELLOW] = [card(YELLOW, 2, 1), card(YELLOW, 2, 2)]
    st.city[2][YELLOW] = [card(YELLOW, 3)]
    _resolve(st)
    assert st.gold == [1, 1, 0]
    assert st.bonus == [[], [], []]
    assert last in st.discard and first in st.capital[YELLOW]


def test_nobody_eligible_no_bonus_no_gold_no_discard() -> None:
    st = blank(2)
    st.capital[PINK] = [card(PINK, 5)]
    _resolve(st)
    assert st.capital[PINK] == [card(PINK, 5)]
    assert st.gold == [0, 0] and st.bonus == [[], []]


def test_bonus_after_discards_uses_totals_after_discard() -> None:
    st = blank(2)
    st.capital[BLUE] = [card(BLUE, 4)]
    st.city[0][BLUE] = [card(BLUE, 5)]  # busts
    st.city[1][BLUE] = [card(BLUE, 2)]
    _resolve(st)
    assert st.bonus[1] == [card(BLUE, 4)]


def test_bonus_taker_chooses_among_equal_highest_cards() -> None:
    st = blank(2)
    a, b = card(PINK, 5, 0), card(BLUE, 5, 1)
    st.capital[PINK] = [a, b]
    st.city[1][PINK] = [card(PINK, 2)]
    _resolve(st)
    assert st.current_player() == 1 and st.stack[-1].kind == "bonus"
    assert st.legal_actions() == [TakeCard(a), TakeCard(b)]
    st.apply_action(TakeCard(a))
    assert st.bonus[1] == [a] and st.capital[PINK] == [b]
    assert st.phase == 0  # resolution resumed to the end, next round


def test_final_scores_and_winner_tie_break_on_gold() -> None:
    st = blank(2)
    st.round = 2
    st.city[0][BLUE] = [card(BLUE, 6)]
    st.city[1][BLUE] = [card(BLUE, 2)]
    st.capital[BLUE] = [card(BLUE, 6, 1), card(BLUE, 3)]
    st.gold = [0, 1]
    st.bonus[1] = [card(GREEN, 2)]
    _resolve(st)
    # seat 0: 6 + bonus blue 6 = 12; seat 1: 2 + 2 + 2 = 6
    assert st.is_terminal()
    assert st.scores() == [12.0, 6.0]
    assert st.returns() == [1.0, 0.0]


def test_equal_scores_fewer_gold_wins_else_shared() -> None:
    st = blank(2)
    st.round = 2
    st.city[0][GREEN] = [card(GREEN, 4)]
    st.city[1][GREEN] = [card(GREEN, 2)]
    st.gold = [0, 1]
    st.capital[GREEN] = [card(GREEN, 6)]
    st.city[0][BLUE] = []
    _resolve(st)
    # seat 0 bonus 6: 4 + 6 = 10; seat 1: 2 + 2 = 4
    assert st.returns() == [1.0, 0.0]
    st2 = blank(2)
    st2.round = 2
    st2.city[0][BLUE] = [card(BLUE, 4)]
    st2.city[1][PINK] = [card(PINK, 2)]
    st2.gold = [0, 1]
    st2.capital[BLUE] = [card(BLUE, 5)]
    st2.capital[PINK] = [card(PINK, 5)]
    _resolve(st2)
    # seat 0: 4 + 5 = 9, gold 0; seat 1: 2 + 5 + 2 = 9, gold 1 -> seat 0 wins on fewer gold
    assert st2.scores() == [9.0, 9.0]
    assert st2.returns() == [1.0, 0.0]
    st3 = blank(2)
    st3.round = 2
    st3.city[0][BLUE] = [card(BLUE, 4)]
    st3.city[1][PINK] = [card(PINK, 4)]
    st3.capital[BLUE] = [card(BLUE, 5)]
    st3.capital[PINK] = [card(PINK, 5)]
    _resolve(st3)
    assert st3.returns() == [1.0, 1.0]


def test_deck_exhaustion_reshuffles_discards_else_nothing() -> None:
    st = blank(2)
    finish(st)
    st.deck = []
    st.discard = [5, 6]
    assert st.draw() in (5, 6) and len(st.deck) == 1 and st.discard == []
    st.deck = []
    assert st.draw() == -1
