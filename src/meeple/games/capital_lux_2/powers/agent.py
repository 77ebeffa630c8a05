"""Agent (blue, A): draw a modifier, look at it, place it face down on any Capital district.

Rules: capital_lux_2.md "Tiles A / Agent" (CL1 semantics; modifiers configurable, default +4 +2 -1 -3).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.core.rng import Rng
from meeple.games.capital_lux_2.actions import ChooseDistrict
from meeple.games.capital_lux_2.powers.base import PowerTile
from meeple.i18n.message import M, Message
from meeple.i18n.translator import N_

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State

PILE = "agent_pile"
DRAWN = "agent_drawn"


class Agent(PowerTile):
    """Agent: a face-down modifier added to a Capital district's MAX at the next resolution."""

    tile_id = "agent"
    name_fr = "Agent"
    name_en = "Agent"
    colour = 0
    config = "A"
    effect = N_(
        "Draw a modifier token, look at it and place it face down on any Capital district. At round end the "
        "modifiers are revealed and added to that district's MAX, then gathered and reshuffled."
    )
    material = N_("modifier tokens (default +4, +2, -1, -3)")

    def setup(self, st: CapitalLux2State) -> None:
        """Shuffle the modifier pile."""
        pile = list(st.game.params.agent_modifiers)
        st.rng.shuffle(pile)
        st.mat[PILE] = pile
        st.mat[DRAWN] = []

    def is_possible(self, st: CapitalLux2State, player: int, card: int) -> bool:
        """Impossible when the modifier pile is empty."""
        return bool(st.mat[PILE])

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Draw a modifier (private to ``player``) and ask where to place it."""
        st.mat[DRAWN] = [st.mat[PILE].pop(), player]
        st.stack.append(Decision(player, self.tile_id, ("place",)))

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """Any Capital district."""
        return list(st.game.t_district)

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Place the drawn modifier face down (known to its placer only)."""
        assert isinstance(action, ChooseDistrict)
        value, owner = st.mat[DRAWN]
        st.hidden.append([action.district, 0, value, owner])
        st.mat[DRAWN] = []

    def after_resolution(self, st: CapitalLux2State) -> None:
        """Gather every modifier (the state has emptied the Capital's hidden items) and reshuffle."""
        pile = list(st.game.params.agent_modifiers)
        st.rng.shuffle(pile)
        st.mat[PILE] = pile
        st.mat[DRAWN] = []

    def resample(self, st: CapitalLux2State, player: int, rng: Rng) -> None:
        """Re-deal the modifier values ``player`` has not seen (pile, others' placed and drawn tokens)."""
        slots: list[tuple[list[int], int]] = []
        pile = st.mat[PILE]
        slots += [(pile, i) for i in range(len(pile))]
        slots += [(h, 2) for h in st.hidden if h[1] == 0 and h[3] != player]
        drawn = st.mat[DRAWN]
        if drawn and drawn[1] != player:
            slots.append((drawn, 0))
        values = sorted(s[i] for s, i in slots)
        rng.shuffle(values)
        for (s, i), v in zip(slots, values, strict=True):
            s[i] = v

    def seen_key(self, st: CapitalLux2State, player: int) -> Hashable:
        """The drawn modifier's value while ``player`` holds it (it decides where the token goes), else None."""
        drawn = st.mat[DRAWN]
        return drawn[0] if drawn and drawn[1] == player else None

    def observe(self, st: CapitalLux2State, player: int | None) -> dict[str, Any]:
        """Pile size; the drawn token to its drawer."""
        out: dict[str, Any] = {"modifiers_in_pile": len(st.mat[PILE])}
        drawn = st.mat[DRAWN]
        if drawn and drawn[1] == player:
            out["drawn_modifier"] = drawn[0]
        return out

    def describe_decision(self, decision: Decision) -> Message:
        """Describe the pending choice."""
        return M("{tile}: choose the Capital district for your face-down modifier", tile=self.label_message)
