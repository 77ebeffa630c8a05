from __future__ import annotations

import json

from meeple.core import Rng
from meeple.games.capital_lux_2.actions import ChooseDistrict, KeepCard, PlayToCapital, SelectCard
from meeple.games.capital_lux_2.data import BLUE, GREEN, PINK
from tests.games.capital_lux_2.helpers import all_cards, blank, card, finish, new_state


def test_resample_keeps_own_view_and_redeals_other_hands() -> None:
    st = new_state(3, seed=8)
    while st.phase == 0:
        st.apply_action(st.legal_actions()[0])
    me = st.current_player()
    before = st.observation(me)
    changed = False
    for k in range(5):
        other = st.resample_from_infostate(me, Rng(k))
        assert other.observation(me) == before
        assert sorted(all_cards(other)) == list(range(100))  # type: ignore[arg-type]
        changed |= other.hand[(me + 1) % 3] != st.hand[(me + 1) % 3]  # type: ignore[attr-defined]
    assert changed


def test_resample_redeals_sealed_draft_picks_of_other_seats() -> None:
    st = new_state(3, seed=8)
    seat = st.current_player()
    a, b = st.packs[seat][:2]
    st.apply_action(KeepCard(a))
    st.apply_action(KeepCard(b))
    nxt = st.current_player()
    other = st.resample_from_infostate(nxt, Rng(1))
    assert other.observation(nxt) == st.observation(nxt)
    assert sorted(all_cards(other)) == list(range(100))  # type: ignore[arg-type]
    picks = {other.sealed.values[seat]}  # type: ignore[attr-defined]
    for k in range(2, 8):
        again = st.resample_from_infostate(nxt, Rng(k))
        picks.add(again.sealed.values[seat])  # type: ignore[attr-defined]
        assert len(again.sealed.values[seat]) == 2  # type: ignore[attr-defined]
    assert len(picks) > 1 and st.sealed.values[seat] == tuple(sorted((a, b)))


def test_agent_token_is_hidden_from_others_even_after_resampling() -> None:
    st = blank(3)
    st.hand = [[card(BLUE, 3), card(PINK, 2)], [card(GREEN, 2)], [card(GREEN, 3)]]
    finish(st)
    st.apply_action(PlayToCapital(card(BLUE, 3)))
    value = st.mat["agent_drawn"][0]
    st.apply_action(ChooseDistrict(PINK))
    for seat in (1, 2):
        assert "hidden" in json.dumps(st.observation(seat)["capital"][PINK]["face_down"])
    assert str(value) in json.dumps(st.observation(0)["capital"][PINK]["face_down"])
    values = set()
    for k in range(12):
        other = st.resample_from_infostate(1, Rng(k))
        values.add(other.hidden[0][2])  # type: ignore[attr-defined]
        assert other.observation(1) == st.observation(1)
    assert len(values) > 1  # seat 1 cannot know which token it is
    for k in range(4):
        assert st.resample_from_infostate(0, Rng(k)).hidden[0][2] == value  # type: ignore[attr-defined]


def test_explorateur_choice_is_redacted_for_others() -> None:
    st = blank(3, config="C", provisional_powers=True)
    st.hand = [[card(GREEN, 3), card(PINK, 2)], [card(BLUE, 2)], [card(BLUE, 3)]]
    finish(st)
    st.apply_action(PlayToCapital(card(GREEN, 3)))
    seen = list(st.peek)
    st.apply_action(SelectCard(seen[0]))
    info_other = st.information_state_string(1)
    assert f"(#{seen[0]})" not in info_other.split("\n", 1)[1]


def test_second_draft_stage_resample_keeps_what_you_passed_with_your_left_neighbour() -> None:
    st = new_state(3, seed=6)
    passed: dict[int, set[int]] = {}
    for _ in range(3):
        seat = st.current_player()
        a, b = st.packs[seat][:2]
        passed[seat] = set(st.packs[seat]) - {a, b}
        st.apply_action(KeepCard(a))
        st.apply_action(KeepCard(b))
    assert st.dstage == 1
    seat = st.current_player()
    st.apply_action(KeepCard(st.packs[seat][0]))  # a first pick in stage 2
    for me in range(3):
        left = (me + 1) % 3
        for k in range(4):
            other = st.resample_from_infostate(me, Rng(k))
            held = set(other.packs[left]) | set(other.sealed.values.get(left, ()))  # type: ignore[attr-defined]
            if other.first[left] >= 0:  # type: ignore[attr-defined]
                held.add(other.first[left])  # type: ignore[attr-defined]
            assert held == passed[me]
            assert sorted(all_cards(other)) == list(range(100))  # type: ignore[arg-type]
