"""Why a Capital Lux 2 move is refused (issue "Comfort": every refused entry says why)."""

from __future__ import annotations

from meeple.core import load_game
from meeple.games.capital_lux_2.actions import KeepCard, PlayToCapital, PlayToCity
from meeple.games.capital_lux_2.const import PH_DRAFT, PH_PLAY
from meeple.games.capital_lux_2.state import CapitalLux2State


def test_draft_and_play_refusals_say_why() -> None:
    s = load_game("capital_lux_2", players=2).new_initial_state(3)
    assert isinstance(s, CapitalLux2State) and s.phase == PH_DRAFT
    seat = s.current_player()
    outside = next(c for c in range(len(s.game.t_keep)) if c not in s.packs[seat])
    assert str(s.why_illegal(KeepCard(outside))).endswith("is not in the pack you hold")
    assert str(s.why_illegal(PlayToCity(s.packs[seat][0]))) == (
        "first keep a card of your pack: cards are played once the draft is over"
    )
    while s.phase != PH_PLAY or s.stack:
        s.apply_action(s.legal_actions()[0])
    seat = s.current_player()
    foreign = next(c for c in range(len(s.game.t_keep)) if c not in s.hand[seat])
    reason = str(s.why_illegal(PlayToCapital(foreign)))
    assert reason.endswith("is not in your hand") and reason.split(" is not")[0] in s.action_to_string(
        PlayToCapital(foreign)
    )
    assert str(s.why_illegal(KeepCard(s.hand[seat][0]))) == "cards are kept during the draft at the start of a round"
    assert s.why_illegal(s.legal_actions()[0]) is None
