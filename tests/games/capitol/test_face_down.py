"""The French rulebook's reading: a card played in Construction goes face down (``played_card=face_down``).

capitol.md §2 row n: FR discards the played card face down, IT reveals it first (the spec's default). Under the
flag the others learn the card's type (its discard pile) and what its action does, never its value.
"""

from __future__ import annotations

from collections import Counter

from meeple.core import Rng
from meeple.games.capitol.data import CARD_COLOUR, CARD_NAME, CARD_TYPE, PERMIT
from meeple.games.capitol.state import CapitolState
from tests.games.capitol.helpers import do, fresh, names, set_hand

FACE_DOWN = {"played_card": "face_down"}


def history_as(state: CapitolState, seat: int | None) -> list[str]:
    return [text for _, text in state.history_texts(seat)]


def test_a_card_played_without_its_action_shows_only_its_type_to_the_others() -> None:
    s = fresh(3, **FACE_DOWN)
    set_hand(s, 0, ["floor7", "roof2"])
    do(s, "play floor7 without its action")
    assert history_as(s, 0)[-1] == "play floor7 without its action"
    for seat in (1, 2):
        assert history_as(s, seat)[-1] == "play a floor card face down, without its action"
    assert s.observation(0)["piles"][1]["discard"] == [names_to_kind("floor7")]
    assert s.observation(1)["piles"][1]["discard"] == [None]
    assert s.observation(None)["piles"][1]["discard"] == [None]


def test_the_default_reveals_the_played_card() -> None:
    s = fresh(3)
    set_hand(s, 0, ["floor7", "roof2"])
    do(s, "play floor7 without its action")
    assert history_as(s, 1)[-1] == "play floor7 without its action"
    assert s.observation(1)["piles"][1]["discard"] == [names_to_kind("floor7")]


def test_a_permit_played_with_its_action_shows_its_colour_not_its_value() -> None:
    s = fresh(2, **FACE_DOWN)
    set_hand(s, 0, ["permitC2-8", "roof2"])
    do(s, "play permitC2-8 and place a building")
    assert history_as(s, 1)[-1] == "play a C2 permit face down and place a building"
    assert history_as(s, 0)[-1] == "play permitC2-8 and place a building"


def test_the_others_forget_one_public_copy_of_each_kind_it_could_have_been() -> None:
    """Which public card left is hidden: the public record loses one copy of every kind of that type, whichever
    card was really played, and the other types keep theirs."""
    known = []
    for played in ("floor3", "floor6"):
        s = fresh(2, **FACE_DOWN)
        set_hand(s, 0, ["floor3", "floor5", "floor5", "floor6", "roof2"])
        s.known[0] = [c for c in s.hands[0] if CARD_NAME[c] != "floor6"]  # floor3, floor5 x2, roof2
        s.edited()
        do(s, f"play {played} without its action")
        known.append(names(s.known[0]))
        assert set(s.known[0]) <= set(s.hands[0])
    assert known[0] == known[1] == ["floor5", "roof2"]  # of two public floor5, one is surely still there


def test_a_redeal_deals_the_others_face_down_cards_again_keeping_what_is_public() -> None:
    s = fresh(2, **FACE_DOWN)
    set_hand(s, 0, ["permitC2-8", "floor7", "roof2"])
    do(s, "play floor7 without its action", "pass")
    do(s, "play permitC2-8 and place a building")
    do(s, [t for t in texts_of(s) if t.startswith("place the")][0])
    floor_slot, permit_slot = s.discards[1][0], s.discards[2][0]
    seen_floor, seen_permit = Counter(), Counter()
    for k in range(60):
        other = s.resample_from_infostate(1, Rng(k))
        assert other.observation(1) == s.observation(1)
        assert other.information_state_string(1) == s.information_state_string(1)
        f, p = other.discards[1][0], other.discards[2][0]
        assert CARD_TYPE[f] == CARD_TYPE[floor_slot] and CARD_TYPE[p] == PERMIT
        assert CARD_COLOUR[p] == CARD_COLOUR[permit_slot]  # the colour was public
        seen_floor[CARD_NAME[f]] += 1
        seen_permit[CARD_NAME[p]] += 1
        own = s.resample_from_infostate(0, Rng(k))
        assert own.discards[1][0] == floor_slot and own.discards[2][0] == permit_slot  # seat 0 saw its own cards
    assert len(seen_floor) > 1 and len(seen_permit) > 1  # the values were not


def test_snapshots_keep_the_face_down_cards() -> None:
    s = fresh(2, **FACE_DOWN)  # a real game (replayable from its seed)
    do(s, [t for t in texts_of(s) if t.startswith("play floor") and t.endswith("without its action")][0])
    data = s.to_json()
    assert data["body"]["discard_seen"][1] == [0]  # seat 0, colour unknown (-1): 0 * 4 - 1 + 1
    back = s.game.state_from_json(data)
    assert back.observation(1) == s.observation(1) and back.to_json() == data
    assert "discard_seen" not in fresh(2).to_json()["body"]  # the default writes what it always wrote


def names_to_kind(name: str) -> int:
    from meeple.games.capitol.data import CARD_REP

    return CARD_REP[CARD_NAME.index(name)]


def texts_of(state: CapitolState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]
