"""Recruteur (blue, C) — PROVISIONAL stand-in: move 1 card from any Capital district to another.

Rules: capital_lux_2.md "Tiles B-D / Blue / Recruteur" (our choice; the annex text is unknown).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import ChooseDistrict, TakeCard
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


class Recruteur(PowerTile):
    """Recruteur: moves one Capital card to another Capital district."""

    tile_id = "recruteur"
    name_fr = "Recruteur"
    name_en = "Recruiter"
    colour = 0
    config = "C"
    provisional = True
    effect = N_("Move 1 card from any Capital district to another Capital district.")

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Ask which card to move (the Capital holds at least the card just played)."""
        st.stack.append(Decision(player, self.tile_id, ("source",)))

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """Step 1: any Capital card; step 2: any other district."""
        if decision.data[0] == "source":
            return [st.game.t_take[c] for d in range(4) for c in st.capital[d]]
        return [st.game.t_district[d] for d in range(4) if d != decision.data[2]]

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Remember the card, then move it to the end of the target district."""
        if isinstance(action, TakeCard):
            d = st.capital_district_of(action.card)
            st.stack.append(Decision(decision.player, self.tile_id, ("target", action.card, d)))
            return
        assert isinstance(action, ChooseDistrict)
        _, card, source = decision.data
        st.capital[source].remove(card)
        st.capital[action.district].append(card)

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        if decision.data[0] == "source":
            return M("{tile}: choose a Capital card to move", tile=self.label_message)
        return M("{tile}: choose the Capital district to move it to", tile=self.label_message)
