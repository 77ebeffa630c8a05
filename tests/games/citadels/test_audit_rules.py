"""Audit: scenario tests for rulings of citadels.md §5.2 / §2 not pinned down elsewhere, from explicit positions."""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

from meeple import load_game
from meeple.games.citadels.actions import Rob
from meeple.games.citadels.data import ASSASSIN, KING
from meeple.games.citadels.state import D_GRAVEYARD, TURNS, CitadelsState

from .helpers import play, position, texts


class _FixedShuffle:
    """Stands in for the state's Rng in ``_start_round``: the characters come out in a chosen order."""

    def __init__(self, order: list[int]) -> None:
        self.order = order

    def shuffle(self, items: MutableSequence[Any]) -> None:
        items[:] = self.order


def _round_with(players: int, order: list[int], **params: Any) -> CitadelsState:
    s = load_game("citadels", players=players, **params).new_initial_state(0)
    assert isinstance(s, CitadelsState)
    real = s.rng
    s.rng = _FixedShuffle(order)  # type: ignore[assignment]
    s._start_round()
    s.rng = real
    s._update_cur()
    s.edited()
    return s


# ---------------------------------------------------------------- §5.2 r2-3: removal table, King, 7 players
def test_king_drawn_face_up_is_replaced_at_once() -> None:
    # the face-down card is 8; the next card drawn face up is the King: he is replaced by 7, then 6 comes
    s = _round_with(4, [1, 2, 3, 5, 6, 7, 4, 8])
    assert s.facedown == [8] and s.faceup == [6, 7]
    assert s.pool == [1, 2, 3, 4, 5]


def test_king_face_down_goes_to_the_seventh_player() -> None:
    s = _round_with(7, [1, 2, 3, 5, 6, 7, 8, 4])
    assert s.facedown == [KING] and s.faceup == [] and KING not in s.pool
    for _ in range(6):
        s.apply_action(s.legal_actions()[0])  # the six first seats take 1, 2, 3, 5, 6, 7
    last = s.current_player()
    assert last == (s.crown + 6) % 7 and s.pool == [KING, 8]
    play(s, "pick the King")
    assert s.owner[KING] == last and s.facedown == [8] and s.phase == TURNS
    assert s.observation(last)["draft"]["seen"][-1] == [4, 8]


def test_three_players_first_edition_no_assassin_two_face_up() -> None:
    s = _round_with(3, [2, 3, 4, 5, 6, 7, 8])
    assert ASSASSIN not in s.game.round_characters
    assert s.facedown == [8] and s.faceup == [6, 7] and s.pool == [2, 3, 4, 5]
    for _ in range(3):
        s.apply_action(s.legal_actions()[0])
    assert s.phase == TURNS and len(s.facedown) == 2


# ---------------------------------------------------------------- §5.2 r4, r21: thresholds per variant
def test_three_player_bonuses_need_ten_districts() -> None:
    eight = ["temple", "eglise", "monastere", "manoir", "chateau", "taverne", "marche", "prison"]
    s = position(players=3, chars={0: [4]}, cities={0: eight}, start=4)
    b = s.score_breakdowns()[0]
    assert b.first_complete == 0 and b.complete == 0 and not s.ending
    s = position(players=3, chars={0: [4]}, cities={0: eight}, start=4, variant_3p_ffg=True)
    s.first_complete = 0
    assert s.score_breakdowns()[0].first_complete == 4


def test_ffg_three_player_warlord_cannot_attack_eight() -> None:
    eight = ["temple", "eglise", "monastere", "manoir", "chateau", "taverne", "marche", "prison"]
    s = position(
        players=3,
        chars={0: [2, 3], 1: [8, 4], 2: [5, 6]},
        cities={0: eight, 2: ["port"]},
        gold={1: 9},
        start=8,
        variant_3p_ffg=True,
    )
    play(s, "take 2 gold", "end the turn")
    t = texts(s)
    assert not any("seat 0" in x for x in t)  # complete at 8 in the FFG variant
    assert not any("seat 2" in x for x in t)  # the Bishop (seat 2, alive) protects his city


# ---------------------------------------------------------------- §5.2 r13, §2: the Thief
def test_robbed_king_loses_his_gold_but_takes_the_crown() -> None:
    s = position(chars={0: [2], 1: [4]}, gold={0: 0, 1: 7}, crown=3, start=2)
    play(s, "rob the King", "take 2 gold", "end the turn")
    assert s.current_player() == 1 and s.crown == 1
    assert s.gold[0] == 9 and s.gold[1] == 0


