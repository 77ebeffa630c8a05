"""The Caprice game: parameters, the action table, state construction and the rules summary.

Rules: caprice.md (all sections); docs/decisions.md "Caprice".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from meeple.core.action import Action, ActionCodec
from meeple.core.errors import InvalidParameterError
from meeple.core.game import Game
from meeple.core.registry import register_game
from meeple.core.state import State
from meeple.core.tensor import DirectTensor, TensorLayout, TensorWriter
from meeple.games.caprice import tensor
from meeple.games.caprice.actions import (
    ACTION_TYPES,
    ExchangeSymbol,
    KeepSymbol,
    Move,
    OrderSymbol,
    Place,
    SkipMove,
)
from meeple.games.caprice.data import NUM_SPACES, NUM_TYPES, PIECE_TYPES, SPACES, SYMBOLS_PER_PLAYER
from meeple.games.caprice.observation import CapriceObservation
from meeple.games.caprice.params import CapriceParams
from meeple.games.caprice.state import CapriceState
from meeple.i18n.message import M, Message

_SUMMARY = M(
    """\
# Caprice (Rötgers & Bolten, Goldsieber 1999), 2-4 players

**Components.** A round board with six tower spaces A-F; a tower holds at most 4 pieces. A supply of 24 pieces,
6 of each type: DR (dark round), DT (dark toothed), LR (light round), LT (light toothed). A bag of 20 symbol
tokens, 5 per type. One red marker.

**Setup.** Starting with the first player and going clockwise, each player draws one symbol at a time until all
hold 4. Symbols are hidden from the others. Drawing a copy of a symbol you already hold twice, you may set it aside
and draw until a different symbol comes (`third_symbol_exchange`); the set-aside tokens go back into the bag
right after that redraw. Exchanges are public, the symbols are not.

**Turn.** 1. Place (mandatory): any piece type still in the supply, on an empty space or on a tower of height
at most 3. 2. Move (optional): the lone or top piece of a space to a different space (empty, or height at most 3);
not the piece just placed, not the marked piece. The red marker goes on the moved piece. It comes off when a
piece is placed or moved onto its tower; with no move it stays. When no piece may move the move step is skipped.

**End.** As soon as five towers have height 4 (checked after every placement and every move) the game ends at
once; a completing placement is not followed by a move. Moves can bring a tower back below 4.

**Scoring.** Each player arranges their 4 symbols in one order (bottom to top), used for every tower: 1 point per
position where the tower's piece matches, +1 when a complete tower matches in full (at most 5 per tower).
Unplaced pieces do not count. By default the engine takes each player's best order (`symbol_order="best"`).

**Ties.** The tied player who comes soonest after the player who ended the game, in turn order, wins: the
ender loses every tie.

**Variant flags.**
- `third_symbol_exchange`: "optional" (default, the French rules: the drawer decides; every third and fourth draw
  is then a keep/exchange decision, so that others cannot tell a third copy) or "mandatory" (automatic).
- `symbol_order`: "best" (default) or "manual" (at the end each player, from the one after the ender, chooses
  their order symbol by symbol; choices stay hidden until the reveal).
- `first_player`: a seat, or -1 (default) to draw it from the seed.
"""
)


@register_game
class CapriceGame(Game[CapriceParams]):
    """Caprice: build towers whose pieces match the hidden order of your four symbols.

    Rules: caprice.md.
    """

    name = "caprice"
    title = "Caprice"
    min_players = 2
    max_players = 4
    params_type = CapriceParams
    direct_tensor: ClassVar[DirectTensor[CapriceState]] = tensor  # a seat's tensor read from its state

    def _check_params(self) -> None:
        fp = self.params.first_player
        if not -1 <= fp < self.params.players:
            raise InvalidParameterError(
                M(
                    "caprice parameter 'first_player' must be -1 (random) or a seat 0..{last}, not {seat}",
                    last=self.params.players - 1,
                    seat=fp,
                )
            )

    def _make_codec(self) -> ActionCodec:
        self.place_table: list[list[Action]] = [
            [Place(PIECE_TYPES[p], SPACES[s]) for s in range(NUM_SPACES)] for p in range(NUM_TYPES)
        ]
        self.move_table: list[list[Action]] = [
            [Move(SPACES[a], SPACES[b]) if a != b else SkipMove() for b in range(NUM_SPACES)] for a in range(NUM_SPACES)
        ]
        self.skip_action: Action = SkipMove()
        self.keep_action: Action = KeepSymbol()
        self.exchange_action: Action = ExchangeSymbol()
        self.order_table: list[Action] = [OrderSymbol(PIECE_TYPES[t]) for t in range(NUM_TYPES)]
        actions: list[Action] = []
        for p in range(NUM_TYPES):
            for s in range(NUM_SPACES):
                actions.append(self.place_table[p][s])
        for a in range(NUM_SPACES):
            for b in range(NUM_SPACES):
                if a != b:
                    actions.append(self.move_table[a][b])
        actions += [self.skip_action, self.keep_action, self.exchange_action, *self.order_table]
        return ActionCodec(ACTION_TYPES, actions)

    def _observation_layout(self) -> TensorLayout:
        return tensor.layout(self.params.players)

    def _encode_observation(self, observation: Mapping[str, Any], out: TensorWriter) -> None:
        tensor.encode(cast(CapriceObservation, observation), out)  # this game's observation (state.observation)

    def _max_game_length(self) -> int:
        n = self.params.players
        # keep/exchange decisions on draws 3 and 4, at most 23 placements and 23 move decisions (the 23rd piece
        # always completes a fifth tower), at most 3 order choices per player.
        return 2 * n + 2 * 23 + (SYMBOLS_PER_PLAYER - 1) * n

    def _new_state(self, seed: int) -> CapriceState:
        return CapriceState(self, seed)

    def _state_from_body(self, data: Mapping[str, Any]) -> State[Any]:
        return CapriceState.restore(self, data)

    @classmethod
    def rules_summary_message(cls) -> Message:
        """Return the rules of Caprice and its variant flags (Markdown)."""
        return _SUMMARY
