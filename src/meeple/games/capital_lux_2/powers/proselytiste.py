"""Prosélytiste (green, B) — PROVISIONAL stand-in: take a random card from another player's hand.

Rules: capital_lux_2.md "Tiles B-D / Green / Prosélytiste" (our choice; the annex text is unknown). Not in solo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import ChooseSeat
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


class Proselytiste(PowerTile):
    """Prosélytiste: steals a random hand card."""

    tile_id = "proselytiste"
    name_fr = "Prosélytiste"
    name_en = "Proselytiser"
    colour = 3
    config = "B"
    solo_allowed = False
    provisional = True
    effect = N_("Take a random card from another player's hand.")

    def is_possible(self, st: CapitalLux2State, player: int, card: int) -> bool:
        """Impossible when every other hand is empty."""
        return any(st.hand[s] for s in range(st.n) if s != player)

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Ask whom to take from."""
        st.stack.append(Decision(player, self.tile_id, ("seat",)))

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """Other seats with cards in hand."""
        return [st.game.t_seat[s] for s in range(st.n) if s != decision.player and st.hand[s]]

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Move a random card of that hand to yours."""
        assert isinstance(action, ChooseSeat)
        victim = st.hand[action.seat]
        card = victim.pop(st.rng.randrange(len(victim)))
        st.add_to_hand(decision.player, card)

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        return M("{tile}: choose the player you take a random hand card from", tile=self.label_message)