def test_killed_thief_robs_nobody_and_thief_cannot_name_the_killed() -> None:
    s = position(chars={0: [1], 1: [2], 2: [6]}, gold={0: 0, 1: 0, 2: 5})
    play(s, "assassinate the Thief", "take 2 gold", "end the turn")
    assert s.current_player() == 2 and s.calling == 6 and s.gold[2] == 6  # the Thief never played
    s = position(chars={0: [1], 1: [2], 2: [6]})
    play(s, "assassinate the Merchant", "take 2 gold", "end the turn")
    assert s.calling == 2
    assert Rob(6) not in s.legal_actions() and Rob(1) not in s.legal_actions() and Rob(2) not in s.legal_actions()


def test_robbery_takes_gold_at_the_reveal_not_at_the_announcement() -> None:
    # the Merchant's gold grows between the announcement and his reveal (here: set directly), all of it is taken
    s = position(chars={0: [2], 2: [6]}, gold={0: 0, 2: 1}, start=2)
    play(s, "rob the Merchant", "take 2 gold")
    s.gold[2] = 4
    play(s, "end the turn")
    assert s.gold == [6, 0, 1, 0]  # 2 + 4 stolen; the Merchant keeps only his start-of-turn +1


# ---------------------------------------------------------------- §5.2 r15: the crown
def test_killed_king_variant_moves_the_crown_only_at_the_end_of_the_round() -> None:
    s = position(chars={0: [1], 2: [4], 3: [6]}, crown=1, killed_king_takes_crown=True)
    play(s, "assassinate the King", "take 2 gold", "end the turn")
    assert s.current_player() == 3 and s.crown == 1  # the Merchant plays; the crown has not moved yet
    play(s, "take 2 gold", "end the turn")
    assert s.round == 2 and s.crown == 2


def test_killed_king_variant_when_nobody_holds_the_king() -> None:
    s = position(chars={0: [1], 3: [6]}, crown=1, killed_king_takes_crown=True)
    play(s, "assassinate the King", "take 2 gold", "end the turn", "take 2 gold", "end the turn")
    assert s.round == 2 and s.crown == 1


# ---------------------------------------------------------------- §5.2 r16-18: the Warlord, the Bishop, the Graveyard
def test_bishop_protection_two_character_variant_same_seat() -> None:
    # decision: the live Bishop protects the whole city of his holder, even when that seat is also the Warlord
    s = position(
        players=3,
        chars={0: [5, 8], 1: [1, 2], 2: [3, 4]},
        cities={0: ["temple"], 1: ["manoir"]},
        gold={0: 5},
        start=5,
        variant_3p_ffg=True,
    )
    play(s, "take 2 gold", "end the turn", "take 2 gold", "end the turn")
    t = texts(s)
    assert "destroy Manor in seat 1's city" in t and "destroy Temple in seat 0's city" not in t


def test_graveyard_owner_recovers_from_his_own_city() -> None:
    s = position(chars={1: [8]}, cities={0: ["cimetiere", "chateau"]}, gold={0: 1, 1: 9}, start=8)
    castle = next(c for c in s.cities[0] if s.game.card_kind[c] != s.game.card_kind[s.cities[0][0]])
    play(s, "take 2 gold", "end the turn", "destroy Castle in seat 0's city")
    assert s.stack[-1].kind == D_GRAVEYARD and s.current_player() == 0
    play(s, "pay 1 gold to take the destroyed district (Graveyard)")
    assert castle in s.hands[0] and castle not in s.cities[0] and s.gold == [0, 8, 0, 0]
    assert s.round == 2  # the round goes on after the Graveyard decision


def test_warlord_can_destroy_in_his_own_city_and_income_counts_before() -> None:
    s = position(chars={0: [8]}, cities={0: ["prison", "caserne"]}, gold={0: 0}, start=8)
    play(s, "take income", "take 2 gold", "end the turn")
    assert s.gold[0] == 4
    play(s, "destroy Battlefield in seat 0's city")
    assert s.gold[0] == 2 and len(s.cities[0]) == 1


# ---------------------------------------------------------------- §5.2 r19, r23: purple cards and the deck
def test_smithy_needs_three_gold_and_a_deck() -> None:
    s = position(chars={0: [6]}, cities={0: ["manufacture"]}, gold={0: 2}, start=6)  # 2 + 1 (Merchant) = 3
    assert "use the Smithy: pay 3 gold, draw 3 cards" in texts(s)
    s.deck = []
    s.edited()
    assert "use the Smithy: pay 3 gold, draw 3 cards" not in texts(s)
    s = position(chars={0: [5]}, cities={0: ["manufacture"]}, gold={0: 2}, start=5)
    assert "use the Smithy: pay 3 gold, draw 3 cards" not in texts(s)


