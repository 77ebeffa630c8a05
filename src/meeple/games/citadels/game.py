"""The Citadels game: parameters, the action codec, derived constants and state construction.

Rules: citadels.md §5 (what the engine implements) and §2 (rulings).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from meeple.core import Action, ActionCodec, Game, InvalidParameterError, register_game
from meeple.core.params import build_params
from meeple.core.tensor import DirectTensor, TensorLayout, TensorWriter
from meeple.games.citadels import tensor
from meeple.games.citadels.actions import (
    ACTION_TYPES,
    Assassinate,
    BuildDistrict,
    CancelExchange,
    ConfirmExchange,
    DeclineDestroy,
    DeclineRecover,
    DestroyDistrict,
    DiscardCharacter,
    DiscardForGold,
    DrawCards,
    EndTurn,
    ExchangeCards,
    KeepCard,
    PickCharacter,
    RecoverDistrict,
    Rob,
    SelectCard,
    SwapHands,
    TakeGold,
    TakeIncome,
    UseSmithy,
)
from meeple.games.citadels.data import ASSASSIN, NUM_KINDS, deck_kinds
from meeple.games.citadels.observation import CitadelsObservation
from meeple.games.citadels.params import CitadelsParams
from meeple.games.citadels.state import CitadelsState
from meeple.games.citadels.summary import RULES_SUMMARY
from meeple.i18n.message import M, Message

_FACEUP = {3: 2, 4: 2, 5: 1, 6: 0, 7: 0}
_TURN_BOUND = 90
"""Decisions one character's turn can take at most (the Magician's exchange selects at most a whole deck)."""


@register_game
class Citadels(Game[CitadelsParams]):
    """Citadels with its variant flags (see :class:`CitadelsParams`).

    Derived attributes: ``card_kind`` (kind id of each card id), ``mode`` (draft mode), ``round_characters``,
    ``faceup_count``, ``threshold`` (districts that complete a city), ``return_step`` (7 players: the step whose
    offer includes the initial face-down card, else -1), and interned action tables ``a_*``.
    """

    name = "citadels"
    title = "Citadels (Citadelles, 1st edition)"
    min_players = 3
    max_players = 7
    params_type = CitadelsParams
    direct_tensor: ClassVar[DirectTensor[CitadelsState]] = tensor  # a seat's tensor read from its state

    def __init__(self, **params: Any) -> None:
        """Build the game; 2 players are accepted only with ``variant_2p_ffg`` (see :meth:`_check_params`).

        Raises:
            InvalidParameterError: an unknown parameter, a bad value or a bad combination of flags.
        """
        parsed = build_params(CitadelsParams, params, self.name)
        if parsed.players == 2:
            if not parsed.variant_2p_ffg:
                raise InvalidParameterError(
                    M("citadels is played by 3 to 7 players (1st edition); 2 players need variant_2p_ffg=true")
                )
            setattr(self, "min_players", 2)  # noqa: B010 - this instance supports 2 players
        super().__init__(**params)

    card_kind: tuple[int, ...]
    mode: str
    round_characters: tuple[int, ...]
    in_round: tuple[bool, ...]
    faceup_count: int
    threshold: int
    return_step: int

    def _check_params(self) -> None:
        """Validate flag combinations and derive the constants of this parameterisation.

        Raises:
            InvalidParameterError: 2 players without ``variant_2p_ffg``, a variant with the wrong player count,
                both variants, the Great Wall without the ``en`` deck, or ``max_rounds`` < 1.
        """
        p = self.params
        n = p.players
        if p.variant_2p_ffg and p.variant_3p_ffg:
            raise InvalidParameterError(M("citadels: variant_2p_ffg and variant_3p_ffg cannot both be on"))
        if p.variant_2p_ffg and n != 2:
            raise InvalidParameterError(M("citadels: variant_2p_ffg is for 2 players, not {n}", n=n))
        if n == 2 and not p.variant_2p_ffg:
            raise InvalidParameterError(
                M("citadels is played by 3 to 7 players (1st edition); 2 players need variant_2p_ffg=true")
            )
        if p.variant_3p_ffg and n != 3:
            raise InvalidParameterError(M("citadels: variant_3p_ffg is for 3 players, not {n}", n=n))
        if p.great_wall and p.deck != "en":
            raise InvalidParameterError(
                M("citadels: great_wall needs deck='en' (the Great Wall is not in the fr1 deck)")
            )
        if p.max_rounds < 1:
            raise InvalidParameterError(M("citadels: max_rounds must be at least 1, not {n}", n=p.max_rounds))
        self.card_kind = deck_kinds(p.deck, p.great_wall)
        self.mode = "2p" if p.variant_2p_ffg else "3p" if p.variant_3p_ffg else "standard"
        first_edition_3p = n == 3 and self.mode == "standard"
        self.round_characters = tuple(range(2 if first_edition_3p else ASSASSIN, 9))
        self.in_round = tuple(c in self.round_characters for c in range(9))
        self.faceup_count = _FACEUP[n] if self.mode == "standard" else 0
        if p.quick_game != "off":
            self.threshold = int(p.quick_game)
        else:
            self.threshold = 10 if first_edition_3p else 8
        self.return_step = 6 if n == 7 else -1

    def _make_codec(self) -> ActionCodec:
        n = self.params.players
        kinds = range(NUM_KINDS)
        self.a_pick: list[Action] = [PickCharacter(c) for c in range(9)]
        self.a_discard_char: list[Action] = [DiscardCharacter(c) for c in range(9)]
        self.a_take_gold: Action = TakeGold()
        self.a_draw: Action = DrawCards()
        self.a_keep: list[Action] = [KeepCard(k) for k in kinds]
        self.a_build: list[Action] = [BuildDistrict(k) for k in kinds]
        self.a_income: Action = TakeIncome()
        self.a_assassinate: list[Action] = [Assassinate(c) for c in range(9)]
        self.a_rob: list[Action] = [Rob(c) for c in range(9)]
        self.a_swap: list[Action] = [SwapHands(s) for s in range(n)]
        self.a_exchange: Action = ExchangeCards()
        self.a_select: list[Action] = [SelectCard(k) for k in kinds]
        self.a_confirm: Action = ConfirmExchange()
        self.a_lab: list[Action] = [DiscardForGold(k) for k in kinds]
        self.a_smithy: Action = UseSmithy()
        self.a_end: Action = EndTurn()
        self.a_destroy: list[list[Action]] = [[DestroyDistrict(s, k) for k in kinds] for s in range(n)]
        self.a_decline_destroy: Action = DeclineDestroy()
        self.a_recover: Action = RecoverDistrict()
        self.a_decline_recover: Action = DeclineRecover()
        every: list[Action] = [*self.a_pick[1:], *self.a_discard_char[1:], self.a_take_gold, self.a_draw]
        every += [*self.a_keep, *self.a_build, self.a_income, *self.a_assassinate[2:], *self.a_rob[3:]]
        every += [*self.a_swap, self.a_exchange, *self.a_select, self.a_confirm, *self.a_lab, self.a_smithy]
        every += [self.a_end, *(a for row in self.a_destroy for a in row), self.a_decline_destroy]
        every += [self.a_recover, self.a_decline_recover]
        self.a_cancel: Action = CancelExchange()
        every += [self.a_cancel]  # added later: last, so that every earlier code keeps its meaning
        return ActionCodec(ACTION_TYPES, every)

    def _observation_layout(self) -> TensorLayout:
        return tensor.layout(self.params.players)

    def _encode_observation(self, observation: Mapping[str, Any], out: TensorWriter) -> None:
        tensor.encode(cast(CitadelsObservation, observation), out)  # this game's observation (state.observation)

    def _max_game_length(self) -> int:
        per_round = 10 + 8 * _TURN_BOUND
        return self.params.max_rounds * per_round

    def _new_state(self, seed: int) -> CitadelsState:
        return CitadelsState(self, seed)

    def _state_from_body(self, data: Mapping[str, Any]) -> CitadelsState:
        return CitadelsState.restore(self, data)

    @classmethod
    def rules_summary_message(cls) -> Message:
        """Return a Markdown summary of the rules and of every variant flag."""
        return RULES_SUMMARY
