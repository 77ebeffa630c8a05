"""The Capitol game: parameters, action tables and codec, rules summary.

Rules: capitol.md (the spec decides; FR rulebook where it is silent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from meeple.core import Action, ActionCodec, Game, InvalidParameterError, State, register_game
from meeple.core.tensor import DirectTensor, TensorLayout, TensorWriter
from meeple.games.capitol import tensor
from meeple.games.capitol.actions import (
    ACTION_TYPES,
    AddToBid,
    DrawCard,
    Pass,
    PlaceBuilding,
    PlaceFloor,
    PlaceRoof,
    PlaceTile,
    PlayCard,
    SealBid,
)
from meeple.games.capitol.data import NUM_CARDS, TOTAL_FLOORS, Zone, parse_layout
from meeple.games.capitol.observation import RULES_SUMMARY, CapitolObservation
from meeple.games.capitol.params import CapitolParams
from meeple.games.capitol.state import CapitolState
from meeple.i18n.message import M, Message


class ActionTables:
    """Every action instance, prebuilt and indexed for the hot path.

    Attributes:
        pass_: :class:`Pass`. seal: :class:`SealBid`.
        play: ``play[card][act]``. floor: ``floor[onto]`` for onto ``0..89``.
        roof: ``roof[height][roof - 1]``. building: ``building[height][roof - 1][zone]``.
        add_bid: ``add_bid[card]``. tile: ``tile[zone]``. draw: ``draw[pile]``.
    """

    def __init__(self, zones: int, max_height: int) -> None:
        self.pass_ = Pass()
        self.seal = SealBid()
        self.play = [(PlayCard(c, False), PlayCard(c, True)) for c in range(NUM_CARDS)]
        self.floor: list[Action] = [PlaceFloor(h) for h in range(TOTAL_FLOORS)]
        self.roof = [(PlaceRoof(h, 1), PlaceRoof(h, 2)) for h in range(TOTAL_FLOORS + 1)]
        self.building = [
            (tuple(PlaceBuilding(h, 1, z) for z in range(zones)), tuple(PlaceBuilding(h, 2, z) for z in range(zones)))
            for h in range(max_height + 1)
        ]
        self.add_bid: list[Action] = [AddToBid(c) for c in range(NUM_CARDS)]
        self.tile: list[Action] = [PlaceTile(z) for z in range(zones)]
        self.draw: list[Action] = [DrawCard(t) for t in range(3)]

    def all_actions(self) -> list[Action]:
        """Return every distinct action in code order."""
        out: list[Action] = [self.pass_, self.seal]
        out += [a for pair in self.play for a in pair]
        out += self.floor
        out += [a for pair in self.roof[1:] for a in pair]
        out += [a for per_h in self.building[1:] for per_roof in per_h for a in per_roof]
        out += self.add_bid + self.tile + self.draw
        return out


@register_game
class Capitol(Game[CapitolParams]):
    """Capitol (Alan R. Moon and Aaron Weissblum, 2001) for 2 to 4 players.

    Attributes:
        zones: the board layout (``board_layout``), one :class:`Zone` per zone.
        zone_colours: colour index per zone.
        zones_of_colour: zone indices per colour.
        max_height: the tallest building the board can hold (the largest zone's small spaces).
        small_spaces: small spaces per zone.
        sibling_zones: per zone, the two other zones of its colour.
        tables: every action instance, prebuilt.
    """

    name = "capitol"
    title = "Capitol"
    min_players = 2
    max_players = 4
    params_type = CapitolParams
    direct_tensor: ClassVar[DirectTensor[CapitolState]] = tensor  # a seat's tensor read from its state

    def _check_params(self) -> None:
        params = self.params
        if not -1 <= params.first_consul < params.players:
            raise InvalidParameterError(M("first_consul must be -1 or a seat 0..{last}", last=params.players - 1))
        try:
            self.zones: tuple[Zone, ...] = parse_layout(params.board_layout)
        except ValueError as exc:
            raise InvalidParameterError(f"capitol board_layout: {exc}") from None
        self.zone_colours = tuple(z.colour for z in self.zones)
        self.zones_of_colour = tuple(tuple(i for i, z in enumerate(self.zones) if z.colour == c) for c in range(3))
        self.max_height = max(z.small_spaces for z in self.zones)
        self.small_spaces = tuple(z.small_spaces for z in self.zones)
        self.sibling_zones = tuple(
            tuple(o for o in self.zones_of_colour[z.colour] if o != i) for i, z in enumerate(self.zones)
        )
        self.tables = ActionTables(len(self.zones), self.max_height)

    def _make_codec(self) -> ActionCodec:
        return ActionCodec(ACTION_TYPES, self.tables.all_actions())

    def _observation_layout(self) -> TensorLayout:
        return tensor.layout(self.params.players)

    def _encode_observation(self, observation: Mapping[str, Any], out: TensorWriter) -> None:
        tensor.encode(cast(CapitolObservation, observation), out)  # this game's observation (state.observation)

    def _max_game_length(self) -> int:
        n = self.params.players
        per_round = 3 * NUM_CARDS + n + 3 * (n + NUM_CARDS + 1) + n * (6 + 4)
        return 4 * per_round

    def _new_state(self, seed: int) -> CapitolState:
        return CapitolState(self, seed)

    def _state_from_body(self, data: Mapping[str, Any]) -> State[Any]:
        return CapitolState.restore(self, data)

    @classmethod
    def rules_summary_message(cls) -> Message:
        """Return a Markdown summary of the rules and the variant flags."""
        return RULES_SUMMARY
