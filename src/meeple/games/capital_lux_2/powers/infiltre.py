"""Infiltré (blue, B) — PROVISIONAL stand-in: put the top citizen card face down in any Capital district.

Rules: capital_lux_2.md "Tiles B-D / Blue / Infiltré" (our choice; the annex text is unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import ChooseDistrict
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State

HELD = "infiltre_card"


class Infiltre(PowerTile):
    """Infiltré: a hidden card that raises a Capital district's MAX at the next resolution."""

    tile_id = "infiltre"
    name_fr = "Infiltré"
    name_en = "Infiltrator"
    colour = 0
    config = "B"
    provisional = True
    effect = N_(
        "Put the top citizen card face down (unseen) in any Capital district. It counts toward that district's MAX "
        "when revealed at round end, then is discarded."
    )

    def setup(self, st: CapitalLux2State) -> None:
        """No card held yet."""
        st.mat[HELD] = []

    def is_possible(self, st: CapitalLux2State, player: int, card: int) -> bool:
        """Impossible when the deck and the discards are empty."""
        return st.can_draw()

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Take the top card face down and ask where to put it."""
        st.mat[HELD] = [st.draw()]
        st.stack.append(Decision(player, self.tile_id, ("place",)))

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """Any Capital district."""
        return list(st.game.t_district)

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Put the unseen card face down in the chosen district."""
        assert isinstance(action, ChooseDistrict)
        st.hidden.append([action.district, 1, st.mat[HELD][0], -1])
        st.mat[HELD] = []

    def unseen_card_slots(self, st: CapitalLux2State, player: int) -> list[list[int]]:
        """Nobody has seen the held card."""
        return [st.mat[HELD]]

    def held_cards(self, st: CapitalLux2State) -> list[int]:
        """The card drawn and not yet placed face down."""
        return list(st.mat[HELD])

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        return M("{tile}: choose the Capital district for the face-down card", tile=self.label_message)
