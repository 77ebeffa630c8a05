"""The Capital Lux 2 game: parameters, tile configuration, action tables and rules summary.

Rules: capital_lux_2.md (whole spec); FR rulebook configuration table A-D.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from meeple.core.action import Action, ActionCodec
from meeple.core.errors import InvalidParameterError
from meeple.core.game import Game
from meeple.core.registry import register_game
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.core.tensor import DirectTensor, TensorLayout, TensorWriter
from meeple.games.capital_lux_2 import tensor
from meeple.games.capital_lux_2.actions import (
    ACTION_TYPES,
    MAX_PAY,
    ChooseDistrict,
    ChooseSeat,
    DiscardDistrict,
    GiveCard,
    KeepCard,
    PayExcess,
    PlayToCapital,
    PlayToCity,
    SelectCard,
    TakeCard,
    all_actions,
)
from meeple.games.capital_lux_2.data import NUM_CARDS, SOLO_RATINGS, parse_rob_deck
from meeple.games.capital_lux_2.observation import CapitalLux2Observation
from meeple.games.capital_lux_2.params import CapitalLux2Params
from meeple.games.capital_lux_2.powers import POWERS, preset
from meeple.games.capital_lux_2.state import CapitalLux2State
from meeple.games.capital_lux_2.vocabulary import COLOUR, RATING
from meeple.i18n.message import M, Message, join


@register_game
class CapitalLux2Game(Game[CapitalLux2Params]):
    """Capital Lux 2: Generations, 2-4 players, or solo against ROB (``players=1``).

    Raises:
        InvalidParameterError: provisional tiles without ``provisional_powers=True``, a bad custom tile list, a
            solo-excluded tile in solo, empty Agent modifiers or a malformed ROB deck.
    """

    name = "capital_lux_2"
    title = "Capital Lux 2: Generations"
    min_players = 1
    max_players = 4
    params_type = CapitalLux2Params
    direct_tensor: ClassVar[DirectTensor[CapitalLux2State]] = tensor  # a seat's tensor read from its state

    def _check_params(self) -> None:
        p = self.params
        self.fixed_tiles: tuple[str, ...] | None = None
        if p.config in ("A", "B", "C", "D"):
            self.fixed_tiles = preset(p.config)
        elif p.config == "custom":
            self.fixed_tiles = self._custom_tiles(p.tiles)
        elif p.tiles:
            raise InvalidParameterError(M("capital_lux_2: tiles is only used with config='custom'"))
        if self.fixed_tiles is not None:
            for tid in self.fixed_tiles:
                tile = POWERS[tid]
                if tile.provisional and not p.provisional_powers:
                    raise InvalidParameterError(
                        M(
                            "capital_lux_2: {tile} is a provisional stand-in (the real annex text is unknown); pass "
                            "provisional_powers=True (--provisional-powers) to use configurations B-D or their tiles",
                            tile=tile.label_message,
                        )
                    )
                if p.players == 1 and not tile.solo_allowed:
                    excluded = join([p.label_message for p in POWERS.values() if not p.solo_allowed])
                    raise InvalidParameterError(
                        M(
                            "capital_lux_2: {tile} may not be used in the solo mode (excluded: {excluded})",
                            tile=tile.label_message,
                            excluded=excluded,
                        )
                    )
        if not p.agent_modifiers:
            raise InvalidParameterError(M("capital_lux_2: agent_modifiers must not be empty"))
        try:
            self.rob_cards = parse_rob_deck(p.rob_deck)
        except ValueError as exc:
            raise InvalidParameterError(f"capital_lux_2: {exc}") from None
        self._build_tables()

    @staticmethod
    def _custom_tiles(text: str) -> tuple[str, ...]:
        ids = [t.strip().lower() for t in text.split(",") if t.strip()]
        unknown = [t for t in ids if t not in POWERS]
        if unknown or len(ids) != 4:
            raise InvalidParameterError(
                M(
                    "capital_lux_2: config='custom' needs tiles = four tile ids, one per colour; got {text!r}; "
                    "known tiles: {known}",
                    text=text,
                    known=", ".join(POWERS),
                )
            )
        by_colour = {POWERS[t].colour: t for t in ids}
        if len(by_colour) != 4:
            raise InvalidParameterError(
                M("capital_lux_2: custom tiles {text!r} must have one tile of each colour", text=text)
            )
        return tuple(by_colour[c] for c in range(4))

    def allowed_tiles(self, colour: int) -> list[str]:
        """Return the tile ids a random draw may pick for a colour (provisional and solo rules applied)."""
        p = self.params
        return [
            t.tile_id
            for t in POWERS.values()
            if t.colour == colour and (p.provisional_powers or not t.provisional) and (p.players > 1 or t.solo_allowed)
        ]

    def choose_tiles(self, rng: Rng) -> tuple[str, ...]:
        """Return the four tiles of a new game (the preset/custom ones, or one random tile per colour)."""
        if self.fixed_tiles is not None:
            return self.fixed_tiles
        return tuple(rng.choice(self.allowed_tiles(c)) for c in range(4))

    def _build_tables(self) -> None:
        codec_actions = all_actions(self.params.players)
        self._all = codec_actions
        k: dict[type[Action], list[Action]] = {}
        for a in codec_actions:
            k.setdefault(type(a), []).append(a)
        self.t_keep: list[Action] = k[KeepCard]
        self.t_take: list[Action] = k[TakeCard]
        self.t_select: list[Action] = k[SelectCard]
        self.t_give: list[Action] = k[GiveCard]
        self.t_district: list[Action] = k[ChooseDistrict]
        self.t_seat: list[Action] = k[ChooseSeat]
        self.t_pay: list[Action] = k[PayExcess]
        self.t_discard: list[Action] = k[DiscardDistrict]
        city, capital = k[PlayToCity], k[PlayToCapital]
        self.t_play: list[tuple[Action, Action]] = [(city[c], capital[c]) for c in range(NUM_CARDS)]
        assert len(self.t_pay) == 4 * MAX_PAY

    def _make_codec(self) -> ActionCodec:
        return ActionCodec(ACTION_TYPES, self._all)

    def _observation_layout(self) -> TensorLayout:
        return tensor.layout(self.params.players)

    def _encode_observation(self, observation: Mapping[str, Any], out: TensorWriter) -> None:
        tensor.encode(cast(CapitalLux2Observation, observation), out)  # this game's observation (state.observation)

    def _max_game_length(self) -> int:
        n = self.params.players
        return 3 * (40 * n + 1200)

    def _new_state(self, seed: int) -> CapitalLux2State:
        return CapitalLux2State(self, seed)

    def _state_from_body(self, data: Mapping[str, Any]) -> State[Any]:
        return CapitalLux2State.restore(self, data)

    @classmethod
    def rules_summary_message(cls) -> Message:
        """Return the rules in short, with the power tiles (provisional ones marked) and every parameter."""
        ratings = join([M("{low}+ {rating}", low=low, rating=RATING[name]) for low, name in SOLO_RATINGS])
        parts: list[Message | str] = [
            M(
                """\
