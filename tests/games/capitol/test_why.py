"""Why a Capitol move is refused (issue "Comfort": every refused entry says why), from explicit positions."""

from __future__ import annotations

from meeple.core import IllegalActionError
from meeple.games.capitol.data import ROUND, TRIANGULAR
from meeple.games.capitol.state import CapitolState
from tests.games.capitol.helpers import do, fresh, place, set_hand
from tests.games.capitol.test_improvement import to_auction


def why(state: CapitolState, text: str) -> str | None:
    """The reason given for the move whose full text is ``text`` (looked up among every action of the game)."""
    game = state.game
    for code in range(game.num_distinct_actions()):
        action = game.codec.decode(code)
        if state.action_to_string(action) == text:
            assert action not in state.legal_actions()
            reason = state.why_illegal(action)
            return None if reason is None else str(reason)
    raise AssertionError(f"no action reads {text!r}")


def test_a_card_not_in_hand() -> None:
    s = fresh(2)
    set_hand(s, 0, ["floor2"])
    assert why(s, "play roof7 without its action") == "no roof7 in your hand"


def test_a_permit_whose_colour_has_no_room() -> None:
    s = fresh(2)
    set_hand(s, 0, ["permitC1-3", "floor1"])
    s.offboard[0] = [2 * 4 + ROUND]  # only a building of height 2: a first building must have 1 floor
    s.edited()
    assert why(s, "play permitC1-3 and place a building") == "none of your completed buildings may go in a C1 zone now"


def test_building_rules_name_the_zone() -> None:
    s = fresh(2)
    place(s, 1, 0, 1, TRIANGULAR)  # Z1 (C1): triangular roofs, tallest 1
    set_hand(s, 0, ["permitC1-3", "floor1"])
    s.offboard[0] += [1 * 4 + ROUND, 3 * 4 + TRIANGULAR]
    s.edited()
    do(s, "play permitC1-3 and place a building")
    assert (
        why(s, "place the round-roofed building of height 1 in Z1 (C1)") == "the buildings of Z1 have triangular roofs"
    )
    assert why(s, "place the triangular-roofed building of height 3 in Z1 (C1)") == (
        "a building in Z1 has height 1 or 2 (its tallest is 1)"
    )
    assert why(s, "place the round-roofed building of height 1 in Z4 (C2)") == "Z4 is a C2 zone; your permit is C1"
    assert (
        why(s, "place the triangular-roofed building of height 3 in Z2 (C1)") == "the first building of Z2 has 1 floor"
    )
    assert why(s, "place the round-roofed building of height 5 in Z1 (C1)") == (
        "you have no completed building of height 5 with a round roof"
    )


def test_bids_and_moments() -> None:
    s = fresh(2)
    set_hand(s, 0, ["floor4", "roof2"])
    assert why(s, "bid: add floor4") == "cards are bid in the Improvement phase, while a lot is auctioned"
    to_auction(s)
    do(s, "bid: add floor4")
    assert why(s, "bid: add floor4") == "every floor4 you hold is already in your bid"
    assert why(s, "play roof2 without its action") == (
        "cards are played one at a time in the Construction phase, when no action is under way"
    )


def test_the_engine_error_carries_the_reason() -> None:
    s = fresh(2)
    set_hand(s, 0, ["floor2"])
    action = next(
        s.game.codec.decode(c)
        for c in range(s.game.num_distinct_actions())
        if s.action_to_string(s.game.codec.decode(c)) == "play roof7 without its action"
    )
    try:
        s.apply_action(action)
    except IllegalActionError as exc:
        assert "no roof7 in your hand" in str(exc)
    else:
        raise AssertionError("an illegal move was played")