def test_observatory_with_a_short_deck_draws_what_is_left() -> None:
    s = position(chars={0: [6]}, cities={0: ["observatoire"]}, start=6)
    s.deck = s.deck[-2:]
    s.edited()
    play(s, "draw cards")
    assert s.stack and s.stack[-1].data[1] == 1 and len(s.stack[-1].data[0]) == 2 and s.deck == []
    kept = s.legal_actions()[0]
    s.apply_action(kept)
    assert len(s.hands[0]) == 1 and len(s.deck) == 1


def test_magician_exchange_with_an_empty_deck_draws_back_his_own_cards() -> None:
    s = position(chars={0: [3]}, hands={0: ["temple", "port"]}, start=3)
    s.deck = []
    s.edited()
    hand = sorted(s.hands[0])
    play(s, "exchange cards with the deck", "select Temple for the exchange", "confirm the exchange")
    assert sorted(s.hands[0]) == hand and s.deck == []


def test_laboratory_and_smithy_before_the_mandatory_action() -> None:
    s = position(
        chars={0: [5]}, cities={0: ["laboratoire", "manufacture"]}, hands={0: ["temple"]}, gold={0: 2}, start=5
    )
    play(s, "discard Temple to the Laboratory for 1 gold", "use the Smithy: pay 3 gold, draw 3 cards")
    assert s.gold[0] == 0 and len(s.hands[0]) == 3
    assert "take 2 gold" in texts(s) and "end the turn" not in texts(s)


# ---------------------------------------------------------------- §5.2 r21: the end of the game
def test_a_second_city_completed_later_in_the_round_gets_two() -> None:
    seven = ["temple", "eglise", "monastere", "manoir", "chateau", "taverne", "marche"]
    s = position(
        chars={0: [7], 1: [2]},
        cities={0: seven[:6], 1: seven},
        hands={0: ["prison", "port"], 1: ["caserne"]},
        gold={0: 20, 1: 5},
        start=2,
    )
    play(s, "take 2 gold", "build Battlefield", "end the turn")  # the Thief (seat 1) completes first
    play(s, "take 2 gold", "build Prison", "build Harbor", "end the turn")  # the Architect builds 2: complete
    assert s.is_terminal()
    b = s.score_breakdowns()
    assert (b[1].first_complete, b[1].complete) == (4, 0)
    assert (b[0].first_complete, b[0].complete) == (0, 2)


# ---------------------------------------------------------------- §5.2 r11: each power once per turn
def test_each_character_power_once_per_turn() -> None:
    s = position(chars={0: [1], 1: [2], 2: [3]}, hands={2: ["temple"]})
    play(s, "assassinate the King")
    assert not any(t.startswith("assassinate") for t in texts(s))
    play(s, "take 2 gold", "end the turn", "rob the Merchant")
    assert not any(t.startswith("rob") for t in texts(s))
    play(s, "take 2 gold", "end the turn", "swap hands with seat 0")
    t = texts(s)
    assert not any(x.startswith("swap") for x in t) and "exchange cards with the deck" not in t


# ---------------------------------------------------------------- §5.2 r5, r24: thresholds of the variants
def test_quick_game_ends_after_the_round_a_city_reaches_seven() -> None:
    six = ["temple", "eglise", "monastere", "manoir", "chateau", "taverne"]
    s = position(chars={0: [4], 1: [6]}, cities={0: six}, hands={0: ["port"]}, gold={0: 9}, start=4, quick_game="7")
    play(s, "take 2 gold", "build Harbor", "end the turn")
    assert s.ending and not s.is_terminal()
    play(s, "take 2 gold", "end the turn")
    assert s.is_terminal()
    b = s.score_breakdowns()[0]
    assert (b.first_complete, b.districts) == (4, 1 + 2 + 3 + 3 + 4 + 1 + 4)


def test_two_player_variant_ends_at_eight() -> None:
    seven = ["temple", "eglise", "monastere", "manoir", "chateau", "taverne", "marche"]
    s = position(
        players=2,
        chars={0: [4, 7], 1: [6, 8]},
        cities={0: seven},
        hands={0: ["port"]},
        gold={0: 9},
        start=4,
        variant_2p_ffg=True,
    )
    play(s, "take 2 gold", "build Harbor", "end the turn")
    assert s.ending and s.score_breakdowns()[0].first_complete == 4


def test_magician_exchange_needs_a_card_in_hand_and_swap_does_not() -> None:
    s = position(chars={0: [3]}, hands={0: [], 1: ["temple"]}, start=3)
    t = texts(s)
    assert "exchange cards with the deck" not in t  # k >= 1: no exchange from an empty hand (no dead end)
    assert "swap hands with seat 1" in t and "swap hands with seat 2" in t  # even with empty hands
