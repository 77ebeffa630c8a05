"""Étranger (blue, D) — PROVISIONAL stand-in: play 1 more card into a foreign district of another player's City.

Rules: capital_lux_2.md "Tiles B-D / Blue / Étranger" (our choice; the annex text is unknown). Not in solo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.games.capital_lux_2.actions import ChooseDistrict, ChooseSeat, GiveCard
from meeple.games.capital_lux_2.data import CARD_COLOUR
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


class Etranger(PowerTile):
    """Étranger: pushes one of your cards into a district of another colour in an opponent's City."""

    tile_id = "etranger"
    name_fr = "Étranger"
    name_en = "Foreigner"
    colour = 0
    config = "D"
    solo_allowed = False
    provisional = True
    effect = N_(
        "Play 1 more card from your hand into a foreign district (any district of another colour than the card) "
        "of another player's City."
    )

    def is_possible(self, st: CapitalLux2State, player: int, card: int) -> bool:
        """Impossible with an empty hand (or alone)."""
        return bool(st.hand[player]) and st.n > 1

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Ask which hand card to give."""
        st.stack.append(Decision(player, self.tile_id, ("card",)))

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """Step 1: a hand card; step 2: another seat; step 3: a district of another colour than the card."""
        step = decision.data[0]
        if step == "card":
            return [st.game.t_give[c] for c in st.hand[decision.player]]
        if step == "seat":
            return [st.game.t_seat[s] for s in range(st.n) if s != decision.player]
        colour = CARD_COLOUR[decision.data[1]]
        return [st.game.t_district[d] for d in range(4) if d != colour]

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Take the card out of hand, then choose the seat, then the foreign district."""
        player = decision.player
        if isinstance(action, GiveCard):
            st.hand[player].remove(action.card)
            st.stack.append(Decision(player, self.tile_id, ("seat", action.card)))
        elif isinstance(action, ChooseSeat):
            st.stack.append(Decision(player, self.tile_id, ("district", decision.data[1], action.seat)))
        else:
            assert isinstance(action, ChooseDistrict)
            _, card, seat = decision.data
            st.city[seat][action.district].append(card)

    def held_cards(self, st: CapitalLux2State) -> list[int]:
        """The card taken out of hand and not yet placed (held by the pending seat or district choice)."""
        return [int(d.data[1]) for d in st.stack if d.kind == self.tile_id and d.data[0] != "card"]

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        step = decision.data[0]
        if step == "card":
            return M("{tile}: choose a hand card to play into another player's City", tile=self.label_message)
        if step == "seat":
            return M("{tile}: choose the player whose City receives it", tile=self.label_message)
        return M("{tile}: choose a district of another colour than the card", tile=self.label_message)
