"""The power-tile interface: data plus hooks. Each of the 16 tiles is one module implementing it.

A tile is described by data (names FR/EN, colour, configuration letter, ``solo_allowed``, ``provisional``, effect
text, extra material) and hooks. ``on_capital_play`` either applies the effect at once or pushes pending decisions
``Decision(player, tile_id, (step, ...))`` on the state's stack; the state asks the tile for the legal actions of such
a decision (:meth:`PowerTile.legal`) and hands the chosen action back (:meth:`PowerTile.apply`).

Rules: capital_lux_2.md "Power-tile interface", "What is known of the power system".
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, ClassVar, NotRequired, TypedDict

from meeple.core.action import Action
from meeple.core.decisions import Decision
from meeple.core.rng import Rng
from meeple.i18n.message import M, Message

TILE_CONTEXT = "capital lux 2 tile"
"""The catalogs' context of the tiles' names (``meeple.games.capital_lux_2.vocabulary``)."""

if TYPE_CHECKING:
    from meeple.games.capital_lux_2.state import CapitalLux2State


class TileInfo(TypedDict):
    """A power tile in play, as every seat sees it (public; ``state`` may hold own material). Rules: §9."""

    id: str
    """Registry id, also the ``kind`` of its pending decisions."""
    name: str
    """Display name (``"(provisional)"`` marks a stand-in effect)."""
    name_fr: str
    name_en: str
    colour: int
    """The district it sits on (0 blue, 1 pink, 2 yellow, 3 green)."""
    config: str
    """Preset configuration letter (A-D)."""
    solo_allowed: bool
    provisional: bool
    effect: str
    """The effect in words (English; a msgid of the catalogs)."""
    material: str
    """Extra material in words ("" if none; a msgid of the catalogs)."""
    state: NotRequired[dict[str, Any]]
    """The tile's own material now (tile-specific keys; ``observe`` hides what the seat may not know)."""


class PowerTile:
    """Base class of a power tile (stateless: all its material lives in ``state.mat``).

    Attributes:
        tile_id: registry id (ASCII, lower case), also the ``kind`` of its decisions.
        name_fr: French name (the rulebook's; the catalogs translate ``name_en`` to it). name_en: English name.
        colour: district it sits on (0 blue, 1 pink, 2 yellow, 3 green).
        config: preset configuration letter (A-D).
        solo_allowed: False for tiles that may not be used in the solo mode.
        provisional: True for stand-in effects (the real annex text is unknown).
        effect: the effect in words.
        material: extra material in words ("" if none).
    """

    tile_id: ClassVar[str] = ""
    name_fr: ClassVar[str] = ""
    name_en: ClassVar[str] = ""
    colour: ClassVar[int] = 0
    config: ClassVar[str] = "A"
    solo_allowed: ClassVar[bool] = True
    provisional: ClassVar[bool] = False
    effect: ClassVar[str] = ""
    material: ClassVar[str] = ""
    has_max_bonus: ClassVar[bool] = False
    """Set True by tiles that override :meth:`max_bonus` (lets the resolution skip the others)."""

    @property
    def label(self) -> str:
        """Display name in English, e.g. ``"Agent"`` or ``"Infiltrator (provisional)"`` (``str`` of the message)."""
        return str(self.label_message)

    @property
    def label_message(self) -> Message:
        """The tile's name as a message (French: the rulebook's name), marked "(provisional)" for a stand-in."""
        name = Message(self.name_en, None, TILE_CONTEXT)
        return M("{tile} (provisional)", tile=name) if self.provisional else name

    # ------------------------------------------------------------------ hooks
    def setup(self, st: CapitalLux2State) -> None:
        """Create the tile's extra material in ``st.mat`` at game setup."""

    def is_possible(self, st: CapitalLux2State, player: int, card: int) -> bool:
        """Return whether the power can be applied after ``player`` played ``card`` to the Capital."""
        return True

    def on_capital_play(self, st: CapitalLux2State, player: int, card: int) -> None:
        """Apply the power (called only when :meth:`is_possible`): act now or push decisions on ``st.stack``."""

    def legal(self, st: CapitalLux2State, decision: Decision) -> list[Action]:
        """Return the legal actions of one of this tile's pending decisions (non-empty)."""
        raise NotImplementedError(self.tile_id)

    def apply(self, st: CapitalLux2State, decision: Decision, action: Action) -> None:
        """Apply the chosen action of ``decision`` (already popped from the stack); may push more decisions."""
        raise NotImplementedError(self.tile_id)

    def before_resolution(self, st: CapitalLux2State) -> None:
        """Called once at round end, before the district-by-district resolution."""

    def after_resolution(self, st: CapitalLux2State) -> None:
        """Called once after the bonuses of each round (clean up, gather material)."""

    def max_bonus(self, st: CapitalLux2State, seat: int, district: int) -> int:
        """Return what this tile adds to ``seat``'s MAX in ``district`` at resolution (default 0)."""
        return 0

    def on_bust(self, st: CapitalLux2State, seat: int, district: int, excess: int) -> bool:
        """Handle a City district over its MAX instead of the standard discard; return True if handled.

        The hook may push a decision (resolution resumes once it is decided).
        """
        return False

    def score_bonus(self, st: CapitalLux2State, seat: int) -> int:
        """Return end-of-game points this tile gives ``seat`` (default 0)."""
        return 0

    def unseen_card_slots(self, st: CapitalLux2State, player: int) -> list[list[int]]:
        """Return the tile's lists of citizen cards that ``player`` cannot see (re-dealt by ``_resample``)."""
        return []

    def held_cards(self, st: CapitalLux2State) -> list[int]:
        """Return the citizen cards the tile holds (in ``st.mat`` or its pending decisions; default none).

        The restore-time conservation check counts them with the cards of every other zone.
        """
        return []

    def resample(self, st: CapitalLux2State, player: int, rng: Rng) -> None:
        """Re-deal the tile's non-card hidden material that ``player`` cannot see (in place, on a copy)."""

    def seen_key(self, st: CapitalLux2State, player: int) -> Hashable:
        """Return a hashable key of the tile's material that chance dealt and ``player`` alone has seen (default None).

        Part of the state's ``observation_key`` (closed-loop searches): e.g. the Agent's modifier that ``player`` drew.
        """
        return None

    def observe(self, st: CapitalLux2State, player: int | None) -> dict[str, Any]:
        """Return the tile's public (and ``player``'s private) material for the observation."""
        return {}

    def describe_decision(self, decision: Decision) -> Message:
        """Return what the decider must choose, as a message (for the observation and the renderers)."""
        return M("{tile}: choose", tile=self.label_message)

    def info(self) -> TileInfo:
        """Return the tile's data as a JSON-able dict."""
        return {
            "id": self.tile_id,
            "name": self.label,
            "name_fr": self.name_fr,
            "name_en": self.name_en,
            "colour": self.colour,
            "config": self.config,
            "solo_allowed": self.solo_allowed,
            "provisional": self.provisional,
            "effect": self.effect,
            "material": self.material,
        }