# Capital Lux 2: Generations

- 100 citizen cards (blue, pink, yellow, green; five each of 2-6 per colour). Three rounds.
- Draft: 6 cards each; keep 2 and pass left, keep 2 and pass, keep the last 2 (picks are hidden).
- Turns from the Emperor: play one card to the matching district of your City or of the Capital.
  A Capital play triggers that district's power tile (mandatory unless impossible).
- When a player ends a turn with an empty hand, every other player takes one last turn; cards left
  in hand go to the City.
- Resolution, district by district (blue, pink, yellow, green): a City district whose total exceeds
  the Capital district's total (MAX, face-down modifiers added) is discarded.
- Bonus: the strictly highest City district (>= 1) takes the highest card of that Capital district;
  on a tie each tied player takes 1 gold and the highest Capital card (the one placed last) is discarded.
- The Emperor passes left. Score: City + Bonus cards + 2 per gold; ties: fewer gold, then shared.
- Solo (players=1) against ROB: 4 starting Capital cards; draft = three times draw 3 keep 2; ROB plays
  first each round with a 14-card ROB deck (left/right/top of deck, red stopwatch, bonus symbol), a
  2-card hand and a 5-card reserve placed at round end; 3 red ROB cards end the round. You win with a
  higher score, or an equal score and less gold than ROB. Rating of your margin: {lost} (negative), {ratings}.

## Power tiles (config letter, colour)""",
                lost=RATING["lost"],
                ratings=ratings,
            )
        ]
        for tile in POWERS.values():
            line = M(
                "- {tile} ({config}, {colour}): {effect}",
                tile=tile.label_message,
                config=tile.config,
                colour=COLOUR[tile.colour],
                effect=Message(tile.effect)
                if tile.solo_allowed
                else M("{effect} [not in solo]", effect=Message(tile.effect)),
            )
            parts.append(line)
        parts.append(
            M(
                "\nConfigurations B-D are provisional stand-ins (the annex with the real texts is unavailable); they "
                "need\nprovisional_powers=True.\n\n## Parameters"
            )
        )
        for spec in cls.describe_params():
            doc = Message(spec.doc) if spec.doc else ""
            parts.append(
                M(
                    "- {name} ({type}, default {default}): {doc}",
                    name=spec.name,
                    type=spec.type_name,
                    default=repr(spec.default),
                    doc=doc,
                )
            )
        return join(parts, "\n")
